package difftest

import (
	"context"
	"fmt"
	"testing"
)

// resultTypeValues are numeric values of each type, an untyped literal and
// NULL: the inputs whose common type a result construct picks.
var resultTypeValues = []string{"2::int2", "3::int4", "4::int8", "1.25::numeric", "1.25::numeric(5,2)", "1.5::float4", "2.5::float8", "'7'", "NULL"}

// TestResultCommonTypeDifferential puts every pair of resultTypeValues into
// the constructs whose type is PostgreSQL's select_common_type (COALESCE,
// CASE, UNION ALL, VALUES, GREATEST) and compares each value and its
// pg_typeof with PostgreSQL 15: real with an integer or numeric was double
// precision there, as arithmetic's operands are, where PostgreSQL keeps
// real.
func TestResultCommonTypeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, a := range resultTypeValues {
		for _, b := range resultTypeValues {
			for _, q := range []string{
				fmt.Sprintf("SELECT x, pg_typeof(x)::text FROM (SELECT COALESCE(%s, %s) AS x) s", a, b),
				fmt.Sprintf("SELECT x, pg_typeof(x)::text FROM (SELECT CASE WHEN random() < 2 THEN %s ELSE %s END AS x) s", a, b),
				fmt.Sprintf("SELECT x, pg_typeof(x)::text FROM (SELECT %s AS x UNION ALL SELECT %s) s", a, b),
				fmt.Sprintf("SELECT x, pg_typeof(x)::text FROM (VALUES (%s), (%s)) AS v(x)", a, b),
				fmt.Sprintf("SELECT x, pg_typeof(x)::text FROM (SELECT GREATEST(%s, %s) AS x) s", a, b),
			} {
				tally(t, ctx, r, q, stats)
			}
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 300 {
		t.Errorf("outcomes: %v", stats)
	}
}

// resultTypmodValues are character values of differing type modifiers, an
// untyped literal longer than any of them and NULL.
var resultTypmodValues = []string{"'ab'::varchar(3)", "'abcd'::varchar(5)", "'a'::char(3)", "'b'::char(4)", "'c'::text", "'a longer literal'", "NULL"}

// TestResultTypmodDifferential puts every pair of resultTypmodValues into
// the result constructs and compares each value, its pg_typeof and its
// padded text with PostgreSQL 15: a common type keeps a type modifier
// only when every input has the same one (select_common_typmod), so
// GREATEST('ab'::varchar(3), 'a longer literal') was a length error.
func TestResultTypmodDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, a := range resultTypmodValues {
		for _, b := range resultTypmodValues {
			for _, q := range []string{
				fmt.Sprintf("SELECT '[' || x || ']', pg_typeof(x)::text FROM (SELECT COALESCE(%s, %s) AS x) s", a, b),
				fmt.Sprintf("SELECT '[' || x || ']', pg_typeof(x)::text FROM (SELECT CASE WHEN random() < 2 THEN %s ELSE %s END AS x) s", a, b),
				fmt.Sprintf("SELECT '[' || x || ']', pg_typeof(x)::text FROM (SELECT %s AS x UNION ALL SELECT %s) s", a, b),
				fmt.Sprintf("SELECT '[' || x || ']', pg_typeof(x)::text FROM (SELECT GREATEST(%s, %s) AS x) s", a, b),
				fmt.Sprintf("SELECT '[' || x || ']', pg_typeof(x)::text FROM (SELECT LEAST(%s, %s) AS x) s", a, b),
				fmt.Sprintf("SELECT '[' || x || ']', pg_typeof(x)::text FROM (SELECT (ARRAY[%s, %s])[1] AS x) s", a, b),
			} {
				tally(t, ctx, r, q, stats)
			}
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 250 {
		t.Errorf("outcomes: %v", stats)
	}
}
