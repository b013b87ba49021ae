package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// seriesBounds are generate_series arguments of every kind PostgreSQL 15
// has an overload for, written as the literals and casts users write:
// unknown strings resolve with the other arguments, a date reads as
// timestamptz (the preferred type of its category), numerics keep their
// scale in the values.
var seriesBounds = map[string][]string{
	"int": {"1", "-3", "10", "0", "'4'", "2::int2", "5::int8", "NULL::int"},
	"numeric": {"1.5", "0.25::numeric", "'2.50'::numeric", "10::numeric(6,2)", "-1.125", "'NaN'::numeric",
		"'Infinity'::numeric", "3", "'4.0'"},
	"step": {"1", "-1", "0", "0.5", "-0.75", "2::int8", "'3'", "0.0", "NULL::numeric"},
	"ts": {"timestamp '2024-01-31 10:00'", "'2024-03-09 12:00'::timestamp", "timestamp '2024-02-29'",
		"'2024-01-01'", "NULL::timestamp"},
	"tstz": {"timestamptz '2024-03-09 00:00'", "'2024-11-02 01:30-04'::timestamptz", "date '2024-03-08'",
		"'2024-03-12'", "timestamptz '2024-01-31'", "now()::date::timestamptz - now()::date::timestamptz + timestamptz '2024-05-01'"},
	"interval": {"'1 day'", "interval '1 month'", "'-12 hours'", "'1 day -24 hours'", "interval '1 mon -30 days'",
		"'0'", "'90 minutes'", "'1 week'", "'-1 month'", "NULL::interval"},
}

// TestSeriesDifferential: generate_series over integers, numerics,
// timestamps and timestamptz (with the DST change of America/New_York),
// in FROM (with ORDINALITY) and in the SELECT list, on sqlgate and
// PostgreSQL 15: the same rows in order, or the same refusal.
func TestSeriesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{r.SQLGate, r.Postgres} {
		if res := s.Run(ctx, "SET TimeZone = 'America/New_York'"); res.Err != nil {
			t.Fatalf("set TimeZone: %s", res.Err.Message)
		}
	}
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 22))))
	pick := func(kind string) string { l := seriesBounds[kind]; return l[rng.Intn(len(l))] }
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	for i := 0; i < 400; i++ {
		var args string
		switch i % 4 {
		case 0:
			args = fmt.Sprintf("%s, %s", pick("int"), pick("int"))
			if rng.Intn(2) == 0 {
				args += ", " + pick("step")
			}
		case 1:
			args = fmt.Sprintf("%s, %s, %s", pick("numeric"), pick("numeric"), pick("step"))
		case 2:
			args = fmt.Sprintf("%s, %s, %s", pick("ts"), pick("ts"), pick("interval"))
		default:
			args = fmt.Sprintf("%s, %s, %s", pick("tstz"), pick("tstz"), pick("interval"))
		}
		tallyBy(t, ctx, r, "SELECT g, pg_typeof(g) FROM generate_series("+args+") WITH ORDINALITY AS s(g, n) ORDER BY n LIMIT 12", stats, ordered)
		tallyBy(t, ctx, r, "SELECT generate_series("+args+") LIMIT 12", stats, ordered)
	}
	// the last values before an integer type's end: the series stops
	// there, no overflow error (PostgreSQL's FROM functions keep every row,
	// so no series here is longer than a few)
	for _, args := range []string{"9223372036854775806::int8, 9223372036854775807::int8",
		"2147483646, 2147483647", "-2147483647, -2147483648, -1", "2147483647, 2147483646, -1"} {
		tallyBy(t, ctx, r, "SELECT * FROM generate_series("+args+")", stats, ordered)
		tallyBy(t, ctx, r, "SELECT generate_series("+args+")", stats, ordered)
	}
	t.Logf("generate_series: %v", stats)
	if stats["same"] < 200 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
