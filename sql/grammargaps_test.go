package sql

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestGrammarGapErrors: statements PostgreSQL 15 refuses as syntax
// errors that sqlgate's grammar took (a reserved word as a part of a
// setting's name) or refused elsewhere (a number's trailing junk), with
// PostgreSQL's message and position.
func TestGrammarGapErrors(t *testing.T) {
	tests := []struct {
		in  string
		msg string
		pos int
	}{
		{`SHOW my.select`, `syntax error at or near "select"`, 9},
		{`SET my.end = 1`, `syntax error at or near "end"`, 8},
		{`SET my.x.end = 1`, `syntax error at or near "end"`, 10},
		{`RESET my.from`, `syntax error at or near "from"`, 10},
		{`SAVEPOINT select`, `syntax error at or near "select"`, 11},
		{`SHOW all.x`, `syntax error at or near "."`, 9},
		{`SELECT 1abc`, `trailing junk after numeric literal at or near "1abc"`, 8},
		{`SELECT 1.5e`, `trailing junk after numeric literal at or near "1.5e"`, 8},
		{`SELECT 1.5ex + 1`, `trailing junk after numeric literal at or near "1.5ex"`, 8},
		{`SELECT 1e5x`, `trailing junk after numeric literal at or near "1e5x"`, 8},
		{`SELECT 1.x`, `trailing junk after numeric literal at or near "1.x"`, 8},
		{`SELECT .5a`, `trailing junk after numeric literal at or near ".5a"`, 8},
		{`SELECT 1_000`, `trailing junk after numeric literal at or near "1_000"`, 8},
		{`SELECT 0x1F`, `trailing junk after numeric literal at or near "0x1F"`, 8},
		{`SELECT 12e+`, `trailing junk after numeric literal at or near "12e+"`, 8},
		{`SELECT 1 FROM t LIMIT 1OFFSET 2`, `trailing junk after numeric literal at or near "1OFFSET"`, 23},
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

// TestGrammarGapRewrites: forms PostgreSQL 15 reads that TiDB's grammar
// cannot, and what the rewrite hands it.
func TestGrammarGapRewrites(t *testing.T) {
	tests := []struct{ in, want string }{
		// (t.*) is t.* wherever it stands
		{`SELECT (t.*) FROM t`, `t.*`},
		{`SELECT ((t.*)), 1 FROM t`, `select t.* , 1`},
		{`SELECT count((t.*)) FROM t`, `count( t )`},
		// as an operator's operand it is the whole row
		{`SELECT (t.*)::text FROM t`, `pg__cast((t ), 'text')`},
		{`SELECT (t.*) IS NULL FROM t`, `(t ) is null`},
		{`SELECT ("T".*) FROM "T"`, `"T".*`},
		// SIMILAR TO's pattern and ESCAPE operand take || and arithmetic
		{`SELECT 'ab' SIMILAR TO 'a' || 'b'`, `similar_to_escape(('a' | pg__pipes() | 'b'))`},
		{`SELECT 'ab' SIMILAR TO 'a' || '#%' ESCAPE '#' || ''`, `similar_to_escape(('a' | pg__pipes() | '#%'), ('#' | pg__pipes() | ''))`},
		{`SELECT 'ab' NOT SIMILAR TO 'a%' AND true`, `not regexp similar_to_escape('a%') and true`},
	}
	p := NewParser()
	for _, tc := range tests {
		st, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := strings.ToLower(st[0].Rewritten); !strings.Contains(got, strings.ToLower(tc.want)) {
			t.Errorf("%s: rewritten %s, want it to hold %s", tc.in, st[0].Rewritten, tc.want)
		}
	}
	for _, in := range []string{`SHOW ALL`, `SHOW my.x`, `SET my.name = 1`, `SET my.value TO 'x'`, `SAVEPOINT "select"`} {
		if _, err := p.Parse(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}
