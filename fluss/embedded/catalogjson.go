package embedded

import (
	"fmt"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// The catalog file keeps each table in Fluss's table JSON shape
// (TableDescriptorJsonSerde / SchemaJsonSerde / DataTypeJsonSerde), wrapped
// with the identity Fluss keeps in ZooKeeper (path, id, schema id, creation time).

type catalogFile struct {
	FormatVersion int            `json:"format_version"`
	NextTableID   int64          `json:"next_table_id"`
	Tables        []catalogEntry `json:"tables"`
}

type catalogEntry struct {
	Database  string    `json:"database_name"`
	Table     string    `json:"table_name"`
	TableID   int64     `json:"table_id"`
	SchemaID  int16     `json:"schema_id"`
	CreatedAt int64     `json:"created_at"`
	Desc      tableJSON `json:"table_descriptor"`
}

type tableJSON struct {
	Version     int               `json:"version"`
	Schema      schemaJSON        `json:"schema"`
	Comment     string            `json:"comment,omitempty"`
	PartKey     []string          `json:"partition_key"`
	BucketKey   []string          `json:"bucket_key"`
	BucketCount int               `json:"bucket_count"`
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
	Name string   `json:"name"`
	Type typeJSON `json:"field_type"`
}

var kindNames = map[types.Kind]string{
	types.Bool: "BOOLEAN", types.Int8: "TINYINT", types.Int16: "SMALLINT", types.Int32: "INTEGER",
	types.Int64: "BIGINT", types.Float32: "FLOAT", types.Float64: "DOUBLE", types.Char: "CHAR",
	types.String: "STRING", types.Bytes: "BYTES", types.Binary: "BINARY", types.Decimal: "DECIMAL",
	types.Date: "DATE", types.Time: "TIME_WITHOUT_TIME_ZONE", types.Timestamp: "TIMESTAMP_WITHOUT_TIME_ZONE",
	types.TimestampTZ: "TIMESTAMP_WITH_LOCAL_TIME_ZONE", types.Array: "ARRAY", types.Map: "MAP", types.Row: "ROW",
}

func intp(v int) *int { return &v }

func typeToJSON(t types.T) typeJSON {
	j := typeJSON{Type: kindNames[t.Kind]}
	if t.NotNull {
		f := false
		j.Nullable = &f
	}
	switch t.Kind {
	case types.Char, types.Binary, types.String:
		j.Length = t.Length // STRING's length is sqlgate's VARCHAR(n) limit, not Fluss's
	case types.Decimal:
		j.Precision, j.Scale = intp(t.Precision), intp(t.Scale)
	case types.Time, types.Timestamp, types.TimestampTZ:
		j.Precision = intp(t.Precision)
	case types.Array:
		e := typeToJSON(*t.Elem)
		j.Element = &e
	case types.Map:
		k, v := typeToJSON(*t.Key), typeToJSON(*t.Elem)
		j.Key, j.Value = &k, &v
	case types.Row:
		for _, f := range t.Fields {
			j.Fields = append(j.Fields, fieldJSON{Name: f.Name, Type: typeToJSON(f.Type)})
		}
	}
	return j
}

func typeFromJSON(j typeJSON) (types.T, error) {
	var t types.T
	found := false
	for k, n := range kindNames {
		if n == j.Type {
			t.Kind, found = k, true
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

func entryFromInfo(info fluss.TableInfo) catalogEntry {
	d := info.Descriptor
	tj := tableJSON{
		Version: 1, Comment: d.Comment, PartKey: []string{}, BucketKey: d.BucketKey,
		BucketCount: d.BucketCount, Properties: d.Properties, Custom: map[string]string{},
		Schema: schemaJSON{Version: 1, PrimaryKey: d.Schema.PrimaryKey},
	}
	if tj.BucketKey == nil {
		tj.BucketKey = []string{}
	}
	if tj.Properties == nil {
		tj.Properties = map[string]string{}
	}
	for i, c := range d.Schema.Columns {
		tj.Schema.Columns = append(tj.Schema.Columns, columnJSON{Name: c.Name, DataType: typeToJSON(c.Type), Comment: c.Comment, ID: i})
		tj.Schema.HighestID = i
	}
	return catalogEntry{Database: info.Path.Database, Table: info.Path.Table, TableID: info.TableID,
		SchemaID: info.SchemaID, CreatedAt: info.CreatedAt, Desc: tj}
}

func infoFromEntry(e catalogEntry) (fluss.TableInfo, error) {
	d := fluss.TableDescriptor{
		BucketCount: e.Desc.BucketCount, BucketKey: e.Desc.BucketKey, Comment: e.Desc.Comment,
		Properties: e.Desc.Properties,
		Schema:     fluss.Schema{PrimaryKey: e.Desc.Schema.PrimaryKey},
	}
	if len(d.BucketKey) == 0 {
		d.BucketKey = nil
	}
	for _, c := range e.Desc.Schema.Columns {
		t, err := typeFromJSON(c.DataType)
		if err != nil {
			return fluss.TableInfo{}, fmt.Errorf("table %s.%s column %s: %w", e.Database, e.Table, c.Name, err)
		}
		d.Schema.Columns = append(d.Schema.Columns, fluss.Column{Name: c.Name, Type: t, Comment: c.Comment})
	}
	return fluss.TableInfo{Path: fluss.TablePath{Database: e.Database, Table: e.Table}, TableID: e.TableID,
		SchemaID: e.SchemaID, CreatedAt: e.CreatedAt, Descriptor: d}, nil
}
