//go:build fluss_cluster

package flightsql_test

// Flight SQL on a real Apache Fluss 0.9.1 cluster: sqlgate serving the
// cluster SQLGATE_FLUSS_BOOTSTRAP names (`make test-cluster` starts one;
// without it the test fails, never skips), as `sqlgate serve --fluss
// HOST:PORT --flight-listen ...` does. The main paths of the embedded-store
// tests, against the cluster: queries compared with the PostgreSQL side,
// prepared statements with parameters, ingest (seed 000's rules, create,
// replace), catalog commands. Everything lives in a Fluss database of the
// run's own, dropped at the end.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
	"google.golang.org/grpc/codes"
)

// startClusterServer is startServer on the test cluster.
func startClusterServer(t *testing.T) *testServer {
	t.Helper()
	boot := os.Getenv("SQLGATE_FLUSS_BOOTSTRAP")
	if boot == "" {
		t.Fatal("SQLGATE_FLUSS_BOOTSTRAP is not set: run with make test-cluster")
	}
	return startServerWith(t, func(c *server.Config) {
		c.Fluss = &remote.Config{Bootstrap: strings.Split(boot, ",")}
	})
}

func TestClusterFlightSQL(t *testing.T) {
	ts := startClusterServer(t)
	db := fmt.Sprintf("flight_%d", time.Now().UnixNano()%1e9)
	ts.pgExec(t, "CREATE SCHEMA "+db)
	t.Cleanup(func() {
		conn := ts.pgConn(t)
		if _, err := conn.Exec(context.Background(), "DROP SCHEMA "+db+" CASCADE"); err != nil {
			t.Errorf("dropping %s: %v", db, err)
		}
	})
	q := func(table string) string { return db + "." + table }
	in := func(sql string) string { return strings.ReplaceAll(sql, "alltypes", q("alltypes")) }
	setup := []string{in(allTypesDDL), strings.Replace(in(allTypesDDL), q("alltypes"), q("copied"), 1),
		"CREATE TABLE " + q("events") + " (id BIGINT NOT NULL, s STRING, ts TIMESTAMP(6))"}
	for _, r := range allTypesRows {
		setup = append(setup, in(r))
	}
	ts.pgExec(t, setup...)
	cl, ctx := ts.client(t, "admin", adminPassword)
	want := ts.pgText(t, "SELECT * FROM "+q("alltypes")+" ORDER BY id")

	t.Run("query", func(t *testing.T) {
		recs, schema := query(t, ctx, cl, "SELECT * FROM "+q("alltypes")+" ORDER BY id")
		for name, id := range map[string]arrow.Type{"arr": arrow.LIST, "m": arrow.MAP, "r": arrow.STRUCT, "nested": arrow.LIST} {
			if f, ok := schema.FieldsByName(name); !ok || f[0].Type.ID() != id {
				t.Errorf("column %s: %v, want %s", name, f, id)
			}
		}
		sameRows(t, "alltypes", asText(t, recs, allTypesCols()), want)
		_, err := cl.Execute(ctx, "SELECT * FROM "+q("missing"))
		codeAndState(t, err, codes.NotFound, "42P01")
	})

	t.Run("prepared", func(t *testing.T) {
		mem := memory.DefaultAllocator
		prep, err := cl.Prepare(ctx, "SELECT id, s FROM "+q("alltypes")+" WHERE id >= $1 ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer prep.Close(ctx)
		b := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{{Name: "$1", Type: arrow.PrimitiveTypes.Int32}}, nil))
		b.Field(0).(*array.Int32Builder).Append(2)
		prep.SetParameters(b.NewRecordBatch())
		info, err := prep.Execute(ctx)
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := flightRecords(ctx, cl, info)
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, "prepared query", asText(t, recs, []types.T{types.Int32Type, types.StringType}),
			ts.pgText(t, "SELECT id, s FROM "+q("alltypes")+" WHERE id >= 2 ORDER BY id"))
		ins, err := cl.Prepare(ctx, "INSERT INTO "+q("events")+" VALUES ($1, $2, NULL)")
		if err != nil {
			t.Fatal(err)
		}
		defer ins.Close(ctx)
		pb := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{{Name: "$1", Type: arrow.PrimitiveTypes.Int64}, {Name: "$2", Type: arrow.BinaryTypes.String}}, nil))
		pb.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
		pb.Field(1).(*array.StringBuilder).AppendValues([]string{"one", "two"}, nil)
		ins.SetParameters(pb.NewRecordBatch())
		if n, err := ins.ExecuteUpdate(ctx); err != nil || n != 2 {
			t.Fatalf("prepared insert: %d, %v", n, err)
		}
		sameRows(t, "prepared insert", ts.pgText(t, "SELECT id, s FROM "+q("events")+" ORDER BY id"), [][]string{{"1", "one"}, {"2", "two"}})
	})

	t.Run("ingest", func(t *testing.T) {
		opts := func(table string, exists afsql.TableDefinitionOptionsTableExistsOption, missing afsql.TableDefinitionOptionsTableNotExistOption) *afsql.ExecuteIngestOpts {
			return &afsql.ExecuteIngestOpts{Table: table, Schema: &db, TableDefinitionOptions: &afsql.TableDefinitionOptions{IfExists: exists, IfNotExist: missing}}
		}
		appendTo := func(table string) *afsql.ExecuteIngestOpts {
			return opts(table, afsql.TableDefinitionOptionsTableExistsOptionAppend, afsql.TableDefinitionOptionsTableNotExistOptionFail)
		}
		// every type into a primary-key table, and made by "create"
		recs, _ := query(t, ctx, cl, "SELECT * FROM "+q("alltypes")+" ORDER BY id")
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, recs...), appendTo("copied")); err != nil || n != 3 {
			t.Fatalf("ingest: %d, %v", n, err)
		}
		sameRows(t, "copied", ts.pgText(t, "SELECT * FROM "+q("copied")+" ORDER BY id"), want)
		made := opts("made", afsql.TableDefinitionOptionsTableExistsOptionFail, afsql.TableDefinitionOptionsTableNotExistOptionCreate)
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, recs...), made); err != nil || n != 3 {
			t.Fatalf("ingest creating its table: %d, %v", n, err)
		}
		sameRows(t, "made", ts.pgText(t, "SELECT * FROM "+q("made")+" ORDER BY id"), want)

		// into a log table: seed 000's rules, and a rejected batch writes nothing
		schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true}, {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true}}, nil)
		good := fromJSON(t, schema, `[{"id": 3, "s": "three", "ts": "2024-01-02T03:04:05.123456"}]`)
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, good), appendTo("events")); err != nil || n != 1 {
			t.Fatalf("ingest into the log table: %d, %v", n, err)
		}
		_, err := cl.ExecuteIngest(ctx, mustReader(t, good, fromJSON(t, schema, `[{"id": null, "s": "x"}]`)), appendTo("events"))
		codeAndState(t, err, codes.FailedPrecondition, "23502")
		nanos := arrow.NewSchema([]arrow.Field{schema.Field(0), schema.Field(1), {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}, Nullable: true}}, nil)
		_, err = cl.ExecuteIngest(ctx, mustReader(t, fromJSON(t, nanos, `[{"id": 4}]`)), appendTo("events"))
		codeAndState(t, err, codes.InvalidArgument, "42804")
		wrongName := arrow.NewSchema([]arrow.Field{schema.Field(0), {Name: "sx", Type: arrow.BinaryTypes.String, Nullable: true}, schema.Field(2)}, nil)
		_, err = cl.ExecuteIngest(ctx, mustReader(t, fromJSON(t, wrongName, `[{"id": 4}]`)), appendTo("events"))
		codeAndState(t, err, codes.InvalidArgument, "42703")
		sameRows(t, "events", ts.pgText(t, "SELECT id, s, ts FROM "+q("events")+" ORDER BY id"),
			[][]string{{"1", "one", "NULL"}, {"2", "two", "NULL"}, {"3", "three", "2024-01-02 03:04:05.123456"}})

		// replace: a cluster cannot rename, so the table is made again and loaded
		replace := opts("made", afsql.TableDefinitionOptionsTableExistsOptionReplace, afsql.TableDefinitionOptionsTableNotExistOptionCreate)
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, good), replace); err != nil || n != 1 {
			t.Fatalf("replace: %d, %v", n, err)
		}
		replaced := [][]string{{"3", "three", "2024-01-02 03:04:05.123456"}}
		sameRows(t, "replaced", ts.pgText(t, "SELECT * FROM "+q("made")), replaced)
		noStaging(t, ts)
		// a refused batch (a timestamp in seconds: the column is made
		// TIMESTAMP(6), then the batch refused) leaves the table as it was
		secs := arrow.NewSchema([]arrow.Field{schema.Field(0), {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true}}, nil)
		_, err = cl.ExecuteIngest(ctx, mustReader(t, fromJSON(t, secs, `[{"id": 5, "ts": "2024-01-01T00:00:00"}]`)), replace)
		codeAndState(t, err, codes.InvalidArgument, "42804")
		sameRows(t, "after a refused replace", ts.pgText(t, "SELECT * FROM "+q("made")), replaced)
		noStaging(t, ts)
		// in a transaction block: dropped, made again and loaded, the rows at COMMIT
		tx, err := cl.BeginTransaction(ctx)
		if err != nil {
			t.Fatal(err)
		}
		inTx := opts("made", afsql.TableDefinitionOptionsTableExistsOptionReplace, afsql.TableDefinitionOptionsTableNotExistOptionCreate)
		inTx.TransactionId = tx.ID()
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, fromJSON(t, schema, `[{"id": 6, "s": "six"}]`)), inTx); err != nil || n != 1 {
			t.Fatalf("replace in a transaction: %d, %v", n, err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		sameRows(t, "replaced in a transaction", ts.pgText(t, "SELECT * FROM "+q("made")), [][]string{{"6", "six", "NULL"}})
		noStaging(t, ts)
	})

	t.Run("catalog", func(t *testing.T) {
		get := fetcher(t, ctx, cl)
		if got := strings1(t, get(cl.GetDBSchemas(ctx, &afsql.GetDBSchemasOpts{DbSchemaFilterPattern: &db})), 1); strings.Join(got, ",") != db {
			t.Errorf("schemas %v", got)
		}
		recs := get(cl.GetTables(ctx, &afsql.GetTablesOpts{DbSchemaFilterPattern: &db, IncludeSchema: true}))
		if names := strings1(t, recs, 2); strings.Join(names, ",") != "alltypes,copied,events,made" {
			t.Fatalf("tables %v", names)
		}
		for _, rec := range recs {
			for i := 0; i < int(rec.NumRows()); i++ {
				if rec.Column(2).ValueStr(i) != "events" {
					continue
				}
				s, err := flight.DeserializeSchema(rec.Column(4).(*array.Binary).Value(i), nil)
				if err != nil || s.NumFields() != 3 || s.Field(2).Type.ID() != arrow.TIMESTAMP {
					t.Errorf("events schema %v, %v", s, err)
				}
			}
		}
		pk := get(cl.GetPrimaryKeys(ctx, afsql.TableRef{DBSchema: &db, Table: "alltypes"}))
		if got := strings1(t, pk, 3); strings.Join(got, ",") != "id" {
			t.Errorf("primary key %v", got)
		}
	})
}

// TestClusterADBCPython is TestADBCPython on the cluster (the tables in
// its default database, dropped before and after).
func TestClusterADBCPython(t *testing.T) {
	ts := startClusterServer(t)
	drop := func() {
		conn := ts.pgConn(t)
		for _, table := range adbcTables {
			if _, err := conn.Exec(context.Background(), "DROP TABLE IF EXISTS "+table); err != nil {
				t.Errorf("DROP TABLE %s: %v", table, err)
			}
		}
	}
	drop()
	t.Cleanup(drop)
	runADBCPython(t, ts)
}
