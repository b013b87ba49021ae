package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// The rule under test: a kernel's result never depends on the value that
// lies under a NULL slot. Arrow leaves that value arbitrary (a NULL
// produced by an outer join, a CASE or another kernel may hold anything),
// so a checked kernel that looked at it would raise an overflow, a
// division by zero or a domain error for a value PostgreSQL never
// computes: max(x) + CAST(NULL AS SMALLINT) must be NULL, not "smallint out
// of range". Every checked family is run twice on the same rows: once with
// a benign value under each NULL slot, once with the type's worst values
// there (its bounds, 0, NaN, ±Infinity); when the first succeeds, the
// second must give the same result.

// garbage are the values put under NULL slots, by Arrow type.
func garbage(t types.T) []any {
	switch t.Kind {
	case types.Int16:
		return []any{int64(math.MaxInt16), int64(math.MinInt16), int64(0), int64(-1)}
	case types.Int32:
		return []any{int64(math.MaxInt32), int64(math.MinInt32), int64(0), int64(-1)}
	case types.Int64:
		return []any{int64(math.MaxInt64), int64(math.MinInt64), int64(0), int64(-1)}
	case types.Float32:
		return []any{float64(math.MaxFloat32), float64(-math.MaxFloat32), 0.0, math.NaN(), math.Inf(1), 1e-45, -1.0}
	case types.Float64:
		return []any{math.MaxFloat64, -math.MaxFloat64, 0.0, math.NaN(), math.Inf(-1), 5e-324, -1.0}
	case types.Date:
		return []any{int64(math.MaxInt32), int64(math.MinInt32), int64(0)}
	}
	return nil
}

// benign are the values of the valid rows (and, in the first run, under
// the NULL slots): small, positive, not zero.
func benign(t types.T, rng *rand.Rand) any {
	switch t.Kind {
	case types.Int16, types.Int32, types.Int64:
		return int64(1 + rng.IntN(3))
	case types.Float32, types.Float64:
		return 0.25 + float64(rng.IntN(3))/4
	case types.Date:
		return int64(19000 + rng.IntN(100))
	}
	return nil
}

