package sqllogictest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestCompleteRewritesFromReference writes a suite with missing and wrong
// expectations, completes it against PostgreSQL, and checks that the file
// then passes there, that comments, conditions and SQL were kept byte for
// byte, and which headers changed.
func TestCompleteRewritesFromReference(t *testing.T) {
	srv := pgtest.Start(t)
	connect := freshDatabases(t, srv)
	in := strings.Join([]string{
		"# a comment that must stay",
		"statement ok",
		"CREATE TABLE t (a INT, b TEXT)",
		"",
		"statement count 0",
		"INSERT INTO t VALUES (1, 'x'), (2, NULL), (3, 'z z')",
		"",
		"query IT rowsort",
		"SELECT a, b FROM t",
		"----",
		"1 wrong",
		"",
		"query I",
		"SELECT a FROM t WHERE a > 1 ORDER BY a",
		"",
		"# the reference decides the letters",
		"query I",
		"SELECT a, b, 1.5::float8 FROM t ORDER BY a",
		"----",
		"",
		"statement ok",
		"SELECT 1/0",
		"",
		"statement error",
		"SELECT 1",
		"",
		"query I",
		"SELECT 'x'::int",
		"",
		"skipif postgresql",
		"query I",
		"SELECT 42",
		"----",
		"7",
		"",
		"query I",
		"SELECT * FROM generate_series(1, 100) ORDER BY 1",
		"",
	}, "\n")
	file := filepath.Join(t.TempDir(), "suite.slt")
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	opts := Options{Label: "postgresql", Connect: connect, Out: &out, Complete: true}
	if _, err := Run(context.Background(), []string{file}, opts); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	for _, want := range []string{
		"# a comment that must stay\nstatement ok\nCREATE TABLE t (a INT, b TEXT)\n",
		"statement count 3\nINSERT INTO t VALUES (1, 'x'), (2, NULL), (3, 'z z')\n",
		"query IT rowsort\nSELECT a, b FROM t\n----\n1 x\n2 NULL\n3 z z\n",
		"query I\nSELECT a FROM t WHERE a > 1 ORDER BY a\n----\n2\n3\n",
		"# the reference decides the letters\nquery ITR\n",
		"statement error (22012)\nSELECT 1/0\n",
		"statement ok\nSELECT 1\n",
		"query error (22P02)\nSELECT 'x'::int\n",
		"skipif postgresql\nquery I\nSELECT 42\n----\n7\n",
		"100 values hashing to ",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("completed file lacks %q:\n%s", want, got)
		}
	}
	// The completed file passes against the reference.
	out.Reset()
	opts.Complete = false
	sum, err := Run(context.Background(), []string{file}, opts)
	if err != nil || sum.Failed != 0 || sum.Passed != 9 || sum.Skipped != 1 {
		t.Errorf("completed file: %+v %v\n%s", sum, err, out.String())
	}
}
