package pgtest

import (
	"go/format"
	"os"
	"testing"
)

// WriteGoSource gofmts src and writes it to path, failing the test on
// either error: the generated-catalog tests rewrite their Go tables from
// PostgreSQL 15's rows so (SQLGATE_WRITE_* variables).
func WriteGoSource(t testing.TB, path string, src []byte) {
	t.Helper()
	out, err := format.Source(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
