package jsonpath

import (
	"errors"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestNormalize: texts and the output PostgreSQL 15 prints for them, or
// the error it reports (checked against PostgreSQL 15).
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, out, err string }{
		{in: "$.a ? (@ > 1)", out: `$."a"?(@ > 1)`},
		{in: `strict $.a[1 to last, 2].** ? (@.b == "x" && !(@ starts with "a") || exists(@.c))`,
			out: `strict $."a"[1 to last,2].**?(@."b" == "x" && !(@ starts with "a") || exists (@."c"))`},
		{in: `$a + 1 * -2 / (3 % $"x y")`, out: `($"a" + (1 * -2) / (3 % $"x y"))`},
		{in: "-(1 + 2).a", out: `(-(1 + 2)."a")`},
		{in: `$ ? (@ like_regex "a.c" flag "ixsq")`, out: `$?(@ like_regex "a.c" flag "isxq")`},
		{in: "$ ? (@ == null || @ == true || @ != false)", out: "$?((@ == null || @ == true) || @ != false)"},
		{in: "(1 - 2) - 3", out: "((1 - 2) - 3)"},
		{in: "1 * 2 + 3", out: "(1 * 2 + 3)"},
		{in: "- -1", out: "1"},
		{in: "1.5e3", out: "1500"},
		{in: ".5", out: "0.5"},
		{in: "$.a ? (@ == 1 ? (@ == 2))", out: `$."a"?(@ == (1)?(@ == 2))`},
		{in: `(1+2) like_regex "x"`, out: `((1 + 2) like_regex "x")`},
		{in: "($ > 1).a", out: `($ > 1)."a"`},
		{in: "$.**{0 to last}", out: "$.**"},
		{in: "STRICT $.TYPE()", out: "strict $.type()"},
		{in: `$."\u0041\n"`, out: `$."A\n"`},
		{in: "$.", err: "syntax error at end of jsonpath input"},
		{in: "$.a == 1 == 2", err: `syntax error at or near "==" of jsonpath input`},
		{in: "@", err: "@ is not allowed in root expressions"},
		{in: "last", err: "LAST is allowed only in array subscripts"},
		{in: "00", err: `trailing junk after numeric literal at or near "00" of jsonpath input`},
		{in: "$.a[1 to 2 to  3]", err: `syntax error at or near "  " of jsonpath input`},
		{in: `$ "a"`, err: `syntax error at or near """ of jsonpath input`},
		{in: "$ $x)", err: `syntax error at or near "$x" of jsonpath input`},
		{in: "  ", err: `invalid input syntax for type jsonpath: "  "`},
	} {
		got, err := Normalize(c.in)
		var se *sqlerr.Error
		switch {
		case c.err != "" && (!errors.As(err, &se) || se.Message != c.err):
			t.Errorf("%s: error %v, want %q", c.in, err, c.err)
		case c.err == "" && (err != nil || got != c.out):
			t.Errorf("%s: %q, %v; want %q", c.in, got, err, c.out)
		}
	}
}
