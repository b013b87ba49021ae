package lower

import "testing"

// TestCanHashEq: PostgreSQL's oprcanhash for the = operators that decide
// whether an uncorrelated IN subquery is hashed.
func TestCanHashEq(t *testing.T) {
	for _, tc := range []struct {
		x, y uint32
		want bool
	}{
		{23, 23, true}, {25, 25, true}, {1043, 1043, true}, {20, 23, true},
		{790, 790, false}, {1560, 1560, false}, {1562, 1562, false}, {3614, 3614, false}, {3615, 3615, false},
		{28, 23, false}, {1082, 1114, false}, {1184, 1082, false}, {1114, 1114, true},
	} {
		if got := canHashEq(tc.x, tc.y); got != tc.want {
			t.Errorf("canHashEq(%d, %d) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
