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
		// PostgreSQL 15's scanner: the longest match, a number's rules
		// first on a tie; a longer run of "other" characters is a word
		{in: "1lax $x", err: `syntax error at or near " " of jsonpath input`},
		{in: "1abc", err: "syntax error at end of jsonpath input"},
		{in: "0x1", err: "syntax error at end of jsonpath input"},
		{in: "1.5ab", err: `trailing junk after numeric literal at or near "1.5a" of jsonpath input`},
		{in: "1e5x", err: `trailing junk after numeric literal at or near "1e5x" of jsonpath input`},
		{in: "1e+", err: `invalid numeric literal at or near "1e+" of jsonpath input`},
		{in: `$ like_regex "b.**d"`, err: "invalid regular expression: quantifier operand invalid"},
		{in: "$[1a]", err: `trailing junk after numeric literal at or near "1a" of jsonpath input`},
		{in: "$.a[1 to 2 to  3]", err: `syntax error at or near "  " of jsonpath input`},
		{in: `$ "a"`, err: `syntax error at or near """ of jsonpath input`},
		{in: "$ $x)", err: `syntax error at or near "$x" of jsonpath input`},
		{in: "  ", err: `invalid input syntax for type jsonpath: "  "`},
		// "(p) is unknown" is a predicate, not an accessor_expr: an
		// accessor after it is the syntax error, at its token
		{in: `$ ? ((@ < @) is unknown[*].c / $[*]."x y"`, err: `syntax error at or near "[" of jsonpath input`},
		{in: "$ ? ((@ < @) is unknown.a)", err: `syntax error at or near "." of jsonpath input`},
		{in: "(1 > 2) is unknown ? (@ > 1)", err: `syntax error at or near "?" of jsonpath input`},
		{in: "$ ? ((@ < @) is unknown + 1)", err: `syntax error at or near "+" of jsonpath input`},
		{in: "(1>2) is unknown is unknown", err: `syntax error at or near " " of jsonpath input`},
		{in: "((1 > 2) is unknown)[0]", out: "(1 > 2) is unknown[0]"},
		{in: "lax exists($[*][*]).double() % @)", err: `syntax error at or near "." of jsonpath input`},
		{in: "exists($)[0]", err: `syntax error at or near "[" of jsonpath input`},
		{in: "exists($) ? (@ > 1)", err: `syntax error at or near "?" of jsonpath input`},
		{in: "exists($) + 1", err: `syntax error at or near "+" of jsonpath input`},
		{in: "exists($) is unknown", err: `syntax error at or near " " of jsonpath input`},
		{in: "$ ? (!exists(@.a).b)", err: `syntax error at or near "." of jsonpath input`},
		{in: "$ ? (!(@ > 1).a)", err: `syntax error at or near "." of jsonpath input`},
		{in: "(exists($)).a", out: `exists ($)."a"`},
		{in: "(exists($)) is unknown", out: "(exists ($)) is unknown"},
		{in: "(1 > 2)[0]", out: "(1 > 2)[0]"},
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
