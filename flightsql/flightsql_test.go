package flightsql_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/flightsql"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// testServer is a sqlgate serving PostgreSQL and Flight SQL, with a
// superuser "admin" and an ordinary user "bob".
type testServer struct {
	srv *server.Server
	pg  string // pgx connection string of admin
}

const adminPassword, bobPassword = "admin-secret", "bob-secret"

func startServer(t testing.TB) *testServer {
	t.Helper()
	return startServerWith(t, nil)
}

// startServerWith is startServer with the configuration changed by adjust.
func startServerWith(t testing.TB, adjust func(*server.Config)) *testServer {
	t.Helper()
	dir := t.TempDir()
	var users pgwire.Users
	if err := users.SetPassword("admin", adminPassword, false); err != nil {
		t.Fatal(err)
	}
	if err := users.SetPassword("bob", bobPassword, false); err != nil {
		t.Fatal(err)
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	ctx := context.Background()
	cfg := server.Config{Listen: "127.0.0.1:0", FlightListen: "127.0.0.1:0", DataDir: filepath.Join(dir, "data"),
		Auth: pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: &users, FailureDelay: -1}}
	if adjust != nil {
		adjust(&cfg)
	}
	srv, err := server.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(sctx)
	})
	return &testServer{srv: srv, pg: "postgres://admin:" + adminPassword + "@" + srv.Addr().String() + "/sqlgate?sslmode=disable"}
}

// client is a Flight SQL client authenticated as user.
func (ts *testServer) client(t testing.TB, user, password string, opts ...grpc.DialOption) (*afsql.Client, context.Context) {
	t.Helper()
	cl, err := afsql.NewClient(ts.srv.FlightAddr().String(), nil, nil, append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	ctx, err := cl.Client.AuthenticateBasicToken(context.Background(), user, password)
	if err != nil {
		t.Fatalf("authenticate %s: %v", user, err)
	}
	return cl, ctx
}

// pgConn is a PostgreSQL-protocol connection as admin, closed when the
// test ends.
func (ts *testServer) pgConn(t *testing.T) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), ts.pg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func (ts *testServer) pgExec(t *testing.T, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	conn := ts.pgConn(t)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// pgText returns a query's rows as PostgreSQL's text output (NULL as "NULL").
func (ts *testServer) pgText(t *testing.T, query string) [][]string {
	t.Helper()
	ctx := context.Background()
	rr := ts.pgConn(t).PgConn().ExecParams(ctx, query, nil, nil, nil, []int16{0})
	var out [][]string
	for rr.NextRow() {
		var row []string
		for _, v := range rr.Values() {
			if v == nil {
				row = append(row, "NULL")
			} else {
				row = append(row, string(v))
			}
		}
		out = append(out, row)
	}
	if _, err := rr.Close(); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}

// flightRecords runs a query through Flight SQL and returns its batches.
func flightRecords(ctx context.Context, cl *afsql.Client, info *flight.FlightInfo) ([]arrow.RecordBatch, *arrow.Schema, error) {
	rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		return nil, nil, err
	}
	defer rdr.Release()
	var recs []arrow.RecordBatch
	for rdr.Next() {
		rec := rdr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	return recs, rdr.Schema(), rdr.Err()
}

func query(t *testing.T, ctx context.Context, cl *afsql.Client, q string) ([]arrow.RecordBatch, *arrow.Schema) {
	t.Helper()
	info, err := cl.Execute(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	recs, schema, err := flightRecords(ctx, cl, info)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return recs, schema
}

// asText renders Arrow rows with pgwire's own text codec, given the
// columns' SQL types, so that they compare with what psql sees.
func asText(t *testing.T, recs []arrow.RecordBatch, cols []types.T) [][]string {
	t.Helper()
	var out [][]string
	for _, rec := range recs {
		if int(rec.NumCols()) != len(cols) {
			t.Fatalf("batch has %d columns, want %d", rec.NumCols(), len(cols))
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			var row []string
			for i, c := range cols {
				b, notNull, err := pgtypes.AppendValueIn(nil, c, 0, rec.Column(i), r, time.UTC)
				if err != nil {
					t.Fatalf("column %d: %v", i, err)
				}
				if !notNull {
					row = append(row, "NULL")
				} else {
					row = append(row, string(b))
				}
			}
			out = append(out, row)
		}
	}
	return out
}

func sameRows(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d\ngot  %q\nwant %q", what, len(got), len(want), got, want)
	}
	for i := range got {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("%s: row %d\ngot  %q\nwant %q", what, i, got[i], want[i])
		}
	}
}

