package types

import (
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestMapAndRowText(t *testing.T) {
	nn := func(t T) *T { t.NotNull = true; return &t }
	p := func(t T) *T { return &t }
	mapSI := T{Kind: Map, Key: nn(StringType), Elem: p(Int32Type)}
	row := T{Kind: Row, Fields: []Field{{Name: "a", Type: Int32Type}, {Name: "b", Type: StringType},
		{Name: "c", Type: ArrayOf(T{Kind: Map, Key: nn(Int64Type), Elem: p(Float64Type)})}}}
	cases := []struct {
		t    T
		in   string
		want any
		out  string // the printed form ("" = in)
		code sqlerr.Code
	}{
		{t: mapSI, in: `[["a",1],["b",null]]`, want: []MapEntry{{"a", int64(1)}, {"b", nil}}},
		{t: mapSI, in: `{"a": 1, "a": 2}`, want: []MapEntry{{"a", int64(1)}, {"a", int64(2)}}, out: `[["a",1],["a",2]]`},
		{t: mapSI, in: `[]`, want: []MapEntry{}},
		{t: mapSI, in: ` [ ["x", "7"] ] `, want: []MapEntry{{"x", int64(7)}}, out: `[["x",7]]`},
		{t: row, in: `{"a":1,"b":"x\"y","c":[[[1,2.5]],null]}`, want: []any{int64(1), `x"y`, []any{[]MapEntry{{int64(1), 2.5}}, nil}}},
		{t: row, in: `{"b": "<&>"}`, want: []any{nil, "<&>", nil}, out: `{"a":null,"b":"<&>","c":null}`},
		{t: row, in: `[1, "x", []]`, want: []any{int64(1), "x", []any{}}, out: `{"a":1,"b":"x","c":[]}`},

		{t: ArrayOf(mapSI), in: `[[["a",1]],null,[]]`, want: []any{[]MapEntry{{"a", int64(1)}}, nil, []MapEntry{}}},
		{t: ArrayOf(ArrayOf(Int32Type)), in: `[[1,null],[]]`, want: []any{[]any{int64(1), nil}, []any{}}},

		{t: mapSI, in: `[["a",1]`, code: sqlerr.InvalidTextRepresentation},
		{t: ArrayOf(mapSI), in: `{1}`, code: sqlerr.InvalidTextRepresentation},
		{t: mapSI, in: `[["a",1]] x`, code: sqlerr.InvalidTextRepresentation},
		{t: mapSI, in: `[["a"]]`, code: sqlerr.InvalidTextRepresentation},
		{t: mapSI, in: `[[null, 1]]`, code: sqlerr.NullValueNotAllowed},
		{t: mapSI, in: `{"a": "x"}`, code: sqlerr.InvalidTextRepresentation},
		{t: mapSI, in: `{"a": 99999999999}`, code: sqlerr.NumericValueOutOfRange},
		{t: mapSI, in: `7`, code: sqlerr.InvalidTextRepresentation},
		{t: row, in: `{"z": 1}`, code: sqlerr.InvalidTextRepresentation},
		{t: row, in: `[1]`, code: sqlerr.InvalidTextRepresentation},
		{t: row, in: `{"a": true}`, code: sqlerr.InvalidTextRepresentation},
		{t: row, in: ``, code: sqlerr.InvalidTextRepresentation},
	}
	for _, c := range cases {
		v, err := ParseTextIn(c.in, c.t, time.UTC)
		if c.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != c.code {
				t.Errorf("%s %q: err %v, want %s", c.t, c.in, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", c.t, c.in, err)
			continue
		}
		if !reflect.DeepEqual(v, c.want) {
			t.Errorf("%s %q = %#v, want %#v", c.t, c.in, v, c.want)
		}
		want := c.out
		if want == "" {
			want = c.in
		}
		if got := FormatText(v, c.t); got != want && c.t.Kind != Array { // arrays print in functions
			t.Errorf("%s %q prints %q, want %q", c.t, c.in, got, want)
		}
		// through Arrow and back
		a, err := ConstArray(memory.DefaultAllocator, v, c.t, 2)
		if err != nil {
			t.Errorf("%s %q: %v", c.t, c.in, err)
			continue
		}
		if got := ValueAt(a, 1); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q through Arrow = %#v", c.t, c.in, got)
		}
		a.Release()
	}
}
