package functions

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

func tstzCol(ts ...time.Time) arrow.Array {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	defer b.Release()
	for _, x := range ts {
		b.Append(arrow.Timestamp(x.UnixMicro()))
	}
	return b.NewArray()
}

func zoneCtx(t *testing.T, name string) context.Context {
	t.Helper()
	// the zone arrives through the session's TimeZone setting, as the
	// engine passes it
	return WithSession(context.Background(), Session{Setting: func(n string) (string, bool) {
		if n == "timezone" {
			return name, true
		}
		return "", false
	}})
}

func TestLocationOf(t *testing.T) {
	if LocationOf(nil) != time.UTC || LocationOf(context.Background()) != time.UTC {
		t.Error("no session: want UTC")
	}
	if got := LocationOf(zoneCtx(t, "Europe/Paris")).String(); got != "Europe/Paris" {
		t.Errorf("from the setting: %s", got)
	}
	if got := LocationOf(zoneCtx(t, "no such zone")); got != time.UTC {
		t.Errorf("bad setting: %s", got)
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	ctx := WithSession(context.Background(), Session{Location: paris, Setting: func(string) (string, bool) { return "Asia/Tokyo", true }})
	if LocationOf(ctx) != paris {
		t.Error("Session.Location must win over the setting")
	}
}

// Expected values from PostgreSQL 15 with the same TimeZone.
func TestDateTimeFunctionsUseTheSessionZone(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		zone, fn string
		consts   []any
		args     func() []arrow.Array
		want     []string
	}{
		{"Europe/Paris", "date_part", []any{"hour", nil}, func() []arrow.Array {
			return []arrow.Array{strCol("hour", "hour"), tstzCol(at("2024-07-01T23:30:00Z"), at("2024-01-01T23:30:00Z"))}
		}, []string{"1", "0"}},
		{"Europe/Paris", "date_part", []any{"timezone", nil}, func() []arrow.Array {
			return []arrow.Array{strCol("timezone", "timezone"), tstzCol(at("2024-07-01T23:30:00Z"), at("1850-01-01T00:00:00Z"))}
		}, []string{"7200", "561"}},
		{"America/St_Johns", "date_part", []any{"timezone_minute", nil}, func() []arrow.Array {
			return []arrow.Array{strCol("timezone_minute", "timezone_hour"), tstzCol(at("2024-01-01T00:00:00Z"), at("2024-01-01T00:00:00Z"))}
		}, []string{"-30", "-3"}},
		{"Europe/Paris", "date_part", []any{"day", nil}, func() []arrow.Array {
			return []arrow.Array{strCol("day"), tstzCol(at("2024-07-01T23:30:00Z"))}
		}, []string{"2"}},
		{"Europe/Paris", "date_trunc", []any{"day", nil}, func() []arrow.Array {
			return []arrow.Array{strCol("day", "month", "hour"), tstzCol(at("2024-03-31T00:30:00Z"), at("2024-10-27T00:30:00Z"), at("2024-10-27T00:30:00Z"))}
			// the harness renders in UTC: midnight in Paris on 2024-03-31
			// (+01), on 2024-10-01 (+02), 02:00+02 on 2024-10-27
		}, []string{"2024-03-30 23:00:00+00", "2024-09-30 22:00:00+00", "2024-10-27 00:00:00+00"}},
		{"Asia/Kolkata", "to_char", []any{nil, "YYYY-MM-DD HH24:MI:SS TZ tz"}, func() []arrow.Array {
			return []arrow.Array{tstzCol(at("2024-07-01T23:30:00Z"), at("1850-01-01T00:00:00Z")), strCol("YYYY-MM-DD HH24:MI:SS TZ tz", "YYYY-MM-DD HH24:MI:SS TZ tz")}
		}, []string{"2024-07-02 05:00:00 IST ist", "1850-01-01 05:53:28 LMT lmt"}},
		{"-5", "to_char", []any{nil, "HH24 TZ"}, func() []arrow.Array {
			return []arrow.Array{tstzCol(at("2024-07-01T23:30:00Z")), strCol("HH24 TZ")}
		}, []string{"18 -05"}},
		{"Europe/Paris", "concat", nil, func() []arrow.Array {
			return []arrow.Array{strCol("at "), tstzCol(at("2024-07-01T23:30:00Z"))}
		}, []string{"at 2024-07-02 01:30:00+02"}},
	}
	for _, c := range cases {
		ctx := zoneCtx(t, c.zone)
		args := c.args()
		got, err := run(t, ctx, c.fn, c.consts, args...)
		release(args)
		if err != nil {
			t.Errorf("%s in %s: %v", c.fn, c.zone, err)
			continue
		}
		for i := range c.want {
			if i >= len(got) || got[i] != c.want[i] {
				t.Errorf("%s(%v) in %s = %q, want %q", c.fn, c.consts, c.zone, got, c.want)
				break
			}
		}
	}
}

