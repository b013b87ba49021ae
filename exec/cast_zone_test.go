package exec

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Expected values from PostgreSQL 15 with SET TIME ZONE 'Europe/Paris'.
func TestCastsUseTheSessionZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	tz, ts, date, text := types.TimestampTZType(6), types.TimestampType(6), types.DateType, types.StringType
	timeT := types.T{Kind: types.Time, Precision: 6}
	parse := func(s string, typ types.T) any {
		v, err := types.ParseTextIn(s, typ, paris)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		in       string
		from, to types.T
		want     string
	}{
		{"2024-07-01 00:00+02", tz, ts, "2024-07-01 00:00:00"},
		{"2024-07-01 23:30+00", tz, date, "2024-07-02"},
		{"2024-07-01 23:30+00", tz, timeT, "01:30:00"},
		{"2024-07-01 23:30+00", tz, text, "2024-07-02 01:30:00+02"},
		{"2024-07-01 00:00", ts, tz, "2024-07-01 00:00:00+02"},
		{"2024-03-31 02:30", ts, tz, "2024-03-31 03:30:00+02"},
		{"2024-10-27 02:30", ts, tz, "2024-10-27 02:30:00+01"},
		{"2024-07-01", date, tz, "2024-07-01 00:00:00+02"},
		{"1850-01-02 03:13:26", ts, tz, "1850-01-02 03:13:26+00:09:21"},
		{"2024-07-01 12:00", ts, date, "2024-07-01"},
	}
	ec := &EvalContext{Ctx: functions.WithSession(context.Background(), functions.Session{Location: paris}), Mem: memory.NewGoAllocator()}
	for _, c := range cases {
		x := &ConstExpr{Value: parse(c.in, c.from), T: c.from}
		out, err := EvalScalar(ec, &CastExpr{X: x, T: c.to})
		if err != nil {
			t.Errorf("%s::%s: %v", c.in, c.to.PGName(), err)
			continue
		}
		if got := types.FormatTextIn(out, c.to, paris); got != c.want {
			t.Errorf("%s (%s) :: %s = %q, want %q", c.in, c.from.PGName(), c.to.PGName(), got, c.want)
		}
	}
	// text -> timestamptz reads the text in the session zone
	out, err := EvalScalar(ec, &CastExpr{X: &ConstExpr{Value: "2024-01-01 00:00", T: text}, T: tz})
	if err != nil || types.FormatTextIn(out, tz, time.UTC) != "2023-12-31 23:00:00+00" {
		t.Errorf("text to timestamptz: %v %v", out, err)
	}
	// without a session the zone is UTC
	plain := &EvalContext{Ctx: context.Background(), Mem: memory.NewGoAllocator()}
	out, err = EvalScalar(plain, &CastExpr{X: &ConstExpr{Value: parse("2024-07-01 23:30+00", tz), T: tz}, T: date})
	if err != nil || types.FormatText(out, date) != "2024-07-01" {
		t.Errorf("no session: %v %v", out, err)
	}
}

func TestCastValueRefusesZoneDependentCasts(t *testing.T) {
	tz, ts := types.TimestampTZType(6), types.TimestampType(6)
	iv := types.T{Kind: types.Interval}
	for _, c := range []struct {
		from, to types.T
		needs    bool // the session's settings
		zone     bool // its TimeZone
	}{
		{tz, ts, true, true}, {ts, tz, true, true}, {tz, types.DateType, true, true}, {types.DateType, tz, true, true},
		{tz, types.StringType, true, true}, {types.StringType, tz, true, true}, {tz, types.T{Kind: types.Time, Precision: 6}, true, true},
		{tz, tz, false, false}, {ts, types.DateType, false, false}, {types.Int64Type, types.StringType, false, false},
		// DateStyle and IntervalStyle write these as text, and
		// IntervalStyle reads an interval
		{ts, types.StringType, true, false}, {types.DateType, types.StringType, true, false}, {iv, types.StringType, true, false},
		{types.ArrayOf(types.DateType), types.StringType, true, false}, {types.StringType, iv, true, false},
	} {
		if got := CastNeedsZone(c.from, c.to); got != c.zone {
			t.Errorf("CastNeedsZone(%s, %s) = %v", c.from.PGName(), c.to.PGName(), got)
		}
		if got := CastNeedsSession(c.from, c.to); got != c.needs {
			t.Errorf("CastNeedsSession(%s, %s) = %v", c.from.PGName(), c.to.PGName(), got)
		}
		var v any = int64(0)
		switch c.from.Kind {
		case types.Date:
			v = int32(0)
		case types.String:
			v = "2024-01-01"
		case types.Interval:
			v = arrow.MonthDayNanoInterval{}
		case types.Array:
			v = []any{int32(0)}
		}
		_, err := CastValue(v, c.from, c.to)
		if c.needs && sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("CastValue(%s -> %s) = %v, want 0A000 (plan-time folding must leave it)", c.from.PGName(), c.to.PGName(), err)
		}
		if !c.needs && err != nil {
			t.Errorf("CastValue(%s -> %s): %v", c.from.PGName(), c.to.PGName(), err)
		}
	}
}
