package lower

import (
	"slices"
	"testing"
)

// TestRecursiveUnionPlan: a recursive WITH query lowers to a recursive
// union over its two terms, the recursive one reading the working table;
// the rules rewrite each term (a point lookup in the non-recursive term, a
// hash join in the recursive one) but move nothing across the union (a
// filter on the recursive query's result stays above it).
func TestRecursiveUnionPlan(t *testing.T) {
	kinds := plan(t, `WITH RECURSIVE t(id) AS (
		SELECT id FROM kv WHERE id = 1 AND region = 'eu'
		UNION ALL
		SELECT kv.id FROM kv, t WHERE kv.id = t.id + 1)
	SELECT id FROM t WHERE id = 3`)
	ru := slices.Index(kinds, "recursive_union:")
	if ru < 0 || !slices.Contains(kinds, "worktable_scan:") {
		t.Fatalf("no recursive_union/worktable_scan in %q", kinds)
	}
	if f := slices.Index(kinds, "filter:"); f < 0 || f > ru {
		t.Errorf("the filter on the result must stay above the recursive union: %q", kinds)
	}
	if !slices.Contains(kinds[ru:], "lookup:") {
		t.Errorf("the non-recursive term's primary-key filter was not made a lookup: %q", kinds)
	}
	if !slices.Contains(kinds[ru:], "hash_join:") {
		t.Errorf("the recursive term's equality was not made a hash join: %q", kinds)
	}
}
