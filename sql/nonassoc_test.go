package sql

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestNonAssocErrors: two operators of one of PostgreSQL's
// non-associative levels in a row are its syntax error at the second,
// with PostgreSQL's message and position (taken from PostgreSQL 15).
func TestNonAssocErrors(t *testing.T) {
	tests := []struct {
		in  string
		msg string
		pos int
	}{
		{`SELECT 1 < 2 < 3`, `syntax error at or near "<"`, 14},
		{`SELECT 1 <> 2 = true`, `syntax error at or near "="`, 15},
		{`SELECT 1 <= 2 >= true`, `syntax error at or near ">="`, 15},
		{`SELECT 1 != 2 > true`, `syntax error at or near ">"`, 15},
		{`SELECT NOT 1 = 1 = true`, `syntax error at or near "="`, 18},
		{`SELECT 1 = (1 = 1) = true`, `syntax error at or near "="`, 20},
		{`SELECT 1 = CASE WHEN true THEN 1 END = true`, `syntax error at or near "="`, 38},
		{`SELECT 1 = 1 = ANY (ARRAY[true])`, `syntax error at or near "="`, 14},
		{`SELECT 'a' LIKE 'b' NOT LIKE 'c'`, `syntax error at or near "NOT"`, 21},
		{`SELECT 'a' LIKE 'b' ESCAPE 'x' ILIKE 'c'`, `syntax error at or near "ILIKE"`, 32},
		{`SELECT 1 BETWEEN 0 AND 2 LIKE 'x'`, `syntax error at or near "LIKE"`, 26},
		{`SELECT 1 BETWEEN SYMMETRIC 0 AND 2 BETWEEN true AND true`, `syntax error at or near "BETWEEN"`, 36},
		{`SELECT 'a' LIKE 'b' IN (true)`, `syntax error at or near "IN"`, 21},
		{`SELECT 'a' SIMILAR TO 'b' NOT IN (true)`, `syntax error at or near "NOT"`, 27},
		{`SELECT 1 IS DISTINCT FROM 2 IS NULL`, `syntax error at or near "IS"`, 29},
		{`SELECT 1 IS NOT DISTINCT FROM 2 ISNULL`, `syntax error at or near "ISNULL"`, 33},
		{`SELECT 1 IS DISTINCT FROM 2 NOTNULL`, `syntax error at or near "NOTNULL"`, 29},
		{`SELECT 1 IS DISTINCT FROM 2 = 3 = 4`, `syntax error at or near "="`, 33},
		{`SELECT a FROM t WHERE a = 1 AND b = 2 = c`, `syntax error at or near "="`, 39},
		{`UPDATE t SET a = 1 = 1 WHERE b = c = d`, `syntax error at or near "="`, 36},
	}
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		e := sqlerr.As(err)
		if e == nil {
			t.Errorf("%s: error %v", tc.in, err)
			continue
		}
		if e.Code != sqlerr.SyntaxError || e.Message != tc.msg || e.Position != tc.pos {
			t.Errorf("%s: got %s %q @%d, want 42601 %q @%d", tc.in, e.Code, e.Message, e.Position, tc.msg, tc.pos)
		}
	}
}

