package sql

import (
	"strings"
	"testing"
)

// TestByteClass checks the lexer's byte table against PostgreSQL's
// character classes written out as compares, for every byte.
func TestByteClass(t *testing.T) {
	for i := 0; i < 256; i++ {
		c := byte(i)
		start := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
		cont := start || c >= '0' && c <= '9' || c == '$'
		space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		multi := false
		for _, op := range multiOps {
			multi = multi || op[0] == c
		}
		if isIdentStart(c) != start || isIdentCont(c) != cont || isSpace(c) != space || (byteClass[c]&bcMultiOp != 0) != multi {
			t.Errorf("byte %#x: start %v cont %v space %v multi %v", c, isIdentStart(c), isIdentCont(c), isSpace(c), byteClass[c]&bcMultiOp != 0)
		}
	}
}

// TestLexTokens covers the token kinds and their boundaries, and a reused
// buffer whose stale synthetic text must not survive into the new tokens.
func TestLexTokens(t *testing.T) {
	cases := []struct {
		src  string
		want string // kind:text per token
	}{
		{"SELECT a<=>b, c!~*d", "1:SELECT 1:a 8:<=> 1:b 9:, 1:c 8:!~* 1:d"},
		{"x::int -- c\n+ $1", "1:x 8::: 1:int 8:+ 7:$1"},
		{"E'a\\'b' X'0f' n'z' e", "4:E'a\\'b' 3:X'0f' 3:n'z' 1:e"},
		{`"Q""x" 1.5e3 .5 a.b`, `2:"Q""x" 6:1.5e3 6:.5 1:a 9:. 1:b`},
		{"a|b||c", "1:a 8:| 1:b 8:|| 1:c"},
		{"$t$ x $t$ /* a /* b */ */ é", "5:$t$ x $t$ 1:é"},
	}
	buf := make([]token, 64) // large enough to be reused by every case
	for i := range buf {
		buf[i].synth = "stale"
	}
	for _, c := range cases {
		toks, err := lexInto(c.src, buf[:0])
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		var got []string
		for _, tk := range toks {
			if tk.synth != "" {
				t.Errorf("%q: token %q keeps synth %q", c.src, c.src[tk.start:tk.end], tk.synth)
			}
			got = append(got, string(rune('0'+tk.kind))+":"+tk.text(c.src))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q: got %s, want %s", c.src, g, c.want)
		}
	}
}

// TestEqualFoldWord compares equalFoldWord with strings.EqualFold on words
// of equal byte length, ASCII and not.
func TestEqualFoldWord(t *testing.T) {
	words := []string{"AS", "as", "aS", "At", "A1", "SELECT", "select", "SeLeCt", "SELECU", "éA", "Aé", "ſS", "ſs",
		"KELVIN", "\u212aELVIN", "K\u212aELV", "ǅǅ", "ǆǅ", "ÉÉ", "éé", "[A", "{a", "@a", "`A"}
	for _, a := range words {
		for _, b := range words {
			if len(a) != len(b) {
				continue
			}
			if got, want := equalFoldWord(a, 0, b), strings.EqualFold(a, b); got != want {
				t.Errorf("equalFoldWord(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestMultiOpLen checks multiOpLen against multiOps (the first entry the
// text starts with) over every string of up to three operator bytes.
func TestMultiOpLen(t *testing.T) {
	ref := func(s string) int {
		for _, op := range multiOps {
			if strings.HasPrefix(s, op) {
				return len(op)
			}
		}
		return 1
	}
	const chars = "<>=!~*-#:|&+/%^@?a"
	var try func(s string)
	try = func(s string) {
		if s != "" {
			if got, want := multiOpLen(s), ref(s); got != want {
				t.Errorf("%q: %d, want %d", s, got, want)
			}
		}
		if len(s) < 3 {
			for i := 0; i < len(chars); i++ {
				try(s + chars[i:i+1])
			}
		}
	}
	try("")
}
