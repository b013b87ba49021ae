package binder

import (
	"strings"
	"testing"
)

// TestUniqueName: PostgreSQL's names for unnamed unique constraints and
// indexes (ChooseRelationName over makeObjectName: the longer of the
// table's and the columns' names cut first to fit 63 bytes, a number
// after the label while taken), checked against PostgreSQL 15's answers.
func TestUniqueName(t *testing.T) {
	long := strings.Repeat("a", 62)
	for _, c := range []struct {
		table string
		cols  []string
		label string
		taken []string
		want  string
	}{
		{"t", []string{"a"}, "key", nil, "t_a_key"},
		{"t", []string{"a", "b"}, "key", nil, "t_a_b_key"},
		{"t", []string{"a"}, "idx", []string{"t_a_idx"}, "t_a_idx1"},
		{"t", []string{"a"}, "key", []string{"t_a_key", "t_a_key1"}, "t_a_key2"},
		{long, []string{strings.Repeat("b", 40)}, "key", nil, strings.Repeat("a", 29) + "_" + strings.Repeat("b", 29) + "_key"},
		{long, []string{"c", "id"}, "key", nil, strings.Repeat("a", 54) + "_c_id_key"},
		{long, []string{"c"}, "key", nil, strings.Repeat("a", 57) + "_c_key"},
	} {
		taken := map[string]bool{}
		for _, n := range c.taken {
			taken[n] = true
		}
		if got := uniqueName(c.table, c.cols, c.label, taken); got != c.want {
			t.Errorf("uniqueName(%q, %q, %q) = %q, want %q", c.table, c.cols, c.label, got, c.want)
		}
	}
}
