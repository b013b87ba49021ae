package fluss

// ScanPathReporter is implemented by a RecordReader that can say which of
// its store's read paths serves it (for a primary-key table of the
// embedded store: "columnar image" or "row store"), so that EXPLAIN
// ANALYZE can show it.
type ScanPathReporter interface {
	ScanPath() string
}
