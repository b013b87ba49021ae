package functions

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// The functions behind the operators sql/operators.go rewrites into
// pg__op_* calls: PostgreSQL's prefix @ (abs), |/ (sqrt), ||/ (cbrt) and
// ~ (bitwise not), # (bitwise xor), the text pattern comparisons ~<~
// ~<=~ ~>=~ ~>~ (byte-wise, which is what the operator classes
// text_pattern_ops and bpchar_pattern_ops compare), ^@ (starts_with), #-
// (jsonb_delete_path) and && (array overlap). Each has exactly the
// operand types PostgreSQL's operator has, so that resolution accepts and
// refuses as it does.

func operatorFuncs() []*Func {
	var fs []*Func
	alias := func(marker string, from []*Func, name string, keep func(*Func) bool) {
		for _, f := range from {
			if f.Name == name && (keep == nil || keep(f)) {
				g := *f
				g.Name = marker
				fs = append(fs, &g)
			}
		}
	}
	float8Only := func(f *Func) bool { return len(f.Args) == 1 && f.Args[0].Kind == types.Float64 }
	math := mathFuncs()
	alias("pg__op_abs", math, "abs", nil)
	alias("pg__op_sqrt", math, "sqrt", float8Only)
	alias("pg__op_cbrt", math, "cbrt", float8Only)
	alias("pg__op_starts_with", stringFuncs(), "starts_with", nil)
	alias("pg__op_overlap", jsonContainFuncs(), "arrayoverlap", nil)
	alias("pg__op_overlap", rangeFuncs(), "range_overlaps", nil)
	for _, name := range []string{"range_overlaps_multirange", "multirange_overlaps_range", "multirange_overlaps_multirange"} {
		alias("pg__op_overlap", multirangeFuncs(), name, nil) // multirange.go
	}
	alias("pg__op_delete_path", jsonbDeleteFuncs(), "jsonb_delete_path", nil)
	for _, t := range []types.T{types.Int16Type, tInt4, tInt8} {
		fs = append(fs,
			&Func{Name: "pg__op_xor", Args: []types.T{t, t}, Ret: t, Strict: true, Kernel: BitwiseKernel("#", t)},
			&Func{Name: "pg__op_not", Args: []types.T{t}, Ret: t, Strict: true, Kernel: bitNotKernel(t)})
	}
	for _, c := range []struct {
		name string
		ok   func(int) bool
	}{
		{"pg__op_pattern_lt", func(c int) bool { return c < 0 }},
		{"pg__op_pattern_le", func(c int) bool { return c <= 0 }},
		{"pg__op_pattern_ge", func(c int) bool { return c >= 0 }},
		{"pg__op_pattern_gt", func(c int) bool { return c > 0 }},
	} {
		// character operands arrive as text, their trailing blanks gone,
		// which is what bpchar_pattern_ops compares
		fs = append(fs, &Func{Name: c.name, Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: patternCompare(c.ok)})
	}
	return fs
}

// bitNotKernel is ~x of an integer type (no overflow: ~ of any value fits).
func bitNotKernel(t types.T) Kernel {
	return valueKernel(t, func(args []any) (any, error) {
		v, ok := args[0].(int64)
		if !ok {
			return nil, nil
		}
		return ^v, nil
	})
}

// patternCompare compares two texts byte by byte (memcmp, then length).
func patternCompare(ok func(int) bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		ss, err := strArgs(args)
		if err != nil {
			return nil, err
		}
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				b.AppendNull()
				continue
			}
			b.Append(ok(strings.Compare(ss[0].Value(i), ss[1].Value(i))))
		}
		return b.NewArray(), nil
	}
}
