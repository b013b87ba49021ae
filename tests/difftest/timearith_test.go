package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// Interval and time arithmetic at its edges, under several session time
// zones: justify_*, interval * and / float (fractions of months and days
// spilling down, NaN, the infinities, overflow), date ± integer,
// timestamp and timestamptz differences across DST changes, age(),
// extract and date_trunc of timestamptz, make_* and to_timestamp(float)
// in and out of range, date + time and date to timestamp past the
// timestamp range. Left out: timestamps past 294247 AD and interval times
// past int64 nanoseconds (known differences, see funcs_bughunt_test.go),
// and make_interval's seconds past int64 microseconds (PostgreSQL 15
// converts them unchecked).

// timeArithCall is a random call of the family.
func timeArithCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	iv := func() string {
		return p("interval '1 mon'", "interval '35 days'", "interval '27 hours'", "interval '1 mon -1 hour'", "interval '-1 mon 1 hour'",
			"interval '1 year 2 mons 3 days 04:05:06.789'", "interval '-1.5 days'", "interval '2147483647 days'", "interval '0'",
			"interval '178000000 years'", "interval '1 microsecond'", "interval '-178956970 years -8 mons'", "interval '1 mon 30 days'")
	}
	num := func() string {
		return p("1.5", "0.5", "-0.3", "1e-12", "3", "7", "0", "-1", "'NaN'::float8", "'Infinity'::float8", "1e10", "0.999999999", "2.5::float4", "1e-3")
	}
	tz := func() string {
		return p("timestamptz '2024-03-10 07:30:00+00'", "timestamptz '2024-11-03 05:30:00+00'", "timestamptz '2024-04-07 01:45:00+11'",
			"timestamptz '2024-09-29 02:50:00+12:45'", "timestamptz '2024-10-27 01:30:00+01'", "timestamptz '2000-02-29 23:59:59.999999+00'",
			"timestamptz 'infinity'", "timestamptz '1900-01-01 00:00:00+00'")
	}
	ts := func() string {
		return p("timestamp '2024-02-29 12:00'", "timestamp '2024-03-10 02:30'", "timestamp '2023-02-28'", "timestamp '2024-03-31'",
			"timestamp '0044-03-15 12:00 BC'", "timestamp '-infinity'", "timestamp '2000-01-01 00:00:00.5'")
	}
	d := func() string {
		return p("date '2024-02-29'", "date '2024-03-01'", "date '0001-01-01'", "date '0001-12-31 BC'", "date 'infinity'", "date '5874897-12-30'")
	}
	field := func() string {
		return p("epoch", "hour", "minute", "second", "milliseconds", "microseconds", "day", "dow", "isodow", "doy", "week", "month", "quarter",
			"year", "isoyear", "decade", "century", "millennium", "julian", "timezone", "timezone_hour", "timezone_minute")
	}
	switch rng.Intn(12) {
	case 0:
		return fmt.Sprintf("%s(%s)", p("justify_days", "justify_hours", "justify_interval"), iv())
	case 1, 2:
		return fmt.Sprintf("%s %s %s", iv(), p("*", "/"), num())
	case 3:
		if rng.Intn(2) == 0 {
			return fmt.Sprintf("%s + %s", d(), p("time '01:00'", "time '23:59:59.999999'", "time '00:00'"))
		}
		return fmt.Sprintf("%s %s %s", d(), p("+", "-"), p("1", "-1", "365", "2147483647", "0", "-2147483648"))
	case 4:
		return fmt.Sprintf("%s - %s", p(ts(), tz()), p(ts(), tz()))
	case 5:
		return fmt.Sprintf("age(%s, %s)", p(ts(), tz()), p(ts(), tz()))
	case 6:
		return fmt.Sprintf("extract(%s from %s)", field(), p(tz(), tz(), ts(), iv()))
	case 7:
		return fmt.Sprintf("date_trunc('%s', %s)", p("hour", "day", "week", "month", "quarter", "year", "decade", "century", "millennium"), p(tz(), tz(), ts(), iv()))
	case 8:
		return fmt.Sprintf("to_timestamp(%s)", p("0", "1e10", "-1.5", "'Infinity'", "'-Infinity'", "'NaN'", "1e20", "9224318016000", "9224318015999.999999",
			"-210866803200", "-210866803200.5", "123456789012345", "1709999999.9999995", "-1e17"))
	case 9:
		return fmt.Sprintf("make_timestamptz(2024, %s, %s, %s, %s, %s%s)", p("3", "11", "4", "9", "2", "13"), p("10", "3", "7", "29", "30"),
			p("0", "1", "2", "3", "24"), p("0", "30", "59", "60"), p("0", "59.999999", "60", "-1"), p("", ", 'America/New_York'", ", 'UTC+3'", ", 'Pacific/Chatham'"))
	case 10:
		return fmt.Sprintf("make_interval(%s, %s, %s, %s, %s, %s, %s)", p("0", "1", "-1", "2147483647"), p("0", "13", "-1"), p("0", "1", "-2"),
			p("0", "31", "2147483647"), p("0", "25", "-1"), p("0", "61"), p("0", "1.5", "-0.000001", "'Infinity'", "1e9"))
	}
	return fmt.Sprintf("%s %s %s", p(tz(), ts(), d()), p("+", "-"), iv())
}

// TestTimeArithmeticDifferential runs the family's random calls on both
// servers, switching the session time zone every 100 calls.
func TestTimeArithmeticDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 61))))
	zones := []string{"UTC", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "Europe/London", "Asia/Kolkata"}
	stats := map[string]int{}
	const n = 1500
	for i := 0; i < n; i++ {
		if i%100 == 0 {
			zone := "SET TIME ZONE '" + zones[(i/100)%len(zones)] + "'"
			for _, c := range []Executor{r.SQLGate, r.Postgres} {
				if res := c.Run(ctx, zone); res.Err != nil {
					t.Fatalf("%s: %s", zone, res.Err.Message)
				}
			}
		}
		tallyBy(t, ctx, r, "SELECT "+timeArithCall(rng), stats, tallyRule{ordered: true})
	}
	t.Logf("%d calls: %v", n, stats)
	if stats["same"] < n/2 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
