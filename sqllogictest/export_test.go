package sqllogictest

// The external tests (package sqllogictest_test, which may import slttest
// without an import cycle) reach the internal test helpers through these.
var (
	FreshDatabases = freshDatabases
	Corpus         = corpus
)
