package flightsql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
)

func appendOpts(table string) *afsql.ExecuteIngestOpts {
	return &afsql.ExecuteIngestOpts{Table: table, TableDefinitionOptions: &afsql.TableDefinitionOptions{
		IfNotExist: afsql.TableDefinitionOptionsTableNotExistOptionFail,
		IfExists:   afsql.TableDefinitionOptionsTableExistsOptionAppend}}
}

func ingest(ctx context.Context, cl *afsql.Client, table string, recs ...arrow.RecordBatch) (int64, error) {
	rdr, err := array.NewRecordReader(recs[0].Schema(), recs)
	if err != nil {
		return 0, err
	}
	defer rdr.Release()
	return cl.ExecuteIngest(ctx, rdr, appendOpts(table))
}

// TestIngestEveryType copies alltypes, every Fluss type with nested ones,
// through a Flight query and a Flight ingest.
func TestIngestEveryType(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, append([]string{allTypesDDL, strings.Replace(allTypesDDL, "alltypes", "copied", 1)}, allTypesRows...)...)
	cl, ctx := ts.client(t, "admin", adminPassword)
	recs, _ := query(t, ctx, cl, "SELECT * FROM alltypes ORDER BY id")
	n, err := ingest(ctx, cl, "copied", recs...)
	if err != nil || n != int64(len(allTypesRows)) {
		t.Fatalf("ingest: %d rows, %v", n, err)
	}
	sameRows(t, "copied", ts.pgText(t, "SELECT * FROM copied ORDER BY id"), ts.pgText(t, "SELECT * FROM alltypes ORDER BY id"))
}

const rulesDDL = `CREATE TABLE rules (id INT NOT NULL, s STRING, ts TIMESTAMP(6), dec DECIMAL(10, 2), l ARRAY<INT>,
	r ROW<x INT NOT NULL, y STRING>, b BYTES)`

func rulesField(name string, dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: dt, Nullable: true}
}

// rulesSchema is the rules table's schema with some columns replaced.
func rulesSchema(replace map[string]arrow.Field) *arrow.Schema {
	fs := []arrow.Field{
		rulesField("id", arrow.PrimitiveTypes.Int32),
		rulesField("s", arrow.BinaryTypes.String),
		rulesField("ts", &arrow.TimestampType{Unit: arrow.Microsecond}),
		rulesField("dec", &arrow.Decimal128Type{Precision: 10, Scale: 2}),
		rulesField("l", arrow.ListOf(arrow.PrimitiveTypes.Int32)),
		rulesField("r", arrow.StructOf(rulesField("x", arrow.PrimitiveTypes.Int32), rulesField("y", arrow.BinaryTypes.String))),
		rulesField("b", arrow.BinaryTypes.Binary),
	}
	for i, f := range fs {
		if r, ok := replace[f.Name]; ok {
			fs[i] = r
		}
	}
	return arrow.NewSchema(fs, nil)
}

func fromJSON(t *testing.T, schema *arrow.Schema, rows string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(rows))
	if err != nil {
		t.Fatalf("%v: %v", schema, err)
	}
	return rec
}

const goodRow = `[{"id": %d, "s": "s%d", "ts": "2024-01-02T03:04:05.123456", "dec": "12.34", "l": [1, null], "r": {"x": 1, "y": "y"}, "b": "AQI="}]`

