package binder

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

func TestMapLookupKernel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	mb := array.NewMapBuilder(mem, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, false)
	defer mb.Release()
	kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.Int32Builder)
	mb.Append(true) // {a: 1, b: NULL}
	kb.Append("a")
	ib.Append(1)
	kb.Append("b")
	ib.AppendNull()
	mb.AppendNull() // NULL map
	mb.Append(true) // {} (empty)
	mb.Append(true) // {b: 7}
	kb.Append("b")
	ib.Append(7)
	maps := mb.NewArray()
	defer maps.Release()
	keys, _ := types.ConstArray(mem, "b", types.StringType, 4)
	defer keys.Release()
	out, err := mapLookupKernel(types.Int32Type)(context.Background(), mem, []arrow.Array{maps, keys}, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	got := out.(*array.Int32)
	// {a:1,b:NULL}['b'] is NULL, a NULL map gives NULL, a missing key NULL
	for i, wantNull := range []bool{true, true, true, false} {
		if got.IsNull(i) != wantNull {
			t.Errorf("row %d: null = %v, want %v", i, got.IsNull(i), wantNull)
		}
	}
	if got.Value(3) != 7 {
		t.Errorf("row 3 = %d, want 7", got.Value(3))
	}
}
