package functions

import (
	"bytes"
	"context"
	"github.com/sqlgate/sqlgate/types/numeric"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// GREATEST, LEAST and COALESCE are PostgreSQL special forms rather than
// functions, but they resolve like one variadic function whose arguments
// are all cast to their CommonType: Resolve does that for overloads with
// unify set, so the binder can treat them as calls.
func polyFuncs() []*Func {
	same := func(args []types.T, _ []any) (types.T, Kernel) {
		if len(args) == 0 {
			return types.StringType, nil
		}
		return args[0].Nullable(), nil
	}
	mk := func(name, ctxName string, dir int) *Func {
		return &Func{Name: name, Args: []types.T{tAny}, Variadic: true, Ret: tAny, unify: ctxName, Kernel: pickKernel(dir, types.T{}),
			specialize: func(args []types.T, consts []any) (types.T, Kernel) {
				t, _ := same(args, consts)
				return t, pickKernel(dir, t)
			}}
	}
	return []*Func{
		mk("greatest", "GREATEST", 1),
		mk("least", "LEAST", -1),
		mk("coalesce", "COALESCE", 0),
	}
}

// pickKernel chooses, per row, one argument's value: the first non-NULL
// (dir 0), the greatest (dir 1) or the least (dir -1) non-NULL one, the
// earliest on ties; NULL when every argument is NULL. Values compare as
// PostgreSQL's btree operators do: NaN above every number, -0 = 0, text
// byte-wise (the C collation), arrays and records of type t (when the
// resolution gave it) element by element as their btree operators do.
func pickKernel(dir int, t types.T) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, sqlerr.New(sqlerr.InternalError, "no arguments")
		}
		dt := args[0].DataType()
		for k, a := range args {
			if !arrow.TypeEqual(a.DataType(), dt) {
				return nil, badArg(k, a, dt.String())
			}
		}
		cmp, err := comparer(args[0])
		var nestedErr error // the first failed comparison of nested values
		if err != nil {
			if cmp = nestedComparer(t, &nestedErr); cmp == nil {
				return nil, err
			}
		}
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			best := -1
			for k, a := range args {
				if a.IsNull(i) {
					continue
				}
				if best < 0 {
					best = k
					if dir == 0 {
						break
					}
					continue
				}
				if c := cmp(a, i, args[best], i); c*dir > 0 {
					best = k
				}
			}
			if best < 0 {
				b.AppendNull()
				continue
			}
			if err := appendFrom(b, args[best], i); err != nil {
				if err = appendValue(b, types.ValueAt(args[best], i)); err != nil {
					return nil, err
				}
			}
		}
		if nestedErr != nil {
			return nil, nestedErr
		}
		return b.NewArray(), nil
	}
}

