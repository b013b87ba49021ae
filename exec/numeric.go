package exec

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// numericArith is + - * / % over numeric operands, each a numeric or a
// DECIMAL(p,s) column, into a numeric column.
func numericArith(mem memory.Allocator, op ArithOp, la, ra arrow.Array) (arrow.Array, error) {
	bld := array.NewBuilder(mem, types.NewNumericArrowType()).(*array.ExtensionBuilder)
	defer bld.Release()
	out := types.NewNumericAppender(bld)
	n := la.Len()
	bld.Reserve(n)
	if x, ok := la.(*array.Decimal128); ok {
		if y, ok := ra.(*array.Decimal128); ok && op != Div && op != Mod {
			if err := decimal128Fast(out, op, x, y); err != nil {
				return nil, err
			}
			return bld.NewArray(), nil
		}
	}
	rl, err := types.NewNumericReader(la)
	if err != nil {
		return nil, err
	}
	rr, err := types.NewNumericReader(ra)
	if err != nil {
		return nil, err
	}
	var dl, dr apd.Decimal
	for i := 0; i < n; i++ {
		if la.IsNull(i) || ra.IsNull(i) {
			out.AppendNull()
			continue
		}
		r, err := numericOp(op, rl(i, &dl), rr(i, &dr))
		if err != nil {
			return nil, err
		}
		out.Append(r)
	}
	return bld.NewArray(), nil
}

func numericOp(op ArithOp, a, b *apd.Decimal) (*apd.Decimal, error) {
	switch op {
	case Add:
		return numeric.Add(a, b)
	case Sub:
		return numeric.Sub(a, b)
	case Mul:
		return numeric.Mul(a, b)
	case Div:
		return numeric.Div(a, b)
	case Mod:
		return numeric.Mod(a, b)
	}
	return nil, sqlerr.NotSupported("this numeric operator")
}

// decimal128Fast is + - * of two DECIMAL(p,s) columns. numeric's result
// is exact with display scale max(sa, sb) (+ -) or sa+sb (*), which is
// what 128-bit integer arithmetic on the unscaled values gives whenever it
// does not overflow; a row that would overflow is computed by numeric.
func decimal128Fast(out *types.NumericBuilder, op ArithOp, x, y *array.Decimal128) error {
	sa := int(x.DataType().(*arrow.Decimal128Type).Scale)
	sb := int(y.DataType().(*arrow.Decimal128Type).Scale)
	scale := max(sa, sb)
	if op == Mul {
		scale = sa + sb
	}
	fa, fb := pow10_128(scale-sa), pow10_128(scale-sb)
	for i := 0; i < x.Len(); i++ {
		if x.IsNull(i) || y.IsNull(i) {
			out.AppendNull()
			continue
		}
		a, b := x.Value(i), y.Value(i)
		var r decimal128.Num
		ok := true
		switch op {
		case Add, Sub:
			if op == Sub {
				b = b.Negate()
			}
			var ok1, ok2 bool
			a, ok1 = mul128(a, fa)
			b, ok2 = mul128(b, fb)
			r = a.Add(b)
			ok = ok1 && ok2 && !addOverflows(a, b, r)
		case Mul:
			r, ok = mul128(a, b)
		}
		if !ok {
			d, err := numericOp(op, types.NumericFromDecimal128(x.Value(i), sa), types.NumericFromDecimal128(y.Value(i), sb))
			if err != nil {
				return err
			}
			out.Append(d)
			continue
		}
		out.Append(types.NumericFromDecimal128(r, scale))
	}
	return nil
}

func pow10_128(k int) decimal128.Num {
	r := decimal128.FromI64(1)
	for ; k > 0; k-- {
		r = r.Mul(decimal128.FromI64(10))
	}
	return r
}

func addOverflows(a, b, r decimal128.Num) bool {
	return (a.Sign() >= 0) == (b.Sign() >= 0) && (r.Sign() >= 0) != (a.Sign() >= 0)
}

// mul128 is a × b, ok false when the product does not fit 127 bits.
func mul128(a, b decimal128.Num) (decimal128.Num, bool) {
	neg := false
	if a.Sign() < 0 {
		a, neg = a.Negate(), !neg
	}
	if b.Sign() < 0 {
		b, neg = b.Negate(), !neg
	}
	ah, al := uint64(a.HighBits()), a.LowBits()
	bh, bl := uint64(b.HighBits()), b.LowBits()
	if ah != 0 && bh != 0 {
		return decimal128.Num{}, false
	}
	hi, lo := bits.Mul64(al, bl)
	c1h, c1 := bits.Mul64(ah, bl)
	c2h, c2 := bits.Mul64(al, bh)
	if c1h != 0 || c2h != 0 {
		return decimal128.Num{}, false
	}
	var carry uint64
	hi, carry = bits.Add64(hi, c1, 0)
	if carry != 0 {
		return decimal128.Num{}, false
	}
	hi, carry = bits.Add64(hi, c2, 0)
	if carry != 0 || hi>>63 != 0 {
		return decimal128.Num{}, false
	}
	r := decimal128.New(int64(hi), lo)
	if neg {
		r = r.Negate()
	}
	return r, true
}
