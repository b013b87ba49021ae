package fluss

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestTableJSONRoundTrip: every type, nested ones included, survives Fluss's
// table JSON, and the JSON has the keys Fluss's serde reads.
func TestTableJSONRoundTrip(t *testing.T) {
	i32 := types.T{Kind: types.Int32}
	str := types.T{Kind: types.String}
	cols := []Column{
		{Name: "b", Type: types.T{Kind: types.Bool}}, {Name: "i8", Type: types.T{Kind: types.Int8}},
		{Name: "i16", Type: types.T{Kind: types.Int16}}, {Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}},
		{Name: "i64", Type: types.T{Kind: types.Int64}}, {Name: "f32", Type: types.T{Kind: types.Float32}},
		{Name: "f64", Type: types.T{Kind: types.Float64}}, {Name: "c", Type: types.T{Kind: types.Char, Length: 3}},
		{Name: "s", Type: str, Comment: "a comment"}, {Name: "by", Type: types.T{Kind: types.Bytes}},
		{Name: "bi", Type: types.T{Kind: types.Binary, Length: 16}},
		{Name: "d", Type: types.T{Kind: types.Decimal, Precision: 20, Scale: 4}}, {Name: "dt", Type: types.T{Kind: types.Date}},
		{Name: "tm", Type: types.T{Kind: types.Time, Precision: 3}}, {Name: "ts", Type: types.T{Kind: types.Timestamp, Precision: 6}},
		{Name: "tz", Type: types.T{Kind: types.TimestampTZ, Precision: 0}},
		{Name: "arr", Type: types.T{Kind: types.Array, Elem: &types.T{Kind: types.Int32, NotNull: true}}},
		{Name: "m", Type: types.T{Kind: types.Map, Key: &types.T{Kind: types.String, NotNull: true}, Elem: &i32}},
		{Name: "r", Type: types.T{Kind: types.Row, Fields: []types.Field{{Name: "x", Type: i32}, {Name: "y", Type: str}}}},
	}
	d := TableDescriptor{Schema: Schema{Columns: cols, PrimaryKey: []string{"id"}}, BucketCount: 4, BucketKey: []string{"id"},
		Comment: "t", Properties: map[string]string{"table.replication.factor": "3"}}
	b, err := MarshalTableJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "schema", "partition_key", "bucket_key", "bucket_count", "properties", "custom_properties"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("table JSON lacks %q: %s", k, b)
		}
	}
	if !strings.Contains(string(b), `"data_type":{"type":"INTEGER","nullable":false}`) ||
		!strings.Contains(string(b), `"element_type":{"type":"INTEGER","nullable":false}`) {
		t.Errorf("NOT NULL not spelt as Fluss does: %s", b)
	}
	// Nested ROW fields are numbered after the columns, depth first, as
	// Fluss's ReassignFieldId does (it refuses duplicate ids).
	if !strings.Contains(string(b), `{"name":"x","field_type":{"type":"INTEGER"},"field_id":19}`) ||
		!strings.Contains(string(b), `"highest_field_id":20`) {
		t.Errorf("nested field ids not Fluss's: %s", b)
	}
	got, err := ParseTableJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, d)
	}
	s, err := ParseSchemaJSON(mustField(t, b, "schema"))
	if err != nil || !reflect.DeepEqual(s, d.Schema) {
		t.Fatalf("schema JSON: %+v, %v", s, err)
	}
	if _, err := ParseTableJSON([]byte(`{"schema":{"columns":[{"name":"a","data_type":{"type":"NOPE"}}]},"partition_key":[]}`)); err == nil ||
		!strings.Contains(err.Error(), `unknown data type "NOPE"`) {
		t.Fatalf("unknown type: %v", err)
	}
	pd, err := ParseTableJSON([]byte(`{"schema":{"columns":[{"name":"p","data_type":{"type":"STRING"}}]},"partition_key":["p"]}`))
	if err != nil || !reflect.DeepEqual(pd.PartitionKeys, []string{"p"}) {
		t.Fatalf("partitioned table: %+v, %v", pd.PartitionKeys, err)
	}
	pb, err := MarshalTableJSON(pd)
	if err != nil || !strings.Contains(string(pb), `"partition_key":["p"]`) {
		t.Fatalf("partitioned table JSON: %s, %v", pb, err)
	}
}

func mustField(t *testing.T, b []byte, k string) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m[k]
}

// TestStoreTableJSONKeepsVarcharLimit: the cluster's table JSON has no
// STRING length (Fluss's STRING has none) and keeps sqlgate's VARCHAR(n)
// limit in custom_properties (tablejson_limits.go); the embedded store's
// catalog keeps it as the length; both read back.
func TestStoreTableJSONKeepsVarcharLimit(t *testing.T) {
	d := TableDescriptor{Schema: Schema{Columns: []Column{{Name: "v", Type: types.T{Kind: types.String, Length: 20}}, {Name: "t", Type: types.StringType}}}, BucketCount: 1}
	for _, tc := range []struct {
		marshal func(TableDescriptor) ([]byte, error)
		length  int
	}{{MarshalTableJSON, 20}, {MarshalStoreTableJSON, 20}} {
		b, err := tc.marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseTableJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		if l := got.Schema.Columns[0].Type.Length; l != tc.length || got.Schema.Columns[1].Type.Length != 0 {
			t.Errorf("%s: VARCHAR(20) reads back with length %d, want %d", b, l, tc.length)
		}
	}
}
