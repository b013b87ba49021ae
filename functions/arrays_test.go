package functions

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The expectations are PostgreSQL 15's (array_in / array_out).
func TestParseArray(t *testing.T) {
	intArr := types.Int32Type
	for _, tc := range []struct {
		in   string
		elem types.T
		want []any
		code sqlerr.Code
	}{
		{in: "{}", elem: types.StringType, want: []any{}},
		{in: " { } ", elem: types.StringType, want: []any{}},
		{in: "{a,b}", elem: types.StringType, want: []any{"a", "b"}},
		{in: `{ a , "b c" , NULL, \"x }`, elem: types.StringType, want: []any{"a", "b c", nil, `"x`}},
		{in: `{"NULL",null,NuLl}`, elem: types.StringType, want: []any{"NULL", nil, nil}},
		{in: `{"",""}`, elem: types.StringType, want: []any{"", ""}},
		{in: `{"a\\b","x\"y"}`, elem: types.StringType, want: []any{`a\b`, `x"y`}},
		{in: `{a b,c\ }`, elem: types.StringType, want: []any{"a b", "c "}},
		{in: "{1, 2,3}", elem: intArr, want: []any{int64(1), int64(2), int64(3)}},
		{in: "{1,NULL}", elem: intArr, want: []any{int64(1), nil}},
		{in: "{t,false}", elem: types.BoolType, want: []any{true, false}},
		{in: "{{1,2},{3}}", elem: types.ArrayOf(intArr), code: sqlerr.InvalidTextRepresentation}, // ragged, as array_in refuses
		{in: "{1,2", elem: intArr, code: sqlerr.InvalidTextRepresentation},
		{in: "1,2", elem: intArr, code: sqlerr.InvalidTextRepresentation},
		{in: "{1,2}x", elem: intArr, code: sqlerr.InvalidTextRepresentation},
		{in: "{1,,2}", elem: intArr, code: sqlerr.InvalidTextRepresentation},
		{in: `{"a"b}`, elem: types.StringType, code: sqlerr.InvalidTextRepresentation},
		{in: "{1,x}", elem: intArr, code: sqlerr.InvalidTextRepresentation},
		{in: "{99999999999}", elem: intArr, code: sqlerr.NumericValueOutOfRange},
		{in: "{{1}}", elem: intArr, code: sqlerr.FeatureNotSupported},
		{in: "[1:2]={1,2}", elem: intArr, code: sqlerr.FeatureNotSupported},
	} {
		got, err := ParseArray(tc.in, tc.elem, nil)
		if tc.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != tc.code {
				t.Errorf("ParseArray(%q): err %v, want %s", tc.in, err, tc.code)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseArray(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

func TestFormatArray(t *testing.T) {
	for _, tc := range []struct {
		v    []any
		elem types.T
		want string
	}{
		{[]any{}, types.StringType, "{}"},
		{[]any{"a b", "", "NULL", nil, `x"y`, "a,b", `p\q`, "é", "{", "null"}, types.StringType, `{"a b","","NULL",NULL,"x\"y","a,b","p\\q",é,"{","null"}`},
		{[]any{true, false}, types.BoolType, "{t,f}"},
		{[]any{int64(1), nil, int64(-3)}, types.Int32Type, "{1,NULL,-3}"},
		{[]any{[]any{int64(1)}, []any{}}, types.ArrayOf(types.Int32Type), "{{1},{}}"},
		{[]any{int64(1_700_000_000_000_000)}, types.TimestampType(6), `{"2023-11-14 22:13:20"}`},
	} {
		if got := FormatArray(tc.v, tc.elem, nil); got != tc.want {
			t.Errorf("FormatArray(%v) = %s, want %s", tc.v, got, tc.want)
		}
		// what array_out writes, array_in reads back; a ragged Fluss array
		// of arrays prints with its nesting, which array_in refuses as
		// PostgreSQL's does (an empty sub-array below the outermost level)
		back, err := ParseArray(tc.want, tc.elem, nil)
		if tc.want == "{{1},{}}" {
			if err == nil {
				t.Errorf("ParseArray(%s) = %#v, want malformed array literal", tc.want, back)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(back, tc.v) {
			t.Errorf("ParseArray(%s) = %#v, %v; want %#v", tc.want, back, err, tc.v)
		}
	}
}

// run evaluates a kernel over one row of values of the given types.
func runKernel(t *testing.T, k Kernel, ret types.T, ts []types.T, vals ...any) any {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	args := make([]arrow.Array, len(vals))
	for i, v := range vals {
		a, err := types.ConstArray(mem, v, ts[i], 1)
		if err != nil {
			t.Fatal(err)
		}
		args[i] = a
		defer a.Release()
	}
	out, err := k(context.Background(), mem, args, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if !arrow.TypeEqual(out.DataType(), ret.ArrowType()) {
		t.Fatalf("kernel returned %s, want %s", out.DataType(), ret.ArrowType())
	}
	return types.ValueAt(out, 0)
}

func TestArrayKernels(t *testing.T) {
	ints := types.ArrayOf(types.Int32Type)
	arr := []any{int64(1), int64(2), int64(3)}
	i64 := types.Int64Type
	for _, tc := range []struct {
		name string
		k    Kernel
		ret  types.T
		ts   []types.T
		args []any
		want any
	}{
		{"subscript 1", SubscriptKernel(types.Int32Type), types.Int32Type, []types.T{ints, i64}, []any{arr, int64(1)}, int64(1)},
		{"subscript 3", SubscriptKernel(types.Int32Type), types.Int32Type, []types.T{ints, i64}, []any{arr, int64(3)}, int64(3)},
		{"subscript 0", SubscriptKernel(types.Int32Type), types.Int32Type, []types.T{ints, i64}, []any{arr, int64(0)}, nil},
		{"subscript 4", SubscriptKernel(types.Int32Type), types.Int32Type, []types.T{ints, i64}, []any{arr, int64(4)}, nil},
		{"subscript null index", SubscriptKernel(types.Int32Type), types.Int32Type, []types.T{ints, i64}, []any{arr, nil}, nil},
		{"subscript null array", SubscriptKernel(types.Int32Type), types.Int32Type, []types.T{ints, i64}, []any{nil, int64(1)}, nil},
		{"slice 2:3", SliceKernel(ints, true, true), ints, []types.T{ints, i64, i64}, []any{arr, int64(2), int64(3)}, []any{int64(2), int64(3)}},
		{"slice :2", SliceKernel(ints, false, true), ints, []types.T{ints, i64}, []any{arr, int64(2)}, []any{int64(1), int64(2)}},
		{"slice 2:", SliceKernel(ints, true, false), ints, []types.T{ints, i64}, []any{arr, int64(2)}, []any{int64(2), int64(3)}},
		{"slice 0:1", SliceKernel(ints, true, true), ints, []types.T{ints, i64, i64}, []any{arr, int64(0), int64(1)}, []any{int64(1)}},
		{"slice 3:2", SliceKernel(ints, true, true), ints, []types.T{ints, i64, i64}, []any{arr, int64(3), int64(2)}, []any{}},
		{"slice null bound", SliceKernel(ints, true, true), ints, []types.T{ints, i64, i64}, []any{arr, nil, int64(2)}, nil},
		{"constructor", ArrayConstructorKernel(types.Int32Type), ints, []types.T{types.Int32Type, types.Int32Type}, []any{int64(5), nil}, []any{int64(5), nil}},
	} {
		got := runKernel(t, tc.k, tc.ret, tc.ts, tc.args...)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.name, got, tc.want)
		}
	}
}

// TestQuantified checks x op ANY|ALL (array) against PostgreSQL's
// three-valued results.
func TestQuantified(t *testing.T) {
	ints := types.ArrayOf(types.Int32Type)
	ts := []types.T{types.Int32Type, ints}
	n := func(v ...any) []any { return v }
	for _, tc := range []struct {
		op   string
		all  bool
		x    any
		arr  any
		want any
	}{
		{"=", false, int64(1), n(int64(1), int64(2)), true},
		{"=", false, int64(3), n(int64(1), int64(2)), false},
		{"=", false, int64(1), n(int64(2), nil), nil},
		{"=", false, int64(2), n(int64(2), nil), true},
		{"=", false, nil, n(int64(1)), nil},
		{"=", false, nil, n(), false},
		{"=", false, int64(1), nil, nil},
		{"=", true, int64(1), n(), true},
		{"<>", true, int64(1), n(int64(2), int64(3)), true},
		{"<>", true, int64(2), n(int64(2), int64(3)), false},
		{"<>", true, int64(1), n(int64(2), nil), nil},
		{"<>", true, int64(2), n(int64(2), nil), false},
		{">", true, int64(2), n(int64(0), int64(1)), true},
		{"<=", false, int64(2), n(int64(0), int64(1)), false},
		{"!=", false, int64(2), n(int64(2), int64(1)), true},
	} {
		k, err := QuantifiedKernel(tc.op, tc.all, types.Int32Type)
		if err != nil {
			t.Fatal(err)
		}
		if got := runKernel(t, k, types.BoolType, ts, tc.x, tc.arr); got != tc.want {
			t.Errorf("%v %s ANY/ALL(%v) all=%v: got %v, want %v", tc.x, tc.op, tc.arr, tc.all, got, tc.want)
		}
	}
	if _, err := QuantifiedKernel("~~", false, types.Int32Type); err == nil {
		t.Error("an unknown operator must fail")
	}
}

func TestCompareValues(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		want int
	}{
		{int64(1), int64(2), -1},
		{"b", "a", 1},
		{[]byte("a"), []byte("a"), 0},
		{false, true, -1},
		{1.0, math.NaN(), -1},
		{math.NaN(), math.NaN(), 0},
		{[]any{int64(1), int64(2)}, []any{int64(1), int64(3)}, -1},
		{[]any{int64(1)}, []any{int64(1), int64(0)}, -1},
		{[]any{nil}, []any{int64(5)}, 1},
		{[]any{nil}, []any{nil}, 0},
		{arrow.MonthDayNanoInterval{Months: 1}, arrow.MonthDayNanoInterval{Days: 31}, -1},
	} {
		got, err := CompareValues(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("CompareValues(%v, %v) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
	if _, err := CompareValues(int64(1), "x"); err == nil {
		t.Error("comparing different types must fail")
	}
}

// TestCompareValuesAs: values whose order is their type's, not their
// physical value's: jsonb in jsonb's order (objects by their number of
// pairs first), alone and as array elements, and unconstrained numerics
// by value whatever their scales.
func TestCompareValuesAs(t *testing.T) {
	dec := func(s string) any {
		d, _, err := apd.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	jsonbs := types.ArrayOf(types.JSONBType)
	for _, tc := range []struct {
		t    types.T
		a, b any
		want int
	}{
		{types.JSONBType, `{"b": 1}`, `{"a": 1, "c": 2}`, -1},
		{types.JSONBType, `[1, 2]`, `{"a": 1}`, -1},
		{types.JSONBType, `1.0`, `1`, 0},
		{types.StringType, `{"b": 1}`, `{"a": 1, "c": 2}`, 1},
		{jsonbs, []any{`{"b": 1}`}, []any{`{"a": 1, "c": 2}`}, -1},
		{jsonbs, []any{nil}, []any{`{"a": 1}`}, 1},
		{types.NumericType, dec("2.5"), dec("10.00"), -1},
		{types.NumericType, dec("1.0"), dec("1.00"), 0},
		{types.ArrayOf(types.NumericType), []any{dec("1.0"), dec("NaN")}, []any{dec("1"), dec("1e100")}, 1},
		// bpchar without its trailing blanks; text keeps them
		{types.T{Kind: types.Char}, "a  ", "a", 0},
		{types.T{Kind: types.Char}, "a ", "a!", -1},
		{types.T{Kind: types.Char, Length: 3}, "ab ", "b  ", -1},
		{types.ArrayOf(types.T{Kind: types.Char}), []any{"x", "y "}, []any{"x  ", "y"}, 0},
		{types.StringType, "a  ", "a", 1},
	} {
		got, err := CompareValuesAs(tc.t, tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("CompareValuesAs(%s, %v, %v) = %d, %v; want %d", tc.t.PGName(), tc.a, tc.b, got, err, tc.want)
		}
	}
}

func TestArrayCompareKernel(t *testing.T) {
	ints := types.ArrayOf(types.Int32Type)
	ts := []types.T{ints, ints}
	for _, tc := range []struct {
		op   string
		a, b any
		want any
	}{
		{"=", []any{int64(1), int64(2)}, []any{int64(1), int64(2)}, true},
		{"=", []any{int64(1), int64(2)}, []any{int64(1), nil}, false},
		{"<", []any{int64(1), int64(2)}, []any{int64(1), int64(3)}, true},
		{"<>", []any{int64(1)}, []any{int64(1), int64(3)}, true},
		{"=", nil, []any{}, nil},
	} {
		k, err := ArrayCompareKernel(tc.op, types.Int32Type)
		if err != nil {
			t.Fatal(err)
		}
		if got := runKernel(t, k, types.BoolType, ts, tc.a, tc.b); got != tc.want {
			t.Errorf("%v %s %v: got %v, want %v", tc.a, tc.op, tc.b, got, tc.want)
		}
	}
}

// collect drains a set-returning function.
func collect(t *testing.T, f *SetFunc, args ...any) ([]any, error) {
	t.Helper()
	next, err := f.Rows(context.Background(), args)
	if err != nil {
		return nil, err
	}
	out := []any{}
	for {
		v, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, v)
		if len(out) > 1000 {
			t.Fatal("runaway series")
		}
	}
}

func TestSetFuncs(t *testing.T) {
	i4, i8 := types.Int32Type, types.Int64Type
	ints := types.ArrayOf(i4)
	n := func(v ...any) []any { return v }
	for _, tc := range []struct {
		name string
		ts   []types.T
		args []any
		ret  types.T
		want []any
		code sqlerr.Code
	}{
		{"unnest", []types.T{ints}, n(n(int64(3), nil, int64(1))), i4, n(int64(3), nil, int64(1)), ""},
		{"unnest", []types.T{ints}, n(nil), i4, n(), ""},
		{"unnest", []types.T{types.UnknownType}, nil, i4, nil, sqlerr.AmbiguousFunction},
		{"unnest", []types.T{i4}, nil, i4, nil, sqlerr.UndefinedFunction},
		{"generate_series", []types.T{i4, i4}, n(int64(1), int64(3)), i4, n(int64(1), int64(2), int64(3)), ""},
		{"generate_series", []types.T{i4, i4, i4}, n(int64(1), int64(10), int64(4)), i4, n(int64(1), int64(5), int64(9)), ""},
		{"generate_series", []types.T{i4, i4, i4}, n(int64(3), int64(1), int64(-1)), i4, n(int64(3), int64(2), int64(1)), ""},
		{"generate_series", []types.T{i4, i4}, n(int64(3), int64(1)), i4, n(), ""},
		{"generate_series", []types.T{i4, i4}, n(nil, int64(1)), i4, n(), ""},
		{"generate_series", []types.T{i4, i8}, n(int64(1), int64(2)), i8, n(int64(1), int64(2)), ""},
		{"generate_series", []types.T{i4, i4}, n(int64(2147483646), int64(2147483647)), i4, n(int64(2147483646), int64(2147483647)), ""},
		{"generate_series", []types.T{i4, i4, i4}, n(int64(1), int64(5), int64(0)), i4, nil, sqlerr.InvalidParameterValue},
		{"generate_series", []types.T{types.StringType, i4}, nil, i4, nil, sqlerr.UndefinedFunction},
		{"generate_subscripts", []types.T{ints, i4}, n(n(int64(7), int64(8)), int64(1)), i4, n(int64(1), int64(2)), ""},
		{"generate_subscripts", []types.T{ints, i4, types.BoolType}, n(n(int64(7), int64(8)), int64(1), true), i4, n(int64(2), int64(1)), ""},
		{"generate_subscripts", []types.T{ints, i4}, n(n(int64(7)), int64(2)), i4, n(), ""},
	} {
		f, err := ResolveSetFunc(tc.name, tc.ts)
		if err == nil {
			if !f.Ret.Equal(tc.ret) {
				t.Errorf("%s%v returns %s, want %s", tc.name, tc.ts, f.Ret, tc.ret)
			}
			var got []any
			if got, err = collect(t, f, tc.args...); err == nil && len(got)+len(tc.want) > 0 && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s%v: got %v, want %v", tc.name, tc.args, got, tc.want)
			}
		}
		if tc.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != tc.code {
				t.Errorf("%s%v: err %v, want %s", tc.name, tc.ts, err, tc.code)
			}
		} else if err != nil {
			t.Errorf("%s%v: %v", tc.name, tc.ts, err)
		}
	}
	if !IsSetFunc("UNNEST") || IsSetFunc("lower") {
		t.Error("IsSetFunc")
	}
}

// A kernel over an array column with many rows keeps each row's value.
func TestSubscriptOverColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	ints := types.ArrayOf(types.Int32Type)
	b := array.NewBuilder(mem, ints.ArrowType())
	for _, v := range []any{[]any{int64(1), int64(2)}, nil, []any{}, []any{int64(9)}} {
		if err := types.AppendValue(b, v); err != nil {
			t.Fatal(err)
		}
	}
	arr := b.NewArray()
	b.Release()
	defer arr.Release()
	idx, _ := types.ConstArray(mem, int64(1), types.Int64Type, 4)
	defer idx.Release()
	out, err := SubscriptKernel(types.Int32Type)(context.Background(), mem, []arrow.Array{arr, idx}, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	var got []any
	for i := 0; i < out.Len(); i++ {
		got = append(got, types.ValueAt(out, i))
	}
	if want := []any{int64(1), nil, nil, int64(9)}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
