package relop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// intervalKind is what an intervalAcc computes.
type intervalKind int

const (
	intervalMin intervalKind = iota
	intervalMax
	intervalSum
	intervalAvg
)

// intervalAcc is min, max, sum and avg over intervals, as PostgreSQL's
// interval_smaller/larger (ordered by span, 30-day months and 24-hour
// days; of equal ones the later), interval_pl (field by field) and
// interval_avg (the sum divided by the count with interval_div) compute
// them.
type intervalAcc struct {
	arg    int
	kind   intervalKind
	vals   []arrow.MonthDayNanoInterval
	counts []int64
}

func (a *intervalAcc) resize(n int) { a.vals, a.counts = grow(a.vals, n), grow(a.counts, n) }
func (a *intervalAcc) size() int64  { return int64(cap(a.vals)) * 24 }
func (a *intervalAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	x := cols[a.arg].(*array.MonthDayNanoInterval)
	var err error
	forRows(len(groups), rows, func(i int) {
		if err != nil || x.IsNull(i) {
			return
		}
		g, v := groups[i], x.Value(i)
		switch {
		case a.counts[g] == 0:
			a.vals[g] = v
		// on a tie the later value wins, as interval_smaller/larger
		// return their second argument ('1 mon' and '30 days' are equal)
		case a.kind == intervalMin:
			if types.CompareIntervals(v, a.vals[g]) <= 0 {
				a.vals[g] = v
			}
		case a.kind == intervalMax:
			if types.CompareIntervals(v, a.vals[g]) >= 0 {
				a.vals[g] = v
			}
		default:
			a.vals[g], err = types.AddIntervals(a.vals[g], v)
		}
		a.counts[g]++
	})
	return err
}

func (a *intervalAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewMonthDayNanoIntervalBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.counts[g] == 0 {
			b.AppendNull()
			continue
		}
		v := a.vals[g]
		if a.kind == intervalAvg {
			var err error
			if v, err = types.DivInterval(v, float64(a.counts[g])); err != nil {
				return nil, err
			}
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}
