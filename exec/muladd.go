package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// The fused kernel for bigint `x * c + y`, `y + x * c` and `x * c - y` (c a
// constant or parameter, x and y evaluated to arrays): one pass over x and
// y that writes the result directly, instead of a multiply that writes a
// temporary and an add that reads it back (a third of the memory traffic
// saved, and one loop instead of two). Both overflow tests are accumulated
// branch-free over the whole batch; when either fires, the expression is
// evaluated again unfused, which decides, with the NULLs and in
// PostgreSQL's order of evaluation, whether a row's overflow is an error
// (22003) or hidden by a NULL.

// mulAddShape is a fusable x*c ± y.
type mulAddShape struct {
	x, y Expr
	c    int64
	sub  bool // x*c - y
}

// mulAddOf recognizes e as a fusable x*c ± y for this evaluation.
func (e *ArithExpr) mulAddOf(ec *EvalContext) (mulAddShape, bool) {
	if e.T.Kind != types.Int64 || (e.Op != Add && e.Op != Sub) {
		return mulAddShape{}, false
	}
	try := func(m, y Expr, sub bool) (mulAddShape, bool) {
		me, ok := m.(*ArithExpr)
		if !ok || me.Op != Mul || me.T.Kind != types.Int64 || ec.backendFor(arithFamily(Mul, me.T)) != BackendNative {
			return mulAddShape{}, false
		}
		x, cexpr := me.L, me.R
		if _, isConst := scalarValue(ec, x); isConst {
			x, cexpr = cexpr, x
		}
		cv, isConst := scalarValue(ec, cexpr)
		c, isInt := cv.(int64)
		if !isConst || !isInt || c == 0 || c == -1 || x.Type().Kind != types.Int64 || cexpr.Type().Kind != types.Int64 {
			return mulAddShape{}, false
		}
		if _, yConst := scalarValue(ec, y); yConst || y.Type().Kind != types.Int64 {
			return mulAddShape{}, false
		}
		if _, xConst := scalarValue(ec, x); xConst {
			return mulAddShape{}, false
		}
		return mulAddShape{x: x, y: y, c: c, sub: sub}, true
	}
	if s, ok := try(e.L, e.R, e.Op == Sub); ok {
		return s, true
	}
	if e.Op == Add {
		return try(e.R, e.L, false)
	}
	return mulAddShape{}, false
}

// eval evaluates a fusable shape; ok is false when some row
// overflowed, and the caller evaluates e unfused.
func (s mulAddShape) eval(ec *EvalContext, t types.T, batch arrow.RecordBatch) (arrow.Array, bool, error) {
	xa, err := s.x.Eval(ec, batch)
	if err != nil {
		return nil, true, err
	}
	defer xa.Release()
	ya, err := s.y.Eval(ec, batch)
	if err != nil {
		return nil, true, err
	}
	defer ya.Release()
	n := xa.Len()
	validity, nulls := combinedValidity(ec.Mem, n, xa, ya)
	if validity != nil {
		defer validity.Release()
	}
	out, data := fixedArray[int64](ec.Mem, t.ArrowType(), n, validity, nulls)
	defer data.Release()
	xv, yv := intValues[int64](xa), intValues[int64](ya)
	if mulConstAdd(xv, yv, s.c, s.sub, out) {
		return nil, false, nil
	}
	return array.MakeFromData(data), true, nil
}

// mulConstAdd is out = x*c ± y (wrapping); true when some
// slot overflowed (x*c does exactly when x lies outside [lo, hi]; the
// sum's sign test is ORed). The AVX2 loop (simd_amd64.go) does the leading
// rows where it runs, mulConstAddGo the rest.
func mulConstAdd(x, y []int64, c int64, sub bool, out []int64) bool {
	lo, hi := mulRange(c)
	y = y[:len(x)]
	out = out[:len(x)]
	done, overflow := mulConstAddSIMD(x, y, c, lo, hi, sub, out)
	return mulConstAddGo(x[done:], y[done:], c, lo, hi, sub, out[done:]) || overflow
}

// ntStoreBytes is the output size from which the fused AVX2 kernel stores
// around the cache: an output this large, with the inputs it is computed
// from (twice its size), no longer fits the share of the L3 cache a core
// can count on, so caching it would only evict the inputs and cost a read
// of every output line before it is overwritten (the write-allocate: a
// third more memory traffic). Smaller outputs, like the store's 64K-row
// batches, stay cached for the next kernel that reads them.
const ntStoreBytes = 4 << 20

// mulRange is the range [lo, hi] of the x for which x*c does not overflow.
func mulRange(c int64) (lo, hi int64) {
	switch {
	case c == 0:
		return -1 << 63, 1<<63 - 1
	case c == -1:
		return -(1<<63 - 1), 1<<63 - 1 // MinInt64 / -1 wraps in Go
	case c < 0:
		return int64(1<<63-1) / c, int64(-1<<63) / c
	}
	return int64(-1<<63) / c, int64(1<<63-1) / c
}

// mulConstAddGo is mulConstAdd's pure-Go loop, given x*c's range [lo, hi]:
// it keeps the largest unsigned distance x-lo. Not inlined: alone, its
// loop keeps every variable in a register.
//
//go:noinline
func mulConstAddGo(x, y []int64, c, lo, hi int64, sub bool, out []int64) bool {
	span := uint64(hi - lo)
	y = y[:len(x)]
	out = out[:len(x)]
	var far uint64 // the largest distance of an x from lo
	var addAcc int64
	if sub {
		for i, a := range x {
			b := y[i]
			p := a * c
			r := p - b
			far = max(far, uint64(a-lo))
			addAcc |= (p ^ b) & (p ^ r)
			out[i] = r
		}
	} else {
		for i, a := range x {
			b := y[i]
			p := a * c
			r := p + b
			far = max(far, uint64(a-lo))
			addAcc |= (p ^ r) & (b ^ r)
			out[i] = r
		}
	}
	return far > span || addAcc < 0
}
