package coverage

import (
	"testing"

	"github.com/sqlgate/sqlgate/tests/difftest"
)

// TestIntervalRestriction checks the interval restriction's rule: it
// covers sqlgate's 22008 exactly where PostgreSQL's interval result has a
// time part beyond the nanoseconds, and nothing else.
func TestIntervalRestriction(t *testing.T) {
	r := Restrictions[0]
	refused := difftest.Outcome{Err: &difftest.QueryError{Code: "22008", Message: "interval out of range"}}
	answer := func(text string) difftest.Outcome {
		return difftest.Outcome{OIDs: []uint32{intervalOID}, Rows: [][]difftest.Cell{{{Text: text}}}}
	}
	for _, tc := range []struct {
		sg, pg difftest.Outcome
		want   bool
	}{
		{refused, answer("3 years 3 mons 24 days 2147483647:03:02.5"), true},
		{refused, answer("-2562047:47:16.854776"), true},
		{refused, answer("2562047:47:16.854775"), false}, // the edge fits
		{refused, answer("1 day 02:00:00"), false},
		{refused, difftest.Outcome{OIDs: []uint32{25}, Rows: [][]difftest.Cell{{{Text: "9999999:00:00"}}}}, false}, // not an interval
		{difftest.Outcome{Err: &difftest.QueryError{Code: "22008", Message: "timestamp out of range"}}, answer("9999999:00:00"), false},
		{answer("1 day"), answer("9999999:00:00"), false},
	} {
		if got := r.Applies(tc.sg, tc.pg); got != tc.want {
			t.Errorf("Applies(%v, %v) = %v, want %v", tc.sg.Err, tc.pg.Rows, got, tc.want)
		}
	}
}
