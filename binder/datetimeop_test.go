package binder

import (
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestDatetimeArithmetic checks the date/time operators datetimeArithmetic
// resolves, and that the operators and operand kinds its early return
// skips (comparisons, AND/OR, two non-date/time operands) resolve to none.
func TestDatetimeArithmetic(t *testing.T) {
	iv := types.T{Kind: types.Interval}
	tm := types.T{Kind: types.Time, Precision: 6}
	ts := types.TimestampType(6)
	for _, c := range []struct {
		name   string
		op     Op
		l, r   types.T
		wantFn string // "" = not a date/time operator
		swap   bool
	}{
		{"date + int", OpAdd, types.DateType, types.Int32Type, "__date_pl_days", false},
		{"int + date", OpAdd, types.Int16Type, types.DateType, "__date_pl_days", true},
		{"date - date", OpSub, types.DateType, types.DateType, "__date_mi_date", false},
		{"time + date", OpAdd, tm, types.DateType, "__date_pl_time", true},
		{"timestamp - interval", OpSub, ts, iv, "__ts_mi_interval", false},
		{"interval + timestamptz", OpAdd, iv, types.TimestampTZType(6), "__tstz_pl_interval", true},
		{"time - interval", OpSub, tm, iv, "__time_mi_interval", false},
		{"timestamp - date", OpSub, ts, types.DateType, "__ts_mi_ts", false},
		{"interval + interval", OpAdd, iv, iv, "__interval_pl", false},
		{"interval / float", OpDiv, iv, types.Float64Type, "__interval_div", false},
		{"int * interval", OpMul, types.Int64Type, iv, "__interval_mul", true},
		{"int + int", OpAdd, types.Int32Type, types.Int64Type, "", false},
		{"text || text", OpConcat, types.StringType, types.StringType, "", false},
		{"date = date", OpEq, types.DateType, types.DateType, "", false},
		{"timestamp < timestamp", OpLt, ts, ts, "", false},
		{"date * int", OpMul, types.DateType, types.Int32Type, "", false},
	} {
		got, ok := datetimeArithmetic(c.op, c.l, c.r)
		if ok != (c.wantFn != "") || got.fn != c.wantFn || got.swap != c.swap {
			t.Errorf("%s: got (%q, swap %v, %v), want (%q, swap %v)", c.name, got.fn, got.swap, ok, c.wantFn, c.swap)
		}
	}
}
