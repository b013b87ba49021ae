package pgtypes

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestRecordEncoder checks an anonymous record's text (record_out) and
// binary (record_send) forms, and that a Fluss ROW (no variant) stays JSON.
func TestRecordEncoder(t *testing.T) {
	text := types.T{Kind: types.String}
	inner := types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{{Name: "f1", Type: types.Int32Type}, {Name: "f2", Type: text}}}
	rec := types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{{Name: "f1", Type: types.Int32Type}, {Name: "f2", Type: text}, {Name: "f3", Type: inner}}}
	fluss := rec
	fluss.Variant = types.NoVariant
	fluss.Fields = fluss.Fields[:2]
	cases := []struct {
		name string
		t    types.T
		v    []any
		m    mode
		want []byte
	}{
		{"text", rec, []any{int64(1), "a", []any{int64(2), "x y"}}, modeText, []byte(`(1,a,"(2,""x y"")")`)},
		{"text nulls and quotes", rec, []any{nil, `a"b\`, nil}, modeText, []byte(`(,"a""b\\",)`)},
		{"text empty", rec, []any{int64(-1), "", []any{nil, nil}}, modeText, []byte(`(-1,"","(,)")`)},
		{"binary", inner, []any{int64(7), nil}, modeBinary, []byte{0, 0, 0, 2, 0, 0, 0, 23, 0, 0, 0, 4, 0, 0, 0, 7, 0, 0, 0, 25, 0xff, 0xff, 0xff, 0xff}},
		{"fluss row is json", fluss, []any{int64(1), "a"}, modeText, []byte(`{"f1":1,"f2":"a"}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bld := array.NewBuilder(memory.DefaultAllocator, c.t.ArrowType())
			defer bld.Release()
			if err := types.AppendValue(bld, c.v); err != nil {
				t.Fatal(err)
			}
			arr := bld.NewArray()
			defer arr.Release()
			enc, err := newEncoder(c.t, c.m, nil, types.Style{})
			if err != nil {
				t.Fatal(err)
			}
			if err := enc.reset(arr); err != nil {
				t.Fatal(err)
			}
			if got := enc.appendValue(nil, 0); !bytes.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	for _, c := range []struct {
		t    types.T
		want uint32
	}{{rec, OIDRecord}, {types.ArrayOf(rec), OIDRecordArray}, {fluss, OIDJSON}} {
		if oid, _, _ := OIDOf(c.t); oid != c.want {
			t.Errorf("OIDOf(%s) = %d, want %d", c.t, oid, c.want)
		}
	}
}