func row(id int) string {
	return strings.NewReplacer("%d", itoa(id)).Replace(goodRow)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// TestIngestSeedRules checks every rule of seed 000 for writing Arrow
// batches, through Flight SQL ingest.
func TestIngestSeedRules(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, rulesDDL)
	cl, ctx := ts.client(t, "admin", adminPassword)

	// representation-only differences are converted
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	converted := []map[string]arrow.Field{
		{"s": rulesField("s", arrow.BinaryTypes.LargeString)},
		{"s": rulesField("s", arrow.BinaryTypes.StringView)},
		{"s": rulesField("s", dict)},
		{"l": rulesField("l", arrow.LargeListOf(arrow.PrimitiveTypes.Int32))},
		{"l": rulesField("l", arrow.ListViewOf(arrow.PrimitiveTypes.Int32))},
		{"l": rulesField("l", arrow.LargeListViewOf(arrow.PrimitiveTypes.Int32))},
		{"b": rulesField("b", arrow.BinaryTypes.LargeBinary)},
		{"b": rulesField("b", arrow.BinaryTypes.BinaryView)},
		{"r": rulesField("r", arrow.StructOf(rulesField("x", arrow.PrimitiveTypes.Int32), rulesField("y", arrow.BinaryTypes.LargeString)))},
		// nullable flags need not match the table's
		{"id": {Name: "id", Type: arrow.PrimitiveTypes.Int32}},
	}
	for i, rep := range converted {
		rec := fromJSON(t, rulesSchema(rep), row(i+1))
		if n, err := ingest(ctx, cl, "rules", rec); err != nil || n != 1 {
			t.Fatalf("%v: %d rows, %v", rep, n, err)
		}
	}
	var want [][]string
	for i := range converted {
		want = append(want, []string{itoa(i + 1), "s" + itoa(i+1), "2024-01-02 03:04:05.123456", "12.34", "{1,NULL}", `{"x":1,"y":"y"}`, `\x0102`})
	}
	sameRows(t, "converted", ts.pgText(t, "SELECT * FROM rules ORDER BY id"), want)

	// rejected batches name the column, with the SQLSTATE
	intField := func(name string) arrow.Field { return rulesField(name, arrow.PrimitiveTypes.Int32) }
	rejected := []struct {
		name     string
		schema   *arrow.Schema
		rows     string
		code     codes.Code
		sqlstate string
		mention  string
	}{
		{"wrong name", rulesSchema(map[string]arrow.Field{"s": rulesField("sx", arrow.BinaryTypes.String)}), `[{"id": 100, "sx": "a"}]`, codes.InvalidArgument, "42703", `"sx"`},
		{"wrong order", arrow.NewSchema([]arrow.Field{rulesField("s", arrow.BinaryTypes.String), intField("id")}, nil), `[{"id": 100, "s": "a"}]`, codes.InvalidArgument, "42703", `"s"`},
		{"missing column", arrow.NewSchema([]arrow.Field{intField("id")}, nil), `[{"id": 100}]`, codes.InvalidArgument, "42703", `"s"`},
		{"ROW field name", rulesSchema(map[string]arrow.Field{"r": rulesField("r", arrow.StructOf(rulesField("x", arrow.PrimitiveTypes.Int32), rulesField("yy", arrow.BinaryTypes.String)))}), `[{"id": 100}]`, codes.InvalidArgument, "42804", `"r"`},
		{"ROW field order", rulesSchema(map[string]arrow.Field{"r": rulesField("r", arrow.StructOf(rulesField("y", arrow.BinaryTypes.String), rulesField("x", arrow.PrimitiveTypes.Int32)))}), `[{"id": 100}]`, codes.InvalidArgument, "42804", `"r"`},
		{"timestamp unit", rulesSchema(map[string]arrow.Field{"ts": rulesField("ts", &arrow.TimestampType{Unit: arrow.Nanosecond})}), `[{"id": 100, "ts": "2024-01-02T03:04:05"}]`, codes.InvalidArgument, "42804", `"ts"`},
		{"decimal scale", rulesSchema(map[string]arrow.Field{"dec": rulesField("dec", &arrow.Decimal128Type{Precision: 10, Scale: 3})}), `[{"id": 100, "dec": "1.000"}]`, codes.InvalidArgument, "42804", `"dec"`},
		{"integer width", rulesSchema(map[string]arrow.Field{"id": rulesField("id", arrow.PrimitiveTypes.Int64)}), `[{"id": 100}]`, codes.InvalidArgument, "42804", `"id"`},
		{"null in NOT NULL", rulesSchema(nil), `[{"id": null, "s": "a"}]`, codes.FailedPrecondition, "23502", `"id"`},
		{"null in a NOT NULL field", rulesSchema(nil), `[{"id": 100, "r": {"x": null, "y": "a"}}]`, codes.FailedPrecondition, "23502", `x`},
	}
	for _, tc := range rejected {
		rec := fromJSON(t, tc.schema, tc.rows)
		_, err := ingest(ctx, cl, "rules", rec)
		codeAndState(t, err, tc.code, tc.sqlstate)
		if !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: %v does not name %s", tc.name, err, tc.mention)
		}
	}
	// a rejected batch after good ones: nothing of the ingest is written
	good := fromJSON(t, rulesSchema(nil), row(200))
	bad := fromJSON(t, rulesSchema(nil), `[{"id": null}]`)
	if _, err := cl.ExecuteIngest(ctx, mustReader(t, good, bad), appendOpts("rules")); err == nil {
		t.Fatal("ingest with a bad second batch succeeded")
	}
	sameRows(t, "after rejections", ts.pgText(t, "SELECT * FROM rules ORDER BY id"), want)

	// a missing table, and the options not supported
	_, err := ingest(ctx, cl, "nope", good)
	codeAndState(t, err, codes.NotFound, "42P01")
	opts := appendOpts("rules")
	opts.TableDefinitionOptions.IfExists = afsql.TableDefinitionOptionsTableExistsOptionFail
	_, err = cl.ExecuteIngest(ctx, mustReader(t, good), opts)
	codeAndState(t, err, codes.AlreadyExists, "42P07")
}

