package functions

import (
	"context"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestMDArray: a nested list is one array of several dimensions, as
// PostgreSQL holds {{1,2},{3,4}}: its elements are the leaves, its
// dimensions the lengths of the levels, and it compares as array_cmp does.
func TestMDArray(t *testing.T) {
	i := func(v int64) any { return v }
	m22 := []any{[]any{i(1), i(2)}, []any{i(3), nil}}
	m12 := []any{[]any{i(1), i(2)}}
	m21 := []any{[]any{i(1)}, []any{i(2)}}
	m13 := []any{[]any{i(1), i(2), i(3)}}
	emptyInner := []any{[]any{}}
	cases := []struct {
		name   string
		v      []any
		depth  int
		leaves []any
		dims   []int
		ndims  any
		text   any
	}{
		{"2x2", m22, 2, []any{i(1), i(2), i(3), nil}, []int{2, 2}, int64(2), "[1:2][1:2]"},
		{"1x1x2", []any{m12}, 3, []any{i(1), i(2)}, []int{1, 1, 2}, int64(3), "[1:1][1:1][1:2]"},
		{"one dimension", []any{i(5), nil}, 1, []any{i(5), nil}, []int{2}, int64(1), "[1:2]"},
		{"empty", []any{}, 2, []any{}, nil, nil, nil},
		{"empty inner array", emptyInner, 2, []any{}, nil, nil, nil},
	}
	for _, c := range cases {
		if got := types.ArrayElements(c.v, c.depth); !reflect.DeepEqual(got, c.leaves) {
			t.Errorf("%s: leaves %v, want %v", c.name, got, c.leaves)
		}
		if got := types.ArrayDims(c.v, c.depth); !reflect.DeepEqual(got, c.dims) {
			t.Errorf("%s: dims %v, want %v", c.name, got, c.dims)
		}
		if got := mdNdims(c.v, c.depth); got != c.ndims {
			t.Errorf("%s: ndims %v, want %v", c.name, got, c.ndims)
		}
		if got := mdDimsText(c.v, c.depth); got != c.text {
			t.Errorf("%s: array_dims %v, want %v", c.name, got, c.text)
		}
	}
	at := types.ArrayOf(types.ArrayOf(types.Int64Type))
	cmps := []struct {
		x, y []any
		want int
	}{
		{m12, m21, -1}, // same elements: by the lengths of the dimensions
		{m21, m12, 1},
		{m22, m13, 1},  // 3 = 3, then four elements against three
		{m12, m13, -1}, // fewer elements first
		{m12, []any{[]any{i(1), i(2)}}, 0},
		{m22, []any{[]any{i(1), i(2)}, []any{i(3), i(4)}}, 1}, // NULL after every value
	}
	for _, c := range cmps {
		got, err := CompareValuesAs(at, c.x, c.y)
		if err != nil || got != c.want {
			t.Errorf("compare %v, %v = %d, %v; want %d", c.x, c.y, got, err, c.want)
		}
	}
}

// TestArrayCat: array_cat as PostgreSQL's, over arrays of any dimensions.
func TestArrayCat(t *testing.T) {
	i := func(v int64) any { return v }
	int1 := types.ArrayOf(types.Int32Type)
	int2 := types.ArrayOf(int1)
	f, got, err := Resolve("array_cat", []types.T{int2, int1})
	if err != nil || !got[0].Equal(int2.Nullable()) {
		t.Fatalf("resolve: %v %v", got, err)
	}
	if ret, _ := f.Bind(got, nil); arrayDepth(ret) != 2 {
		t.Errorf("array_cat(int[][], int[]) is %s", ret.PGName())
	}
	if _, _, err := Resolve("array_cat", []types.T{int1, types.ArrayOf(types.StringType)}); err == nil {
		t.Errorf("array_cat(int[], text[]) resolved")
	}
	m12 := []any{[]any{i(1), i(2)}}
	cases := []struct {
		x, y   any
		dx, dy int
		want   any
		code   string
	}{
		{m12, []any{i(3), i(4)}, 2, 1, []any{[]any{i(1), i(2)}, []any{i(3), i(4)}}, ""},
		{[]any{i(3), i(4)}, m12, 1, 2, []any{[]any{i(3), i(4)}, []any{i(1), i(2)}}, ""},
		{m12, m12, 2, 2, []any{[]any{i(1), i(2)}, []any{i(1), i(2)}}, ""},
		{m12, []any{i(3)}, 2, 1, nil, "2202E"},
		{m12, []any{[]any{i(3)}}, 2, 2, nil, "2202E"},
		{nil, m12, 2, 2, m12, ""},
		{[]any{}, []any{i(1)}, 2, 1, nil, "0A000"},
		{[]any{}, []any{}, 2, 1, []any{}, ""},
		{nil, nil, 1, 1, nil, ""},
	}
	for _, c := range cases {
		v, err := mdCat(c.x, c.y, c.dx, c.dy)
		if c.code != "" {
			if e, ok := err.(*sqlerr.Error); !ok || string(e.Code) != c.code {
				t.Errorf("array_cat(%v, %v): %v, want %s", c.x, c.y, err, c.code)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(v, c.want) {
			t.Errorf("array_cat(%v, %v) = %v, %v; want %v", c.x, c.y, v, err, c.want)
		}
	}
}

// TestArrayKernelsMD: the kernels the binder calls with the element type
// of every dimension (ArrayElementType) over arrays of several.
func TestArrayKernelsMD(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	i32 := types.Int32Type
	m := types.ArrayOf(types.ArrayOf(i32))
	mk := func(t types.T, vals ...any) arrow.Array {
		b := array.NewBuilder(mem, t.ArrowType())
		for _, v := range vals {
			if err := types.AppendValue(b, v); err != nil {
				panic(err)
			}
		}
		return b.NewArray()
	}
	i := func(v int64) any { return v }
	grid := []any{[]any{i(1), i(2)}, []any{i(3), i(4)}}
	if got := ArrayElementType(m); got.Kind != types.Int32 {
		t.Fatalf("element type of int[][]: %v", got)
	}
	cases := []struct {
		name string
		args []arrow.Array
		want any
		code string
	}{
		{"array_replace", []arrow.Array{mk(m, grid), mk(i32, i(1)), mk(i32, i(9))}, []any{[]any{i(9), i(2)}, []any{i(3), i(4)}}, ""},
		{"array_position", []arrow.Array{mk(m, grid), mk(i32, i(3))}, nil, "0A000"},
		{"array_remove", []arrow.Array{mk(m, grid), mk(i32, i(3))}, nil, "0A000"},
		{"array_append", []arrow.Array{mk(m, grid), mk(i32, i(3))}, nil, "22000"},
		{"width_bucket", []arrow.Array{mk(i32, i(3)), mk(m, grid)}, nil, "2202E"},
		{"array_position", []arrow.Array{mk(m, []any{}), mk(i32, i(3))}, nil, ""},
		{"array_positions", []arrow.Array{mk(m, []any{}), mk(i32, i(3))}, []any{}, ""},
		{"array_ndims", []arrow.Array{mk(m, grid)}, int64(2), ""},
	}
	for _, c := range cases {
		out, err := ArrayPolyKernelMD(c.name, i32, 2)(ctx, mem, c.args, 1)
		if c.code != "" {
			if string(sqlerr.CodeOf(err)) != c.code {
				t.Errorf("%s: %v, want %s", c.name, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := types.ValueAt(out, 0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, got, c.want)
		}
	}
	k, err := QuantifiedArrayKernel("=", false, i32, m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := k(ctx, mem, []arrow.Array{mk(i32, i(3), i(5)), mk(m, grid, grid)}, 2)
	if err != nil || types.ValueAt(out, 0) != true || types.ValueAt(out, 1) != false {
		t.Errorf("3 = ANY, 5 = ANY (ARRAY[[1,2],[3,4]]): %v %v", out, err)
	}
}
