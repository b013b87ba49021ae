package relop

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// Aggregates whose result is numeric (PostgreSQL's sum(bigint),
// sum(numeric), avg of integers and numerics, stddev/variance of them).
// Integer and DECIMAL(p,s) arguments are summed exactly in 128 bits
// (decAcc, the fast path: one machine add per row, the same digits and
// display scale numeric's sum has), a group whose sum leaves 128 bits
// continuing in a big.Int; numeric arguments go through package numeric.
// The finish step applies numeric's rules once per group: avg is
// numeric.Div(sum, count), whose scale is select_div_scale's.

func newNumericBuilder(mem memory.Allocator) (*array.ExtensionBuilder, *types.NumericBuilder) {
	b := array.NewBuilder(mem, types.NewNumericArrowType()).(*array.ExtensionBuilder)
	return b, types.NewNumericAppender(b)
}

// numAcc sums numeric values (sum and avg over numeric).
type numAcc struct {
	arg    int
	avg    bool
	sums   []*apd.Decimal
	counts []int64
}

func (a *numAcc) resize(n int) { a.sums, a.counts = grow(a.sums, n), grow(a.counts, n) }
func (a *numAcc) size() int64  { return int64(cap(a.sums)) * 64 }
func (a *numAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	get, err := types.NewNumericReader(arr)
	if err != nil {
		return err
	}
	forRows(len(groups), rows, func(i int) {
		if err != nil || arr.IsNull(i) {
			return
		}
		g := groups[i]
		v := get(i, new(apd.Decimal))
		if a.sums[g] == nil {
			a.sums[g] = v
		} else {
			a.sums[g], err = numeric.Add(a.sums[g], v)
		}
		a.counts[g]++
	})
	return err
}
func (a *numAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b, out := newNumericBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.counts[g] == 0 {
			out.AppendNull()
			continue
		}
		v := a.sums[g]
		if a.avg {
			var err error
			if v, err = numeric.Div(v, numeric.FromInt64(a.counts[g])); err != nil {
				return nil, err
			}
		}
		out.Append(v)
	}
	return b.NewArray(), nil
}

// finishDecSum is the numeric result of an exact scaled sum: the sum
// itself, or avg's sum / count.
func finishDecSum(sum *big.Int, scale int, count int64, avg bool) (*apd.Decimal, error) {
	v := numeric.FromUnscaled(sum, scale)
	if !avg {
		return numeric.Check(v)
	}
	return numeric.Div(v, numeric.FromInt64(count))
}

// numVarAcc is numeric_stddev_internal over integers, DECIMAL(p,s) and
// numeric: exact sums of x and x², then PostgreSQL's formula and scales.
type numVarAcc struct {
	arg      int
	kind     varKind
	n        []int64
	sx, sxx  []*apd.Decimal
	specials []int64 // NaN and infinite inputs
}

func (a *numVarAcc) resize(n int) {
	a.sx, a.sxx, a.n, a.specials = grow(a.sx, n), grow(a.sxx, n), grow(a.n, n), grow(a.specials, n)
}
func (a *numVarAcc) size() int64 { return int64(len(a.n)) * 120 }
func (a *numVarAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	var get func(int) *apd.Decimal
	if rd, err := types.NewNumericReader(arr); err == nil {
		get = func(i int) *apd.Decimal { return rd(i, new(apd.Decimal)) }
	} else if gi, ok := intClass(arr); ok {
		get = func(i int) *apd.Decimal { return numeric.FromInt64(gi(i)) }
	} else {
		return sqlerr.New(sqlerr.InternalError, "variance: unexpected argument type %s", arr.DataType())
	}
	var err error
	forRows(len(groups), rows, func(i int) {
		if err != nil || arr.IsNull(i) {
			return
		}
		g := groups[i]
		v := get(i)
		a.n[g]++
		if numeric.IsSpecial(v) {
			a.specials[g]++
			return
		}
		// the state is NumericVar arithmetic: no digit limits
		sq := numeric.MulVar(v, v)
		if a.sx[g] == nil {
			a.sx[g], a.sxx[g] = v, sq
			return
		}
		a.sx[g] = numeric.AddVar(a.sx[g], v, false)
		a.sxx[g] = numeric.AddVar(a.sxx[g], sq, false)
	})
	return err
}
func (a *numVarAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b, out := newNumericBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		n := a.n[g]
		samp := a.kind == varSamp || a.kind == stddevSamp
		if n == 0 || (samp && n <= 1) {
			out.AppendNull()
			continue
		}
		if a.specials[g] > 0 {
			out.Append(numeric.NaN())
			continue
		}
		v, err := numeric.Variance(n, a.sx[g], a.sxx[g], samp, a.kind == stddevSamp || a.kind == stddevPop)
		if err != nil {
			return nil, err
		}
		out.Append(v)
	}
	return b.NewArray(), nil
}

// minMaxNumeric is min/max over numeric.
type minMaxNumeric struct {
	arg  int
	max  bool
	vals []*apd.Decimal
}

func (a *minMaxNumeric) resize(n int) { a.vals = grow(a.vals, n) }
func (a *minMaxNumeric) size() int64  { return int64(cap(a.vals)) * 48 }
func (a *minMaxNumeric) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	x, ok := cols[a.arg].(*types.NumericArray)
	if !ok {
		return sqlerr.New(sqlerr.InternalError, "min/max: unexpected argument type %s", cols[a.arg].DataType())
	}
	var d apd.Decimal
	forRows(len(groups), rows, func(i int) {
		if x.IsNull(i) {
			return
		}
		g := groups[i]
		x.ValueInto(i, &d)
		// on a tie the later value wins, as numeric_larger/smaller
		// return their second argument (1.0 and 1.00 print differently)
		if cur := a.vals[g]; cur == nil || (a.max && numeric.Cmp(&d, cur) >= 0) || (!a.max && numeric.Cmp(&d, cur) <= 0) {
			a.vals[g] = new(apd.Decimal).Set(&d)
		}
	})
	return nil
}
func (a *minMaxNumeric) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b, out := newNumericBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		if v := a.vals[g]; v != nil {
			out.Append(v)
		} else {
			out.AppendNull()
		}
	}
	return b.NewArray(), nil
}