func mustReader(t *testing.T, recs ...arrow.RecordBatch) array.RecordReader {
	t.Helper()
	rdr, err := array.NewRecordReader(recs[0].Schema(), recs)
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

// TestIngestCreatesTable: "create if missing" makes the table from the
// batches' schema, every Arrow type Fluss stores as it is, nested ones
// included; what was ingested reads back as it was sent.
func TestIngestCreatesTable(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, append([]string{allTypesDDL}, allTypesRows...)...)
	cl, ctx := ts.client(t, "admin", adminPassword)
	recs, _ := query(t, ctx, cl, "SELECT * FROM alltypes ORDER BY id")
	opts := &afsql.ExecuteIngestOpts{Table: "made", TableDefinitionOptions: &afsql.TableDefinitionOptions{
		IfNotExist: afsql.TableDefinitionOptionsTableNotExistOptionCreate,
		IfExists:   afsql.TableDefinitionOptionsTableExistsOptionFail}}
	if n, err := cl.ExecuteIngest(ctx, mustReader(t, recs...), opts); err != nil || n != int64(len(allTypesRows)) {
		t.Fatalf("ingest creating the table: %d, %v", n, err)
	}
	sameRows(t, "made", ts.pgText(t, "SELECT * FROM made ORDER BY id"), ts.pgText(t, "SELECT * FROM alltypes ORDER BY id"))
	// again: the table now exists and the client said fail
	_, err := cl.ExecuteIngest(ctx, mustReader(t, recs...), opts)
	codeAndState(t, err, codes.AlreadyExists, "42P07")
	// a NOT NULL field makes a NOT NULL column
	nn := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.BinaryTypes.LargeString, Nullable: true}}, nil)
	opts.Table = "nn"
	if _, err := cl.ExecuteIngest(ctx, mustReader(t, fromJSON(t, nn, `[{"k": 1, "v": "a"}]`)), opts); err != nil {
		t.Fatal(err)
	}
	sameRows(t, "nn columns", ts.pgText(t, "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'nn' ORDER BY ordinal_position"),
		[][]string{{"k", "bigint", "NO"}, {"v", "text", "YES"}})
}
