package lower

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
)

// TestAnyExprReachesEveryOperand checks the questions the rules ask of an
// expression through every kind of node, a function's later arguments
// included (anyExpr walks the commonest nodes without MapChildren).
func TestAnyExprReachesEveryOperand(t *testing.T) {
	cases := []struct {
		expr                    string
		readsRow, deterministic bool
	}{
		{"upper('x')", false, true},
		{"lower(v)", true, true},
		{"substr('abc', n)", true, true},
		{"abs(random())", false, false},
		{"round(1.5, n) + abs(random())", true, false},
		{"coalesce(abs(n), 1)", true, true},
		{"CAST(substr('abc', 1, n) AS TEXT)", true, true},
		{"NOT (n IS NULL)", true, true},
	}
	for _, c := range cases {
		p, ok := boundPlan(t, "SELECT "+c.expr+" FROM kv").(*binder.Project)
		if !ok {
			t.Fatalf("%s: no projection", c.expr)
		}
		e := p.Exprs[0]
		if got := readsRow(e); got != c.readsRow {
			t.Errorf("readsRow(%s) = %v", e, got)
		}
		if got := deterministic(e); got != c.deterministic {
			t.Errorf("deterministic(%s) = %v", e, got)
		}
	}
}
