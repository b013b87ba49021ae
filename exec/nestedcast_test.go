package exec

import (
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func TestCastRowAndMap(t *testing.T) {
	p := func(t types.T) *types.T { return &t }
	nn := func(t types.T) *types.T { t.NotNull = true; return &t }
	rec := types.T{Kind: types.Row, Fields: []types.Field{{Name: "f1", Type: types.Int32Type}, {Name: "f2", Type: types.StringType}}}
	row := types.T{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.Int64Type}, {Name: "b", Type: types.Int16Type}}}
	mapSS := types.T{Kind: types.Map, Key: nn(types.StringType), Elem: p(types.StringType)}
	mapIF := types.T{Kind: types.Map, Key: nn(types.Int32Type), Elem: p(types.Float64Type)}
	cases := []struct {
		v        any
		from, to types.T
		want     any
		code     sqlerr.Code
	}{
		{v: []any{int64(1), "7"}, from: rec, to: row, want: []any{int64(1), int64(7)}},
		{v: []any{nil, nil}, from: rec, to: row, want: []any{nil, nil}},
		{v: []any{int64(1), "x"}, from: rec, to: row, code: sqlerr.InvalidTextRepresentation},
		{v: []any{int64(1), "99999"}, from: rec, to: row, code: sqlerr.NumericValueOutOfRange},
		{v: []types.MapEntry{{Key: "1", Value: "2.5"}, {Key: "1", Value: nil}}, from: mapSS, to: mapIF,
			want: []types.MapEntry{{Key: int64(1), Value: 2.5}, {Key: int64(1), Value: nil}}},
		{v: []types.MapEntry{}, from: mapSS, to: mapIF, want: []types.MapEntry{}},
		{v: []types.MapEntry{{Key: "k", Value: "1"}}, from: mapSS, to: mapIF, code: sqlerr.InvalidTextRepresentation},
		{v: []types.MapEntry{{Key: int64(1), Value: 2.5}}, from: mapIF, to: types.StringType, want: `[[1,2.5]]`},
		{v: []any{int64(1), "x"}, from: rec, to: types.StringType, want: `{"f1":1,"f2":"x"}`},
		{v: `{"a": 3, "b": 4}`, from: types.StringType, to: row, want: []any{int64(3), int64(4)}},
		{v: `[["1", 2]]`, from: types.StringType, to: mapIF, want: []types.MapEntry{{Key: int64(1), Value: 2.0}}},
		{v: `[["1", 2]`, from: types.StringType, to: mapIF, code: sqlerr.InvalidTextRepresentation},
		{v: []any{int64(1), "x"}, from: rec, to: mapIF, code: sqlerr.CannotCoerce},
	}
	for _, c := range cases {
		// in UTC, under the default settings (CastValue refuses what needs
		// the session: a map with a double printed as text)
		got, err := CastValueIn(c.v, c.from, c.to, time.UTC)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%v %s -> %s: err %v, want %s", c.v, c.from, c.to, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v %s -> %s: %v", c.v, c.from, c.to, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %s -> %s = %#v, want %#v", c.v, c.from, c.to, got, c.want)
		}
	}
}

func TestGatherMapValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	k, v := types.StringType, types.Int32Type
	k.NotNull = true
	mt := types.T{Kind: types.Map, Key: &k, Elem: &v}
	vals := []any{[]types.MapEntry{{Key: "a", Value: int64(1)}}, nil, []types.MapEntry{}, []types.MapEntry{{Key: "b", Value: nil}, {Key: "c", Value: int64(3)}}}
	b := array.NewBuilder(mem, mt.ArrowType())
	for _, x := range vals {
		appendValue(b, x)
	}
	a := b.NewArray()
	b.Release()
	defer a.Release()
	out, err := gatherValues(mem, a, []int32{3, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	for i, r := range []int{3, 1, 0} {
		if got := types.ValueAt(out, i); !reflect.DeepEqual(got, vals[r]) {
			t.Errorf("row %d = %#v, want %#v", i, got, vals[r])
		}
	}
}
