package functions

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func TestJSONOperators(t *testing.T) {
	js := func(s string) arg { return arg{types.JSONType, s} }
	jb := func(s string) arg { return arg{types.JSONBType, s} }
	doc := `{"a": {"b": [1, {"c": "d\n"}]}, "n": null, "s": "x\"y", "num":  1.50 }`
	tests := []struct {
		fn   string
		args []arg
		want string // "∅" for NULL, "ERROR code" for an error
	}{
		{"pg__json_get", []arg{js(doc), txt("a")}, `{"b": [1, {"c": "d\n"}]}`},
		{"pg__json_get", []arg{js(doc), txt("num")}, `1.50`},
		{"pg__json_get", []arg{js(doc), txt("n")}, `null`},
		{"pg__json_get", []arg{js(doc), txt("missing")}, "∅"},
		{"pg__json_get", []arg{js(doc), i4(0)}, "∅"},
		{"pg__json_get", []arg{js(`{"k":1,"k":2}`), txt("k")}, "2"},
		{"pg__json_get", []arg{js(`[10, "x", [3]]`), i4(2)}, "[3]"},
		{"pg__json_get", []arg{js(`[10, "x", [3]]`), i4(-1)}, "[3]"},
		{"pg__json_get", []arg{js(`[10, "x", [3]]`), i4(-3)}, "10"},
		{"pg__json_get", []arg{js(`[10, "x", [3]]`), i4(-4)}, "∅"},
		{"pg__json_get", []arg{js(`[10, "x", [3]]`), i4(3)}, "∅"},
		{"pg__json_get", []arg{js(`[10]`), txt("0")}, "∅"}, // a text key finds nothing in an array
		{"pg__json_get", []arg{js(`"s"`), txt("a")}, "∅"},
		{"pg__json_get", []arg{js(`5`), i4(0)}, "∅"},
		{"pg__json_get", []arg{null(types.JSONType), txt("a")}, "∅"},
		{"pg__json_get", []arg{js(doc), null(types.StringType)}, "∅"},
		{"pg__json_get", []arg{jb(`{"a": {"b": 1, "c": [2]}}`), txt("a")}, `{"b": 1, "c": [2]}`},
		{"pg__json_get", []arg{txt(`{"a":1}`), txt("a")}, "ERROR 42883"},
		{"pg__json_get_text", []arg{js(doc), txt("s")}, `x"y`},
		{"pg__json_get_text", []arg{js(doc), txt("n")}, "∅"},
		{"pg__json_get_text", []arg{js(doc), txt("num")}, "1.50"},
		{"pg__json_get_text", []arg{js(doc), txt("a")}, `{"b": [1, {"c": "d\n"}]}`},
		{"pg__json_get_text", []arg{js(`["\u00e9", true]`), i4(0)}, "é"},
		{"pg__json_get_text", []arg{jb(`[true]`), i4(-1)}, "true"},
		{"pg__json_get_text", []arg{js(`["a\u0000"]`), i4(0)}, "ERROR 22P05"},
		{"pg__json_path", []arg{js(doc), arr("a", "b", "1")}, `{"c": "d\n"}`},
		{"pg__json_path", []arg{js(doc), arr("a", "b", "-2")}, "1"},
		{"pg__json_path", []arg{js(doc), arr("a", "b", " 0")}, "1"},
		{"pg__json_path", []arg{js(doc), arr("a", "b", "x")}, "∅"},
		{"pg__json_path", []arg{js(doc), arr("a", "b", "0 ")}, "∅"},
		{"pg__json_path", []arg{js(doc), arr("a", nil)}, "∅"},
		{"pg__json_path", []arg{js(doc), arr()}, doc},
		{"pg__json_path", []arg{js(`{"1": 2}`), arr("1")}, "2"},
		{"pg__json_path_text", []arg{js(doc), arr("a", "b", "1", "c")}, "d\n"},
		{"pg__json_path_text", []arg{js(doc), arr("n")}, "∅"},
		{"pg__json_path_text", []arg{js(doc), arr("a", "b", "1", "c", "d")}, "∅"},
	}
	for _, tt := range tests {
		got, err := call(context.Background(), tt.fn, tt.args...)
		if err != nil {
			got = "ERROR " + string(sqlerr.CodeOf(err))
		}
		if got != tt.want {
			t.Errorf("%s(%v) = %q, want %q", tt.fn, tt.args, got, tt.want)
		}
	}
}

