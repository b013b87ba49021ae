package fluss

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// A cluster's table JSON keeps VARCHAR(n) limits (and varchar without one)
// in custom_properties and reads them back, at every nesting level; the
// column types themselves are plain STRINGs, as Fluss knows them.
func TestVarcharLimitsRoundTrip(t *testing.T) {
	vc := func(n int) types.T { return types.T{Kind: types.String, Length: n} }
	ptr := func(t types.T) *types.T { return &t }
	cols := []Column{
		{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}},
		{Name: "v5", Type: vc(5)},
		{Name: "vany", Type: vc(-1)},
		{Name: "txt", Type: vc(0)},
		{Name: "a.b", Type: types.T{Kind: types.Array, Elem: ptr(vc(3))}},
		{Name: "m", Type: types.T{Kind: types.Map, Key: ptr(types.T{Kind: types.String, Length: 2, NotNull: true}), Elem: ptr(vc(4))}},
		{Name: "r", Type: types.T{Kind: types.Row, Fields: []types.Field{{Name: "x", Type: vc(7)}, {Name: "y", Type: vc(0)},
			{Name: "z", Type: types.T{Kind: types.Array, Elem: ptr(vc(-1))}}}}},
	}
	d := TableDescriptor{Schema: Schema{Columns: cols, PrimaryKey: []string{"id"}}, BucketCount: 1}
	js, err := MarshalTableJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Schema struct {
			Columns []struct {
				DataType json.RawMessage `json:"data_type"`
			} `json:"columns"`
		} `json:"schema"`
		Custom map[string]string `json:"custom_properties"`
	}
	if err := json.Unmarshal(js, &raw); err != nil {
		t.Fatal(err)
	}
	for i, c := range raw.Schema.Columns {
		if strings.Contains(string(c.DataType), `"length"`) {
			t.Errorf("column %s: type %s carries a length Fluss's STRING does not have", cols[i].Name, c.DataType)
		}
	}
	if len(raw.Custom) != 7 {
		t.Errorf("custom_properties = %v, want the 7 limits", raw.Custom)
	}
	back, err := ParseTableJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range back.Schema.Columns {
		if !reflect.DeepEqual(c.Type, cols[i].Type) {
			t.Errorf("column %s read back as %v, written as %v", cols[i].Name, c.Type, cols[i].Type)
		}
	}
	// A table another client created has no limits: its strings are text.
	delete(raw.Custom, varcharKey([]string{"c:v5"}))
	var generic map[string]any
	_ = json.Unmarshal(js, &generic)
	generic["custom_properties"] = raw.Custom
	js2, _ := json.Marshal(generic)
	back, err = ParseTableJSON(js2)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Schema.Columns[1].Type; got.Length != 0 {
		t.Errorf("v5 without its custom property: length %d, want 0 (text)", got.Length)
	}
}
