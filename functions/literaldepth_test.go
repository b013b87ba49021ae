package functions

import "testing"

// TestLiteralArrayDepth: the dimensions a cast of an array literal takes.
func TestLiteralArrayDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"{1,2}", 1},
		{" { {1}, {2} } ", 2},
		{"{{{x}}}", 3},
		{"[1:1]={5}", 1},
		{"[1:1][1:2]={{5,6}}", 2},
		{"{}", 0},
		{"{ }", 0},
		{"1", 0},
		{"", 0},
	} {
		if got := LiteralArrayDepth(tc.in); got != tc.want {
			t.Errorf("LiteralArrayDepth(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
