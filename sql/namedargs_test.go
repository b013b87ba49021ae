package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestNamedArgumentsRewrite(t *testing.T) {
	tests := []struct {
		in        string
		rewritten string // lower-cased, spaces as emitted
	}{
		{"SELECT make_date(year => 2020, month => 1, day => 2)", "select make_date( 2020 , 1 , 2 )"},
		{"SELECT make_date(day => 2, month := 1, year => 2020)", "select make_date( 2020 , 1 , 2 )"},
		{"SELECT make_date(2020, day => $1, month => 1)", "select make_date(2020 , 1 , ? )"},
		{"SELECT make_interval(days => 10)", "select make_interval( 0 , 0 , 0 , 10 )"},
		{"SELECT make_interval(1, secs => 1.5)", "select make_interval(1 , 0 , 0 , 0 , 0 , 0 , 1.5 )"},
		{`SELECT make_date("year" => 2020, MONTH => 1, Day => 2)`, "select make_date( 2020 , 1 , 2 )"},
		{"SELECT jsonb_set_lax('{}', '{a}', NULL, null_value_treatment => 'delete_key')", "select jsonb_set_lax('{}' , '{a}' , null , true , 'delete_key' )"},
		{"SELECT make_date(year => 2020, month => 1)", "select pg__named_nomatch( 'make_date' , 'year' , 2020 , 'month' , 1 )"},
		{"SELECT MAKE_DATE(2020, year => 2021, day => 2)", "select pg__named_nomatch( 'make_date' , '' ,2020 , 'year' , 2021 , 'day' , 2 )"},
		{"SELECT length(str => 'x')", "select pg__named_nomatch( 'length' , 'str' , 'x' )"},
		// nested calls, calls without names and other parenthesised lists stay
		{"SELECT make_date(year => abs(-2020), month => 1, day => length('ab'))", "select make_date( abs(-2020) , 1 , length('ab') )"},
		{"SELECT make_date(2020, 1, 2), 1 IN (1, 2)", "select make_date(2020, 1, 2), 1 in (1, 2)"},
		{"SELECT * FROM json_each(from_json => '{}')", "select * from (select pg__srf('json_each', 0, 0, pg__cols(), '{}')) as json_each"},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := strings.ToLower(stmts[0].Rewritten); got != tc.rewritten {
			t.Errorf("%s: rewritten\n got %q\nwant %q", tc.in, got, tc.rewritten)
		}
	}
}

func TestNamedArgumentsErrors(t *testing.T) {
	tests := []struct {
		in       string
		code     sqlerr.Code
		message  string
		position int
	}{
		{"SELECT make_date(year => 2020, 1, 2)", sqlerr.SyntaxError, "positional argument cannot follow named argument", 32},
		{"SELECT make_interval(days => 1, days => 2)", sqlerr.SyntaxError, `argument name "days" used more than once`, 33},
		{"SELECT upper(x => 'a', 'b')", sqlerr.SyntaxError, "positional argument cannot follow named argument", 24},
	}
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		var e *sqlerr.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v, want %s", tc.in, err, tc.code)
			continue
		}
		if e.Code != tc.code || e.Message != tc.message || e.Position != tc.position {
			t.Errorf("%s: %s %q at %d, want %s %q at %d", tc.in, e.Code, e.Message, e.Position, tc.code, tc.message, tc.position)
		}
	}
}
