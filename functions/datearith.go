package functions

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Date arithmetic: PostgreSQL's date + integer, date - integer (days) and
// date - date (days between). The binder turns those operators into these
// functions; their names start with "__" so no query can call them.
func dateArithFuncs() []*Func {
	d := types.DateType
	return []*Func{
		{Name: "__date_pl_days", Args: []types.T{d, tInt4}, Ret: d, Strict: true, Kernel: dateAddDays(1)},
		{Name: "__date_mi_days", Args: []types.T{d, tInt4}, Ret: d, Strict: true, Kernel: dateAddDays(-1)},
		{Name: "__date_mi_date", Args: []types.T{d, d}, Ret: tInt4, Strict: true, Kernel: dateMinusDate},
	}
}

// PostgreSQL's date range in days since 1970-01-01: Julian day 0 (4714-11-24
// BC) up to 5874897-12-31.
const (
	minDateDays = -2440588
	maxDateDays = 2145042905
)

func dateAddDays(sign int64) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		dates, ok1 := args[0].(*array.Date32)
		days, ok2 := args[1].(*array.Int32)
		if !ok1 || !ok2 {
			return nil, sqlerr.New(sqlerr.InternalError, "date arithmetic over %s and %s", args[0].DataType(), args[1].DataType())
		}
		b := array.NewDate32Builder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if dates.IsNull(i) || days.IsNull(i) {
				b.AppendNull()
				continue
			}
			if v := dates.Value(i); v == math.MaxInt32 || v == math.MinInt32 {
				b.Append(v) // ±infinity plus days is itself (date_pli)
				continue
			}
			r := int64(dates.Value(i)) + sign*int64(days.Value(i))
			if r < minDateDays || r > maxDateDays {
				return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date out of range")
			}
			b.Append(arrow.Date32(r))
		}
		return b.NewArray(), nil
	}
}

func dateMinusDate(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	if err := checkArity(args, n); err != nil {
		return nil, err
	}
	a, ok1 := args[0].(*array.Date32)
	c, ok2 := args[1].(*array.Date32)
	if !ok1 || !ok2 {
		return nil, sqlerr.New(sqlerr.InternalError, "date - date over %s and %s", args[0].DataType(), args[1].DataType())
	}
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if a.IsNull(i) || c.IsNull(i) {
			b.AppendNull()
			continue
		}
		if x, y := a.Value(i), c.Value(i); x == math.MaxInt32 || x == math.MinInt32 || y == math.MaxInt32 || y == math.MinInt32 {
			return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "cannot subtract infinite dates")
		}
		r := int64(a.Value(i)) - int64(c.Value(i))
		if r != int64(int32(r)) {
			return nil, types.IntOutOfRange(types.Int32Type)
		}
		b.Append(int32(r))
	}
	return b.NewArray(), nil
}
