package fluss

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// Custom properties travel as Fluss's "custom_properties" (where a
// cluster keeps them unvalidated) and read back; a table without any
// reads back without a map.
func TestCustomPropertiesRoundTrip(t *testing.T) {
	for _, custom := range []map[string]string{nil, {"sqlgate.owner": "alice", "x": "y"}} {
		d := TableDescriptor{Schema: Schema{Columns: []Column{{Name: "a", Type: types.T{Kind: types.Int32}}}},
			Properties: map[string]string{"table.log.ttl": "1d"}, CustomProperties: custom}
		b, err := MarshalTableJSON(d)
		if err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Custom map[string]string `json:"custom_properties"`
			Props  map[string]string `json:"properties"`
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		if len(raw.Custom) != len(custom) || raw.Props["table.log.ttl"] != "1d" || raw.Props["sqlgate.owner"] != "" {
			t.Errorf("JSON %s: custom %v, properties %v", b, raw.Custom, raw.Props)
		}
		back, err := ParseTableJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.CustomProperties, custom) {
			t.Errorf("read back %v, want %v", back.CustomProperties, custom)
		}
	}
}

// Marshalling leaves the descriptor's custom properties as they were (the
// VARCHAR limits go into a copy): a descriptor is shared, TRUNCATE sends
// a stored table's again.
func TestMarshalLeavesCustomPropertiesAlone(t *testing.T) {
	custom := map[string]string{OwnerProperty: "alice"}
	d := TableDescriptor{Schema: Schema{Columns: []Column{{Name: "s", Type: types.T{Kind: types.String, Length: 5}}}}, CustomProperties: custom}
	b, err := MarshalTableJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(custom) != 1 {
		t.Errorf("the descriptor's custom properties changed: %v", custom)
	}
	back, err := ParseTableJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Schema.Columns[0].Type.Length != 5 || !reflect.DeepEqual(back.CustomProperties, custom) {
		t.Errorf("read back %+v %v", back.Schema.Columns[0].Type, back.CustomProperties)
	}
}