// allTypes is a table of every Fluss type, nested ones included, with its
// columns' SQL types.
const allTypesDDL = `CREATE TABLE alltypes (id INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT,
	f FLOAT, d DOUBLE, dec DECIMAL(10, 2), s STRING, c CHAR(3), by BYTES, bin BINARY(3), dt DATE, tm TIME,
	ts TIMESTAMP(6), tz TIMESTAMPTZ, arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<a INT, b STRING>,
	nested ARRAY<ROW<x INT NOT NULL, y ARRAY<STRING>>>, PRIMARY KEY (id))`

var allTypesRows = []string{
	`INSERT INTO alltypes VALUES (1, true, 1, 2, 3, 4, 1.5, 2.25, 12.34, 'hello', 'abc', '\x0102', '\x010203', '2024-01-02', '12:34:56',
		'2024-01-02 03:04:05.123456', '2024-01-02 03:04:05+00', ARRAY[1, NULL, 3], MAP['k1', 1, 'k2', NULL], ROW(7, 'seven'),
		ARRAY[ROW(1, ARRAY['a', NULL]), ROW(2, NULL)])`,
	`INSERT INTO alltypes (id) VALUES (2)`,
	`INSERT INTO alltypes VALUES (3, false, -1, -2, -3, -4, -0.5, 1e100, -0.01, '', 'x', '\x', '\x000000', '1999-12-31', '00:00:00',
		'1970-01-01 00:00:00', '1970-01-01 00:00:00+00', ARRAY[]::INT[], MAP['z', 0], ROW(NULL, NULL), ARRAY[]::ROW<x INT NOT NULL, y ARRAY<STRING>>[])`,
}

func allTypesCols() []types.T {
	str := types.StringType
	return []types.T{types.Int32Type, types.BoolType, {Kind: types.Int8}, types.Int16Type, types.Int32Type, types.Int64Type,
		types.Float32Type, types.Float64Type, {Kind: types.Decimal, Precision: 10, Scale: 2}, str, {Kind: types.Char, Length: 3},
		types.BytesType, {Kind: types.Binary, Length: 3}, types.DateType, {Kind: types.Time}, {Kind: types.Timestamp, Precision: 6},
		{Kind: types.TimestampTZ, Precision: 6}, types.ArrayOf(types.Int32Type), {Kind: types.Map, Key: &str, Elem: &types.T{Kind: types.Int32}},
		{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.Int32Type}, {Name: "b", Type: str}}},
		types.ArrayOf(types.T{Kind: types.Row, Fields: []types.Field{{Name: "x", Type: types.T{Kind: types.Int32, NotNull: true}}, {Name: "y", Type: types.ArrayOf(str)}}}),
	}
}

// codeAndState checks an error's gRPC code and the SQLSTATE in its message.
func codeAndState(t *testing.T, err error, code codes.Code, sqlstate string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s %s", code, sqlstate)
	}
	st, ok := status.FromError(err)
	if !ok {
		var target interface{ GRPCStatus() *status.Status }
		if errors.As(err, &target) {
			st = target.GRPCStatus()
		}
	}
	if st == nil || st.Code() != code || !strings.Contains(st.Message(), "(SQLSTATE "+sqlstate+")") {
		t.Fatalf("error %v: want code %s with SQLSTATE %s", err, code, sqlstate)
	}
}

