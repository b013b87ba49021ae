package flightsql_test

import (
	"context"
	"crypto/tls"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/sqlgate/sqlgate/internal/testtls"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// fetcher returns a function fetching the batches of a catalog command's
// FlightInfo, failing the test on an error.
func fetcher(t *testing.T, ctx context.Context, cl *afsql.Client) func(*flight.FlightInfo, error) []arrow.RecordBatch {
	return func(info *flight.FlightInfo, err error) []arrow.RecordBatch {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := flightRecords(ctx, cl, info)
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
}

func strings1(t *testing.T, recs []arrow.RecordBatch, col int) []string {
	t.Helper()
	var out []string
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			out = append(out, r.Column(col).ValueStr(i))
		}
	}
	return out
}

func TestCatalogCommands(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE SCHEMA other", "CREATE TABLE other.kv (k STRING NOT NULL, n INT NOT NULL, v ARRAY<INT>, PRIMARY KEY (n, k))",
		"CREATE TABLE logt (a INT)", "CREATE VIEW lv AS SELECT a FROM logt")
	cl, ctx := ts.client(t, "admin", adminPassword)
	get := fetcher(t, ctx, cl)
	if got := strings1(t, get(cl.GetCatalogs(ctx)), 0); strings.Join(got, ",") != "sqlgate" {
		t.Errorf("catalogs %v", got)
	}
	pat := "o%"
	if got := strings1(t, get(cl.GetDBSchemas(ctx, &afsql.GetDBSchemasOpts{DbSchemaFilterPattern: &pat})), 1); strings.Join(got, ",") != "other" {
		t.Errorf("schemas %v", got)
	}
	all := "%"
	if got := strings1(t, get(cl.GetDBSchemas(ctx, &afsql.GetDBSchemasOpts{DbSchemaFilterPattern: &all})), 1); !strings.Contains(strings.Join(got, ","), "public") {
		t.Errorf("schemas %v lack public", got)
	}

	// tables with their schemas: those of SELECT * of each
	pub := "public"
	recs := get(cl.GetTables(ctx, &afsql.GetTablesOpts{DbSchemaFilterPattern: &pub, IncludeSchema: true}))
	names, kinds := strings1(t, recs, 2), strings1(t, recs, 3)
	if strings.Join(names, ",") != "logt,lv" || strings.Join(kinds, ",") != "TABLE,VIEW" {
		t.Fatalf("tables %v %v", names, kinds)
	}
	raw := recs[0].Column(4).(*array.Binary).Value(0)
	schema, err := flight.DeserializeSchema(raw, nil)
	if err != nil || schema.NumFields() != 1 || schema.Field(0).Name != "a" || schema.Field(0).Type.ID() != arrow.INT32 {
		t.Fatalf("logt schema %v, %v", schema, err)
	}
	onlyViews := get(cl.GetTables(ctx, &afsql.GetTablesOpts{DbSchemaFilterPattern: &pub, TableTypes: []string{"VIEW"}}))
	if got := strings1(t, onlyViews, 2); strings.Join(got, ",") != "lv" {
		t.Errorf("views %v", got)
	}

	other := "other"
	pk := get(cl.GetPrimaryKeys(ctx, afsql.TableRef{DBSchema: &other, Table: "kv"}))
	if got := strings1(t, pk, 3); strings.Join(got, ",") != "n,k" {
		t.Errorf("primary key %v", got)
	}
	if got := strings1(t, pk, 4); strings.Join(got, ",") != "1,2" {
		t.Errorf("key sequence %v", got)
	}

	info := get(cl.GetSqlInfo(ctx, []afsql.SqlInfo{afsql.SqlInfoFlightSqlServerName, afsql.SqlInfoFlightSqlServerTransaction}))
	if n := info[0].NumRows(); n != 2 {
		t.Errorf("sql info: %d rows", n)
	}
	xdbc := get(cl.GetXdbcTypeInfo(ctx, nil))
	if got := strings1(t, xdbc, 0); !strings.Contains(strings.Join(got, ","), "timestamp with time zone") {
		t.Errorf("type info %v", got)
	}
	four := int32(4)
	if got := strings1(t, get(cl.GetXdbcTypeInfo(ctx, &four)), 0); strings.Join(got, ",") != "integer" {
		t.Errorf("type info of INTEGER: %v", got)
	}
}

func count(t *testing.T, ts *testServer, table string) string {
	return ts.pgText(t, "SELECT count(*) FROM "+table)[0][0]
}