// TestNonAssocAccepts: the forms that close their level (IN (..), op ANY
// (..), the postfix IS forms), a level's operator under a tighter one,
// and the = of a SET list, which is no operator, parse (all of them
// PostgreSQL 15 accepts).
func TestNonAssocAccepts(t *testing.T) {
	for _, in := range []string{
		`SELECT 1 = ANY (ARRAY[1]) = true`,
		`SELECT 1 IN (1) IN (true)`,
		`SELECT 1 = 1 NOT IN (true)`,
		`SELECT 1 = 2 IS DISTINCT FROM true`,
		`SELECT NULL IS NULL IS NULL`,
		`SELECT true = true IS NULL`,
		`SELECT 1 IS NULL = true`,
		`SELECT 'a' LIKE 'a' = true`,
		`SELECT 1 = 1 LIKE 'x'`,
		`SELECT 'a' SIMILAR TO 'a' = true`,
		`SELECT 1 BETWEEN 0 AND 2 = true`,
		`SELECT (1 = 1) = true, 1 = 1 AND 2 = 2 OR 3 = 3`,
		`SELECT CASE WHEN 1 = 1 THEN 2 = 2 ELSE 3 = 3 END = true`,
		`SELECT 1>>1, 1>=-1, 1=-1, 1<-1, 2 << 1`,
		`SELECT a = b FROM t WHERE c = d GROUP BY e = f HAVING g = h ORDER BY i = j`,
		`UPDATE t SET a = b = c, d = e WHERE f = g`,
		`UPDATE t SET (a, b) = (1, 2) WHERE c = d RETURNING e = f`,
		`INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = excluded.b = true`,
		`SELECT count(*) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) = 1 FROM t`,
		`SELECT a FROM t ORDER BY a USING <, b USING >`,
		`CREATE TABLE t (a ARRAY<ARRAY<INT>>, m MAP<INT, ARRAY<INT>>, c INT CHECK (c > 0))`,
	} {
		toks, err := lex(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if err := nonAssocError(in, toks); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestClosedFormsRewrite: the forms that end in no expression are
// parenthesised when an operator follows them, a prefix NOT after an
// operator is, and IS DISTINCT FROM's right operand with a comparison in
// it is, each where PostgreSQL's grammar puts the operand's bounds.
func TestClosedFormsRewrite(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SELECT true IS TRUE + 1", "select (true is true) + 1"},
		{"SELECT a IS NOT NULL || 'x'", "select (a is not null) | pg__pipes() | 'x'"},
		{"SELECT 1 IN (1) IN (true)", "select (1 in (1)) in (true)"},
		{"SELECT 1 NOT IN (2) + 1", "select (1 not in (2)) + 1"},
		{"SELECT 1 IN (2) = true", "select 1 in (2) = true"},
		{"SELECT 'a' NOT LIKE 't' IS NOT FALSE + 1", "select ('a' not like 't' is not false) + 1"},
		{"SELECT x BETWEEN 1 AND 2 IS NULL IS NULL", "select (x between 1 and 2 is null) is null"},
		{"SELECT 1 = NOT 2 = 3 AND 4", "select 1 = (not 2 = 3) and 4"},
		{"SELECT a LIKE b || NOT c AND d", "select a like (b | pg__pipes() | (not c)) and d"},
		{"SELECT x BETWEEN 1 AND NOT y OR z", "select x between 1 and (not y) or z"},
		{"SELECT a IS DISTINCT FROM b = c AND d", "select not a <=> (b = c) and d"},
		{"SELECT a IS NOT DISTINCT FROM b LIKE c", "select a <=> (b like c)"},
		{"SELECT a IS DISTINCT FROM b + 1", "select not a <=> b + 1"},
		{"SELECT a LIKE b = ANY (c)", "select pg__any(a like b, '=', c)"},
		// the "other" operators' one left-associative level (oplevel.go)
		{"SELECT a || b & c", "select (a | pg__pipes() | b) & c"},
		{"SELECT 9 & 7 + 8 # 9", "select pg__op_xor((9 & 7 + 8), 9)"},
		{"SELECT 1 | 2 << 3", "select (1 | 2) << 3"},
		{"SELECT a ~ b || c", "select (a regexp b) | pg__pipes() | c"},
		{"SELECT a ~ b LIKE c", "select (a regexp b) like c"},
		{"SELECT a LIKE b || c & d", "select a like ((b | pg__pipes() | c) & d)"},
		{"SELECT a || b || c, t.a || 'x'", "select a | pg__pipes() | b | pg__pipes() | c, t.a | pg__pipes() | 'x'"},
	}
	p := NewParser()
	for _, tc := range tests {
		sts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := sts[0].Rewritten; got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.in, got, tc.want)
		}
	}
}