func TestClockInTheSessionZone(t *testing.T) {
	txn := time.Date(2024, 5, 6, 23, 8, 9, 0, time.UTC)
	ctx := WithClock(zoneCtx(t, "Asia/Tokyo"), Clock{TransactionStart: txn, StatementStart: txn})
	for name, want := range map[string]string{
		"now":            "2024-05-07 08:08:09+09",
		"localtimestamp": "2024-05-07 08:08:09",
		"current_date":   "2024-05-07",
	} {
		f, _, err := Resolve(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := f.Kernel(ctx, memory.DefaultAllocator, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		got := renderText(out, 0, f.Ret)
		if name == "now" {
			got = types.FormatTextIn(types.ValueAt(out, 0), f.Ret, LocationOf(ctx))
		}
		if got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
		out.Release()
	}
}

// timezone(zone, x) is x AT TIME ZONE zone; expected values from
// PostgreSQL 15 (session TimeZone UTC).
func TestTimezoneFunction(t *testing.T) {
	at := func(s string) time.Time {
		v, _ := time.Parse(time.RFC3339, s)
		return v
	}
	ctx := context.Background()
	noon := at("2024-07-01T12:00:00Z")
	for _, c := range []struct {
		zone string
		want string
	}{
		{"Europe/Paris", "2024-07-01 14:00:00"},
		{"europe/paris", "2024-07-01 14:00:00"},
		{"EST", "2024-07-01 07:00:00"},
		{"+05", "2024-07-01 07:00:00"}, // POSIX: five hours west
		{"UTC+3", "2024-07-01 09:00:00"},
		{"Asia/Kolkata", "2024-07-01 17:30:00"},
	} {
		args := []arrow.Array{strCol(c.zone), tstzCol(noon)}
		got, err := run(t, ctx, "timezone", []any{c.zone, nil}, args...)
		release(args)
		if err != nil || got[0] != c.want {
			t.Errorf("timezone(%q, timestamptz) = %v %v, want %s", c.zone, got, err, c.want)
		}
	}
	// timestamp -> timestamptz; results rendered in UTC
	for _, c := range []struct{ ts, want string }{
		{"2024-07-01T12:00:00Z", "2024-07-01 10:00:00+00"},
		{"2024-03-31T02:30:00Z", "2024-03-31 01:30:00+00"}, // in the gap
		{"2024-10-27T02:30:00Z", "2024-10-27 01:30:00+00"}, // ambiguous: the later
	} {
		args := []arrow.Array{strCol("Europe/Paris"), tsCol(at(c.ts))}
		got, err := run(t, ctx, "timezone", []any{"Europe/Paris", nil}, args...)
		release(args)
		if err != nil || got[0] != c.want {
			t.Errorf("timezone('Europe/Paris', %s) = %v %v, want %s", c.ts, got, err, c.want)
		}
	}
	args := []arrow.Array{strCol("Mars/X"), tstzCol(noon)}
	defer release(args)
	if _, err := run(t, ctx, "timezone", nil, args...); err == nil || err.Error() != `time zone "Mars/X" not recognized` {
		t.Errorf("unknown zone: %v", err)
	}
}
