package lower

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
)

// boundPlan binds text against the test catalog.
func boundPlan(t *testing.T, text string) binder.Node {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*binder.Query).Plan
}

// findNode returns the first node of type T in n's tree.
func findNode[T binder.Node](n binder.Node) (T, bool) {
	if x, ok := n.(T); ok {
		return x, true
	}
	for _, c := range n.Children() {
		if x, ok := findNode[T](c); ok {
			return x, true
		}
	}
	var zero T
	return zero, false
}

// TestPointLookupKeys pins primary_key_lookup's keys (every combination
// of the key columns' values, the last key column varying fastest, the
// first conjunct that fixes a column winning) and the residual filter.
func TestPointLookupKeys(t *testing.T) {
	for _, tc := range []struct {
		where string
		keys  []string // each key's values, "|"-joined; nil: no lookup
		rest  string   // the residual filter; "": none
	}{
		{"id IN (1, 2) AND region IN ('a', 'b')", []string{"1|a", "1|b", "2|a", "2|b"}, ""},
		{"region = 'eu' AND id = 3 AND n > 1", []string{"3|eu"}, "(n > 1)"},
		{"id = 1 AND id = 2 AND region = 'x'", []string{"1|x"}, "(id = CAST(2 AS bigint))"},
		{"id IN (4, 5, 6) AND region = 'eu' AND v LIKE 'a%' AND n <> 15", []string{"4|eu", "5|eu", "6|eu"}, "(like(v, 'a%') AND (n <> 15))"},
		{"id = 1", nil, ""},
		{"id = 1 OR region = 'x'", nil, ""},
		{"n = 1 AND v = 'x'", nil, ""},
	} {
		t.Run(tc.where, func(t *testing.T) {
			opt, err := optimizeWith(boundPlan(t, "SELECT * FROM kv WHERE "+tc.where), newEstimator(Options{}), map[string]bool{"projection_pushdown": true})
			if err != nil {
				t.Fatal(err)
			}
			lk, ok := findNode[*pkLookup](opt)
			if tc.keys == nil {
				if ok {
					t.Fatalf("a lookup of %d keys, want a scan", len(lk.keys))
				}
				return
			}
			if !ok {
				t.Fatal("no lookup")
			}
			var got []string
			for _, k := range lk.keys {
				var vs []string
				for _, e := range k {
					c, ok := e.(*binder.Const)
					if !ok {
						if cast, isCast := e.(*binder.Cast); isCast {
							c, ok = cast.X.(*binder.Const)
						}
					}
					if !ok {
						t.Fatalf("key value %s is not a constant", e)
					}
					vs = append(vs, strings.Trim(c.String(), "'"))
				}
				got = append(got, strings.Join(vs, "|"))
			}
			if !slices.Equal(got, tc.keys) {
				t.Errorf("keys %q, want %q", got, tc.keys)
			}
			rest := ""
			if f, ok := findNode[*binder.Filter](opt); ok {
				rest = f.Cond.String()
			}
			if rest != tc.rest {
				t.Errorf("residual filter %q, want %q", rest, tc.rest)
			}
		})
	}
}

// TestLookupSharesKeyValues checks that lowering a lookup lowers a value
// the keys share once, and that the keys still read the right values.
func TestLookupSharesKeyValues(t *testing.T) {
	root, err := Plan(boundPlan(t, "SELECT * FROM kv WHERE id IN (1, 2, 3) AND region = 'eu'"))
	if err != nil {
		t.Fatal(err)
	}
	var lk *lookupNode
	for n := root; n != nil; {
		if x, ok := n.(*lookupNode); ok {
			lk = x
			break
		}
		in := n.Inputs()
		if len(in) == 0 {
			break
		}
		n = in[0]
	}
	if lk == nil || len(lk.keys) != 3 {
		t.Fatalf("want a lookup of 3 keys, got %+v", lk)
	}
	for i, k := range lk.keys {
		if want := []string{[]string{"1", "2", "3"}[i], "eu"}; k[0].String() != want[0] || k[1].String() != want[1] {
			t.Errorf("key %d is (%s, %s), want %v", i, k[0], k[1], want)
		}
		if k[1] != lk.keys[0][1] {
			t.Errorf("key %d's region value was lowered again", i)
		}
	}
}

// TestDistinctKeyValues: the distinct values in order of first use, and
// false past the buffer's capacity.
func TestDistinctKeyValues(t *testing.T) {
	a, b, c := &binder.Const{Value: int64(1)}, &binder.Const{Value: int64(2)}, &binder.Const{Value: "x"}
	got, ok := distinctKeyValues([][]binder.Expr{{a, c}, {b, c}, {a, c}}, make([]binder.Expr, 0, 4))
	if !ok || len(got) != 3 || got[0] != a || got[1] != c || got[2] != b {
		t.Errorf("got %v, %v; want [1 x 2], true", got, ok)
	}
	if _, ok := distinctKeyValues([][]binder.Expr{{a, b, c}}, make([]binder.Expr, 0, 2)); ok {
		t.Error("three distinct values fit a capacity of two")
	}
}

// TestReachesSubquery: the decorrelation rule's pre-check finds a
// subquery wherever decorrelate would rewrite one, and none in plain plans.
func TestReachesSubquery(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"SELECT id FROM kv WHERE n > 1 ORDER BY id LIMIT 3", false},
		{"SELECT region, count(*) FROM kv GROUP BY region", false},
		{"SELECT id FROM kv WHERE EXISTS (SELECT 1 FROM fk WHERE fk.v = kv.v)", true},
		{"SELECT id, (SELECT count(*) FROM fk WHERE fk.v = kv.v) FROM kv", true},
		{"SELECT region, sum((SELECT count(*) FROM fk WHERE fk.v = kv.v)) FROM kv GROUP BY region", true},
		{"SELECT a.id FROM kv a JOIN kv b ON a.id = b.id WHERE a.n IN (SELECT 1)", true},
		{"SELECT id FROM kv UNION SELECT id FROM kv WHERE v IN (SELECT v FROM fk) ORDER BY 1", true},
	} {
		if got := reachesSubquery(boundPlan(t, tc.q)); got != tc.want {
			t.Errorf("%s: reachesSubquery %v, want %v", tc.q, got, tc.want)
		}
	}
}
