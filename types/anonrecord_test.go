package types

import "testing"

// TestAnonRecordText checks the cast of an anonymous record to text
// (record_out's form, array fields as array_out prints them) and its names.
func TestAnonRecordText(t *testing.T) {
	text := T{Kind: String}
	inner := T{Kind: Row, Variant: AnonRecord, Fields: []Field{{Name: "f1", Type: Int32Type}, {Name: "f2", Type: text}}}
	arr := T{Kind: Array, Elem: &text}
	rec := T{Kind: Row, Variant: AnonRecord, Fields: []Field{{Name: "f1", Type: inner}, {Name: "f2", Type: arr}}}
	cases := []struct {
		v    []any
		want string
	}{
		{[]any{[]any{int64(1), "a"}, []any{"b", nil}}, `("(1,a)","{b,NULL}")`},
		{[]any{nil, []any{"a b", `q"`, ""}}, `(,"{""a b"",""q\\"""",""""}")`},
		{[]any{[]any{nil, nil}, []any{}}, `("(,)",{})`},
	}
	for _, c := range cases {
		if got := FormatText(c.v, rec); got != c.want {
			t.Errorf("FormatText(%v) = %s, want %s", c.v, got, c.want)
		}
	}
	if got := rec.PGName(); got != "record" {
		t.Errorf("PGName = %q", got)
	}
	if got := ArrayOf(rec).PGName(); got != "record[]" {
		t.Errorf("array PGName = %q", got)
	}
	if got := rec.String(); got == "record" {
		t.Errorf("String() = %q: two records of different fields would print alike", got)
	}
}