// TestJSONOperatorTypes checks the result types: -> and #> keep json or
// jsonb, ->> and #>> are text; an unknown key literal is a text key.
func TestJSONOperatorTypes(t *testing.T) {
	tests := []struct {
		fn       string
		args     []types.T
		want     types.T
		keyIsInt bool
	}{
		{"pg__json_get", []types.T{types.JSONType, types.UnknownType}, types.JSONType, false},
		{"pg__json_get", []types.T{types.JSONBType, types.Int32Type}, types.JSONBType, true},
		{"pg__json_get_text", []types.T{types.JSONBType, types.UnknownType}, types.StringType, false},
		{"pg__json_path", []types.T{types.JSONBType, types.UnknownType}, types.JSONBType, false},
		{"pg__json_path_text", []types.T{types.JSONType, tTextArr}, types.StringType, false},
	}
	for _, tt := range tests {
		f, argTypes, err := Resolve(tt.fn, tt.args)
		if err != nil {
			t.Fatalf("%s%v: %v", tt.fn, tt.args, err)
		}
		ret, _ := f.Bind(argTypes, nil)
		if ret.Kind != tt.want.Kind || ret.Variant != tt.want.Variant {
			t.Errorf("%s%v returns %s, want %s", tt.fn, tt.args, ret.PGName(), tt.want.PGName())
		}
		if got := argTypes[1].Kind == types.Int32; got != tt.keyIsInt {
			t.Errorf("%s%v: key resolved to %s", tt.fn, tt.args, argTypes[1].PGName())
		}
	}
}

// TestJSONOperatorBatches is TestEveryFunctionHandlesEmptyBatchesAndNulls
// for the JSON operators, whose sample document depends on the key's type:
// an empty batch, and a NULL in the middle row of each argument in turn,
// which must give NULL exactly there without leaking memory.
func TestJSONOperatorBatches(t *testing.T) {
	obj, list := `{"abc": [1, "x"]}`, `[1, "x", {"k": 2}]`
	tests := []struct {
		fn         string
		doc        string
		docT, keyT types.T
		key        any
	}{
		{"pg__json_get", obj, types.JSONType, types.StringType, "abc"},
		{"pg__json_get", list, types.JSONBType, types.Int32Type, int64(-1)},
		{"pg__json_get_text", obj, types.JSONBType, types.StringType, "abc"},
		{"pg__json_get_text", list, types.JSONType, types.Int32Type, int64(1)},
		{"pg__json_path", obj, types.JSONType, tTextArr, []any{"abc", "1"}},
		{"pg__json_path_text", list, types.JSONBType, tTextArr, []any{"2", "k"}},
	}
	for _, tt := range tests {
		t.Run(tt.fn+"/"+tt.keyT.PGName(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			f, argTypes, err := Resolve(tt.fn, []types.T{tt.docT, tt.keyT})
			if err != nil {
				t.Fatal(err)
			}
			ret, kernel := f.Bind(argTypes, nil)
			vals := []any{tt.doc, tt.key}
			for _, n := range []int{0, 1} {
				arrays := []arrow.Array{constArray(t, mem, vals[0], argTypes[0], n), constArray(t, mem, vals[1], argTypes[1], n)}
				out, err := kernel(context.Background(), mem, arrays, n)
				release(arrays)
				if err != nil {
					t.Fatalf("n=%d: %v", n, err)
				}
				if out.Len() != n || !arrow.TypeEqual(out.DataType(), ret.ArrowType()) {
					t.Fatalf("n=%d: got %d rows of %s, want %s", n, out.Len(), out.DataType(), ret.ArrowType())
				}
				if n == 1 && out.IsNull(0) {
					t.Fatalf("NULL result for valid arguments")
				}
				out.Release()
			}
			for j := range vals {
				arrays := make([]arrow.Array, 2)
				for i := range arrays {
					if i == j {
						arrays[i] = nullInMiddle(t, mem, vals[i], argTypes[i])
					} else {
						arrays[i] = constArray(t, mem, vals[i], argTypes[i], 3)
					}
				}
				out, err := kernel(context.Background(), mem, arrays, 3)
				release(arrays)
				if err != nil {
					t.Fatalf("NULL in argument %d: %v", j+1, err)
				}
				if out.IsNull(0) || !out.IsNull(1) || out.IsNull(2) {
					t.Errorf("NULL in argument %d: nulls %v %v %v, want false true false", j+1, out.IsNull(0), out.IsNull(1), out.IsNull(2))
				}
				out.Release()
			}
		})
	}
}
