package embedded

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// everyTypeInfo is a table of every kind of column the catalog keeps:
// VARCHAR(n) / varchar / text limits, CHAR, BINARY, DECIMAL, every temporal
// precision, nested ROWs (inside a ROW and an ARRAY) and a MAP, NOT NULL,
// comments, a primary and a bucket key and properties.
func everyTypeInfo() fluss.TableInfo {
	nn := func(t types.T) types.T { t.NotNull = true; return t }
	inner := types.T{Kind: types.Row, Fields: []types.Field{{Name: "x", Type: types.Int32Type}, {Name: "ts", Type: types.TimestampType(3)}}}
	cols := []fluss.Column{
		{Name: "id", Type: nn(types.Int64Type), Comment: "the key"},
		{Name: "region", Type: nn(types.T{Kind: types.String, Length: 20})},
		{Name: "free", Type: types.T{Kind: types.String, Length: -1}},
		{Name: "txt", Type: types.StringType},
		{Name: "c", Type: types.T{Kind: types.Char, Length: 5}},
		{Name: "bin", Type: types.T{Kind: types.Binary, Length: 4}},
		{Name: "dec", Type: types.DecimalType(12, 3)},
		{Name: "tm", Type: types.T{Kind: types.Time}},
		{Name: "ts0", Type: types.TimestampType(0)},
		{Name: "ltz", Type: types.TimestampTZType(6)},
		{Name: "r", Type: types.T{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.StringType}, {Name: "in", Type: inner}}}},
		{Name: "arr", Type: types.ArrayOf(types.T{Kind: types.Row, Fields: []types.Field{{Name: "q", Type: types.Float64Type}}})},
		{Name: "m", Type: types.T{Kind: types.Map, Key: &types.T{Kind: types.String, NotNull: true}, Elem: &types.Int32Type}},
		{Name: "after", Type: types.BoolType},
	}
	return fluss.TableInfo{Path: fluss.TablePath{Database: "fluss", Table: "every"}, TableID: 7, SchemaID: 1, CreatedAt: 1700000000000,
		Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols, PrimaryKey: []string{"region", "id"}}, BucketKey: []string{"id"}, BucketCount: 4,
			Comment: "a table", Properties: map[string]string{"table.log.arrow.compression.type": "LZ4_FRAME"}}}
}

// TestCatalogReadsFilesBeforeFieldIDs reads a catalog.json written by this
// store format version before the catalog moved onto fluss's table JSON
// (no nested ROW field ids, column ids that do not count them): every table
// reads back as it was created.
func TestCatalogReadsFilesBeforeFieldIDs(t *testing.T) {
	b, err := os.ReadFile("testdata/catalog/format2-before-field-ids.json")
	if err != nil {
		t.Fatal(err)
	}
	var f catalogFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.FormatVersion != FormatVersion || len(f.Tables) != 1 {
		t.Fatalf("format %d with %d tables; want format %d, 1 table", f.FormatVersion, len(f.Tables), FormatVersion)
	}
	got, err := infoFromEntry(f.Tables[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := everyTypeInfo(); !reflect.DeepEqual(got, want) {
		t.Fatalf("old catalog entry reads as\n%+v\nwant\n%+v", got, want)
	}
}

// TestCatalogRoundTrip writes an entry as the store now does (with Fluss's
// nested ROW field ids) and reads it back unchanged.
func TestCatalogRoundTrip(t *testing.T) {
	want := everyTypeInfo()
	e, err := entryFromInfo(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(catalogFile{FormatVersion: FormatVersion, Tables: []catalogEntry{e}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"field_id"`) || !strings.Contains(string(b), `"length":20`) {
		t.Errorf("catalog entry lacks nested field ids or the VARCHAR(20) limit: %s", b)
	}
	var f catalogFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	got, err := infoFromEntry(f.Tables[0])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n%+v\nwant\n%+v", got, want)
	}
}