// TestQueryValuesMatchPostgreSQLSide reads every type and a result of many
// batches through arrow-go's client with its default settings and with
// flightsql.DialOptions (pooled buffers reused, bodies aliased), as a
// statement and as a prepared statement, against what the PostgreSQL side
// returns.
func TestQueryValuesMatchPostgreSQLSide(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, append([]string{allTypesDDL,
		"CREATE TABLE big (id BIGINT PRIMARY KEY, s STRING, d DOUBLE, n INT)",
		"INSERT INTO big SELECT g, repeat('x', (g % 70)::int), g / 7.0, CASE WHEN g % 3 = 0 THEN NULL ELSE g::int END FROM generate_series(1, 40000) g"},
		allTypesRows...)...)
	bigCols := []types.T{types.Int64Type, types.StringType, types.Float64Type, types.Int32Type}
	for _, c := range []struct {
		name string
		opts []grpc.DialOption
	}{{"arrow-go defaults", nil}, {"DialOptions", flightsql.DialOptions()}} {
		t.Run(c.name, func(t *testing.T) {
			cl, ctx := ts.client(t, "admin", adminPassword, c.opts...)
			recs, schema := query(t, ctx, cl, "SELECT * FROM alltypes ORDER BY id")
			// nested columns arrive as native Arrow nested arrays
			for name, id := range map[string]arrow.Type{"arr": arrow.LIST, "m": arrow.MAP, "r": arrow.STRUCT, "nested": arrow.LIST} {
				f, ok := schema.FieldsByName(name)
				if !ok || f[0].Type.ID() != id {
					t.Errorf("column %s: %v, want %s", name, f, id)
				}
			}
			sameRows(t, "alltypes", asText(t, recs, allTypesCols()), ts.pgText(t, "SELECT * FROM alltypes ORDER BY id"))
			const q = "SELECT * FROM big ORDER BY id"
			want := ts.pgText(t, q)
			recs, _ = query(t, ctx, cl, q)
			if len(recs) < 2 {
				t.Errorf("big: %d batches, want several", len(recs))
			}
			sameRows(t, "big", asText(t, recs, bigCols), want)
			stmt, err := cl.Prepare(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			defer stmt.Close(ctx)
			info, err := stmt.Execute(ctx)
			if err != nil {
				t.Fatal(err)
			}
			recs, _, err = flightRecords(ctx, cl, info)
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, "big, prepared", asText(t, recs, bigCols), want)
		})
	}
}

func TestPreparedStatementsAndUpdates(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE TABLE p (id INT NOT NULL, s STRING, PRIMARY KEY (id))", "INSERT INTO p VALUES (1, 'one'), (2, 'two'), (3, 'three')")
	cl, ctx := ts.client(t, "admin", adminPassword)
	mem := memory.DefaultAllocator

	prep, err := cl.Prepare(ctx, "SELECT id, s FROM p WHERE id >= $1 ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if ps := prep.ParameterSchema(); ps.NumFields() != 1 || ps.Field(0).Type.ID() != arrow.INT32 {
		t.Fatalf("parameter schema %v", ps)
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{{Name: "$1", Type: arrow.PrimitiveTypes.Int64}}, nil))
	b.Field(0).(*array.Int64Builder).Append(2)
	params := b.NewRecordBatch()
	prep.SetParameters(params)
	info, err := prep.Execute(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := flightRecords(ctx, cl, info)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "prepared", asText(t, recs, []types.T{types.Int32Type, types.StringType}), [][]string{{"2", "two"}, {"3", "three"}})
	prep.Close(ctx)

	// DoPut update
	n, err := cl.ExecuteUpdate(ctx, "UPDATE p SET s = 'uno' WHERE id = 1")
	if err != nil || n != 1 {
		t.Fatalf("update: %d, %v", n, err)
	}
	// a prepared INSERT with two rows of parameters: one transaction
	ins, err := cl.Prepare(ctx, "INSERT INTO p VALUES ($1, $2)")
	if err != nil {
		t.Fatal(err)
	}
	pb := array.NewRecordBuilder(mem, arrow.NewSchema([]arrow.Field{{Name: "$1", Type: arrow.PrimitiveTypes.Int32}, {Name: "$2", Type: arrow.BinaryTypes.String}}, nil))
	pb.Field(0).(*array.Int32Builder).AppendValues([]int32{4, 5}, nil)
	pb.Field(1).(*array.StringBuilder).AppendValues([]string{"four", "five"}, nil)
	ins.SetParameters(pb.NewRecordBatch())
	if n, err := ins.ExecuteUpdate(ctx); err != nil || n != 2 {
		t.Fatalf("prepared insert: %d, %v", n, err)
	}
	if n, err := cl.ExecuteUpdate(ctx, "DELETE FROM p WHERE id = 5"); err != nil || n != 1 {
		t.Fatalf("delete: %d, %v", n, err)
	}
	sameRows(t, "after updates", ts.pgText(t, "SELECT id, s FROM p ORDER BY id"), [][]string{{"1", "uno"}, {"2", "two"}, {"3", "three"}, {"4", "four"}})

	// errors keep their SQLSTATE
	_, err = cl.Execute(ctx, "SELECT nope FROM p")
	codeAndState(t, err, codes.InvalidArgument, "42703")
	_, err = cl.ExecuteUpdate(ctx, "INSERT INTO p VALUES (NULL, 'x')")
	codeAndState(t, err, codes.FailedPrecondition, "23502")
	_, err = cl.Execute(ctx, "SELECT * FROM missing")
	codeAndState(t, err, codes.NotFound, "42P01")
}

