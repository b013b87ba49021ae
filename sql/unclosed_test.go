package sql

import "testing"

// TestUnclosedBracketErrors: a statement with a ( or [ it never closes, or
// one whose last word lacks its operand, is refused where PostgreSQL 15's
// parser stops (at the first token that cannot continue it, at the end of
// the input when none), and a keyword
// that is only a column reference where an expression starts is one
// (names.go's onlyNameAtExprStart): message and position are PostgreSQL's
// answer to a Parse message of each input.
func TestUnclosedBracketErrors(t *testing.T) {
	tests := []syntaxCase{
		{"SELECT * FROM weo ( WHERE id > 10", "syntax error at or near \"WHERE\"", 21},
		{"SELECT * FROM f('a'( ::regclass, -1)", "syntax error at or near \"(\"", 20},
		{"CREATE TABLE vu (id INT PRIMARY ( KEY, z INT)", "syntax error at or near \"(\"", 33},
		{"SELECT g FROM generate_series(1, 2 WITH ORDINALITY AS s(g, o) ORDER BY 1", "syntax error at or near \"WITH\"", 36},
		{"SELECT (1", "syntax error at end of input", 10},
		{"SELECT f(1,", "syntax error at end of input", 12},
		{"SELECT f(1, 2;", "syntax error at or near \";\"", 14},
		{"SELECT 1; SELECT ÄÖ, (1 x", "syntax error at or near \"x\"", 25},
		{"SELECT trim(BOTH 'xax', 'x'", "syntax error at end of input", 28},
		{"SELECT make_time(sec => 1.5, min => 2, hour => 3", "syntax error at end of input", 49},
		{"SELECT ARRAY[1, 2", "syntax error at end of input", 18},
		{"SELECT ARRAY[(1, 2] x", "syntax error at or near \"]\"", 19},
		{"SELECT * FROM fk_c ORDER BY BY id", "syntax error at or near \"id\"", 32},
		{"SELECT relname FROM pg_class WHERE relname LIKE 'rhi%' AND key relkind = 'r'", "syntax error at or near \"relkind\"", 64},
		{"SELECT id * key 10 FROM q", "syntax error at or near \"10\"", 17},
		{"SELECT a FROM t GROUP BY BY a", "syntax error at or near \"a\"", 29},
		{"WITH x AS (INSERT INTO t VALUES (1,1 RETURNING *) SELECT * FROM x", "syntax error at or near \"RETURNING\"", 38},
		// refused at the end: the error before the last word (truncatedError)
		{"SELECT id FROM ol_k ORDER BY id 8 OFFSET", "syntax error at or near \"8\"", 33},
		{"SELECT id FROM ol_k ORDER BY id LIMIT 3 4 OFFSET", "syntax error at or near \"4\"", 41},
		{"SELECT 1 FROM (VALUES (1), ('2')) v 1 LIMIT", "syntax error at or near \"1\"", 37},
		{"SELECT a FROM t WHERE", "syntax error at end of input", 22},
		{"SELECT 1 +", "syntax error at end of input", 11},
		{"SELECT 1 + ;", "syntax error at or near \";\"", 12},
		{"SELECT f(1) ,", "syntax error at end of input", 14},
		{"UPDATE t SET", "syntax error at end of input", 13},
		{"INSERT INTO t VALUES", "syntax error at end of input", 21},
		// refused at a token a check that looks ahead found first: the
		// error among the tokens before it (truncatedError)
		{"SELECT f(,'sq.t' 'y')", "syntax error at or near \",\"", 10},
		{"SELECT x IN (,'a' 'b') FROM t", "syntax error at or near \",\"", 14},
		{"SELECT 'a' 'b'", "syntax error at or near \"'b'\"", 12},
	}
	checkSyntaxErrors(t, tests)
}
