package difftest

import (
	"context"
	"fmt"
	"testing"
)

// namedArgCalls are calls in named notation (name => value, name := value)
// of the built-ins PostgreSQL 15 names the parameters of, mixed with
// positional arguments, with skipped defaults, and wrong: an unknown name,
// a name given twice, a positional argument after a named one, a
// parameter given both ways, one without a default left out.
var namedArgCalls = []string{
	"make_date(year => 2020, month => 1, day => 2)",
	"make_date(day => 2, month => 1, year => 2020)",
	"make_date(2020, day => 2, month => 1)",
	"make_date(2020, 1, day := 2)",
	"make_date(\"year\" => 2020, \"month\" => 1, \"day\" => 2)",
	"make_date(YEAR => 2020, Month => 1, day => 2)",
	"make_date(year => 2020, month => 1)",
	"make_date(year => 2020, month => 1, dayz => 2)",
	"make_date(year => 2020, month => 1, day => 2, year => 2021)",
	"make_date(year => 2020, 1, 2)",
	"make_date(2020, year => 2021, day => 2)",
	"make_date(year => 2020, month => 13, day => 2)",
	"make_date(year => '2020', month => 1, day => NULL)",
	"make_time(sec => 1.5, min => 2, hour => 3)",
	"make_timestamp(year => 2020, month => 2, mday => 3, hour => 4, min => 5, sec => 6.5)",
	"make_timestamp(2020, 2, 3, sec => 6, min => 5, hour => 4)",
	"make_timestamptz(year => 2020, month => 2, mday => 3, hour => 4, min => 5, sec => 6, timezone => 'UTC')::text",
	"make_interval(days => 10)",
	"make_interval(secs => 1.5, years => 2)",
	"make_interval(1, days => 3)",
	"make_interval(weeks := 2, mins := 30)",
	"make_interval(day => 10)",
	"make_interval(days => 10, days => 11)",
	"make_interval(hours => 'x')",
	"jsonb_set(jsonb_in => '{\"a\": 1}', path => '{a}', replacement => '2')",
	"jsonb_set('{\"a\": 1}', '{b}', '2', create_if_missing => false)",
	"jsonb_insert('[1, 2]', '{0}', '0', insert_after => true)",
	"jsonb_set_lax('{\"a\": 1}', '{a}', NULL, null_value_treatment => 'delete_key')",
	"jsonb_set_lax('{\"a\": 1}', '{a}', NULL, null_value_treatment => 'return_target', create_if_missing => true)",
	"parse_ident(str => 'a.b', strict => false)",
	"parse_ident(strict => true, str => 'x.y')",
	"(SELECT string_agg(key || '=' || value, ',') FROM jsonb_each_text(from_json => '{\"a\": 1, \"b\": [2]}'))",
	"(SELECT count(*) FROM json_array_elements(from_json := '[1, 2, 3]'))",
	"(SELECT count(*) FROM json_array_elements(from_jsonb => '[1]'))",
	"length(str => 'abc')",
	"upper(x => 'abc', 'd')",
	"make_interval(mins => 1, hours => 2) + make_interval(days => coalesce(NULL, 2), weeks => (SELECT 1))",
}

// TestNamedArgumentsDifferential runs each of namedArgCalls (selected
// alone and inside a larger expression) on sqlgate and PostgreSQL 15: the
// same value and type, or the same SQLSTATE and message (and position,
// for the notation's own errors).
func TestNamedArgumentsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, call := range namedArgCalls {
		for _, form := range []string{"SELECT %s", "SELECT 1 AS a, %s AS b, 'z' AS c", "SELECT (SELECT %s) IS NULL"} {
			q := fmt.Sprintf(form, call)
			// the notation's own errors (42601, 42883) point where
			// PostgreSQL's do; an argument's conversion error points at the
			// call, named or not (binder's callFunction has no argument
			// positions)
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true, placed: func(code string) bool { return code == "42601" || code == "42883" }})
		}
	}
	t.Logf("%d calls: %v", len(namedArgCalls), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
