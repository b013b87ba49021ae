package pgtypes

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestStylesMatchTypes: the wire's text of dates, timestamps, timestamptz
// and intervals in every DateStyle, order and IntervalStyle is
// types.FormatTextStyle's (the ::text cast's), which PostgreSQL's own
// outputs test (types/dtoutput_test.go); binary and json are the same
// whatever the styles.
func TestStylesMatchTypes(t *testing.T) {
	loc, err := time.LoadLocation("America/St_Johns") // -03:30, and LMT -03:30:52
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	mem := memory.NewGoAllocator()
	dates := array.NewDate32Builder(mem)
	tsT, tzT := types.TimestampType(6), types.TimestampTZType(6)
	ts := array.NewTimestampBuilder(mem, tsT.ArrowType().(*arrow.TimestampType))
	tz := array.NewTimestampBuilder(mem, tzT.ArrowType().(*arrow.TimestampType))
	ivs := array.NewMonthDayNanoIntervalBuilder(mem)
	for i := 0; i < 300; i++ {
		days := r.Int64N(2*1_000_000) - 1_000_000 // 700 BC to 4700 AD
		us := days*86400_000_000 + r.Int64N(86400_000_000)
		if i%7 == 0 {
			us -= us % 1_000_000 // whole seconds
		}
		dates.Append(arrow.Date32(days))
		ts.Append(arrow.Timestamp(us))
		tz.Append(arrow.Timestamp(us))
		ns := (r.Int64N(200_000_000_000) - 100_000_000_000) * 1000
		ivs.Append(arrow.MonthDayNanoInterval{Months: r.Int32N(40) - 20, Days: r.Int32N(40) - 20, Nanoseconds: ns})
	}
	dates.Append(arrow.Date32(math.MaxInt32))
	ts.Append(arrow.Timestamp(math.MinInt64))
	tz.Append(arrow.Timestamp(math.MaxInt64))
	ivs.Append(arrow.MonthDayNanoInterval{})
	cols := []struct {
		t   types.T
		arr arrow.Array
	}{{types.DateType, dates.NewArray()}, {tsT, ts.NewArray()}, {tzT, tz.NewArray()}, {types.T{Kind: types.Interval}, ivs.NewArray()}}
	for output := types.OutputISO; output <= types.OutputGerman; output++ {
		for order := types.OrderMDY; order <= types.OrderYMD; order++ {
			st := types.Style{Date: types.DateStyle{Output: output, Order: order}, Interval: types.IntervalStyle((int(order) + int(output)) % 4)}
			for _, c := range cols {
				for row := 0; row < c.arr.Len(); row++ {
					got, _, err := AppendValueStyle(nil, c.t, FormatText, c.arr, row, loc, st)
					if err != nil {
						t.Fatal(err)
					}
					want := types.FormatTextStyle(types.ValueAt(c.arr, row), c.t, loc, st)
					if string(got) != want {
						t.Fatalf("%s in %s/%s: wire %q, cast %q", c.t, st.Date, st.Interval, got, want)
					}
					bin, _, _ := AppendValueStyle(nil, c.t, FormatBinary, c.arr, row, loc, st)
					plain, _, _ := AppendValueIn(nil, c.t, FormatBinary, c.arr, row, loc)
					if string(bin) != string(plain) {
						t.Fatalf("%s in %s: binary differs from ISO's", c.t, st.Date)
					}
				}
			}
		}
	}
}
