package binder

import "testing"

// TestOneNamePart: which reg* literal texts are a single name that a
// stored expression's table schema qualifies.
func TestOneNamePart(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"t_id_seq", true},
		{"T_Id_Seq", true},
		{`"Weird.Name"`, true},
		{`"with ""quotes"""`, true},
		{"public.t_id_seq", false},
		{`"s".t`, false},
		{`"s"."t"`, false},
		{"12345", false},
		{"", false},
		{`"unterminated`, false},
	} {
		if got := oneNamePart(tc.in); got != tc.want {
			t.Errorf("oneNamePart(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