func TestAuthentication(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE TABLE secret (id INT)", "INSERT INTO secret VALUES (1)")
	addr := ts.srv.FlightAddr().String()
	cl, err := afsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// wrong password
	_, err = cl.Client.AuthenticateBasicToken(context.Background(), "admin", "wrong")
	codeAndState(t, err, codes.Unauthenticated, "28P01")
	_, err = cl.Client.AuthenticateBasicToken(context.Background(), "nobody", "wrong")
	codeAndState(t, err, codes.Unauthenticated, "28P01")
	// no token
	_, err = cl.Execute(context.Background(), "SELECT 1")
	codeAndState(t, err, codes.Unauthenticated, "28000")
	// a made-up token
	bad := metadataCtx("authorization", "Bearer not-a-token")
	_, err = cl.Execute(bad, "SELECT 1")
	codeAndState(t, err, codes.Unauthenticated, "28000")

	// a user without SELECT gets 42501, checked per statement: a GRANT
	// reaches the connection at once
	bob, bctx := ts.client(t, "bob", bobPassword)
	info, err := bob.Execute(bctx, "SELECT * FROM secret")
	if err == nil {
		_, _, err = flightRecords(bctx, bob, info)
	}
	codeAndState(t, err, codes.PermissionDenied, "42501")
	ts.pgExec(t, "GRANT SELECT ON secret TO bob")
	recs, _ := query(t, bctx, bob, "SELECT * FROM secret")
	sameRows(t, "after GRANT", asText(t, recs, []types.T{types.Int32Type}), [][]string{{"1"}})
	// a statement prepared while granted is refused once revoked
	prep, err := bob.Prepare(bctx, "SELECT * FROM secret")
	if err != nil {
		t.Fatal(err)
	}
	ts.pgExec(t, "REVOKE SELECT ON secret FROM bob")
	info, err = bob.Execute(bctx, "SELECT * FROM secret")
	if err == nil {
		_, _, err = flightRecords(bctx, bob, info)
	}
	codeAndState(t, err, codes.PermissionDenied, "42501")
	info, err = prep.Execute(bctx)
	if err == nil {
		_, _, err = flightRecords(bctx, bob, info)
	}
	codeAndState(t, err, codes.PermissionDenied, "42501")
	// ingest needs INSERT
	rec := fromJSON(t, arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil), `[{"id": 2}]`)
	_, err = ingest(bctx, bob, "secret", rec)
	codeAndState(t, err, codes.PermissionDenied, "42501")
	ts.pgExec(t, "GRANT INSERT ON secret TO bob")
	if n, err := ingest(bctx, bob, "secret", rec); err != nil || n != 1 {
		t.Fatalf("ingest after GRANT INSERT: %d, %v", n, err)
	}
}
