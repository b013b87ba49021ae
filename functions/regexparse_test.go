package functions

import (
	"context"
	"errors"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestParseAREErrors: each fault is reported with the REG_* message of
// its class, and where a pattern has two faults, the one PostgreSQL's
// lexer meets first (a bracket's next token is read before its range or
// collating element is checked).
func TestParseAREErrors(t *testing.T) {
	for _, tc := range []struct {
		pat   string
		flags string
		want  reErrCode // -1: valid
	}{
		{"(", "", regEParen},
		{"a)", "", regEParen},
		{`a\)`, "e", regEParen}, // BRE (PG 15's e flag is BRE): \) closes a group
		{"a)", "b", -1},         // and ) is plain
		{"(?e)a)", "", -1},      // ERE: a lone ) is plain
		{"[a", "", regEBrack},
		{"a{1", "", regEBrace},
		{"a{256}", "", regBadBR},
		{"a{2,1}", "", regBadBR},
		{"a{,2}", "", -1},
		{"*a", "", regBadRpt},
		{"*a", "b", -1}, // BRE: a leading * is plain
		{"a(?i)", "", regBadRpt},
		{"(?z)", "", regBadOpt},
		{"***?", "", regBadPat},
		{`\q`, "", regEEscape},
		{`\x`, "", regEEscape},
		{`\12`, "", -1}, // octal: no twelve groups
		{`(a)\2`, "", regESubReg},
		{`(a\1)`, "", regESubReg},
		{`(a){0}\1`, "", -1}, // PostgreSQL 15 accepts it; the \1 never matches
		{"[[.bad.]]", "", regECollate},
		{"[[:bad:]]", "", regECType},
		{"[z-a]", "", regERange},
		{"[a-b-c]", "", regERange},
		{"[b-a", "", regEBrack}, // the range's next token first
		{"[[.bad.]", "", regEBrack},
		{"a", "qx", regInvArg},
		{"[[:word:]][[=a=]][[.space.]-a]", "", -1},
	} {
		f, err := parseFlags(tc.flags, "regexp_like", false)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = parseARE(tc.pat, f)
		if tc.want < 0 {
			if err != nil {
				t.Errorf("%q (%s): %v, want no error", tc.pat, tc.flags, err)
			}
			continue
		}
		var e *sqlerr.Error
		if !errors.As(err, &e) || e.Code != sqlerr.InvalidRegularExpression || e.Message != "invalid regular expression: "+reErrText[tc.want] {
			t.Errorf("%q (%s): %v, want %q", tc.pat, tc.flags, err, reErrText[tc.want])
		}
	}
}

// TestEmitLiterals: what PostgreSQL reads as a character reaches RE2 as
// that character, never as an RE2 operator.
func TestEmitLiterals(t *testing.T) {
	for _, tc := range []struct{ pat, subject string }{
		{`a\b`, "a\b"},
		{`a\B`, `a\`},
		{`^\x414$`, "\u0414"},
		{`^\101$`, "A"},
		{`^\cd$`, "\x04"},
		{`^a{,2}$`, "a{,2}"},
		{`^[[.hyphen.]]$`, "-"},
		{`^a\+b$`, "a+b"},
	} {
		re, err := compileARE(tc.pat, areFlags{})
		if err != nil {
			t.Fatalf("%q: %v", tc.pat, err)
		}
		if ok, err := re.match(context.Background(), tc.subject); err != nil || !ok {
			t.Errorf("%q does not match %q (%v)", tc.pat, tc.subject, err)
		}
	}
}
