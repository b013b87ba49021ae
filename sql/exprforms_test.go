package sql

import (
	"strings"
	"testing"
)

// TestExpressionFormsSyntax: expression forms of PostgreSQL 15's grammar
// that sqlgate refused or took where PostgreSQL does the other (messages
// and positions are PostgreSQL 15's): COLLATION FOR (x), ARRAY not
// followed by [ or (, ESCAPE after a LIKE / SIMILAR TO pattern (an expression after
// LIKE's: like_escape), and a
// comma in a CHECK's, a generated column's or an index element's
// parentheses, which hold one expression.
func TestExpressionFormsSyntax(t *testing.T) {
	checkSyntaxErrors(t, []syntaxCase{
		{"SELECT COLLATION FOR ('a', 'b')", `syntax error at or near ","`, 26},
		{"SELECT COLLATION FOR ()", `syntax error at or near ")"`, 23},
		{"SELECT COLLATION FOR 'a'", `syntax error at or near "'a'"`, 22},
		{"SELECT ARRAY 3", `syntax error at or near "3"`, 14},
		{"SELECT ARRAY", "syntax error at end of input", 13},
		{"SELECT (ARRAY)", `syntax error at or near ")"`, 14},
		{"SELECT CASE WHEN true THEN ARRAY END", `syntax error at or near "END"`, 34},
		{"SELECT f(ARRAY, 1)", `syntax error at or near ","`, 15},
		{"SELECT 'a' SIMILAR TO 'a' ESCAPE", "syntax error at end of input", 33},
		{"SELECT 'a' ILIKE 'a' || 'b' ESCAPE", "syntax error at end of input", 35},
		{"SELECT 'a' NOT LIKE 'a' ESCAPE, 1", `syntax error at or near ","`, 31},
		// DDL's one-expression parentheses
		{"CREATE TABLE c1 (a int CHECK (a, b))", `syntax error at or near ","`, 32},
		{"CREATE TABLE c1 (a int CHECK (a > 0,))", `syntax error at or near ","`, 36},
		{"CREATE TABLE c1 (a int, CONSTRAINT k CHECK (a > 0, a < 3))", `syntax error at or near ","`, 50},
		{"ALTER TABLE t ADD CHECK (a, b)", `syntax error at or near ","`, 27},
		{"CREATE TABLE c1 (id int GENERATED ALWAYS AS (1, 2) STORED)", `syntax error at or near ","`, 47},
		{"CREATE INDEX ON t ((a, b))", `syntax error at or near ","`, 22},
		{"CREATE INDEX i ON t USING btree (a, (a + 1, b))", `syntax error at or near ","`, 43},
	})
	p := NewParser()
	for _, in := range []string{
		"SELECT COLLATION FOR ('a')",
		"SELECT collation for (b) IS NULL FROM t",
		"SELECT 1 AS collation",
		"SELECT 1::int ARRAY",
		"SELECT CAST(1 AS int ARRAY)",
		"SELECT 1 AS ARRAY",
		"SELECT 'a' ESCAPE",
		"SELECT 'a' LIKE 'a' AND true ESCAPE",
		"SELECT 'a' SIMILAR TO 'a' ESCAPE 'x'",
		"SELECT 'a' LIKE 'b' ESCAPE '#'::text",
		"SELECT 'a' NOT ILIKE 'b' || 'c' ESCAPE '#' || ''",
		"CREATE TABLE c1 (a int, b int, CHECK ((a, b) = (1, 2)))",
		"CREATE TABLE c1 (a int, b text, UNIQUE (a, b), CHECK (a IN (1, 2)))",
		"CREATE INDEX ON t ((a), (b), lower(b))",
	} {
		if _, err := p.Parse(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	sts, err := p.Parse("SELECT COLLATION FOR (b) FROM t")
	if err != nil || len(sts) != 1 || !strings.Contains(sts[0].Rewritten, `"pg_collation_for"`) {
		t.Errorf("COLLATION FOR (b) is no call of pg_collation_for: %v %v", sts, err)
	}
}
