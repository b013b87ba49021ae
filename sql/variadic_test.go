package sql

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestVariadicArgumentsRewrite: a call's last argument written VARIADIC
// becomes pg__variadic(arg); VARIADIC elsewhere is PostgreSQL's 42601
// where its grammar stops.
func TestVariadicArgumentsRewrite(t *testing.T) {
	tests := []struct {
		in        string
		rewritten string // lower-cased, spaces left out
		err       string // the error, instead
	}{
		{in: "SELECT concat(VARIADIC ARRAY['a', 'b'])", rewritten: "select concat(pg__variadic(pg__array('a', 'b')))"},
		{in: "SELECT f(1, VARIADIC xs) FROM t", rewritten: "select f(1, pg__variadic(xs)) from t"},
		{in: "SELECT f(VARIADIC g(1, 2)[1:2])", rewritten: "select f(pg__variadic(pg__slice(g(1, 2), 1, 2)))"},
		{in: "SELECT * FROM f(VARIADIC '{1}'::int[])", rewritten: ""},
		{in: "SELECT concat(VARIADIC ARRAY[1], 2)", err: `syntax error at or near ","`},
		{in: "SELECT greatest(VARIADIC ARRAY[1])", err: `syntax error at or near "VARIADIC"`},
		{in: "SELECT (VARIADIC 1)", err: `syntax error at or near "VARIADIC"`},
		{in: "SELECT f(VARIADIC)", err: `syntax error at or near ")"`},
		{in: "SELECT f(VARIADIC b => ARRAY[1])", err: "VARIADIC before a named argument"},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if tc.err != "" {
			se := sqlerr.As(err)
			if se == nil || !strings.Contains(se.Message, tc.err) {
				t.Errorf("%s: %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		got := strings.ReplaceAll(strings.ToLower(stmts[0].Rewritten), " ", "")
		if tc.rewritten == "" {
			if !strings.Contains(got, "pg__variadic(") {
				t.Errorf("%s: rewritten %q has no pg__variadic", tc.in, got)
			}
			continue
		}
		if got != strings.ReplaceAll(tc.rewritten, " ", "") {
			t.Errorf("%s: rewritten\n got %q\nwant %q", tc.in, got, tc.rewritten)
		}
	}
}
