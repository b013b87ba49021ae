package functions

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestUnistr(t *testing.T) {
	cases := []struct {
		in, want string
		code     sqlerr.Code // "" when the call succeeds
	}{
		{`plain`, "plain", ""},
		{`\0041\u0042\+000043\U00000044`, "ABCD", ""},
		{`\\`, `\`, ""},
		{`\d83d\DE00`, "\U0001F600", ""},
		{`\uD83D\U0000DE00`, "\U0001F600", ""},
		{`\U0010FFFF`, "\U0010FFFF", ""},
		{`\0000`, "", sqlerr.InvalidParameterValue},
		{`\UFFFFFFFF`, "", sqlerr.InvalidParameterValue},
		{`\+110000`, "", sqlerr.InvalidParameterValue},
		{`\D800`, "", sqlerr.SyntaxError},
		{`\DC00\D800`, "", sqlerr.SyntaxError},
		{`\D800\\`, "", sqlerr.SyntaxError},
		{`\D800a`, "", sqlerr.SyntaxError},
		{`\`, "", sqlerr.SyntaxError},
		{`\12`, "", sqlerr.SyntaxError},
		{`\u004`, "", sqlerr.SyntaxError},
		{`\+00004`, "", sqlerr.SyntaxError},
		{`\U0000004`, "", sqlerr.SyntaxError},
		{`\004g`, "", sqlerr.SyntaxError},
		{"\\0\x10" + "41", "", sqlerr.SyntaxError}, // not a hex digit, whatever its bits
	}
	for _, c := range cases {
		got, err := unistr(c.in)
		if c.code == "" {
			if err != nil || got != c.want {
				t.Errorf("unistr(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		var se *sqlerr.Error
		if !errors.As(err, &se) || se.Code != c.code {
			t.Errorf("unistr(%q) = %q, %v; want SQLSTATE %s", c.in, got, err, c.code)
		}
	}
}

func TestCharToEncoding(t *testing.T) {
	for name, want := range map[string]int{"UTF8": 6, "utf-8": 6, "Unicode": 6, "latin1": 8, "ISO_8859_1": 8,
		"sql_ascii": 0, "windows-1252": 24, "WIN866": 20, "shift_jis_2004": 41, "ms-kanji": 35, "": -1, "bogus": -1} {
		if got := charToEncoding(name); got != want {
			t.Errorf("pg_char_to_encoding(%q) = %d, want %d", name, got, want)
		}
	}
}

// pg_rotate_logfile warns through the session, as PostgreSQL's does
// without a log collector, and returns false.
func TestRotateLogfileWarns(t *testing.T) {
	var got []*sqlerr.Error
	ctx := WithSession(context.Background(), Session{Warn: func(e *sqlerr.Error) { got = append(got, e) }})
	f, _, err := Resolve("pg_rotate_logfile", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, k := f.Bind(nil, nil)
	out, err := k(ctx, memory.DefaultAllocator, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if out.ValueStr(0) != "false" {
		t.Errorf("pg_rotate_logfile() = %s, want false", out.ValueStr(0))
	}
	if len(got) != 1 || got[0].Severity != "WARNING" || got[0].Code != "01000" ||
		got[0].Message != "rotation not possible because log collection not active" {
		t.Errorf("warnings = %+v, want PostgreSQL's one WARNING", got)
	}
}
