package exec

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// Text-building fast paths for the expressions that build strings row by
// row ('user-' || x || '@example.com', the shape of generated keys and
// JSON documents): an integer cast to text is formatted straight into the
// result's bytes, and a chain of || is built row by row in one pass, its
// constants appended from one copy instead of a column of n copies. Both
// give what the general paths give.

// intToText casts an integer array to unconstrained text; ok is false
// for any other cast.
func intToText(ec *EvalContext, xa arrow.Array, to types.T) (arrow.Array, bool) {
	if to.Kind != types.String || to.Length > 0 || to.Variant != types.NoVariant {
		return nil, false
	}
	var get func(int) int64
	switch x := xa.(type) {
	case *array.Int16:
		get = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int32:
		get = func(i int) int64 { return int64(x.Value(i)) }
	case *array.Int64:
		get = x.Value
	default:
		return nil, false
	}
	n := xa.Len()
	b := array.NewStringBuilder(ec.Mem)
	defer b.Release()
	b.Reserve(n)
	b.ReserveData(n * 8)
	var buf [24]byte
	for i := 0; i < n; i++ {
		if xa.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(strconv.AppendInt(buf[:0], get(i), 10))
	}
	return b.NewArray(), true
}

// constText is the value of a text constant.
func constText(e Expr) (string, bool) {
	c, ok := e.(*ConstExpr)
	if !ok || c.T.Kind != types.String {
		return "", false
	}
	s, ok := c.Value.(string)
	return s, ok
}

// concatParts flattens a chain of || into its operands, left to right.
func concatParts(e Expr, out []Expr) []Expr {
	if c, ok := e.(*ConcatExpr); ok {
		return concatParts(c.R, concatParts(c.L, out))
	}
	return append(out, e)
}

// concatChain is a || b || ... evaluated at once: each operand once, each
// row built in one buffer, constants appended from one copy; NULL when
// any operand is.
func concatChain(ec *EvalContext, batch arrow.RecordBatch, parts []Expr) (arrow.Array, error) {
	consts := make([]string, len(parts))
	cols := make([]*array.String, len(parts))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	n, data := batch.NumRows(), 0
	for k, p := range parts {
		if c, ok := constText(p); ok {
			consts[k] = c
			data += int(n) * len(c)
			continue
		}
		a, err := p.Eval(ec, batch)
		if err != nil {
			return nil, err
		}
		cols[k] = a.(*array.String)
		n = int64(a.Len())
		data += len(cols[k].ValueBytes())
	}
	b := array.NewStringBuilder(ec.Mem)
	defer b.Release()
	b.Reserve(int(n))
	b.ReserveData(data)
	buf := make([]byte, 0, 64)
rows:
	for i := 0; i < int(n); i++ {
		buf = buf[:0]
		for k, c := range cols {
			if c == nil {
				buf = append(buf, consts[k]...)
				continue
			}
			if c.IsNull(i) {
				b.AppendNull()
				continue rows
			}
			buf = append(buf, c.Value(i)...)
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}
