package difftest

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestDDLCorpusNoSyntaxError runs testdata/ddl_corpus.sql, one statement a
// line: the DDL and utility statements that migration tools, ORMs and
// pg_dump send, and PostgreSQL 15's other schema statements (CREATE
// POLICY, TRIGGER, AGGREGATE, OPERATOR, CAST, ... ALTER ... OWNER TO,
// SECURITY LABEL, ALTER INDEX, RENAME CONSTRAINT, UNIQUE USING INDEX). Each
// runs in a transaction rolled back after it, on PostgreSQL and on
// sqlgate, over a table t (id int PRIMARY KEY, a int, b text). On
// PostgreSQL none may fail with 42601 (the corpus is PostgreSQL's grammar;
// an error about a missing object is expected), and sqlgate must never
// answer one with 42601: what it does not run is 0A000 naming the feature
// (sql/unsupported.go), so that a tool reports the missing feature and not
// SQL it thinks it wrote wrong.
func TestDDLCorpusNoSyntaxError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data, err := os.ReadFile("testdata/ddl_corpus.sql")
	if err != nil {
		t.Fatal(err)
	}
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r, "CREATE TABLE t (id int PRIMARY KEY, a int, b text)")
	n := 0
	for line := range strings.SplitSeq(string(data), "\n") {
		stmt := strings.TrimSpace(line)
		if stmt == "" || strings.HasPrefix(stmt, "--") {
			continue
		}
		n++
		for _, side := range []struct {
			name string
			ex   Executor
		}{{"postgres", r.Postgres}, {"sqlgate", r.SQLGate}} {
			if o := side.ex.Run(ctx, "BEGIN"); o.Err != nil {
				t.Fatalf("%s: BEGIN: %s", side.name, describeErr(o))
			}
			o := side.ex.Run(ctx, stmt)
			if o.Err != nil && o.Err.Code == connErrorCode {
				t.Fatalf("%s: %s: %s", side.name, stmt, describeErr(o))
			}
			if o.Err != nil && o.Err.Code == "42601" {
				t.Errorf("%s answers 42601: %s\n\t%s", side.name, stmt, describeErr(o))
			}
			side.ex.Run(ctx, "ROLLBACK")
		}
	}
	if n < 400 {
		t.Fatalf("the corpus has %d statements: testdata/ddl_corpus.sql lost its lines", n)
	}
}
