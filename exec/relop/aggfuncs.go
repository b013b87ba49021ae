package relop

import (
	"bytes"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// accumulator holds one aggregate's state for every group. Updates are
// batch-wide typed loops: groups[i] is row i's group, rows selects the rows
// to add (nil: all of them).
type accumulator interface {
	resize(n int)
	update(cols []arrow.Array, groups []uint32, rows []int32) error
	// finish builds the results of the listed groups, in that order.
	finish(mem memory.Allocator, groups []uint32) (arrow.Array, error)
	// size is the approximate number of bytes of state held.
	size() int64
}

// forRows calls f for every selected row.
func forRows(n int, rows []int32, f func(i int)) {
	if rows == nil {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	for _, i := range rows {
		f(int(i))
	}
}

func grow[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

// resize returns s with length n for a scratch buffer that the caller
// overwrites whole: unlike grow(s[:0], n) it neither clears the n values
// nor copies old ones when it reallocates.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func bigintOverflow() error {
	return types.IntOutOfRange(types.Int64Type)
}

func floatOverflow() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: overflow")
}

func numericOverflow() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "numeric field overflow").WithDetail("The aggregate's result does not fit in 38 decimal digits.")
}

// ---- counts shared between aggregates ----

// groupCounts is the number of rows each group of a HashAggregate was
// given, counted once, by the group table while it assigns the rows
// (hashagg.go), for every aggregate without FILTER or DISTINCT: count(*) is
// it, and the non-NULL counts that count(x), sum and avg need are it less
// their group's NULL arguments, which each counts apart (usually there are
// none, and then the aggregate makes no counting pass at all).
type groupCounts struct{ n []int64 }

// countSharer is an accumulator that can take its rows per group from a
// groupCounts instead of counting them itself. HashAggregate offers one to
// the aggregates whose update sees exactly the rows the table counted.
type countSharer interface {
	shareCounts(c *groupCounts)
}

// nonNullCounts is an aggregate's count of non-NULL arguments per group:
// kept row by row in own, or, once shared, the shared row counts less the
// NULLs counted in own.
type nonNullCounts struct {
	shared *groupCounts
	own    []int64
}

func (c *nonNullCounts) shareCounts(s *groupCounts) { c.shared = s }
func (c *nonNullCounts) resize(n int)               { c.own = grow(c.own, n) }
func (c *nonNullCounts) size() int64                { return int64(cap(c.own)) * 8 }

// get is group g's count.
func (c *nonNullCounts) get(g uint32) int64 {
	if c.shared != nil {
		return c.shared.n[g] - c.own[g]
	}
	return c.own[g]
}

// count counts a batch's selected rows whose argument arr is not NULL (arr
// nil: count(*)): when shared, only the NULLs, if any.
func (c *nonNullCounts) count(arr arrow.Array, groups []uint32, rows []int32) {
	nulls := arr != nil && arr.NullN() > 0
	own := c.own
	if c.shared != nil {
		if nulls {
			countNulls(arr, groups, rows, own)
		}
		return
	}
	if !nulls {
		if rows == nil {
			for _, g := range groups {
				own[g]++
			}
		} else {
			for _, i := range rows {
				own[groups[i]]++
			}
		}
		return
	}
	bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
	if rows == nil {
		for i, g := range groups {
			own[g] += validBit(bm, off+i)
		}
		return
	}
	for _, i := range rows {
		own[groups[i]] += validBit(bm, off+int(i))
	}
}

// validBit is 1 when row i of the validity bitmap bm (the array's offset
// added) is set, else 0: a load and a shift, no branch.
func validBit(bm []byte, i int) int64 {
	return int64(bm[i>>3] >> (i & 7) & 1)
}

// countNulls adds the NULLs of arr among the selected rows to their
// groups' counts: typed loops over the validity bitmap (a closure call
// and IsNull a row cost several times the count). One group (no GROUP BY)
// counts in a register; without a selection its count is arr's.
func countNulls(arr arrow.Array, groups []uint32, rows []int32, own []int64) {
	bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
	switch {
	case len(own) == 1 && rows == nil:
		own[0] += int64(arr.NullN())
	case len(own) == 1:
		var c int64
		for _, i := range rows {
			c += validBit(bm, off+int(i))
		}
		own[0] += int64(len(rows)) - c
	case rows == nil:
		for i, g := range groups {
			own[g] += 1 - validBit(bm, off+i)
		}
	default:
		for _, i := range rows {
			own[groups[i]] += 1 - validBit(bm, off+int(i))
		}
	}
}

// ---- bounds that let a batch's sums skip their overflow checks ----

// sumInt is the integer types sums add.
type sumInt interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// batchBound bounds what a batch of values adds to any one sum: the largest
// |v| (bounded by a power of two: the type's for narrow types, whose values
// cannot reach it anyway, the OR of the values' magnitudes for int64) times
// the number of rows added. ok is false when that does not fit in int64.
// NULL rows' values are counted too, which only loosens the bound.
func batchBound[T sumInt](vals []T, rows int) (uint64, bool) {
	var maxAbs uint64
	var z T
	if w := unsafe.Sizeof(z); w < 8 {
		maxAbs = 1 << (8*w - 1)
	} else {
		// T's underlying type is int64 (8 bytes, signed)
		maxAbs = 1 << bits.Len64(absOr(unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(vals))), len(vals))))
	}
	hi, lo := bits.Mul64(maxAbs, uint64(rows))
	return lo, hi == 0 && lo <= math.MaxInt64
}

// absOr is the OR of |v| (|v|-1 for negative v) over vals: its bit length
// bounds every |v|. Four accumulators keep the loop's adds independent; it
// is a function of its own so that it keeps them in registers (inlined into
// its callers it spilled them, at over a nanosecond a value).
func absOr(vals []int64) uint64 {
	var a, b, c, d uint64
	i := 0
	for ; i+4 <= len(vals); i += 4 {
		v := vals[i : i+4 : i+4]
		a |= uint64(v[0] ^ (v[0] >> 63))
		b |= uint64(v[1] ^ (v[1] >> 63))
		c |= uint64(v[2] ^ (v[2] >> 63))
		d |= uint64(v[3] ^ (v[3] >> 63))
	}
	for ; i < len(vals); i++ {
		a |= uint64(vals[i] ^ (vals[i] >> 63))
	}
	return a | b | c | d
}

// fits reports whether sums all within bound, each advanced by at most b,
// stay within int64.
func fits(bound, b uint64) bool {
	return bound <= math.MaxInt64 && b <= math.MaxInt64-bound
}

// maxAbs is the largest |s| of sums (as uint64: MinInt64's is 1<<63).
func maxAbs(sums []int64) uint64 {
	var m uint64
	for _, s := range sums {
		a := uint64(s)
		if s < 0 {
			a = -a
		}
		m = max(m, a)
	}
	return m
}

// rescanLimit says whether a bound can be recomputed after a checked batch
// of n rows: a pass over the groups is cheap beside the batch when there
// are few of them; with many, sums stay checked (as they all were before
// bounds) rather than pay a pass per batch.
func rescanLimit(groups, n int) bool { return groups <= 4*n+64 }

