package sql

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestFromAliasError: a subquery or VALUES list in FROM without an alias is
// PostgreSQL 15's 42601 at its "(" with the hint, unless a syntax error
// at or before its ")" comes first; with an alias (a ColId, AS) or where
// the parentheses are no FROM item it parses. Messages and positions are
// PostgreSQL 15's.
func TestFromAliasError(t *testing.T) {
	const sub, vals = "subquery in FROM must have an alias", "VALUES in FROM must have an alias"
	checkSyntaxErrors(t, []syntaxCase{
		{"SELECT * FROM (SELECT 1)", sub, 15},
		{"SELECT * FROM (SELECT 1) WHERE WHERE", sub, 15},
		{"SELECT * FROM (SELECT 1) 5", sub, 15},
		{"SELECT * FROM (SELECT 1) left", sub, 15},
		{"SELECT * FROM ((SELECT 1) UNION (SELECT 2))", sub, 15},
		{"SELECT * FROM ((SELECT 1) x JOIN (SELECT 2) ON true)", sub, 34},
		{"SELECT * FROM t WHERE a IN (SELECT 1 FROM (SELECT 1))", sub, 43},
		{"SELECT * FROM (SELECT 1), (SELECT 1 FROM WHERE)", sub, 15},
		{"SELECT * FROM t a JOIN t b ON true, (SELECT 1)", sub, 37},
		{"SELECT * FROM t JOIN t u USING (a), (SELECT 1)", sub, 37},
		{"SELECT * FROM (TABLE t)", sub, 15},
		{"SELECT * FROM (WITH q AS (SELECT 1) SELECT * FROM q)", sub, 15},
		{"SELECT * FROM t, LATERAL (VALUES (1))", vals, 26},
		{"SELECT * FROM ((VALUES (1)) ORDER BY 1)", vals, 15},
		{"SELECT * FROM (VALUES (1) UNION VALUES (2))", sub, 15},
		{"UPDATE t SET a = 1 FROM (SELECT 1) WHERE true", sub, 25},
		{"DELETE FROM t USING (SELECT 1) WHERE true", sub, 21},
		{"MERGE INTO t USING (SELECT 1) ON true WHEN MATCHED THEN DO NOTHING", sub, 20},
		{"CREATE VIEW v AS SELECT * FROM (SELECT 1)", sub, 32},
		// a syntax error at or before the ")" is reported first
		{"SELECT * FROM (SELECT 1 FROM t WHERE) x, (SELECT 1)", `syntax error at or near ")"`, 37},
		{"SELECT * FROM (SELECT 1) AS WHERE", `syntax error at or near "WHERE"`, 29},
	})
	p := NewParser()
	for _, in := range []string{
		"SELECT * FROM (SELECT 1) value",
		"SELECT * FROM (SELECT 1) year",
		`SELECT * FROM (SELECT 1) "Q"`,
		"SELECT * FROM ((SELECT 1)) AS x",
		"SELECT (SELECT 1), (SELECT 2) FROM t",
		"SELECT * FROM t WHERE a IS DISTINCT FROM (SELECT 1)",
		"SELECT extract(year FROM (SELECT now()))",
		"SELECT * FROM t JOIN u ON t.a = (SELECT 1)",
		"SELECT * FROM generate_series(1, (SELECT 2))",
		"SELECT * FROM t WHERE (a, b) IN ((SELECT 1, 2))",
	} {
		if _, err := p.Parse(in); sqlerr.As(err) != nil && sqlerr.As(err).Code == sqlerr.SyntaxError {
			t.Errorf("%s: %v", in, err)
		}
	}
	_, err := p.Parse("SELECT * FROM (SELECT 1)")
	if e := sqlerr.As(err); e == nil || e.Hint != "For example, FROM (SELECT ...) [AS] foo." {
		t.Errorf("the hint: %v", err)
	}
}
