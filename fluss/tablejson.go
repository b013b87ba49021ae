package fluss

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/sqlgate/sqlgate/types"
)

// Fluss's table JSON (TableDescriptorJsonSerde, SchemaJsonSerde,
// ColumnJsonSerde, DataTypeJsonSerde of 0.9.1): what CreateTable carries
// and GetTableInfo returns. fluss/embedded's catalog file keeps the same
// shape (fluss/embedded/catalogjson.go, to be folded onto these functions).

type tableJSON struct {
	Version     int               `json:"version"`
	Schema      schemaJSON        `json:"schema"`
	Comment     string            `json:"comment,omitempty"`
	PartKey     []string          `json:"partition_key"`
	BucketKey   []string          `json:"bucket_key"`
	BucketCount int               `json:"bucket_count,omitempty"`
	Properties  map[string]string `json:"properties"`
	Custom      map[string]string `json:"custom_properties"`
}

type schemaJSON struct {
	Version    int          `json:"version"`
	Columns    []columnJSON `json:"columns"`
	PrimaryKey []string     `json:"primary_key,omitempty"`
	HighestID  int          `json:"highest_field_id"`
}

type columnJSON struct {
	Name     string   `json:"name"`
	DataType typeJSON `json:"data_type"`
	Comment  string   `json:"comment,omitempty"`
	ID       int      `json:"id"`
}

type typeJSON struct {
	Type      string      `json:"type"`
	Nullable  *bool       `json:"nullable,omitempty"`
	Length    int         `json:"length,omitempty"`
	Precision *int        `json:"precision,omitempty"`
	Scale     *int        `json:"scale,omitempty"`
	Element   *typeJSON   `json:"element_type,omitempty"`
	Key       *typeJSON   `json:"key_type,omitempty"`
	Value     *typeJSON   `json:"value_type,omitempty"`
	Fields    []fieldJSON `json:"fields,omitempty"`
}

type fieldJSON struct {
	Name    string   `json:"name"`
	Type    typeJSON `json:"field_type"`
	FieldID *int     `json:"field_id,omitempty"`
}

// jsonTypeNames are DataTypeRoot names, the JSON "type" of each kind.
var jsonTypeNames = [...]string{
	types.Bool: "BOOLEAN", types.Int8: "TINYINT", types.Int16: "SMALLINT", types.Int32: "INTEGER",
	types.Int64: "BIGINT", types.Float32: "FLOAT", types.Float64: "DOUBLE", types.Char: "CHAR",
	types.String: "STRING", types.Bytes: "BYTES", types.Binary: "BINARY", types.Decimal: "DECIMAL",
	types.Date: "DATE", types.Time: "TIME_WITHOUT_TIME_ZONE", types.Timestamp: "TIMESTAMP_WITHOUT_TIME_ZONE",
	types.TimestampTZ: "TIMESTAMP_WITH_LOCAL_TIME_ZONE", types.Array: "ARRAY", types.Map: "MAP", types.Row: "ROW",
}

func intPtr(v int) *int { return &v }

// typeToJSON encodes t; the fields of nested ROWs take ids from *highest
// onwards, depth first, as Fluss's ReassignFieldId numbers them (each
// column's own id comes first: Schema.Builder.column).
func typeToJSON(t types.T, highest *int, limits bool) (typeJSON, error) {
	if int(t.Kind) >= len(jsonTypeNames) || jsonTypeNames[t.Kind] == "" {
		return typeJSON{}, fmt.Errorf("type %v has no Fluss equivalent", t.Kind)
	}
	j := typeJSON{Type: jsonTypeNames[t.Kind]}
	if t.NotNull {
		f := false
		j.Nullable = &f
	}
	var err error
	sub := func(s types.T) *typeJSON {
		var sj typeJSON
		if err == nil {
			sj, err = typeToJSON(s, highest, limits)
		}
		return &sj
	}
	switch t.Kind {
	case types.Char, types.Binary:
		j.Length = max(t.Length, 1)
	case types.String:
		if limits {
			j.Length = t.Length
		}
	case types.Decimal:
		j.Precision, j.Scale = intPtr(t.Precision), intPtr(t.Scale)
	case types.Time, types.Timestamp, types.TimestampTZ:
		j.Precision = intPtr(t.Precision)
	case types.Array:
		j.Element = sub(*t.Elem)
	case types.Map:
		j.Key, j.Value = sub(*t.Key), sub(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			*highest++
			id := *highest
			j.Fields = append(j.Fields, fieldJSON{Name: f.Name, FieldID: &id, Type: *sub(f.Type)})
		}
	}
	return j, err
}

func typeFromJSON(j typeJSON) (types.T, error) {
	var t types.T
	found := false
	for k, n := range jsonTypeNames {
		if n != "" && n == j.Type {
			t.Kind, found = types.Kind(k), true
		}
	}
	if !found {
		return t, fmt.Errorf("unknown data type %q", j.Type)
	}
	t.NotNull = j.Nullable != nil && !*j.Nullable
	t.Length = j.Length
	if j.Precision != nil {
		t.Precision = *j.Precision
	}
	if j.Scale != nil {
		t.Scale = *j.Scale
	}
	sub := func(p *typeJSON) (*types.T, error) {
		if p == nil {
			return nil, fmt.Errorf("%s without its nested type", j.Type)
		}
		s, err := typeFromJSON(*p)
		return &s, err
	}
	var err error
	switch t.Kind {
	case types.Array:
		t.Elem, err = sub(j.Element)
	case types.Map:
		if t.Key, err = sub(j.Key); err == nil {
			t.Elem, err = sub(j.Value)
		}
	case types.Row:
		for _, f := range j.Fields {
			ft, ferr := typeFromJSON(f.Type)
			if ferr != nil {
				return t, ferr
			}
			t.Fields = append(t.Fields, types.Field{Name: f.Name, Type: ft})
		}
	}
	return t, err
}