// addUnchecked adds the selected non-NULL rows' values to their groups'
// sums, which the caller's bound guarantees cannot overflow.
func addUnchecked[T sumInt](vals []T, arr arrow.Array, groups []uint32, rows []int32, sums []int64) {
	nulls := arr.NullN() > 0
	if !nulls && rows == nil {
		vals = vals[:len(groups)]
		if len(sums) == 1 {
			// one group (no GROUP BY, W4): every row's group is 0, and
			// a register sum spares the chain of stores through sums[0]
			var s int64
			for _, v := range vals {
				s += int64(v)
			}
			sums[0] += s
			return
		}
		for i, g := range groups {
			sums[g] += int64(vals[i])
		}
		return
	}
	if !nulls {
		if len(sums) == 1 {
			var s int64
			for _, i := range rows {
				s += int64(vals[i])
			}
			sums[0] += s
			return
		}
		for _, i := range rows {
			sums[groups[i]] += int64(vals[i])
		}
		return
	}
	// NULL rows add 0: their value masked by their validity bit
	bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
	switch {
	case len(sums) == 1 && rows == nil:
		var s int64
		for i, v := range vals[:len(groups)] {
			s += int64(v) & -validBit(bm, off+i)
		}
		sums[0] += s
	case len(sums) == 1:
		var s int64
		for _, i := range rows {
			s += int64(vals[i]) & -validBit(bm, off+int(i))
		}
		sums[0] += s
	case rows == nil:
		for i, g := range groups {
			sums[g] += int64(vals[i]) & -validBit(bm, off+i)
		}
	default:
		for _, i := range rows {
			sums[groups[i]] += int64(vals[i]) & -validBit(bm, off+int(i))
		}
	}
}

// ---- count ----

type countAcc struct {
	arg int // -1: count(*)
	cnt nonNullCounts
}

func (a *countAcc) shareCounts(c *groupCounts) { a.cnt.shareCounts(c) }
func (a *countAcc) resize(n int)               { a.cnt.resize(n) }
func (a *countAcc) size() int64                { return a.cnt.size() }
func (a *countAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	var arr arrow.Array
	if a.arg >= 0 {
		arr = cols[a.arg]
	}
	a.cnt.count(arr, groups, rows)
	return nil
}
func (a *countAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	b.Reserve(len(groups))
	for _, g := range groups {
		b.UnsafeAppend(a.cnt.get(g))
	}
	return b.NewArray(), nil
}

// ---- sum of small integers into bigint ----

type sumIntAcc struct {
	arg   int
	money bool // a sum of money: its overflow is money's (AggSpec.Money)
	sums  []int64
	cnt   nonNullCounts // a group with none is NULL
	// bound is at least every group's |sum|. While it, advanced by a
	// batch's batchBound, stays within int64, no sum can overflow in that
	// batch, and the batch is added without a check per row; past that,
	// the checked loop reports 22003 exactly where PostgreSQL's int8
	// addition would.
	bound uint64
}

func (a *sumIntAcc) shareCounts(c *groupCounts) { a.cnt.shareCounts(c) }

// overflow is the 22003 of a sum past int64: bigint's, or money's.
func (a *sumIntAcc) overflow() error {
	if a.money {
		return types.MoneyOutOfRange()
	}
	return bigintOverflow()
}
func (a *sumIntAcc) resize(n int) { a.sums = grow(a.sums, n); a.cnt.resize(n) }
func (a *sumIntAcc) size() int64  { return int64(cap(a.sums))*8 + a.cnt.size() }

func sumIntLoop[T sumInt](a *sumIntAcc, vals []T, arr arrow.Array, groups []uint32, rows []int32) error {
	n := len(groups)
	if rows != nil {
		n = len(rows)
	}
	a.cnt.count(arr, groups, rows)
	if b, ok := batchBound(vals, n); ok && fits(a.bound, b) {
		addUnchecked(vals, arr, groups, rows, a.sums)
		a.bound += b
		return nil
	}
	sums := a.sums
	nulls := arr.NullN() > 0
	var err error
	if !nulls && rows == nil {
		for i, g := range groups {
			s := sums[g]
			v := int64(vals[i])
			r := s + v
			if (r > s) != (v > 0) {
				return a.overflow()
			}
			sums[g] = r
		}
	} else {
		forRows(len(groups), rows, func(i int) {
			if err != nil || (nulls && arr.IsNull(i)) {
				return
			}
			g := groups[i]
			s := sums[g]
			v := int64(vals[i])
			r := s + v
			if (r > s) != (v > 0) {
				err = a.overflow()
			}
			sums[g] = r
		})
	}
	if err == nil {
		a.bound = math.MaxUint64 // unknown: checked until rescanned
		if rescanLimit(len(sums), n) {
			a.bound = maxAbs(sums)
		}
	}
	return err
}

func (a *sumIntAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	switch x := cols[a.arg].(type) {
	case *array.Int8:
		return sumIntLoop(a, x.Int8Values(), x, groups, rows)
	case *array.Int16:
		return sumIntLoop(a, x.Int16Values(), x, groups, rows)
	case *array.Int32:
		return sumIntLoop(a, x.Int32Values(), x, groups, rows)
	case *array.Int64:
		return sumIntLoop(a, x.Int64Values(), x, groups, rows)
	}
	return sqlerr.New(sqlerr.InternalError, "sum: unexpected argument type %s", cols[a.arg].DataType())
}