// slotArray builds an array of t whose value buffer holds vals (under the
// NULL slots too) and whose validity is valid.
func slotArray(t types.T, vals []any, valid []bool) arrow.Array {
	n := len(vals)
	bitmap := memory.NewResizableBuffer(memory.DefaultAllocator)
	bitmap.Resize(int(bitutil.BytesForBits(int64(n))))
	nulls := 0
	for i, ok := range valid {
		bitutil.SetBitTo(bitmap.Bytes(), i, ok)
		if !ok {
			nulls++
		}
	}
	var buf *memory.Buffer
	switch t.Kind {
	case types.Int16:
		buf = typedBuffer(vals, func(x any) int16 { return int16(x.(int64)) })
	case types.Int32, types.Date:
		buf = typedBuffer(vals, func(x any) int32 { return int32(x.(int64)) })
	case types.Int64:
		buf = typedBuffer(vals, func(x any) int64 { return x.(int64) })
	case types.Float32:
		buf = typedBuffer(vals, func(x any) float32 { return float32(x.(float64)) })
	case types.Float64:
		buf = typedBuffer(vals, func(x any) float64 { return x.(float64) })
	}
	data := array.NewData(t.ArrowType(), n, []*memory.Buffer{bitmap, buf}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// typedBuffer is a value buffer of vals converted by conv.
func typedBuffer[T int16 | int32 | int64 | float32 | float64](vals []any, conv func(any) T) *memory.Buffer {
	v := make([]T, len(vals))
	for i, x := range vals {
		v[i] = conv(x)
	}
	return memory.NewBufferBytes(arrow.GetBytes(v))
}

// nullSlotCase is one run: a way to evaluate over input columns.
type nullSlotCase struct {
	name string
	in   []types.T
	eval func(ec *EvalContext, batch arrow.RecordBatch) (arrow.Array, error)
}

// checkNullSlots runs c over rows rounds of random validity, benign values
// under NULLs first, then garbage, and compares.
func checkNullSlots(t *testing.T, c nullSlotCase, rng *rand.Rand) {
	t.Helper()
	const n = 70 // more than a 64-bit word: the word and tail paths both run
	for round := 0; round < 6; round++ {
		benignCols := make([]arrow.Array, len(c.in))
		garbageCols := make([]arrow.Array, len(c.in))
		fields := make([]arrow.Field, len(c.in))
		for k, ty := range c.in {
			vals, bad := make([]any, n), make([]any, n)
			valid := make([]bool, n)
			g := garbage(ty)
			for i := range vals {
				vals[i] = benign(ty, rng)
				valid[i] = rng.IntN(3) != 0
				bad[i] = vals[i]
				if !valid[i] {
					bad[i] = g[rng.IntN(len(g))]
				}
			}
			benignCols[k] = slotArray(ty, vals, valid)
			garbageCols[k] = slotArray(ty, bad, valid)
			fields[k] = arrow.Field{Name: fmt.Sprint("c", k), Type: ty.ArrowType(), Nullable: true}
		}
		schema := arrow.NewSchema(fields, nil)
		b1 := array.NewRecordBatch(schema, benignCols, n)
		b2 := array.NewRecordBatch(schema, garbageCols, n)
		for _, a := range append(benignCols, garbageCols...) {
			a.Release()
		}
		for _, backend := range []Backend{BackendNative, BackendArrow} {
			ec := &EvalContext{Ctx: context.Background(), Mem: memory.DefaultAllocator, Backend: backend}
			want, err := c.eval(ec, b1)
			if err != nil {
				continue // the benign rows themselves fail: nothing to compare
			}
			got, err := c.eval(ec, b2)
			if err != nil {
				t.Errorf("%s (backend %v): raised %v for a value under a NULL slot", c.name, backend, err)
			} else {
				if !array.Equal(want, got) {
					t.Errorf("%s (backend %v): the values under NULL slots changed the result:\n%v\n%v", c.name, backend, want, got)
				}
				got.Release()
			}
			want.Release()
		}
		b1.Release()
		b2.Release()
	}
}

func colsOf(ts ...types.T) []Expr {
	out := make([]Expr, len(ts))
	for i, ty := range ts {
		out[i] = &ColExpr{Index: i, Name: fmt.Sprint("c", i), T: ty}
	}
	return out
}

func exprCase(name string, in []types.T, e Expr) nullSlotCase {
	return nullSlotCase{name: name, in: in, eval: func(ec *EvalContext, b arrow.RecordBatch) (arrow.Array, error) { return e.Eval(ec, b) }}
}

// TestKernelsIgnoreValuesUnderNulls covers the expression families:
// checked integer + - * / % of every width (column with column, with a
// scalar on either side, nested, and the fused x*c+y), negation, float
// arithmetic (overflow, underflow, division by zero), and casts between
// the numeric types (range checks, NaN and infinities).
func TestKernelsIgnoreValuesUnderNulls(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 25))
	var cases []nullSlotCase
	nums := []types.T{types.Int16Type, types.Int32Type, types.Int64Type, types.Float32Type, types.Float64Type}
	for _, ty := range nums {
		for op := Add; op <= Mod; op++ {
			cols := colsOf(ty, ty)
			name := fmt.Sprintf("%s %s %s", ty, arithNames[op], ty)
			cases = append(cases,
				exprCase(name, []types.T{ty, ty}, &ArithExpr{Op: op, L: cols[0], R: cols[1], T: ty}),
				exprCase(name+" (scalar right)", []types.T{ty}, &ArithExpr{Op: op, L: cols[0], R: &ConstExpr{Value: benignConst(ty), T: ty}, T: ty}),
				exprCase(name+" (scalar left)", []types.T{ty}, &ArithExpr{Op: op, L: &ConstExpr{Value: benignConst(ty), T: ty}, R: cols[0], T: ty}),
				exprCase(name+" (nested)", []types.T{ty, ty}, &ArithExpr{Op: op, L: &ArithExpr{Op: Mul, L: cols[0], R: cols[1], T: ty}, R: cols[1], T: ty}),
			)
		}
		cols := colsOf(ty)
		cases = append(cases, exprCase("- "+ty.String(), []types.T{ty}, &NegExpr{X: cols[0], T: ty}))
		for _, to := range nums {
			if to.Kind != ty.Kind {
				cases = append(cases, exprCase(fmt.Sprintf("%s::%s", ty, to), []types.T{ty}, &CastExpr{X: colsOf(ty)[0], T: to}))
			}
		}
	}
	// the fused bigint x * c + y and x * c - y
	i8 := types.Int64Type
	cols := colsOf(i8, i8)
	for _, op := range []ArithOp{Add, Sub} {
		cases = append(cases, exprCase("x * 3 "+arithNames[op]+" y", []types.T{i8, i8},
			&ArithExpr{Op: op, L: &ArithExpr{Op: Mul, L: cols[0], R: &ConstExpr{Value: int64(3), T: i8}, T: i8}, R: cols[1], T: i8}))
	}
	for _, c := range cases {
		checkNullSlots(t, c, rng)
	}
}

func benignConst(t types.T) any {
	if t.IsFloat() {
		return 0.5
	}
	return int64(2)
}

// TestFunctionsIgnoreValuesUnderNulls covers every strict built-in
// function over integer, floating-point and date arguments: the math
// functions that validate their input (sqrt, ln, log, power, abs of the
// minimum, gcd ...), date arithmetic (date ± days out of range) and the
// rest, by running each overload's kernel on columns with garbage under
// their NULL slots.
func TestFunctionsIgnoreValuesUnderNulls(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	ok := func(ty types.T) bool {
		switch ty.Kind {
		case types.Int16, types.Int32, types.Int64, types.Float32, types.Float64, types.Date:
			return true
		}
		return false
	}
	tested := 0
	for _, name := range functions.Names() {
		for _, f := range functions.Lookup(name) {
			if !f.Strict || f.Volatile || f.Variadic || len(f.Args) == 0 {
				continue
			}
			usable := true
			for _, a := range f.Args {
				usable = usable && ok(a)
			}
			if !usable {
				continue
			}
			_, kernel := f.Bind(f.Args, nil)
			if kernel == nil {
				continue
			}
			tested++
			in := f.Args
			checkNullSlots(t, nullSlotCase{name: fmt.Sprintf("%s%v", name, in), in: in,
				eval: func(ec *EvalContext, b arrow.RecordBatch) (arrow.Array, error) {
					return kernel(ec.Ctx, ec.Mem, b.Columns(), int(b.NumRows()))
				}}, rng)
		}
	}
	if tested < 20 {
		t.Fatalf("only %d function overloads over numbers and dates found", tested)
	}
}
