package fluss

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestTableMetaRoundTrip: sqlgate's column metadata is kept in the custom
// properties (Fluss checks its table properties against its own options),
// beside other custom properties, comes back there, and json/jsonb columns
// get their type back from it.
func TestTableMetaRoundTrip(t *testing.T) {
	d := TableDescriptor{Schema: Schema{Columns: []Column{
		{Name: "id", Type: types.Int32Type},
		{Name: "doc", Type: types.JSONBType},
		{Name: "n", Type: types.StoredNumericType},
	}}, Properties: map[string]string{"table.log.ttl": "7d"}, CustomProperties: map[string]string{"sqlgate.owner": "ann"}}
	meta := TableMeta{
		Columns: []ColumnMeta{{Default: "nextval('t_id_seq'::regclass)", Sequence: "t_id_seq"}, {}, {PGType: "numeric", Default: "0"}},
		Checks:  []CheckConstraint{{Name: "t_n_check", Expr: "n >= 0"}, {Name: "odd name.with dots", Expr: "id <> 7"}},
	}
	SetTableMeta(&d, meta)
	norm, err := ValidateDescriptor(d)
	if err != nil {
		t.Fatal(err)
	}
	if norm.Schema.Columns[1].Type.Variant != types.JSONB {
		t.Errorf("validated jsonb column: %+v", norm.Schema.Columns[1].Type)
	}
	b, err := MarshalTableJSON(norm)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Properties map[string]string `json:"properties"`
		Custom     map[string]string `json:"custom_properties"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(raw.Properties, map[string]string{"table.log.ttl": "7d"}) {
		t.Errorf("properties sent: %v", raw.Properties)
	}
	for k := range raw.Custom {
		if !IsMetaProperty(k) {
			t.Errorf("custom property %q", k)
		}
	}
	back, err := ParseTableJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	got := MetaOf(back)
	want := meta
	want.Columns[1].PGType = "jsonb" // recorded by validation
	if !reflect.DeepEqual(got, want) {
		t.Errorf("metadata read back = %+v, want %+v", got, want)
	}
	if back.CustomProperties["sqlgate.owner"] != "ann" {
		t.Errorf("owner lost: %v", back.CustomProperties)
	}
	if hasMetaKeys(back.Properties) {
		t.Errorf("metadata among the table properties: %v", back.Properties)
	}
	if back.Schema.Columns[1].Type.Variant != types.JSONB || back.Properties["table.log.ttl"] != "7d" {
		t.Errorf("read back: %+v %v", back.Schema.Columns[1].Type, back.Properties)
	}
	// keys of an unknown field or column are ignored
	back.CustomProperties["sqlgate.column.9.default"] = "1"
	back.CustomProperties["sqlgate.column.1.future"] = "x"
	if got := MetaOf(back); !reflect.DeepEqual(got, want) {
		t.Errorf("with unknown keys: %+v", got)
	}
}