func cmpOrdered[T int8 | int16 | int32 | int64 | uint32 | arrow.Date32 | arrow.Timestamp | arrow.Time32 | arrow.Time64](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// comparer returns a comparison of rows of arrays of a's type.
func comparer(a arrow.Array) (func(x arrow.Array, i int, y arrow.Array, j int) int, error) {
	switch a.(type) {
	case *array.Int8:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Int8).Value(i), y.(*array.Int8).Value(j))
		}, nil
	case *array.Int16:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Int16).Value(i), y.(*array.Int16).Value(j))
		}, nil
	case *array.Int32:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Int32).Value(i), y.(*array.Int32).Value(j))
		}, nil
	case *array.Int64:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Int64).Value(i), y.(*array.Int64).Value(j))
		}, nil
	case *array.Uint32:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Uint32).Value(i), y.(*array.Uint32).Value(j))
		}, nil
	case *array.Date32:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Date32).Value(i), y.(*array.Date32).Value(j))
		}, nil
	case *array.Timestamp:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Timestamp).Value(i), y.(*array.Timestamp).Value(j))
		}, nil
	case *array.Time32:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Time32).Value(i), y.(*array.Time32).Value(j))
		}, nil
	case *array.Time64:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return cmpOrdered(x.(*array.Time64).Value(i), y.(*array.Time64).Value(j))
		}, nil
	case *array.Float32, *array.Float64:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			gx, _ := floatGetter(0, x)
			gy, _ := floatGetter(0, y)
			return types.CompareFloat64(gx(i), gy(j))
		}, nil
	case *array.Decimal128:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return x.(*array.Decimal128).Value(i).Cmp(y.(*array.Decimal128).Value(j))
		}, nil
	case *types.NumericArray:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return numeric.Cmp(x.(*types.NumericArray).Value(i), y.(*types.NumericArray).Value(j))
		}, nil
	case *array.String:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			xs, ys := x.(*array.String).Value(i), y.(*array.String).Value(j)
			switch {
			case xs < ys:
				return -1
			case xs > ys:
				return 1
			}
			return 0
		}, nil
	case *array.Binary:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return bytes.Compare(x.(*array.Binary).Value(i), y.(*array.Binary).Value(j))
		}, nil
	case *array.MonthDayNanoInterval:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			return types.CompareIntervals(x.(*array.MonthDayNanoInterval).Value(i), y.(*array.MonthDayNanoInterval).Value(j))
		}, nil
	case *array.Boolean:
		return func(x arrow.Array, i int, y arrow.Array, j int) int {
			xb, yb := x.(*array.Boolean).Value(i), y.(*array.Boolean).Value(j)
			switch {
			case xb == yb:
				return 0
			case yb:
				return -1
			}
			return 1
		}, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "comparison of %s values is not supported here", a.DataType())
}

// nestedComparer compares rows of arrays or records of type t by their
// values (CompareValuesAs: PostgreSQL's array and record orders); nil for
// another type. The first comparison that fails is kept in *failed.
func nestedComparer(t types.T, failed *error) func(x arrow.Array, i int, y arrow.Array, j int) int {
	switch t.Kind {
	case types.Array, types.Row:
	default:
		return nil
	}
	return func(x arrow.Array, i int, y arrow.Array, j int) int {
		c, err := CompareValuesAs(t, types.ValueAt(x, i), types.ValueAt(y, j))
		if err != nil && *failed == nil {
			*failed = err
		}
		return c
	}
}

// appendFrom appends row i of src to b (same type).
func appendFrom(b array.Builder, src arrow.Array, i int) error {
	switch x := src.(type) {
	case *array.Int8:
		b.(*array.Int8Builder).Append(x.Value(i))
	case *array.Int16:
		b.(*array.Int16Builder).Append(x.Value(i))
	case *array.Int32:
		b.(*array.Int32Builder).Append(x.Value(i))
	case *array.Int64:
		b.(*array.Int64Builder).Append(x.Value(i))
	case *array.Uint32:
		b.(*array.Uint32Builder).Append(x.Value(i))
	case *array.Float32:
		b.(*array.Float32Builder).Append(x.Value(i))
	case *array.Float64:
		b.(*array.Float64Builder).Append(x.Value(i))
	case *array.Decimal128:
		b.(*array.Decimal128Builder).Append(x.Value(i))
	case *types.NumericArray:
		b.(*array.ExtensionBuilder).Builder.(*array.BinaryBuilder).Append(x.RawValue(i))
	case *array.String:
		b.(*array.StringBuilder).Append(x.Value(i))
	case *array.Binary:
		b.(*array.BinaryBuilder).Append(x.Value(i))
	case *array.Boolean:
		b.(*array.BooleanBuilder).Append(x.Value(i))
	case *array.Date32:
		b.(*array.Date32Builder).Append(x.Value(i))
	case *array.Timestamp:
		b.(*array.TimestampBuilder).Append(x.Value(i))
	case *array.Time32:
		b.(*array.Time32Builder).Append(x.Value(i))
	case *array.Time64:
		b.(*array.Time64Builder).Append(x.Value(i))
	case *array.MonthDayNanoInterval:
		b.(*array.MonthDayNanoIntervalBuilder).Append(x.Value(i))
	default:
		return sqlerr.New(sqlerr.FeatureNotSupported, "values of %s are not supported here", src.DataType())
	}
	return nil
}
