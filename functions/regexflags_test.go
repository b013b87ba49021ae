package functions

import (
	"errors"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestGlobalFlagRefusals: the functions that take no 'g' refuse it with
// PostgreSQL 15's message, and only regexp_match adds the hint that points
// to regexp_matches.
func TestGlobalFlagRefusals(t *testing.T) {
	for _, tc := range []struct{ fn, hint string }{
		{"regexp_match", "Use the regexp_matches function instead."},
		{"regexp_split_to_table", ""},
		{"regexp_split_to_array", ""},
		{"regexp_count", ""},
		{"regexp_substr", ""},
	} {
		_, err := parseFlags("g", tc.fn, false)
		var e *sqlerr.Error
		if !errors.As(err, &e) || e.Code != sqlerr.InvalidParameterValue {
			t.Fatalf("%s: got %v, want 22023", tc.fn, err)
		}
		if want := tc.fn + `() does not support the "global" option`; e.Message != want || e.Hint != tc.hint {
			t.Errorf("%s: got %q / hint %q, want %q / hint %q", tc.fn, e.Message, e.Hint, want, tc.hint)
		}
	}
}