// MarshalTableJSON encodes d as Fluss's table JSON.
func MarshalTableJSON(d TableDescriptor) ([]byte, error) {
	return marshalTableJSON(d, false)
}

// MarshalStoreTableJSON is MarshalTableJSON that also keeps sqlgate's
// VARCHAR(n) limit as STRING's "length" (-1 for varchar without one), for a
// store that keeps its own catalog (the embedded store's catalog.json):
// Fluss's STRING has no length, so a cluster would drop it. ParseTableJSON
// reads it back.
func MarshalStoreTableJSON(d TableDescriptor) ([]byte, error) {
	return marshalTableJSON(d, true)
}

func marshalTableJSON(d TableDescriptor, limits bool) ([]byte, error) {
	tj := tableJSON{
		Version: 1, Comment: d.Comment, PartKey: d.PartitionKeys, BucketKey: d.BucketKey,
		// a copy: the VARCHAR limits are added to it below
		BucketCount: d.BucketCount, Properties: d.Properties, Custom: maps.Clone(d.CustomProperties),
		Schema: schemaJSON{Version: 1, PrimaryKey: d.Schema.PrimaryKey},
	}
	if tj.BucketKey == nil {
		tj.BucketKey = []string{}
	}
	if tj.PartKey == nil {
		tj.PartKey = []string{}
	}
	if tj.Properties == nil {
		tj.Properties = map[string]string{}
	}
	// A copy: sqlgate's own keys are added below, and the caller's
	// descriptor must not change.
	tj.Custom = maps.Clone(tj.Custom)
	if tj.Custom == nil {
		tj.Custom = map[string]string{}
	}
	// sqlgate's own keys are custom properties (coldefs.go); any among the
	// table properties (where an earlier sqlgate kept its column metadata)
	// move there, since Fluss checks its table properties against its own
	// options.
	props := make(map[string]string, len(tj.Properties))
	for k, v := range tj.Properties {
		if IsMetaProperty(k) {
			tj.Custom[k] = v
		} else {
			props[k] = v
		}
	}
	tj.Properties = props
	highest := -1
	meta := MetaOf(d)
	for i, c := range d.Schema.Columns {
		highest++
		id := highest
		dt, err := typeToJSON(flussNullability(c.Type, meta, i), &highest, limits) // missing.go
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		tj.Schema.Columns = append(tj.Schema.Columns, columnJSON{Name: c.Name, DataType: dt, Comment: c.Comment, ID: id})
		if !limits {
			putVarcharLimits(c.Type, []string{"c:" + c.Name}, tj.Custom)
		}
	}
	tj.Schema.HighestID = max(highest, 0)
	return json.Marshal(tj)
}

// ParseTableJSON decodes Fluss's table JSON.
func ParseTableJSON(b []byte) (TableDescriptor, error) {
	var tj tableJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return TableDescriptor{}, fmt.Errorf("table JSON: %w", err)
	}
	limits := takeVarcharKeys(tj.Custom)
	d, err := descriptorFromJSON(tj.Schema, tj)
	if err == nil {
		applyVarcharLimits(d.Schema.Columns, limits)
	}
	return d, err
}

// ParseSchemaJSON decodes Fluss's schema JSON (GetTableSchema) into columns
// and primary key.
func ParseSchemaJSON(b []byte) (Schema, error) {
	var sj schemaJSON
	if err := json.Unmarshal(b, &sj); err != nil {
		return Schema{}, fmt.Errorf("schema JSON: %w", err)
	}
	d, err := descriptorFromJSON(sj, tableJSON{})
	return d.Schema, err
}

func descriptorFromJSON(sj schemaJSON, tj tableJSON) (TableDescriptor, error) {
	d := TableDescriptor{
		BucketCount: tj.BucketCount, BucketKey: tj.BucketKey, Comment: tj.Comment, PartitionKeys: tj.PartKey,
		Properties: tj.Properties, Schema: Schema{PrimaryKey: sj.PrimaryKey},
	}
	if len(tj.Custom) > 0 {
		d.CustomProperties = tj.Custom
	}
	if len(d.BucketKey) == 0 {
		d.BucketKey = nil
	}
	if len(d.PartitionKeys) == 0 {
		d.PartitionKeys = nil
	}
	// Custom properties (what Fluss's AlterTable puts the keys outside
	// "table." in) are properties to sqlgate, as CREATE TABLE's WITH;
	// sqlgate's own keys (the owner, the column metadata of coldefs.go)
	// are not, and stay custom only.
	for k, v := range tj.Custom {
		if IsMetaProperty(k) {
			continue
		}
		if _, ok := d.Properties[k]; !ok {
			if d.Properties == nil {
				d.Properties = map[string]string{}
			}
			d.Properties[k] = v
		}
	}
	for _, c := range sj.Columns {
		t, err := typeFromJSON(c.DataType)
		if err != nil {
			return TableDescriptor{}, fmt.Errorf("column %s: %w", c.Name, err)
		}
		d.Schema.Columns = append(d.Schema.Columns, Column{Name: c.Name, Type: t, Comment: c.Comment})
	}
	applyVariants(&d)
	return d, nil
}

// MarshalTypeJSON is one data type in Fluss's DataTypeJsonSerde shape (what
// AlterTable's PbAddColumn carries).
func MarshalTypeJSON(t types.T) ([]byte, error) {
	highest := 0
	j, err := typeToJSON(t, &highest, false)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}
