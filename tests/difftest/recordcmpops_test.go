package difftest

import (
	"context"
	"strings"
	"testing"
)

// recordFieldValues are typed values a record's second field is tried
// with: types record_eq and record_cmp compare (and refuse to compare with
// one another: int and bigint, text and varchar are 42804), and json and
// json[], which have no equality operator or comparison function (42883,
// named as the type cache names the field's type).
var recordFieldValues = []string{
	"2", "2::bigint", "2.0", "'x'::text", "'x'::varchar", "true",
	"'{}'::json", "'{}'::jsonb", "ARRAY['{}'::json]", "ARRAY[2]", "ROW('{}'::json)", "ROW(2)",
}

// recordCompareShapes compare a record (or an array of records) whose
// second field is $A with one whose second field is $B, in every place a
// record comparison is made: IN and NOT IN (SELECT), op ANY/ALL (SELECT),
// op ANY (array), plain operators over records and arrays of records.
var recordCompareShapes = []string{
	"SELECT ARRAY[ROW(1, $A)] IN (SELECT ARRAY[ROW(1, $B)])",
	"SELECT ARRAY[ROW(1, $A)] NOT IN (SELECT ARRAY[ROW(1, $B)])",
	"SELECT ARRAY[ROW(1, $A)] = ANY (SELECT ARRAY[ROW(1, $B)])",
	"SELECT ARRAY[ROW(1, $A)] < ALL (SELECT ARRAY[ROW(1, $B)])",
	"SELECT ARRAY[ROW(1, $A)] = ARRAY[ROW(1, $B)]",
	"SELECT ARRAY[ROW(1, $A)] >= ARRAY[ROW(1, $B)]",
	"SELECT ARRAY[ARRAY[ROW(1, $A)]] <> ARRAY[ARRAY[ROW(1, $B)]]",
	"SELECT (SELECT ROW(1, $A)) IN (SELECT ROW(1, $B))",
	"SELECT (SELECT ROW(1, $A)) = (SELECT ROW(1, $B))",
	"SELECT (SELECT ROW(1, $A)) > (SELECT ROW(1, $B))",
	"SELECT (SELECT ROW(1, $A)) = ANY (ARRAY[ROW(1, $B)])",
	"SELECT (SELECT ROW(1, $A)) <= ANY (ARRAY[ROW(1, $B)])",
	"SELECT ROW(1, $A) IS DISTINCT FROM (SELECT ROW(1, $B))",
}

// TestRecordCompareOperatorsDifferential: every shape × every ordered pair
// of field values on sqlgate and PostgreSQL 15: the same answer, or the
// same error (SQLSTATE and message: which types it names).
func TestRecordCompareOperatorsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	total := 0
	for _, shape := range recordCompareShapes {
		for _, a := range recordFieldValues {
			for _, b := range recordFieldValues {
				total++
				q := strings.NewReplacer("$A", a, "$B", b).Replace(shape)
				sg := r.SQLGate.Run(ctx, q)
				pg := r.Postgres.Run(ctx, q)
				if sg.Err != nil && sg.Err.Code == connErrorCode {
					t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
				}
				same, why := Compare(sg, pg, false, false)
				if same && sg.Err != nil && sg.Err.Message != pg.Err.Message {
					same, why = false, "messages differ"
				}
				if !same {
					stats["different"]++
					t.Errorf("%s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, describe(sg), describe(pg))
					continue
				}
				stats["same"]++
			}
		}
	}
	t.Logf("%d queries: %v", total, stats)
	if stats["same"] != total {
		t.Errorf("not every query gave PostgreSQL's answer: %v", stats)
	}
}
