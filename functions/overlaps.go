package functions

import (
	"context"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// overlaps(start1, end1|length1, start2, end2|length2) over timestamps,
// timestamps with time zone, times and times with time zone, as PostgreSQL
// 15's overlaps_timestamp/overlaps_time/overlaps_timetz (a length is start + length first, as
// its SQL-language overloads compute), with their NULL rules; and
// timestamp(date, time), timestamptz(date, time).

func overlapsFuncs() []*Func {
	var fs []*Func
	for _, t := range []types.T{tsT, tstzT, timeT} {
		for _, shape := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			args := []types.T{t, t, t, t}
			if shape[0] {
				args[1] = ivT
			}
			if shape[1] {
				args[3] = ivT
			}
			fs = append(fs, &Func{Name: "overlaps", Args: args, Ret: tBool, Kernel: overlapsKernel(t, shape)})
		}
	}
	// timetz has only the four-value form (overlaps_timetz); its packed
	// int64 orders as timetz_cmp does
	fs = append(fs, &Func{Name: "overlaps", Args: []types.T{tzT, tzT, tzT, tzT}, Ret: tBool, Kernel: overlapsKernel(tzT, [2]bool{})})
	fs = append(fs,
		&Func{Name: "timestamp", Args: []types.T{dateT, timeT}, Ret: tsT, Strict: true, Kernel: datePlusTime},
		&Func{Name: "timestamptz", Args: []types.T{dateT, timeT}, Ret: tstzT, Strict: true, Kernel: dateTimeZoned})
	return fs
}

// dateTimeZoned is timestamptz(date, time): the wall time date + time in
// the session's time zone.
func dateTimeZoned(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	wall, err := datePlusTime(ctx, mem, args, n)
	if err != nil {
		return nil, err
	}
	defer wall.Release()
	loc := LocationOf(ctx)
	ts := wall.(*array.Timestamp)
	return rowKernel(tstzT, true, func([]arrow.Array) (func(int) (any, error), error) {
		return func(i int) (any, error) {
			us := int64(ts.Value(i))
			if us == math.MaxInt64 || us == math.MinInt64 {
				return us, nil
			}
			return types.LocalToInstant(time.UnixMicro(us).UTC(), loc).UnixMicro(), nil
		}, nil
	})(ctx, mem, []arrow.Array{wall}, n)
}

// overlapsKernel computes the ends given as lengths, then compares.
func overlapsKernel(t types.T, lengths [2]bool) Kernel {
	plus := timestampPlusInterval(1, t.Kind == types.TimestampTZ)
	if t.Kind == types.Time {
		plus = timePlusInterval(1)
	}
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		ends := []arrow.Array{args[1], args[3]}
		for k, isLen := range lengths {
			if !isLen {
				continue
			}
			e, err := plus(ctx, mem, []arrow.Array{args[2*k], args[2*k+1]}, n)
			if err != nil {
				return nil, err
			}
			defer e.Release()
			ends[k] = e
		}
		vals := []arrow.Array{args[0], ends[0], args[2], ends[1]}
		get := make([]func(int) int64, 4)
		for k, a := range vals {
			switch x := a.(type) {
			case *array.Timestamp:
				get[k] = func(i int) int64 { return int64(x.Value(i)) }
			case *array.Time64:
				get[k] = func(i int) int64 { return int64(x.Value(i)) }
			case *array.Int64: // timetz
				get[k] = x.Value
			default:
				return nil, badArg(k, a, "a timestamp or time")
			}
		}
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			var v [4]int64
			var null [4]bool
			for k := range vals {
				if null[k] = vals[k].IsNull(i); !null[k] {
					v[k] = get[k](i)
				}
			}
			r, ok := overlaps(v, null)
			if !ok {
				b.AppendNull()
			} else {
				b.Append(r)
			}
		}
		return b.NewArray(), nil
	}
}

// overlaps is overlaps_timestamp's logic; ok false is NULL.
func overlaps(v [4]int64, null [4]bool) (result, ok bool) {
	ts1, te1, ts2, te2 := v[0], v[1], v[2], v[3]
	ts1Null, te1Null, ts2Null, te2Null := null[0], null[1], null[2], null[3]
	// a NULL start takes the end's place; each interval put in order
	if ts1Null {
		if te1Null {
			return false, false
		}
		ts1, te1Null = te1, true
	} else if !te1Null && ts1 > te1 {
		ts1, te1 = te1, ts1
	}
	if ts2Null {
		if te2Null {
			return false, false
		}
		ts2, te2Null = te2, true
	} else if !te2Null && ts2 > te2 {
		ts2, te2 = te2, ts2
	}
	switch {
	case ts1 > ts2:
		if te2Null {
			return false, false
		}
		if ts1 < te2 {
			return true, true
		}
		if te1Null {
			return false, false
		}
		return false, true
	case ts1 < ts2:
		if te1Null {
			return false, false
		}
		if ts2 < te1 {
			return true, true
		}
		if te2Null {
			return false, false
		}
		return false, true
	}
	if te1Null || te2Null {
		return false, false
	}
	return true, true
}