func TestTransactions(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE TABLE tx (id INT NOT NULL, PRIMARY KEY (id))")
	cl, ctx := ts.client(t, "admin", adminPassword)

	tx, err := cl.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := tx.ExecuteUpdate(ctx, "INSERT INTO tx VALUES (1), (2)"); err != nil || n != 2 {
		t.Fatalf("insert: %d, %v", n, err)
	}
	rec := fromJSON(t, arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil), `[{"id": 3}]`)
	rdr := mustReader(t, rec)
	opts := appendOpts("tx")
	opts.TransactionId = tx.ID()
	if n, err := cl.ExecuteIngest(ctx, rdr, opts); err != nil || n != 1 {
		t.Fatalf("ingest in the transaction: %d, %v", n, err)
	}
	// the transaction sees its rows, the others do not until COMMIT
	info, err := tx.Execute(ctx, "SELECT count(*) FROM tx")
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := flightRecords(ctx, cl, info)
	if err != nil || strings1(t, recs, 0)[0] != "3" {
		t.Fatalf("in the transaction: %v, %v", recs, err)
	}
	if c := count(t, ts, "tx"); c != "0" {
		t.Fatalf("before COMMIT another session sees %s rows", c)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if c := count(t, ts, "tx"); c != "3" {
		t.Fatalf("after COMMIT: %s rows", c)
	}

	tx, err = cl.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecuteUpdate(ctx, "DELETE FROM tx"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if c := count(t, ts, "tx"); c != "3" {
		t.Fatalf("after ROLLBACK: %s rows", c)
	}

	// an error fails the block: later statements get 25P02, COMMIT rolls
	// back and says so
	tx, err = cl.BeginTransaction(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecuteUpdate(ctx, "INSERT INTO tx VALUES (10)"); err != nil {
		t.Fatal(err)
	}
	_, err = tx.ExecuteUpdate(ctx, "INSERT INTO tx VALUES (NULL)")
	codeAndState(t, err, codes.FailedPrecondition, "23502")
	_, err = tx.ExecuteUpdate(ctx, "INSERT INTO tx VALUES (11)")
	codeAndState(t, err, codes.FailedPrecondition, "25P02")
	codeAndState(t, tx.Commit(ctx), codes.FailedPrecondition, "25P02")
	if c := count(t, ts, "tx"); c != "3" {
		t.Fatalf("after a failed block: %s rows", c)
	}
}

func TestStatementTimeout(t *testing.T) {
	ts := startServer(t)
	cl, ctx := ts.client(t, "admin", adminPassword)
	if _, err := cl.ExecuteUpdate(ctx, "SET statement_timeout = '20ms'"); err != nil {
		t.Fatal(err)
	}
	info, err := cl.Execute(ctx, "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b")
	if err == nil {
		_, _, err = flightRecords(ctx, cl, info)
	}
	codeAndState(t, err, codes.DeadlineExceeded, "57014")
	if !strings.Contains(err.Error(), "statement timeout") {
		t.Errorf("%v", err)
	}
	// the connection goes on
	recs, _ := query(t, ctx, cl, "SELECT 1")
	sameRows(t, "after the timeout", asText(t, recs, []types.T{types.Int32Type}), [][]string{{"1"}})
}

// TestTrustTLSAndLimits: under trust a client needs no credentials; with
// TLS configured every client uses it; beyond MaxConnections a new
// connection gets 53300.
func TestTrustTLSAndLimits(t *testing.T) {
	dir := t.TempDir()
	srv, err := server.Start(context.Background(), server.Config{Listen: "127.0.0.1:0", FlightListen: "127.0.0.1:0",
		DataDir: filepath.Join(dir, "data"), TLS: testtls.SelfSigned(t), MaxConnections: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(context.Background())
	addr := srv.FlightAddr().String()
	tlsClient := grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{InsecureSkipVerify: true}))
	var clients []*afsql.Client
	for i := 0; i < 3; i++ {
		cl, err := afsql.NewClient(addr, nil, nil, tlsClient)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		clients = append(clients, cl)
	}
	ctx := context.Background()
	for _, cl := range clients[:2] {
		if _, err := cl.Execute(ctx, "SELECT 1"); err != nil {
			t.Fatalf("trust over TLS: %v", err)
		}
	}
	_, err = clients[2].Execute(ctx, "SELECT 1")
	codeAndState(t, err, codes.ResourceExhausted, "53300")

	// plaintext is refused when TLS is on
	plain, err := afsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.Execute(ctx, "SELECT 1"); err == nil {
		t.Fatal("a plaintext client was served by a TLS server")
	}
}

// TestCancelFlightInfo: a cancelled query's ticket no longer runs.
func TestCancelFlightInfo(t *testing.T) {
	ts := startServer(t)
	cl, ctx := ts.client(t, "admin", adminPassword)
	info, err := cl.Execute(ctx, "SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := cl.CancelFlightInfo(ctx, &flight.CancelFlightInfoRequest{Info: info})
	if err != nil || res.Status != flight.CancelStatusCancelled {
		t.Fatalf("cancel: %v, %v", res, err)
	}
	_, _, err = flightRecords(ctx, cl, info)
	codeAndState(t, err, codes.NotFound, "26000")
}

// TestCloseSession: a closed session's token no longer works.
func TestCloseSession(t *testing.T) {
	ts := startServer(t)
	cl, ctx := ts.client(t, "admin", adminPassword)
	if _, err := cl.Client.CloseSession(ctx, &flight.CloseSessionRequest{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := cl.Execute(ctx, "SELECT 1")
		if err != nil {
			codeAndState(t, err, codes.Unauthenticated, "28000")
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the token still works after CloseSession")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestConnectionsPerUser: beyond --max-connections-per-user a user's new
// connection gets 53300, as on the PostgreSQL side; another user is served.
func TestConnectionsPerUser(t *testing.T) {
	ts := startServerWith(t, func(c *server.Config) { c.MaxConnectionsPerUser = 1 })
	ts.client(t, "admin", adminPassword)
	cl, err := afsql.NewClient(ts.srv.FlightAddr().String(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	_, err = cl.Client.AuthenticateBasicToken(context.Background(), "admin", adminPassword)
	codeAndState(t, err, codes.ResourceExhausted, "53300")
	if !strings.Contains(err.Error(), `too many connections for role "admin"`) {
		t.Errorf("%v", err)
	}
	ts.client(t, "bob", bobPassword)
}
