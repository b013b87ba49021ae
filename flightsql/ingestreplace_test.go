package flightsql_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"google.golang.org/grpc/codes"
)

func replaceOpts(table string, ifMissing afsql.TableDefinitionOptionsTableNotExistOption) *afsql.ExecuteIngestOpts {
	return &afsql.ExecuteIngestOpts{Table: table, TableDefinitionOptions: &afsql.TableDefinitionOptions{
		IfNotExist: ifMissing, IfExists: afsql.TableDefinitionOptionsTableExistsOptionReplace}}
}

// columnsOf is a table's columns as information_schema lists them.
func columnsOf(t *testing.T, ts *testServer, table string) [][]string {
	return ts.pgText(t, "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = '"+table+"' ORDER BY ordinal_position")
}

// noStaging checks that no staging table of an ingest was left behind.
func noStaging(t *testing.T, ts *testServer) {
	t.Helper()
	if left := ts.pgText(t, "SELECT table_name FROM information_schema.tables WHERE table_name LIKE '%\\_\\_ingest\\_%'"); len(left) > 0 {
		t.Fatalf("staging tables left: %v", left)
	}
}

// TestIngestReplace: "replace" drops the table and makes it again from the
// batches' schema, loaded with them; whatever fails (a rejected batch, a
// user who may not drop the table, a view over it) leaves the old table as
// it was and no staging table behind; outside and inside a transaction.
func TestIngestReplace(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE TABLE rep (a INT PRIMARY KEY, b STRING)", "INSERT INTO rep VALUES (1, 'old'), (2, 'old')")
	cl, ctx := ts.client(t, "admin", adminPassword)
	oldRows, oldCols := ts.pgText(t, "SELECT * FROM rep ORDER BY a"), columnsOf(t, ts, "rep")

	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true}}, nil)
	newCols := [][]string{{"id", "bigint", "NO"}, {"s", "text", "YES"}}
	unchanged := func(what string) {
		t.Helper()
		sameRows(t, what+": rows", ts.pgText(t, "SELECT * FROM rep ORDER BY a"), oldRows)
		sameRows(t, what+": columns", columnsOf(t, ts, "rep"), oldCols)
		noStaging(t, ts)
	}

	// a rejected second batch: nothing changes
	good, bad := fromJSON(t, schema, `[{"id": 10, "s": "new"}]`), fromJSON(t, schema, `[{"id": null, "s": "x"}]`)
	_, err := cl.ExecuteIngest(ctx, mustReader(t, good, bad), replaceOpts("rep", afsql.TableDefinitionOptionsTableNotExistOptionCreate))
	codeAndState(t, err, codes.FailedPrecondition, "23502")
	unchanged("a rejected batch")

	// a user who may write the table but not drop it (the owner alone may,
	// as in PostgreSQL)
	ts.pgExec(t, "GRANT SELECT, INSERT ON rep TO bob")
	bob, bctx := ts.client(t, "bob", bobPassword)
	_, err = bob.ExecuteIngest(bctx, mustReader(t, good), replaceOpts("rep", afsql.TableDefinitionOptionsTableNotExistOptionCreate))
	codeAndState(t, err, codes.PermissionDenied, "42501")
	unchanged("not the owner")

	// a view over the table refuses its drop
	ts.pgExec(t, "CREATE VIEW repv AS SELECT a FROM rep")
	_, err = cl.ExecuteIngest(ctx, mustReader(t, good), replaceOpts("rep", afsql.TableDefinitionOptionsTableNotExistOptionCreate))
	codeAndState(t, err, codes.InvalidArgument, "2BP01")
	unchanged("a view over it")
	ts.pgExec(t, "DROP VIEW repv")

	// replaced: the batches' columns and rows
	more := fromJSON(t, schema, `[{"id": 11, "s": null}, {"id": 12, "s": "b"}]`)
	n, err := cl.ExecuteIngest(ctx, mustReader(t, good, more), replaceOpts("rep", afsql.TableDefinitionOptionsTableNotExistOptionFail))
	if err != nil || n != 3 {
		t.Fatalf("replace: %d rows, %v", n, err)
	}
	sameRows(t, "replaced", ts.pgText(t, "SELECT * FROM rep ORDER BY id"), [][]string{{"10", "new"}, {"11", "NULL"}, {"12", "b"}})
	sameRows(t, "replaced columns", columnsOf(t, ts, "rep"), newCols)
	noStaging(t, ts)

	// in a transaction: the rows appear at COMMIT
	tx, err := cl.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	opts := replaceOpts("rep", afsql.TableDefinitionOptionsTableNotExistOptionFail)
	opts.TransactionId = tx.ID()
	if n, err := cl.ExecuteIngest(ctx, mustReader(t, more), opts); err != nil || n != 2 {
		t.Fatalf("replace in a transaction: %d, %v", n, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	sameRows(t, "replaced in a transaction", ts.pgText(t, "SELECT * FROM rep ORDER BY id"), [][]string{{"11", "NULL"}, {"12", "b"}})
	noStaging(t, ts)
	// a rejected batch in a transaction fails the block; the table stays
	tx, err = cl.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	opts.TransactionId = tx.ID()
	_, err = cl.ExecuteIngest(ctx, mustReader(t, good, bad), opts)
	codeAndState(t, err, codes.FailedPrecondition, "23502")
	codeAndState(t, tx.Commit(ctx), codes.FailedPrecondition, "25P02")
	sameRows(t, "after a failed block", ts.pgText(t, "SELECT * FROM rep ORDER BY id"), [][]string{{"11", "NULL"}, {"12", "b"}})
	noStaging(t, ts)

	// a missing table: created, or 42P01 when the client said fail
	_, err = cl.ExecuteIngest(ctx, mustReader(t, good), replaceOpts("rep_missing", afsql.TableDefinitionOptionsTableNotExistOptionFail))
	codeAndState(t, err, codes.NotFound, "42P01")
	long := strings.Repeat("l", 63) // PostgreSQL's longest name: the staging name is cut to fit
	for _, name := range []string{"rep_new", long} {
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, good), replaceOpts(name, afsql.TableDefinitionOptionsTableNotExistOptionCreate)); err != nil || n != 1 {
			t.Fatalf("replace creating %s: %d, %v", name, n, err)
		}
		if n, err := cl.ExecuteIngest(ctx, mustReader(t, more), replaceOpts(name, afsql.TableDefinitionOptionsTableNotExistOptionCreate)); err != nil || n != 2 {
			t.Fatalf("replace of %s: %d, %v", name, n, err)
		}
		sameRows(t, name, ts.pgText(t, `SELECT * FROM "`+name+`" ORDER BY id`), [][]string{{"11", "NULL"}, {"12", "b"}})
	}
	noStaging(t, ts)
}

// TestIngestReplaceKeepsSchema: a table named without a schema is found
// over the search path, and its replacement goes to the same schema, not
// to the first one of the path (where CREATE TABLE would put it).
func TestIngestReplaceKeepsSchema(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE SCHEMA first", "CREATE TABLE sp (a INT)", "INSERT INTO sp VALUES (1)")
	cl, ctx := ts.client(t, "admin", adminPassword)
	if _, err := cl.ExecuteUpdate(ctx, "SET search_path TO first, public"); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	if n, err := cl.ExecuteIngest(ctx, mustReader(t, fromJSON(t, schema, `[{"b": "x"}]`)), replaceOpts("sp", afsql.TableDefinitionOptionsTableNotExistOptionFail)); err != nil || n != 1 {
		t.Fatalf("replace: %d, %v", n, err)
	}
	sameRows(t, "where sp is", ts.pgText(t, "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name = 'sp'"), [][]string{{"public", "sp"}})
	sameRows(t, "sp", ts.pgText(t, "SELECT * FROM public.sp"), [][]string{{"x"}})
	noStaging(t, ts)
}
