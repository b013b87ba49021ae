package relop

import "github.com/sqlgate/sqlgate/internal/pgsort"

// pgSort sorts a in place as PostgreSQL 15's tuplesort does, ties
// included (internal/pgsort): an aggregate's ORDER BY shows the order
// of its ties, DISTINCT keeps the first of each run of equal values.
func pgSort[T any](a []T, cmp func(x, y T) int) { pgsort.Sort(a, cmp) }
