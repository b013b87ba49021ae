package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// resultTypeValues are numeric values of each type, an untyped literal and
// NULL: the inputs whose common type a result construct picks.
var resultTypeValues = []string{"2::int2", "3::int4", "4::int8", "1.25::numeric", "1.25::numeric(5,2)", "1.5::float4", "2.5::float8", "'7'", "NULL"}

// TestResultCommonTypeDifferential puts every pair of resultTypeValues into
// the constructs whose type is PostgreSQL's select_common_type
// (resultConstructs) and compares each value and its
// pg_typeof with PostgreSQL 15: real with an integer or numeric was double
// precision there, as arithmetic's operands are, where PostgreSQL keeps
// real.
func TestResultCommonTypeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	tallyResultPairs(t, ctx, r, resultTypeValues, "x", stats)
	t.Logf("%v", stats)
	if stats["same"] < 300 {
		t.Errorf("outcomes: %v", stats)
	}
}

// resultConstructs are the constructs whose type is PostgreSQL's
// select_common_type, over two inputs (%[1]s, %[2]s), as a FROM item of
// one column x.
var resultConstructs = []string{
	"(SELECT COALESCE(%[1]s, %[2]s) AS x) s",
	"(SELECT CASE WHEN random() < 2 THEN %[1]s ELSE %[2]s END AS x) s",
	"(SELECT %[1]s AS x UNION ALL SELECT %[2]s) s",
	"(VALUES (%[1]s), (%[2]s)) AS v(x)",
	"(SELECT GREATEST(%[1]s, %[2]s) AS x) s",
	"(SELECT LEAST(%[1]s, %[2]s) AS x) s",
	"(SELECT (ARRAY[%[1]s, %[2]s])[1] AS x) s",
}

// tallyResultPairs puts every pair of values into every resultConstruct
// and tallies the rows of shown (an expression of x) and x's pg_typeof.
func tallyResultPairs(t *testing.T, ctx context.Context, r *Runner, values []string, shown string, stats map[string]int) {
	t.Helper()
	for _, a := range values {
		for _, b := range values {
			for _, from := range resultConstructs {
				tally(t, ctx, r, "SELECT "+shown+", pg_typeof(x)::text FROM "+fmt.Sprintf(from, a, b), stats)
			}
		}
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
	tallyResultPairs(t, ctx, r, resultTypmodValues, "'[' || x || ']'", stats)
	t.Logf("%v", stats)
	if stats["same"] < 250 {
		t.Errorf("outcomes: %v", stats)
	}
}

// typmodColumns are columns of types with and without type modifiers.
var typmodColumns = []string{"a varchar(3)", "b varchar(5)", "c char(3)", "d numeric(5,2)", "e numeric(6,2)", "f timestamp(2)", "g int", "h text", "i timestamp(2)"}

// TestResultTypmodOfColumnsDifferential puts every pair of typmodColumns
// into the result constructs (COALESCE, CASE with and without ELSE,
// GREATEST, UNION ALL) as the columns of a view and compares the view's
// column types, type modifiers included (format_type of pg_attribute),
// with PostgreSQL 15: a common type keeps a modifier only when every
// input has the type with that modifier (select_common_typmod), and a CASE
// without ELSE has a NULL input; COALESCE of a varchar(3) and a char(3)
// was varchar(3), CASE WHEN .. THEN a timestamp(2) END timestamp(2).
func TestResultTypmodOfColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	cols := make([]string, len(typmodColumns))
	for i, c := range typmodColumns {
		cols[i] = strings.Fields(c)[0]
	}
	runOnBoth(t, ctx, r, "CREATE TABLE rtm ("+strings.Join(typmodColumns, ", ")+")")
	stats := map[string]int{}
	for _, x := range cols {
		for _, y := range cols {
			for k, expr := range []string{
				fmt.Sprintf("SELECT COALESCE(%s, %s) AS v FROM rtm", x, y),
				fmt.Sprintf("SELECT CASE WHEN random() < 2 THEN %s END AS v FROM rtm", x),
				fmt.Sprintf("SELECT CASE WHEN random() < 2 THEN %s ELSE %s END AS v FROM rtm", x, y),
				fmt.Sprintf("SELECT GREATEST(%s, %s) AS v FROM rtm", x, y),
				fmt.Sprintf("SELECT %s AS v FROM rtm UNION ALL SELECT %s FROM rtm", x, y),
				fmt.Sprintf("SELECT v FROM rtm, LATERAL (VALUES (%s), (%s)) AS l(v)", x, y),
			} {
				view := fmt.Sprintf("rtm_%s_%s_%d", x, y, k)
				create := "CREATE VIEW " + view + " AS " + expr
				sg, pg := r.SQLGate.Run(ctx, create), r.Postgres.Run(ctx, create)
				if (sg.Err == nil) != (pg.Err == nil) {
					stats["different"]++
					t.Errorf("%s\n  sqlgate: %s\n  PostgreSQL: %s", create, describeErr(sg), describeErr(pg))
					continue
				}
				if sg.Err != nil {
					tally(t, ctx, r, expr, stats) // both refuse: the same error
					continue
				}
				tally(t, ctx, r, "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"+view+"'::regclass AND attnum > 0", stats)
				runOnBoth(t, ctx, r, "DROP VIEW "+view)
			}
		}
	}
	runOnBoth(t, ctx, r, "DROP TABLE rtm")
	t.Logf("%v", stats)
	if stats["same"] < 150 || stats["refused alike"] == 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
