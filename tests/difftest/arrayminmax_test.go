package difftest

import (
	"context"
	"strings"
	"testing"
)

// arrayMinMaxValues are int[] values min(anyarray) and max(anyarray) are
// tried with: prefixes, NULL elements (after every value), the empty
// array and a NULL array. (One VALUES column of one- and two-dimensional
// arrays is refused by sqlgate: two dimensions have their own use.)
var arrayMinMaxValues = []string{
	"ARRAY[1, 2]", "ARRAY[1]", "ARRAY[1, NULL]", "ARRAY[NULL::int]", "'{}'::int[]",
	"NULL::int[]", "ARRAY[2]",
}

// arrayMinMaxUses are queries over two of arrayMinMaxValues, $1 and $2.
var arrayMinMaxUses = []string{
	"SELECT min(x), max(x) FROM (VALUES ($1), ($2), (ARRAY[1, 3])) v(x)",
	"SELECT min(x), max(x), count(x) FROM (VALUES ($1), ($2)) v(x)",
	"SELECT min(x) FILTER (WHERE x > ARRAY[1]), max(DISTINCT x) FILTER (WHERE x < ARRAY[2]) FROM (VALUES ($1), ($2)) v(x)",
	"SELECT g, min(x), max(x) FROM (VALUES (1, $1), (1, $2), (2, $2), (3, NULL)) v(g, x) GROUP BY g",
	"SELECT max(x) FROM (VALUES ($1), ($2)) v(x) WHERE false",
	"SELECT min(ARRAY[x::text]), max(ARRAY[x::numeric(4,1)]) FROM (VALUES ($1), ($2)) v(y), unnest(y) x",
	"SELECT pg_typeof(max(x)), array_dims(max(x)), array_dims(min(x)) FROM (VALUES ($1), ($2)) v(x)",
	"SELECT max(x) > min(x), max(x) = $1 OR max(x) = $2 FROM (VALUES ($1), ($2)) v(x)",
	"SELECT min(x), max(x) FROM (VALUES (ARRAY[[1, 2], [3, 4]]), (ARRAY[[1, 2], [3, NULL]]), (NULL)) v(x) WHERE $1 IS NULL OR $2 IS NULL OR true",
	"SELECT min(x), max(x) FROM (VALUES ($1::text[]), ($2::text[]), (ARRAY['b', 'a'])) v(x)",
	// GREATEST and LEAST order arrays and records by the same rules
	"SELECT greatest($1, $2), least($1, $2), greatest($2, $1, ARRAY[1, 3]), least($1, NULL, $2)",
	"SELECT greatest($1::text[], $2::text[]), least($1::numeric[], $2::numeric[], ARRAY[1.0])",
	"SELECT greatest(ROW($1, 1), ROW($2, 2)), least(ROW(1, $1), ROW(1, $2)), pg_typeof(greatest(ROW($1), ROW($2)))",
	"SELECT x, greatest(x, $2), least(x, $1) FROM (VALUES ($1), ($2), (ARRAY[1, 3])) v(x)",
	"SELECT greatest(ARRAY[$1], ARRAY[$2]), least(ARRAY[[1, 2], [3, 4]], ARRAY[[1, 2], [3, NULL]]) WHERE $1 IS NULL OR true",
}

// TestArrayMinMaxDifferential: every use × every ordered pair of values on
// sqlgate and PostgreSQL 15: the same rows of the same types, or both
// refused with the same SQLSTATE and message.
func TestArrayMinMaxDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, use := range arrayMinMaxUses {
		for _, x := range arrayMinMaxValues {
			for _, y := range arrayMinMaxValues {
				q := strings.NewReplacer("$1", x, "$2", y).Replace(use)
				tally(t, ctx, r, q, stats)
			}
		}
	}
	t.Logf("%d uses × %d² values: %v", len(arrayMinMaxUses), len(arrayMinMaxValues), stats)
	if stats["same"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