func (a *sumIntAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.cnt.get(g) > 0 {
			b.Append(a.sums[g])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

// ---- exact sums (bigint and numeric into numeric), also avg's numerator ----

// decAcc sums integers or decimals exactly in 128 bits, with the count for avg.
type decAcc struct {
	arg      int
	argScale int
	avg      bool
	sums     []decimal128.Num
	// over holds, for a group whose 128-bit sum would overflow, what was
	// moved out of sums (numeric has no bound, so neither has the sum).
	over []*big.Int
	cnt  nonNullCounts
	// parts are integer partial sums not yet added to sums: adding an
	// int64 is one machine add, and only an overflowing add (or finish)
	// moves the partial into the 128-bit sum.
	parts []int64
	// bound is at least every |parts[g]| (sumIntAcc.bound's rule): a
	// batch that cannot overflow a partial is added without checks; one
	// that could first moves every partial into sums (exact) or, with
	// many groups or huge values, takes the checked loop.
	bound uint64
}

func (a *decAcc) shareCounts(c *groupCounts) { a.cnt.shareCounts(c) }
func (a *decAcc) resize(n int) {
	a.sums, a.parts, a.over = grow(a.sums, n), grow(a.parts, n), grow(a.over, n)
	a.cnt.resize(n)
}
func (a *decAcc) size() int64 { return int64(cap(a.sums))*32 + a.cnt.size() }

// spill moves group g's 128-bit sum into its unbounded one.
func (a *decAcc) spill(g uint32) {
	if a.over[g] == nil {
		a.over[g] = new(big.Int)
	}
	a.over[g].Add(a.over[g], a.sums[g].BigInt())
	a.sums[g] = decimal128.Num{}
}

// addPart adds v to group g's partial sum, flushing it on overflow.
func (a *decAcc) addPart(g uint32, v int64) {
	p := a.parts[g]
	s := p + v
	if (s^p)&(s^v) < 0 {
		a.sums[g] = a.sums[g].Add(decimal128.FromI64(p))
		s = v
	}
	a.parts[g] = s
}

// flush moves group g's partial sum into its 128-bit (or unbounded) sum.
func (a *decAcc) flush(g uint32) {
	p := a.parts[g]
	if p == 0 {
		return
	}
	if s, ok := addChecked(a.sums[g], decimal128.FromI64(p)); ok {
		a.sums[g] = s
	} else {
		a.spill(g)
		a.sums[g] = decimal128.FromI64(p)
	}
	a.parts[g] = 0
}

func addChecked(s, v decimal128.Num) (decimal128.Num, bool) {
	r := s.Add(v)
	if s.Sign() == v.Sign() && s.Sign() != 0 && r.Sign() != s.Sign() {
		return r, false
	}
	return r, true
}

// decIntLoop adds a batch of integers to the partial sums.
func decIntLoop[T sumInt](a *decAcc, vals []T, arr arrow.Array, groups []uint32, rows []int32) {
	n := len(groups)
	if rows != nil {
		n = len(rows)
	}
	if b, ok := batchBound(vals, n); ok {
		if !fits(a.bound, b) && rescanLimit(len(a.parts), n) {
			for g := range a.parts {
				a.flush(uint32(g))
			}
			a.bound = 0
		}
		if fits(a.bound, b) {
			addUnchecked(vals, arr, groups, rows, a.parts)
			a.bound += b
			return
		}
	}
	nulls := arr.NullN() > 0
	if !nulls && rows == nil {
		parts := a.parts
		vals = vals[:len(groups)]
		for i, g := range groups {
			v := int64(vals[i])
			p := parts[g]
			s := p + v
			if (s^p)&(s^v) < 0 {
				a.addPart(g, v)
			} else {
				parts[g] = s
			}
		}
	} else {
		forRows(len(groups), rows, func(i int) {
			if !nulls || arr.IsValid(i) {
				a.addPart(groups[i], int64(vals[i]))
			}
		})
	}
	a.bound = math.MaxUint64 // unknown: checked until flushed
}

func (a *decAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	nulls := arr.NullN() > 0
	a.cnt.count(arr, groups, rows)
	switch x := arr.(type) {
	case *array.Decimal128:
		vals := x.Values()
		forRows(len(groups), rows, func(i int) {
			if nulls && x.IsNull(i) {
				return
			}
			g := groups[i]
			s, ok := addChecked(a.sums[g], vals[i])
			if !ok {
				a.spill(g)
				s = vals[i]
			}
			a.sums[g] = s
		})
		return nil
	case *array.Int8:
		decIntLoop(a, x.Int8Values(), arr, groups, rows)
		return nil
	case *array.Int16:
		decIntLoop(a, x.Int16Values(), arr, groups, rows)
		return nil
	case *array.Int32:
		decIntLoop(a, x.Int32Values(), arr, groups, rows)
		return nil
	case *array.Int64:
		decIntLoop(a, x.Int64Values(), arr, groups, rows)
		return nil
	}
	get, ok := intClass(arr)
	if !ok {
		return sqlerr.New(sqlerr.InternalError, "sum: unexpected argument type %s", arr.DataType())
	}
	forRows(len(groups), rows, func(i int) {
		if nulls && arr.IsNull(i) {
			return
		}
		a.addPart(groups[i], get(i))
	})
	a.bound = math.MaxUint64
	return nil
}

var pow10Cache = func() []*big.Int {
	p := make([]*big.Int, 80)
	for i := range p {
		p[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return p
}()

func pow10(n int) *big.Int {
	if n < len(pow10Cache) {
		return pow10Cache[n]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// divRound returns num/den rounded half away from zero.
func divRound(num, den *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Sign() != 0 {
		twice := new(big.Int).Abs(m)
		twice.Lsh(twice, 1)
		if twice.Cmp(new(big.Int).Abs(den)) >= 0 {
			if (num.Sign() < 0) != (den.Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return q
}

// toDecimal converts an integer scaled value to decimal128, 22003 when it
// has more than 38 digits.
func toDecimal(v *big.Int) (decimal128.Num, error) {
	if new(big.Int).Abs(v).Cmp(pow10(38)) >= 0 {
		return decimal128.Num{}, numericOverflow()
	}
	return decimal128.FromBigInt(v), nil
}

// rescaled returns v (at scale from) at scale to, rounding half away from zero.
func rescaled(v *big.Int, from, to int) *big.Int {
	switch {
	case to > from:
		return new(big.Int).Mul(v, pow10(to-from))
	case to < from:
		return divRound(v, pow10(from-to))
	}
	return v
}

func (a *decAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b, out := newNumericBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		a.flush(g)
		count := a.cnt.get(g)
		if count == 0 {
			out.AppendNull()
			continue
		}
		var v *apd.Decimal
		var err error
		if a.over[g] == nil {
			v = types.NumericFromDecimal128(a.sums[g], a.argScale)
			if a.avg {
				v, err = numeric.Div(v, numeric.FromInt64(count))
			}
		} else {
			sum := new(big.Int).Add(a.over[g], a.sums[g].BigInt())
			v, err = finishDecSum(sum, a.argScale, count, a.avg)
		}
		if err != nil {
			return nil, err
		}
		out.Append(v)
	}
	return b.NewArray(), nil
}

// ---- float sums and averages ----

type floatAcc struct {
	arg    int
	out32  bool // sum(real) accumulates in real, as float4pl does
	avg    bool
	sums   []float64
	sums32 []float32
	counts []int64
	// sxx is avg's running sum of squared deviations (Youngs-Cramer, as
	// PostgreSQL's float8_accum keeps it): PostgreSQL reports an overflow
	// when it becomes infinite from finite inputs, so avg does too.
	sxx []float64
}

func (a *floatAcc) resize(n int) {
	a.sums, a.sums32, a.counts = grow(a.sums, n), grow(a.sums32, n), grow(a.counts, n)
	if a.avg {
		a.sxx = grow(a.sxx, n)
	}
}

// accumulateSquares advances avg's sum of squared deviations of group g by
// v, given the sum s before v; it reports an overflow as PostgreSQL does.
func (a *floatAcc) accumulateSquares(g uint32, s, v float64) bool {
	n := float64(a.counts[g] + 1)
	if a.counts[g] == 0 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			a.sxx[g] = math.NaN()
		}
		return false
	}
	tmp := v*n - (s + v)
	sxx := a.sxx[g] + tmp*tmp/(n*float64(a.counts[g]))
	if math.IsInf(s+v, 0) || math.IsInf(sxx, 0) {
		if !math.IsInf(s, 0) && !math.IsInf(v, 0) {
			return true
		}
		sxx = math.NaN()
	}
	a.sxx[g] = sxx
	return false
}
func (a *floatAcc) size() int64 { return int64(cap(a.sums)) * 20 }

func (a *floatAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	nulls := arr.NullN() > 0
	var err error
	switch x := arr.(type) {
	case *array.Float32:
		vals := x.Float32Values()
		forRows(len(groups), rows, func(i int) {
			if nulls && x.IsNull(i) {
				return
			}
			g := groups[i]
			v := vals[i]
			if a.out32 {
				s := a.sums32[g]
				r := s + v
				if a.counts[g] == 0 {
					r = v // sum's state starts at its first value (float4pl): sum(-0) is -0
				}
				if math.IsInf(float64(r), 0) && !math.IsInf(float64(s), 0) && !math.IsInf(float64(v), 0) {
					err = floatOverflow()
				}
				a.sums32[g] = r
			} else {
				s := a.sums[g]
				r := s + float64(v)
				if a.counts[g] == 0 && !a.avg {
					r = float64(v)
				}
				if math.IsInf(r, 0) && !math.IsInf(s, 0) && !math.IsInf(float64(v), 0) {
					err = floatOverflow()
				}
				if a.avg && a.accumulateSquares(g, s, float64(v)) {
					err = floatOverflow()
				}
				a.sums[g] = r
			}
			a.counts[g]++
		})
	case *array.Float64:
		vals := x.Float64Values()
		forRows(len(groups), rows, func(i int) {
			if nulls && x.IsNull(i) {
				return
			}
			g := groups[i]
			s, v := a.sums[g], vals[i]
			r := s + v
			if a.counts[g] == 0 && !a.avg {
				r = v // sum's state starts at its first value (float8pl): sum(-0) is -0
			}
			if math.IsInf(r, 0) && !math.IsInf(s, 0) && !math.IsInf(v, 0) {
				err = floatOverflow()
			}
			if a.avg && a.accumulateSquares(g, s, v) {
				err = floatOverflow()
			}
			a.sums[g] = r
			a.counts[g]++
		})
	default:
		return sqlerr.New(sqlerr.InternalError, "sum: unexpected argument type %s", arr.DataType())
	}
	return err
}

func (a *floatAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	if a.out32 {
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		for _, g := range groups {
			if a.counts[g] == 0 {
				b.AppendNull()
			} else {
				b.Append(a.sums32[g])
			}
		}
		return b.NewArray(), nil
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for _, g := range groups {
		switch {
		case a.counts[g] == 0:
			b.AppendNull()
		case a.avg:
			b.Append(a.sums[g] / float64(a.counts[g]))
		default:
			b.Append(a.sums[g])
		}
	}
	return b.NewArray(), nil
}

// ---- sum(double precision) ----

// negZero starts sumF64Acc's sums: -0 + v is v for every v (-0, NaN and
// infinities included), so a group's sum begins at its first value as
// float8pl's does, without a test of the group's count per row.
var negZero = math.Copysign(0, -1)

// sumF64Acc is sum(float8). Within a batch of finite values into finite
// sums, a sum can only become infinite by overflowing, and an infinite sum
// stays so: the batch is added without a test per row and the sums are
// checked after it (overflow raised as PostgreSQL's float8pl does, at some
// row of the batch). A batch with an infinity or NaN, or sums that may
// hold one, or more groups than a pass over them after the batch is worth,
// takes the checked loop. The additions are the same, in the same order,
// either way, so the sums are bit for bit PostgreSQL's.
type sumF64Acc struct {
	arg  int
	sums []float64
	cnt  nonNullCounts // a group with none is NULL
	// nonFinite: some sum may be infinite or NaN (checked loop only)
	nonFinite bool
}

func (a *sumF64Acc) shareCounts(c *groupCounts) { a.cnt.shareCounts(c) }
func (a *sumF64Acc) size() int64                { return int64(cap(a.sums))*8 + a.cnt.size() }
func (a *sumF64Acc) resize(n int) {
	old := len(a.sums)
	a.sums = grow(a.sums, n)
	for i := old; i < len(a.sums); i++ {
		a.sums[i] = negZero
	}
	a.cnt.resize(n)
}

// allFinite reports whether no value is an infinity or NaN (exponent bits
// all set): adding 1<<52 to the exponent field carries into the sign bit
// only from all ones. Four accumulators, as absOr.
func allFinite(vals []float64) bool {
	const exp, one = 0x7FF0000000000000, 1 << 52
	var a, b, c, d uint64
	i := 0
	for ; i+4 <= len(vals); i += 4 {
		v := vals[i : i+4 : i+4]
		a |= math.Float64bits(v[0])&exp + one
		b |= math.Float64bits(v[1])&exp + one
		c |= math.Float64bits(v[2])&exp + one
		d |= math.Float64bits(v[3])&exp + one
	}
	for ; i < len(vals); i++ {
		a |= math.Float64bits(vals[i])&exp + one
	}
	return (a|b|c|d)>>63 == 0
}

func (a *sumF64Acc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr, ok := cols[a.arg].(*array.Float64)
	if !ok {
		return sqlerr.New(sqlerr.InternalError, "sum: unexpected argument type %s", cols[a.arg].DataType())
	}
	a.cnt.count(arr, groups, rows)
	vals := arr.Float64Values()
	sums := a.sums
	n := len(groups)
	if rows != nil {
		n = len(rows)
	}
	nulls := arr.NullN() > 0
	if !a.nonFinite && rescanLimit(len(sums), n) && allFinite(vals) {
		switch {
		case !nulls && rows == nil && len(sums) == 1:
			s := sums[0] // one group: a register, same order
			for _, v := range vals[:len(groups)] {
				s += v
			}
			sums[0] = s
		case !nulls && rows == nil:
			vals = vals[:len(groups)]
			for i, g := range groups {
				sums[g] += vals[i]
			}
		case len(sums) == 1:
			// one group over a selection (W4's rows of a WHERE) or with
			// NULLs: a register, the same additions in the same order
			sums[0] = sumOneF64(vals[:len(groups)], arr, rows, nulls, sums[0])
		case !nulls:
			for _, i := range rows {
				sums[groups[i]] += vals[i]
			}
		case rows == nil:
			// W7's sum(amount) by country: NULL rows skipped by their
			// validity bit, in a typed loop
			bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
			for i, g := range groups {
				if validBit(bm, off+i) != 0 {
					sums[g] += vals[i]
				}
			}
		default:
			bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
			for _, i := range rows {
				if validBit(bm, off+int(i)) != 0 {
					sums[groups[i]] += vals[i]
				}
			}
		}
		if !allFinite(sums) {
			return floatOverflow()
		}
		return nil
	}
	var err error
	forRows(len(groups), rows, func(i int) {
		if nulls && arr.IsNull(i) {
			return
		}
		g := groups[i]
		s, v := sums[g], vals[i]
		r := s + v
		if math.IsInf(r, 0) && !math.IsInf(s, 0) && !math.IsInf(v, 0) {
			err = floatOverflow()
		}
		sums[g] = r
	})
	a.nonFinite = !rescanLimit(len(sums), n) || !allFinite(sums)
	return err
}

// sumOneF64 adds the selected (rows nil: all) non-NULL vals to s, in row
// order.
func sumOneF64(vals []float64, arr arrow.Array, rows []int32, nulls bool, s float64) float64 {
	switch {
	case !nulls && rows == nil:
		for _, v := range vals {
			s += v
		}
	case !nulls:
		for _, i := range rows {
			s += vals[i]
		}
	default:
		bm, off := arr.NullBitmapBytes(), arr.Data().Offset()
		if rows == nil {
			for i, v := range vals {
				if validBit(bm, off+i) != 0 {
					s += v
				}
			}
			break
		}
		for _, i := range rows {
			if validBit(bm, off+int(i)) != 0 {
				s += vals[i]
			}
		}
	}
	return s
}

func (a *sumF64Acc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.cnt.get(g) > 0 {
			b.Append(a.sums[g])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

// ---- variance and standard deviation ----

type varKind uint8

const (
	varSamp varKind = iota
	varPop
	stddevSamp
	stddevPop
)

// floatVarAcc follows float8_accum (Youngs-Cramer), so that results match
// PostgreSQL's to the last bit.
type floatVarAcc struct {
	arg        int
	kind       varKind
	n, sx, sxx []float64
}

func (a *floatVarAcc) resize(n int) { a.n, a.sx, a.sxx = grow(a.n, n), grow(a.sx, n), grow(a.sxx, n) }
func (a *floatVarAcc) size() int64  { return int64(cap(a.n)) * 24 }
func (a *floatVarAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	var get func(int) float64
	switch x := arr.(type) {
	case *array.Float32:
		get = func(i int) float64 { return float64(x.Value(i)) }
	case *array.Float64:
		get = x.Value
	default:
		return sqlerr.New(sqlerr.InternalError, "variance: unexpected argument type %s", arr.DataType())
	}
	var err error
	forRows(len(groups), rows, func(i int) {
		if arr.IsNull(i) {
			return
		}
		g := groups[i]
		v := get(i)
		n0 := a.n[g]
		n := n0 + 1
		sx := a.sx[g] + v
		sxx := a.sxx[g]
		if n0 > 0 {
			t := v*n - sx
			sxx += t * t / (n * n0)
			if math.IsInf(sx, 0) || math.IsInf(sxx, 0) {
				if !math.IsInf(a.sx[g], 0) && !math.IsInf(v, 0) {
					err = floatOverflow()
				}
				sxx = math.NaN()
			}
		} else if math.IsNaN(v) || math.IsInf(v, 0) {
			sxx = math.NaN()
		}
		a.n[g], a.sx[g], a.sxx[g] = n, sx, sxx
	})
	return err
}
func (a *floatVarAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for _, g := range groups {
		n, sxx := a.n[g], a.sxx[g]
		samp := a.kind == varSamp || a.kind == stddevSamp
		if n == 0 || (samp && n <= 1) {
			b.AppendNull()
			continue
		}
		var v float64
		if samp {
			v = sxx / (n - 1)
		} else {
			v = sxx / n
		}
		if a.kind == stddevSamp || a.kind == stddevPop {
			v = math.Sqrt(v)
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}

// ---- min / max ----

type minMaxInt struct {
	arg  int
	max  bool
	dt   arrow.DataType
	vals []int64 // start at the identity (MaxInt64 for min): min(vals[g], v) needs no test of has
	cnt  nonNullCounts
	has  []bool // filled from cnt for finish
}

func (a *minMaxInt) shareCounts(c *groupCounts) { a.cnt.shareCounts(c) }
func (a *minMaxInt) resize(n int) {
	old := len(a.vals)
	a.vals = grow(a.vals, n)
	start := int64(math.MaxInt64)
	if a.max {
		start = math.MinInt64
	}
	for i := old; i < len(a.vals); i++ {
		a.vals[i] = start
	}
	a.cnt.resize(n)
}
func (a *minMaxInt) size() int64 { return int64(cap(a.vals))*8 + a.cnt.size() }

// minMaxPhys is the physical types of min/max's integer-like arguments.
type minMaxPhys interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint32
}

// minMaxLoop folds a batch into vals by a typed loop (branch-free min/max
// against the identity), not a call per row.
func minMaxLoop[T minMaxPhys](vals []T, arr arrow.Array, groups []uint32, rows []int32, acc []int64, isMax bool) {
	nulls := arr.NullN() > 0
	if !nulls && rows == nil {
		vals = vals[:len(groups)]
		if isMax {
			for i, g := range groups {
				acc[g] = max(acc[g], int64(vals[i]))
			}
		} else {
			for i, g := range groups {
				acc[g] = min(acc[g], int64(vals[i]))
			}
		}
		return
	}
	forRows(len(groups), rows, func(i int) {
		if nulls && arr.IsNull(i) {
			return
		}
		g := groups[i]
		if isMax {
			acc[g] = max(acc[g], int64(vals[i]))
		} else {
			acc[g] = min(acc[g], int64(vals[i]))
		}
	})
}

func (a *minMaxInt) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	a.cnt.count(arr, groups, rows)
	switch x := arr.(type) {
	case *array.Int8:
		minMaxLoop(x.Int8Values(), arr, groups, rows, a.vals, a.max)
	case *array.Int16:
		minMaxLoop(x.Int16Values(), arr, groups, rows, a.vals, a.max)
	case *array.Int32:
		minMaxLoop(x.Int32Values(), arr, groups, rows, a.vals, a.max)
	case *array.Int64:
		minMaxLoop(x.Int64Values(), arr, groups, rows, a.vals, a.max)
	case *array.Date32:
		minMaxLoop(x.Date32Values(), arr, groups, rows, a.vals, a.max)
	case *array.Date64:
		minMaxLoop(x.Date64Values(), arr, groups, rows, a.vals, a.max)
	case *array.Time32:
		minMaxLoop(x.Time32Values(), arr, groups, rows, a.vals, a.max)
	case *array.Time64:
		minMaxLoop(x.Time64Values(), arr, groups, rows, a.vals, a.max)
	case *array.Timestamp:
		minMaxLoop(x.TimestampValues(), arr, groups, rows, a.vals, a.max)
	case *array.Duration:
		minMaxLoop(x.DurationValues(), arr, groups, rows, a.vals, a.max)
	case *array.Uint32:
		minMaxLoop(x.Uint32Values(), arr, groups, rows, a.vals, a.max)
	default:
		return sqlerr.New(sqlerr.InternalError, "%s: unexpected argument type %s", map[bool]string{false: "min", true: "max"}[a.max], arr.DataType())
	}
	return nil
}
func (a *minMaxInt) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	a.has = grow(a.has, len(a.vals))
	for _, g := range groups {
		a.has[g] = a.cnt.get(g) > 0
	}
	return buildInts(mem, a.dt, groups, a.vals, a.has)
}

// buildInts builds an int-class array of type dt.
func buildInts(mem memory.Allocator, dt arrow.DataType, groups []uint32, vals []int64, has []bool) (arrow.Array, error) {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, g := range groups {
		if !has[g] {
			b.AppendNull()
			continue
		}
		v := vals[g]
		switch x := b.(type) {
		case *array.Int8Builder:
			x.Append(int8(v))
		case *array.Int16Builder:
			x.Append(int16(v))
		case *array.Int32Builder:
			x.Append(int32(v))
		case *array.Int64Builder:
			x.Append(v)
		case *array.Uint32Builder:
			x.Append(uint32(v))
		case *array.Date32Builder:
			x.Append(arrow.Date32(v))
		case *array.Date64Builder:
			x.Append(arrow.Date64(v))
		case *array.Time32Builder:
			x.Append(arrow.Time32(v))
		case *array.Time64Builder:
			x.Append(arrow.Time64(v))
		case *array.TimestampBuilder:
			x.Append(arrow.Timestamp(v))
		case *array.DurationBuilder:
			x.Append(arrow.Duration(v))
		default:
			return nil, sqlerr.New(sqlerr.InternalError, "unexpected integer type %s", dt)
		}
	}
	return b.NewArray(), nil
}

type minMaxFloat struct {
	arg  int
	max  bool
	is32 bool
	vals []float64
	has  []bool
}

func (a *minMaxFloat) resize(n int) { a.vals, a.has = grow(a.vals, n), grow(a.has, n) }
func (a *minMaxFloat) size() int64  { return int64(cap(a.vals)) * 9 }
func (a *minMaxFloat) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	var get func(int) float64
	switch x := arr.(type) {
	case *array.Float32:
		get = func(i int) float64 { return float64(x.Value(i)) }
	case *array.Float64:
		get = x.Value
	}
	forRows(len(groups), rows, func(i int) {
		if arr.IsNull(i) {
			return
		}
		g := groups[i]
		v := get(i)
		if !a.has[g] {
			a.vals[g], a.has[g] = v, true
			return
		}
		// on a tie the later value wins, as float8larger/smaller return
		// their second argument: of 0 and -0 the one met last prints
		c := types.CompareFloat64(v, a.vals[g])
		if (a.max && c >= 0) || (!a.max && c <= 0) {
			a.vals[g] = v
		}
	})
	return nil
}
func (a *minMaxFloat) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	if a.is32 {
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		for _, g := range groups {
			if a.has[g] {
				b.Append(float32(a.vals[g]))
			} else {
				b.AppendNull()
			}
		}
		return b.NewArray(), nil
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.has[g] {
			b.Append(a.vals[g])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

type minMaxDecimal struct {
	arg  int
	max  bool
	dt   arrow.DataType
	vals []decimal128.Num
	has  []bool
}

func (a *minMaxDecimal) resize(n int) { a.vals, a.has = grow(a.vals, n), grow(a.has, n) }
func (a *minMaxDecimal) size() int64  { return int64(cap(a.vals)) * 17 }
func (a *minMaxDecimal) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	x := cols[a.arg].(*array.Decimal128)
	forRows(len(groups), rows, func(i int) {
		if x.IsNull(i) {
			return
		}
		g := groups[i]
		v := x.Value(i)
		if !a.has[g] || (a.max && v.Greater(a.vals[g])) || (!a.max && v.Less(a.vals[g])) {
			a.vals[g], a.has[g] = v, true
		}
	})
	return nil
}
func (a *minMaxDecimal) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewDecimal128Builder(mem, a.dt.(*arrow.Decimal128Type))
	defer b.Release()
	for _, g := range groups {
		if a.has[g] {
			b.Append(a.vals[g])
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}

// minMaxBytes covers text (bytewise, C collation), bytea and binary(n),
// and bpchar (blankPadded) as bpchar_larger/smaller compare it: without
// trailing blanks, the value met first staying on a tie ('a ' and 'a'
// are equal and print differently).
type minMaxBytes struct {
	arg         int
	max         bool
	blankPadded bool
	dt          arrow.DataType
	vals        [][]byte
	has         []bool
	held        int64
}

// compare orders v against the group's value w as the aggregate's type
// does.
func (a *minMaxBytes) compare(v, w []byte) int {
	if a.blankPadded {
		return bytes.Compare(bytes.TrimRight(v, " "), bytes.TrimRight(w, " "))
	}
	return bytes.Compare(v, w)
}

func bytesGetter(a arrow.Array) func(int) []byte {
	switch x := a.(type) {
	case *array.String:
		return func(i int) []byte { return unsafeBytes(x.Value(i)) }
	case *array.Binary:
		return x.Value
	case *array.FixedSizeBinary:
		return x.Value
	case *array.LargeString:
		return func(i int) []byte { return unsafeBytes(x.Value(i)) }
	}
	return nil
}

func (a *minMaxBytes) resize(n int) { a.vals, a.has = grow(a.vals, n), grow(a.has, n) }
func (a *minMaxBytes) size() int64  { return int64(cap(a.vals))*25 + a.held }
func (a *minMaxBytes) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	get := bytesGetter(arr)
	forRows(len(groups), rows, func(i int) {
		if arr.IsNull(i) {
			return
		}
		g := groups[i]
		v := get(i)
		if !a.has[g] {
			a.vals[g], a.has[g] = bytes.Clone(v), true
			a.held += int64(len(v))
			return
		}
		c := a.compare(v, a.vals[g])
		if (a.max && c > 0) || (!a.max && c < 0) {
			a.held += int64(len(v) - len(a.vals[g]))
			a.vals[g] = bytes.Clone(v)
		}
	})
	return nil
}
func (a *minMaxBytes) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.dt)
	defer b.Release()
	for _, g := range groups {
		if !a.has[g] {
			b.AppendNull()
			continue
		}
		switch x := b.(type) {
		case *array.StringBuilder:
			x.BinaryBuilder.Append(a.vals[g])
		case *array.BinaryBuilder:
			x.Append(a.vals[g])
		case *array.FixedSizeBinaryBuilder:
			x.Append(a.vals[g])
		case *array.LargeStringBuilder:
			x.BinaryBuilder.Append(a.vals[g])
		}
	}
	return b.NewArray(), nil
}

// ---- bool_and / bool_or ----

type boolAcc struct {
	arg   int
	or    bool
	state []int8 // 0 no input, 1 false, 2 true
}

func (a *boolAcc) resize(n int) { a.state = grow(a.state, n) }
func (a *boolAcc) size() int64  { return int64(cap(a.state)) }
func (a *boolAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	x := cols[a.arg].(*array.Boolean)
	forRows(len(groups), rows, func(i int) {
		if x.IsNull(i) {
			return
		}
		g := groups[i]
		v := x.Value(i)
		switch {
		case a.state[g] == 0:
		case a.or:
			v = v || a.state[g] == 2
		default:
			v = v && a.state[g] == 2
		}
		if v {
			a.state[g] = 2
		} else {
			a.state[g] = 1
		}
	})
	return nil
}
func (a *boolAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewBooleanBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		if a.state[g] == 0 {
			b.AppendNull()
		} else {
			b.Append(a.state[g] == 2)
		}
	}
	return b.NewArray(), nil
}

// ---- string_agg / array_agg: collect rows per group ----

// collectAcc keeps the argument (and separator) columns of the batches it
// saw and a list of row references per group; finish orders each group's
// rows by the ORDER BY keys (as PostgreSQL's quicksort does, which leaves
// ties where its swaps put them: pgqsort.go) and gathers them.
type collectAcc struct {
	arg     int
	sep     int  // string_agg's separator column, -1 for array_agg
	arrays  bool // array_agg(anyarray): arrayaggarrays.go's rules
	order   []SortKeySpec
	outType arrow.DataType
	srcArg  []arrow.Array
	srcSep  []arrow.Array
	refs    [][]rowRef
	keys    [][][]byte // per group, per entry: ORDER BY key
	held    int64
	// rowChecks: the arrays rules apply as rows come (arrayaggarrays.go),
	// what stacks remembers of each group
	rowChecks bool
	stacks    []stacking
}

func (a *collectAcc) resize(n int) {
	a.refs = grow(a.refs, n)
	if a.rowChecks {
		a.stacks = grow(a.stacks, n)
	}
	if len(a.order) > 0 {
		a.keys = grow(a.keys, n)
	}
}
func (a *collectAcc) size() int64 { return int64(cap(a.refs))*24 + a.held }

func (a *collectAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arg := cols[a.arg]
	var keys [][]byte
	if len(a.order) > 0 {
		keys, _ = keyBuffers(arg.Len(), keyWidthHint(cols, a.order), nil)
		if err := encodeKeys(cols, a.order, keys); err != nil {
			return err
		}
	}
	if a.rowChecks {
		if l, ok := arg.(*array.List); ok {
			var err error
			forRows(len(groups), rows, func(i int) {
				if err == nil {
					if e := a.stacks[groups[i]].next(l, i); e != nil {
						err = rowError{row: i, err: e}
					}
				}
			})
			if err != nil {
				return err
			}
		}
	}
	b := uint32(len(a.srcArg))
	used := false
	forRows(len(groups), rows, func(i int) {
		// string_agg skips NULL values (and their separators); array_agg
		// keeps them. Under an ORDER BY they are sorted with the others
		// and skipped after (ordered): PostgreSQL sorts every input row,
		// and which rows are there decides where ties end.
		if a.sep >= 0 && keys == nil && arg.IsNull(i) {
			return
		}
		g := groups[i]
		a.refs[g] = append(a.refs[g], rowRef{b, uint32(i)})
		a.held += 8
		if keys != nil {
			a.keys[g] = append(a.keys[g], keys[i])
			a.held += int64(len(keys[i])) + 24
		}
		used = true
	})
	if used {
		arg.Retain()
		a.srcArg = append(a.srcArg, arg)
		a.held += arrayBytes(arg)
		if a.sep >= 0 {
			s := cols[a.sep]
			s.Retain()
			a.srcSep = append(a.srcSep, s)
			a.held += arrayBytes(s)
		}
	}
	return nil
}

func (a *collectAcc) ordered(g uint32) []rowRef {
	refs := a.refs[g]
	if len(a.order) == 0 {
		return refs
	}
	idx := make([]int, len(refs))
	for i := range idx {
		idx[i] = i
	}
	ks := a.keys[g]
	// as PostgreSQL's tuplesort orders them, ties included (pgqsort.go)
	pgSort(idx, func(x, y int) int { return bytes.Compare(ks[x], ks[y]) })
	out := make([]rowRef, 0, len(refs))
	for _, j := range idx {
		if a.sep >= 0 && a.srcArg[refs[j].b].IsNull(int(refs[j].r)) {
			continue // string_agg skips NULL values (and their separators)
		}
		out = append(out, refs[j])
	}
	return out
}

// check applies array_agg(anyarray)'s rules to group g's rows in the
// order they are aggregated (groupChecker).
func (a *collectAcc) check(_ memory.Allocator, g uint32) error {
	if !a.arrays {
		return nil
	}
	return a.checkStackable(a.ordered(g))
}

func (a *collectAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	if a.sep >= 0 {
		return a.finishString(mem, groups)
	}
	lt, ok := a.outType.(*arrow.ListType)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "array_agg: output type %s is not a list", a.outType)
	}
	var all []rowRef
	offsets := make([]int32, 0, len(groups)+1)
	valid := make([]bool, len(groups))
	offsets = append(offsets, 0)
	for i, g := range groups {
		rs := a.ordered(g)
		if a.arrays {
			if err := a.checkStackable(rs); err != nil {
				return nil, err
			}
		}
		all = append(all, rs...)
		offsets = append(offsets, int32(len(all)))
		valid[i] = len(rs) > 0
	}
	child, err := gather(mem, lt.Elem(), a.srcArg, all)
	if err != nil {
		return nil, err
	}
	defer child.Release()
	ob := array.NewInt32Builder(mem)
	ob.AppendValues(offsets, nil)
	offArr := ob.NewArray()
	ob.Release()
	defer offArr.Release()
	vb := array.NewBooleanBuilder(mem)
	vb.AppendValues(valid, nil)
	validArr := vb.NewArray()
	vb.Release()
	defer validArr.Release()
	nulls := 0
	for _, v := range valid {
		if !v {
			nulls++
		}
	}
	var nullBuf *memory.Buffer
	if nulls > 0 {
		nullBuf = validArr.Data().Buffers()[1]
	}
	data := array.NewData(lt, len(groups), []*memory.Buffer{nullBuf, offArr.Data().Buffers()[1]}, []arrow.ArrayData{child.Data()}, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

func (a *collectAcc) finishString(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.outType)
	defer b.Release()
	getArg := make([]func(int) []byte, len(a.srcArg))
	getSep := make([]func(int) []byte, len(a.srcSep))
	for i := range a.srcArg {
		getArg[i] = bytesGetter(a.srcArg[i])
		getSep[i] = bytesGetter(a.srcSep[i])
	}
	var buf []byte
	for _, g := range groups {
		rs := a.ordered(g)
		if len(rs) == 0 {
			b.AppendNull()
			continue
		}
		buf = buf[:0]
		for j, r := range rs {
			// the separator before a value is the one given with it; the
			// first value's is dropped; a NULL separator adds nothing
			if j > 0 && a.srcSep[r.b].IsValid(int(r.r)) {
				buf = append(buf, getSep[r.b](int(r.r))...)
			}
			buf = append(buf, getArg[r.b](int(r.r))...)
		}
		switch x := b.(type) {
		case *array.StringBuilder:
			x.BinaryBuilder.Append(buf)
		case *array.BinaryBuilder:
			x.Append(buf)
		}
	}
	return b.NewArray(), nil
}

// ---- DISTINCT ----

// distinctAcc passes each (group, value) pair to the inner accumulator
// once, the first it meets: for arguments whose equal values print alike
// (sortdistinct.go keeps PostgreSQL's representative of the others).
// The value is all of the aggregate's arguments, as PostgreSQL's DISTINCT
// covers them all: string_agg(DISTINCT x, sep) keeps an x once per
// separator it comes with, corr(DISTINCT y, x) a (y, x) pair once.
type distinctAcc struct {
	inner accumulator
	arg   int
	form  types.KeyForm // its key form (SortKey.Form)
	more  []int         // the other arguments' columns (string_agg's separator, X)
	seen  map[string]struct{}
	held  int64
	sel   []int32
}

func (a *distinctAcc) resize(n int) { a.inner.resize(n) }
func (a *distinctAcc) size() int64  { return a.inner.size() + a.held }
func (a *distinctAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	arr := cols[a.arg]
	keys, _ := keyBuffers(arr.Len(), 13, nil)
	for i, g := range groups {
		keys[i] = append(keys[i], byte(g>>24), byte(g>>16), byte(g>>8), byte(g))
	}
	if err := encodeColumn(arr, SortKey{Form: a.form}, keys); err != nil {
		return err
	}
	for _, c := range a.more {
		if err := encodeColumn(cols[c], SortKey{}, keys); err != nil {
			return err
		}
	}
	a.sel = a.sel[:0]
	forRows(len(groups), rows, func(i int) {
		if _, ok := a.seen[string(keys[i])]; ok {
			return
		}
		a.seen[string(keys[i])] = struct{}{}
		a.held += int64(len(keys[i])) + 48
		a.sel = append(a.sel, int32(i))
	})
	if len(a.sel) == 0 {
		return nil
	}
	return a.inner.update(cols, groups, a.sel)
}
func (a *distinctAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	return a.inner.finish(mem, groups)
}

// check checks what the inner accumulator checks of group g
// (groupChecker): distinctAcc passed it its values as they came.
func (a *distinctAcc) check(mem memory.Allocator, g uint32) error {
	if c, ok := a.inner.(groupChecker); ok {
		return c.check(mem, g)
	}
	return nil
}

// newAccumulator builds the accumulator of spec over an input schema, with
// out the aggregate's output type.
func newAccumulator(spec AggSpec, in *arrow.Schema, out arrow.DataType) (accumulator, error) {
	fn := strings.ToLower(spec.Func)
	if spec.Arg >= in.NumFields() || (spec.Arg < 0 && fn != "count") {
		return nil, sqlerr.New(sqlerr.InternalError, "aggregate %s: argument column %d out of range", fn, spec.Arg)
	}
	var argType arrow.DataType
	if spec.Arg >= 0 {
		argType = in.Field(spec.Arg).Type
	}
	unsupported := func() (accumulator, error) {
		return nil, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", fn, argType)
	}
	decScale := func(dt arrow.DataType) int {
		if d, ok := dt.(*arrow.Decimal128Type); ok {
			return int(d.Scale)
		}
		return 0
	}
	var acc accumulator
	switch fn {
	case "count":
		acc = &countAcc{arg: spec.Arg}
	case "sum", "avg":
		avg := fn == "avg"
		switch {
		case argType.ID() == arrow.INTERVAL_MONTH_DAY_NANO:
			acc = &intervalAcc{arg: spec.Arg, kind: map[bool]intervalKind{false: intervalSum, true: intervalAvg}[avg]}
		case !avg && argType.ID() == arrow.FLOAT64 && out.ID() == arrow.FLOAT64:
			acc = &sumF64Acc{arg: spec.Arg}
		case argType.ID() == arrow.FLOAT32 || argType.ID() == arrow.FLOAT64:
			acc = &floatAcc{arg: spec.Arg, avg: avg, out32: !avg && out.ID() == arrow.FLOAT32}
		case !avg && out.ID() == arrow.INT64 && isIntClass(argType):
			acc = &sumIntAcc{arg: spec.Arg, money: spec.Money}
		case (isIntClass(argType) || argType.ID() == arrow.DECIMAL128) && types.IsNumericArrow(out):
			acc = &decAcc{arg: spec.Arg, avg: avg, argScale: decScale(argType)}
		case types.IsNumericArrow(argType):
			acc = &numAcc{arg: spec.Arg, avg: avg}
		default:
			return unsupported()
		}
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		kind := map[string]varKind{"stddev": stddevSamp, "stddev_samp": stddevSamp, "stddev_pop": stddevPop,
			"variance": varSamp, "var_samp": varSamp, "var_pop": varPop}[fn]
		switch {
		case argType.ID() == arrow.FLOAT32 || argType.ID() == arrow.FLOAT64:
			acc = &floatVarAcc{arg: spec.Arg, kind: kind}
		case (isIntClass(argType) || argType.ID() == arrow.DECIMAL128 || types.IsNumericArrow(argType)) && types.IsNumericArrow(out):
			acc = &numVarAcc{arg: spec.Arg, kind: kind}
		default:
			return unsupported()
		}
	case "min", "max":
		isMax := fn == "max"
		switch {
		case isIntClass(argType) || argType.ID() == arrow.UINT32: // uint32: oid
			acc = &minMaxInt{arg: spec.Arg, max: isMax, dt: argType}
		case argType.ID() == arrow.FLOAT32 || argType.ID() == arrow.FLOAT64:
			acc = &minMaxFloat{arg: spec.Arg, max: isMax, is32: argType.ID() == arrow.FLOAT32}
		case argType.ID() == arrow.DECIMAL128:
			acc = &minMaxDecimal{arg: spec.Arg, max: isMax, dt: argType}
		case types.IsNumericArrow(argType):
			acc = &minMaxNumeric{arg: spec.Arg, max: isMax}
		case argType.ID() == arrow.INTERVAL_MONTH_DAY_NANO:
			acc = &intervalAcc{arg: spec.Arg, kind: map[bool]intervalKind{false: intervalMin, true: intervalMax}[isMax]}
		case argType.ID() == arrow.STRING || argType.ID() == arrow.BINARY || argType.ID() == arrow.FIXED_SIZE_BINARY || argType.ID() == arrow.LARGE_STRING:
			acc = &minMaxBytes{arg: spec.Arg, max: isMax, dt: argType, blankPadded: spec.Form == types.KeyBlankPadded}
		default:
			return unsupported()
		}
	case "bit_and", "bit_or", "bit_xor": // bitagg.go
		if argType.ID() == arrow.STRING { // bit strings: bitstringagg.go
			acc = &bitStringAcc{arg: spec.Arg, op: map[string]byte{"bit_and": '&', "bit_or": '|', "bit_xor": '#'}[fn]}
			break
		}
		if !isBitAggArg(argType) {
			return unsupported()
		}
		acc = &bitAcc{arg: spec.Arg, op: map[string]byte{"bit_and": '&', "bit_or": '|', "bit_xor": '#'}[fn], out: argType}
	case "bool_and", "every", "bool_or":
		if argType.ID() != arrow.BOOL {
			return unsupported()
		}
		acc = &boolAcc{arg: spec.Arg, or: fn == "bool_or"}
	case "string_agg":
		if argType.ID() != arrow.STRING && argType.ID() != arrow.BINARY {
			return unsupported()
		}
		if spec.Sep < 0 || spec.Sep >= in.NumFields() {
			return nil, sqlerr.New(sqlerr.InternalError, "string_agg: separator column %d out of range", spec.Sep)
		}
		acc = &collectAcc{arg: spec.Arg, sep: spec.Sep, order: spec.OrderBy, outType: out}
	case "array_agg":
		arrays := spec.Arrays && isListType(argType)
		acc = &collectAcc{arg: spec.Arg, sep: -1, order: spec.OrderBy, outType: out, arrays: arrays,
			rowChecks: arrays && len(spec.OrderBy) == 0 && !spec.Distinct}
	case "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2",
		"regr_slope", "regr_sxx", "regr_sxy", "regr_syy":
		if argType.ID() != arrow.FLOAT64 || spec.X < 0 || spec.X >= in.NumFields() || in.Field(spec.X).Type.ID() != arrow.FLOAT64 {
			return unsupported()
		}
		acc = &pairStatsAcc{y: spec.Arg, x: spec.X, fn: fn}
	default:
		return nil, sqlerr.New(sqlerr.UndefinedFunction, "function %s does not exist", fn)
	}
	if spec.Distinct && spec.Arg >= 0 {
		if fn != "count" && spec.X < 0 && LooseEquality(argType, spec.Form) {
			// which of equal values survives shows (sortdistinct.go); a
			// float sum also rounds in the sorted order
			acc = newSortDistinct(acc, fn, spec, argType)
		} else {
			d := &distinctAcc{inner: acc, arg: spec.Arg, form: spec.Form, seen: map[string]struct{}{}}
			if fn == "string_agg" {
				d.more = append(d.more, spec.Sep)
			} else if _, pair := acc.(*pairStatsAcc); pair {
				d.more = append(d.more, spec.X)
			}
			acc = d
		}
	} else if len(spec.OrderBy) > 0 && spec.Arg >= 0 && floatAccumulates(fn, argType) {
		// agg(x ORDER BY y) over floats: PostgreSQL sorts the input
		// before the transition function, whose rounding follows that
		// order (sortdistinct.go, keeping equal values)
		acc = newSortOrdered(acc, fn, spec, argType)
	}
	return acc, nil
}
