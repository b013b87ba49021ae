package pgwire

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/sqlgate/sqlgate/sqlerr"
)

type testServer struct {
	srv     *Server
	backend *fakeBackend
	addr    string
	logs    *bytes.Buffer
}

func startServer(t testing.TB, mutate func(*Config)) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	logs := &bytes.Buffer{}
	ts := &testServer{backend: newFakeBackend(), addr: ln.Addr().String(), logs: logs}
	cfg := Config{Backend: ts.backend, Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: logs}, nil))}
	if mutate != nil {
		mutate(&cfg)
	}
	ts.srv = NewServer(cfg)
	served := make(chan error, 1)
	go func() { served <- ts.srv.Serve(context.Background(), ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		<-served
	})
	return ts
}

func (ts *testServer) connString() string {
	return fmt.Sprintf("postgres://tester@%s/db?sslmode=disable&application_name=wiretest", ts.addr)
}

func (ts *testServer) connect(t testing.TB, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(ts.connString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestPgxTypes reads every common type through pgx, both in its default
// mode (binary results for the types it knows) and in simple-protocol mode
// (text results), which must decode to the same Go values.
func TestPgxTypes(t *testing.T) {
	ts := startServer(t, nil)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeDescribeExec} {
		t.Run(mode.String(), func(t *testing.T) {
			conn := ts.connect(t, mode)
			var (
				i2   int16
				i4   int32
				i8   int64
				f4   float32
				f8   float64
				b    bool
				tsv  time.Time
				tstz time.Time
				d    time.Time
				n    pgtype.Numeric
				s    string
				by   []byte
				arr  []*int32
				nul  *int32
			)
			err := conn.QueryRow(testCtx(t), "SELECT types").Scan(&i2, &i4, &i8, &f4, &f8, &b, &tsv, &tstz, &d, &n, &s, &by, &arr, &nul)
			if err != nil {
				t.Fatal(err)
			}
			if i2 != -2 || i4 != 123456 || i8 != 1<<40 || f4 != 1.5 || f8 != 0.1 || !b || s != "héllo" || !bytes.Equal(by, []byte{0, 1, 0xff}) || nul != nil {
				t.Errorf("scalars: %v %v %v %v %v %v %q %x %v", i2, i4, i8, f4, f8, b, s, by, nul)
			}
			if !tsv.Equal(typesTS) || !tstz.Equal(typesTS) || !d.Equal(typesDate) {
				t.Errorf("times: %v %v %v", tsv, tstz, d)
			}
			if nv, _ := n.Value(); nv != "-12.50" {
				t.Errorf("numeric = %v", nv)
			}
			if len(arr) != 3 || *arr[0] != 1 || *arr[1] != 2 || arr[2] != nil {
				t.Errorf("array = %v", arr)
			}
		})
	}
}

// TestPgxParams sends parameters through pgx: binary in the default mode,
// text for unknown-typed ones, and interpolated literals in simple mode.
func TestPgxParams(t *testing.T) {
	ts := startServer(t, nil)
	conn := ts.connect(t, pgx.QueryExecModeCacheStatement)
	when := time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC)
	tests := []struct {
		sql  string
		args []any
		want []string
	}{
		{"ECHO int4,int8,float8,bool", []any{5, int64(1) << 50, 2.5, true}, []string{"int64=5", "int64=1125899906842624", "float64=2.5", "bool=true"}},
		{"ECHO text,bytea", []any{"héllo", []byte{1, 2}}, []string{"string=héllo", "[]uint8=[1 2]"}},
		{"ECHO timestamptz,timestamp,date", []any{when, when, when}, []string{"time.Time=2024-05-06T07:08:09.123456Z", "time.Time=2024-05-06T07:08:09.123456Z", "time.Time=2024-05-06T00:00:00Z"}},
		{"ECHO numeric", []any{pgtype.Numeric{Int: bigInt(-1250), Exp: -2, Valid: true}}, []string{"string=-12.50"}},
		// OID 0 in ParameterDescription: pgx sends any Go value as text.
		{"ECHO unknown,unknown", []any{5, 3.5}, []string{"string=5", "string=3.5"}},
		{"ECHO int4", []any{nil}, []string{"<nil>=<nil>"}},
	}
	for _, tt := range tests {
		rows, err := conn.Query(testCtx(t), tt.sql, tt.args...)
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: got %q, want %q", tt.sql, got, tt.want)
		}
	}
	// A pgx batch pipelines Parse/Describe for every query before one Sync,
	// then Bind/Execute for all of them before another.
	batch := &pgx.Batch{}
	batch.Queue("ECHO int4", 1)
	batch.Queue("SELECT series 4")
	batch.Queue("ECHO text", "b")
	br := conn.SendBatch(testCtx(t), batch)
	var s1, s3 string
	var n int64
	if err := br.QueryRow().Scan(&s1); err != nil {
		t.Fatal(err)
	}
	rows, err := br.Query()
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	if err := br.QueryRow().Scan(&s3); err != nil {
		t.Fatal(err)
	}
	if err := br.Close(); err != nil {
		t.Fatal(err)
	}
	if s1 != "int64=1" || n != 4 || s3 != "string=b" {
		t.Errorf("batch: %q %d %q", s1, n, s3)
	}

	// A bad text value for a typed parameter is 22P02 and the connection
	// stays usable.
	_, err = conn.Exec(testCtx(t), "ECHO int4", pgx.QueryExecModeExec, "abc")
	if pgCode(err) != "22P02" {
		t.Errorf("bad int4 parameter: %v", err)
	}
	var v string
	if err := conn.QueryRow(testCtx(t), "ECHO text", "ok").Scan(&v); err != nil || v != "string=ok" {
		t.Errorf("after error: %q %v", v, err)
	}
}

func TestSimpleProtocolStatements(t *testing.T) {
	ts := startServer(t, nil)
	conn := ts.connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)

	// Several statements in one Query: every result comes back in order.
	results, err := conn.PgConn().Exec(ctx, "SELECT series 2; INSERT; SELECT series 4").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 {
		t.Fatalf("%d results", len(results))
	}
	if tag := results[0].CommandTag.String(); tag != "SELECT 2" || len(results[0].Rows) != 2 {
		t.Errorf("first: %s %v", tag, results[0].Rows)
	}
	if tag := results[1].CommandTag.String(); tag != "INSERT 0 1" || results[1].FieldDescriptions != nil {
		t.Errorf("second: %s", tag)
	}
	if got := string(results[2].Rows[3][0]); got != "4" {
		t.Errorf("third result's last row = %q", got)
	}
	if results[0].FieldDescriptions[0].Format != 0 {
		t.Error("simple query returned binary")
	}

	// Zero statements: EmptyQueryResponse (pgx's ping is "-- ping").
	if err := conn.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
	// The first error stops the string; statements before it ran.
	results, err = conn.PgConn().Exec(ctx, "SELECT series 1; FAIL; SELECT series 3").ReadAll()
	if pgCode(err) != "42P01" {
		t.Errorf("error %v", err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Hint != "check the name" || pe.Severity != "ERROR") {
		t.Errorf("error fields: %+v", pe)
	}
	if len(results) < 1 || results[0].CommandTag.String() != "SELECT 1" {
		t.Errorf("results before error: %+v", results)
	}
	// Prepare errors carry their position.
	_, err = conn.Exec(ctx, "BADPREP")
	if !errors.As(err, &pe) || pe.Code != "42601" || pe.Position != 1 {
		t.Errorf("BADPREP: %v", err)
	}
	// Non-SQL errors are XX000 without their Go text.
	_, err = conn.Exec(ctx, "INTERNAL")
	if !errors.As(err, &pe) || pe.Code != "XX000" || strings.Contains(pe.Message, "passwd") {
		t.Errorf("INTERNAL: %v", err)
	}
	// Transaction status and ParameterStatus changes.
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if st := conn.PgConn().TxStatus(); st != 'T' {
		t.Errorf("tx status %c", st)
	}
	if _, err := conn.Exec(ctx, "COMMIT; SET APP newname"); err != nil {
		t.Fatal(err)
	}
	if got := conn.PgConn().ParameterStatus("application_name"); got != "newname" {
		t.Errorf("application_name = %q", got)
	}
	// Startup ParameterStatus values.
	for k, want := range map[string]string{"server_version": "15.8", "client_encoding": "UTF8", "standard_conforming_strings": "on", "TimeZone": "Etc/UTC", "session_authorization": "tester", "DateStyle": "ISO, MDY", "integer_datetimes": "on"} {
		if got := conn.PgConn().ParameterStatus(k); got != want {
			t.Errorf("ParameterStatus %s = %q, want %q", k, got, want)
		}
	}
}

func TestPanicRecovery(t *testing.T) {
	ts := startServer(t, nil)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		conn := ts.connect(t, mode)
		for _, sql := range []string{"PANIC", "PANICNEXT"} {
			_, err := conn.Exec(testCtx(t), sql)
			if pgCode(err) != "XX000" {
				t.Errorf("%s %v: %v", mode, sql, err)
			}
			var n int64
			if err := conn.QueryRow(testCtx(t), "SELECT series 1").Scan(&n); err != nil || n != 1 {
				t.Errorf("%s after %s: %v %v", mode, sql, n, err)
			}
		}
	}
	if !strings.Contains(ts.logs.String(), "boom in Next") || !strings.Contains(ts.logs.String(), "stack") {
		t.Errorf("panic not logged with stack: %s", ts.logs.String())
	}
}

// rawConn is a byte-level client built on pgproto3's Frontend.
type rawConn struct {
	t  *testing.T
	nc net.Conn
	fe *pgproto3.Frontend
	// key is the BackendKeyData of the session.
	key *pgproto3.BackendKeyData
}

func dialRaw(t *testing.T, addr string, user string) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	rc := &rawConn{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
	rc.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": user, "database": "db"}})
	if err := rc.fe.Flush(); err != nil {
		t.Fatal(err)
	}
	return rc
}

// until collects the messages up to and including one of type T, rendered
// as short strings.
func (rc *rawConn) until(stop string) []string {
	rc.t.Helper()
	return rc.untilN(stop, 1)
}

// untilN is until for the n-th message of type stop.
func (rc *rawConn) untilN(stop string, n int) []string {
	rc.t.Helper()
	var got []string
	for {
		msg, err := rc.fe.Receive()
		if err != nil {
			rc.t.Fatalf("receive after %v: %v", got, err)
		}
		s := describe(msg)
		if k, ok := msg.(*pgproto3.BackendKeyData); ok {
			rc.key = &pgproto3.BackendKeyData{ProcessID: k.ProcessID, SecretKey: append([]byte(nil), k.SecretKey...)}
		}
		if _, ok := msg.(*pgproto3.ParameterStatus); ok {
			continue
		}
		got = append(got, s)
		if strings.HasPrefix(s, stop) {
			if n--; n == 0 {
				return got
			}
		}
	}
}

func describe(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.DataRow:
		vals := make([]string, len(m.Values))
		for i, v := range m.Values {
			vals[i] = string(v)
		}
		return "DataRow " + strings.Join(vals, ",")
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.ErrorResponse:
		return "ErrorResponse " + m.Severity + " " + m.Code
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery " + string(m.TxStatus)
	case *pgproto3.RowDescription:
		return fmt.Sprintf("RowDescription %d", len(m.Fields))
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("ParameterDescription %v", m.ParameterOIDs)
	case *pgproto3.CopyData:
		return "CopyData " + string(m.Data)
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", msg), "*pgproto3.")
}

func (rc *rawConn) send(msgs ...pgproto3.FrontendMessage) {
	rc.t.Helper()
	for _, m := range msgs {
		rc.fe.Send(m)
	}
	if err := rc.fe.Flush(); err != nil {
		rc.t.Fatal(err)
	}
}

// TestPortalsAndExtendedProtocol drives the extended protocol message by
// message. The expected sequences of the portal, Parse and Bind error cases
// were checked against PostgreSQL 15.18 with the same messages (using
// generate_series(1,5) and SELECT $1::int4 for the fake's statements).
func TestPortalsAndExtendedProtocol(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	if got := rc.until("ReadyForQuery"); strings.Join(got, "|") != "AuthenticationOk|BackendKeyData|ReadyForQuery I" {
		t.Fatalf("startup: %v", got)
	}
	steps := []struct {
		name string
		send []pgproto3.FrontendMessage
		want string
	}{
		{"maxRows suspends and resumes",
			[]pgproto3.FrontendMessage{
				&pgproto3.Parse{Name: "s1", Query: "SELECT series 5"},
				&pgproto3.Bind{PreparedStatement: "s1", DestinationPortal: "p1"},
				&pgproto3.Execute{Portal: "p1", MaxRows: 2},
				&pgproto3.Execute{Portal: "p1", MaxRows: 2},
				&pgproto3.Execute{Portal: "p1", MaxRows: 2},
				&pgproto3.Execute{Portal: "p1", MaxRows: 2},
				&pgproto3.Sync{},
			},
			"ParseComplete|BindComplete|DataRow 1|DataRow 2|PortalSuspended|DataRow 3|DataRow 4|PortalSuspended|DataRow 5|CommandComplete SELECT 1|CommandComplete SELECT 0|ReadyForQuery I"},
		{"portal closed at Sync outside a transaction",
			[]pgproto3.FrontendMessage{
				&pgproto3.Bind{PreparedStatement: "s1", DestinationPortal: "p2"},
				&pgproto3.Execute{Portal: "p2", MaxRows: 1},
				&pgproto3.Sync{},
				&pgproto3.Execute{Portal: "p2", MaxRows: 1},
				&pgproto3.Sync{},
			},
			"BindComplete|DataRow 1|PortalSuspended|ReadyForQuery I|ErrorResponse ERROR 34000|ReadyForQuery I"},
		{"portal survives Sync inside a transaction",
			[]pgproto3.FrontendMessage{
				&pgproto3.Query{String: "BEGIN"},
				&pgproto3.Bind{PreparedStatement: "s1", DestinationPortal: "p3"},
				&pgproto3.Execute{Portal: "p3", MaxRows: 4},
				&pgproto3.Sync{},
				&pgproto3.Execute{Portal: "p3"},
				&pgproto3.Close{ObjectType: 'P', Name: "p3"},
				&pgproto3.Sync{},
				&pgproto3.Query{String: "COMMIT"},
			},
			"CommandComplete BEGIN|ReadyForQuery T|BindComplete|DataRow 1|DataRow 2|DataRow 3|DataRow 4|PortalSuspended|ReadyForQuery T|DataRow 5|CommandComplete SELECT 1|CloseComplete|ReadyForQuery T|CommandComplete COMMIT|ReadyForQuery I"},
		{"describe statement and portal, binary result format",
			[]pgproto3.FrontendMessage{
				&pgproto3.Parse{Query: "ECHO int4,unknown"},
				&pgproto3.Describe{ObjectType: 'S'},
				&pgproto3.Bind{Parameters: [][]byte{{0, 0, 0, 7}, []byte("x")}, ParameterFormatCodes: []int16{1, 0}, ResultFormatCodes: []int16{1}},
				&pgproto3.Describe{ObjectType: 'P'},
				&pgproto3.Execute{},
				&pgproto3.Sync{},
			},
			"ParseComplete|ParameterDescription [23 0]|RowDescription 1|BindComplete|RowDescription 1|DataRow int64=7|DataRow string=x|CommandComplete SELECT 2|ReadyForQuery I"},
		{"parameters outlive the Bind message's buffer",
			// Messages read by the executor share one body buffer: the
			// Parse after the Bind overwrites it before the Execute reads
			// the portal's parameters.
			[]pgproto3.FrontendMessage{
				&pgproto3.Parse{Name: "echo2", Query: "ECHO text,text"},
				&pgproto3.Bind{PreparedStatement: "echo2", DestinationPortal: "kept", Parameters: [][]byte{[]byte("first parameter"), []byte("second parameter")}},
				&pgproto3.Parse{Name: "filler", Query: "SELECT series 1 /* " + strings.Repeat("z", 200) + " */"},
				&pgproto3.Execute{Portal: "kept"},
				&pgproto3.Sync{},
			},
			"ParseComplete|BindComplete|ParseComplete|DataRow string=first parameter|DataRow string=second parameter|CommandComplete SELECT 2|ReadyForQuery I"},
		{"no-row statement describes as NoData",
			[]pgproto3.FrontendMessage{
				&pgproto3.Parse{Name: "ins", Query: "INSERT"},
				&pgproto3.Describe{ObjectType: 'S', Name: "ins"},
				&pgproto3.Bind{PreparedStatement: "ins"},
				&pgproto3.Describe{ObjectType: 'P'},
				&pgproto3.Execute{},
				&pgproto3.Sync{},
			},
			"ParseComplete|ParameterDescription []|NoData|BindComplete|NoData|CommandComplete INSERT 0 1|ReadyForQuery I"},
		{"error discards messages until Sync",
			[]pgproto3.FrontendMessage{
				&pgproto3.Parse{Query: "FAIL"},
				&pgproto3.Bind{},
				&pgproto3.Execute{},
				&pgproto3.Parse{Query: "SELECT series 1"},
				&pgproto3.Sync{},
				&pgproto3.Parse{Query: "SELECT series 1"},
				&pgproto3.Bind{},
				&pgproto3.Execute{},
				&pgproto3.Sync{},
			},
			"ParseComplete|BindComplete|ErrorResponse ERROR 42P01|ReadyForQuery I|ParseComplete|BindComplete|DataRow 1|CommandComplete SELECT 1|ReadyForQuery I"},
		{"multiple statements in Parse",
			[]pgproto3.FrontendMessage{&pgproto3.Parse{Query: "INSERT; INSERT"}, &pgproto3.Sync{}},
			"ErrorResponse ERROR 42601|ReadyForQuery I"},
		{"empty query",
			[]pgproto3.FrontendMessage{&pgproto3.Parse{Query: ""}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{}, &pgproto3.Query{String: ";"}},
			"ParseComplete|BindComplete|NoData|EmptyQueryResponse|ReadyForQuery I|EmptyQueryResponse|ReadyForQuery I"},
		{"unknown statement and portal",
			[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Sync{}, &pgproto3.Describe{ObjectType: 'P', Name: "nope"}, &pgproto3.Sync{}},
			"ErrorResponse ERROR 26000|ReadyForQuery I|ErrorResponse ERROR 34000|ReadyForQuery I"},
		{"duplicate named statement, close and reuse",
			[]pgproto3.FrontendMessage{&pgproto3.Parse{Name: "s1", Query: "INSERT"}, &pgproto3.Sync{}, &pgproto3.Close{ObjectType: 'S', Name: "s1"}, &pgproto3.Parse{Name: "s1", Query: "INSERT"}, &pgproto3.Sync{}},
			"ErrorResponse ERROR 42P05|ReadyForQuery I|CloseComplete|ParseComplete|ReadyForQuery I"},
		{"wrong parameter count and bad binary value",
			[]pgproto3.FrontendMessage{
				&pgproto3.Parse{Name: "e", Query: "ECHO int4"},
				&pgproto3.Bind{PreparedStatement: "e"}, &pgproto3.Sync{},
				&pgproto3.Bind{PreparedStatement: "e", Parameters: [][]byte{{1, 2}}, ParameterFormatCodes: []int16{1}}, &pgproto3.Sync{},
				&pgproto3.Bind{PreparedStatement: "e", Parameters: [][]byte{[]byte("x1")}}, &pgproto3.Sync{},
			},
			"ParseComplete|ErrorResponse ERROR 08P01|ReadyForQuery I|ErrorResponse ERROR 08P01|ReadyForQuery I|ErrorResponse ERROR 22P02|ReadyForQuery I"},
		{"Flush sends pending output without Sync",
			[]pgproto3.FrontendMessage{&pgproto3.Parse{Name: "f", Query: "INSERT"}, &pgproto3.Flush{}},
			"ParseComplete"},
	}
	for _, step := range steps {
		rc.send(step.send...)
		last := step.want[strings.LastIndex(step.want, "|")+1:]
		kind, _, _ := strings.Cut(last, " ")
		count := strings.Count(step.want, kind)
		if got := strings.Join(rc.untilN(kind, count), "|"); got != step.want {
			t.Errorf("%s:\n got %s\nwant %s", step.name, got, step.want)
		}
	}
	rc.send(&pgproto3.Sync{})
	rc.until("ReadyForQuery")

	// Every result the portals opened was closed.
	ts.backend.mu.Lock()
	closed := ts.backend.closed
	ts.backend.mu.Unlock()
	if closed < 6 {
		t.Errorf("only %d results closed", closed)
	}
}

func TestCancelRequest(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	rc.send(&pgproto3.Query{String: "SLEEP"})
	<-ts.backend.started // the statement is running

	sendCancel := func(secret []byte) {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		var b []byte
		b = binary.BigEndian.AppendUint32(b, 16)
		b = binary.BigEndian.AppendUint32(b, cancelRequestCode)
		b = binary.BigEndian.AppendUint32(b, rc.key.ProcessID)
		b = append(b, secret...)
		if _, err := nc.Write(b); err != nil {
			t.Fatal(err)
		}
		// The server answers nothing and closes.
		_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		if n, err := nc.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("cancel connection: read %d, %v", n, err)
		}
	}
	wrong := append([]byte(nil), rc.key.SecretKey...)
	wrong[0] ^= 0xff
	sendCancel(wrong)
	select {
	case sql := <-ts.backend.canceled:
		t.Fatalf("wrong secret cancelled %s", sql)
	case <-time.After(200 * time.Millisecond):
	}
	sendCancel(rc.key.SecretKey)
	select {
	case <-ts.backend.canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("statement not cancelled")
	}
	if got := strings.Join(rc.until("ReadyForQuery"), "|"); got != "RowDescription 1|ErrorResponse ERROR 57014|ReadyForQuery I" {
		t.Errorf("after cancel: %s", got)
	}
	// The connection still works.
	rc.send(&pgproto3.Query{String: "SELECT series 1"})
	if got := strings.Join(rc.until("ReadyForQuery"), "|"); got != "RowDescription 1|DataRow 1|CommandComplete SELECT 1|ReadyForQuery I" {
		t.Errorf("after cancel: %s", got)
	}
}

func TestPgxCancelAndDroppedSocket(t *testing.T) {
	ts := startServer(t, nil)
	conn := ts.connect(t, pgx.QueryExecModeSimpleProtocol)
	// pgx's CancelRequest on a new connection.
	go func() {
		<-ts.backend.started
		_ = conn.PgConn().CancelRequest(context.Background())
	}()
	_, err := conn.Exec(testCtx(t), "SLEEP")
	if pgCode(err) != "57014" {
		t.Errorf("cancelled query: %v", err)
	}
	<-ts.backend.canceled

	// A client that drops its socket mid-statement: the statement's context
	// ends.
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	rc.send(&pgproto3.Query{String: "SLEEP"})
	<-ts.backend.started
	_ = rc.nc.Close()
	select {
	case <-ts.backend.canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("statement of a dropped connection not cancelled")
	}
}

func TestOversizedMessage(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxMessageSize = 1024 })
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	// Only the header: the server must refuse on the length prefix alone.
	hdr := []byte{'Q', 0x7f, 0xff, 0xff, 0xff}
	if _, err := rc.nc.Write(hdr); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rc.until("ErrorResponse"), "|"); got != "ErrorResponse FATAL 08P01" {
		t.Errorf("oversized: %s", got)
	}
	if _, err := rc.fe.Receive(); err == nil {
		t.Error("connection left open after oversized message")
	}
	// A message just under the limit is fine.
	rc2 := dialRaw(t, ts.addr, "tester")
	rc2.until("ReadyForQuery")
	rc2.send(&pgproto3.Query{String: "-- " + strings.Repeat("x", 1000)})
	if got := strings.Join(rc2.until("ReadyForQuery"), "|"); got != "EmptyQueryResponse|ReadyForQuery I" {
		t.Errorf("large message: %s", got)
	}
}

func TestStartupEdgeCases(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxConnections = 1 })

	// SSLRequest is refused with 'N' and startup continues on the socket.
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := nc.Write([]byte{0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := io.ReadFull(nc, b); err != nil || b[0] != 'N' {
		t.Fatalf("SSLRequest answer %q %v", b, err)
	}
	rc := &rawConn{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
	rc.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "tester"}})
	rc.until("ReadyForQuery")

	// A second session exceeds MaxConnections.
	rc2 := dialRaw(t, ts.addr, "tester")
	if got := strings.Join(rc2.until("ErrorResponse"), "|"); got != "ErrorResponse FATAL 53300" {
		t.Errorf("over the limit: %s", got)
	}
	_ = nc.Close()

	// Once the first has gone, a rejected NewSession is a FATAL with its code.
	deadline := time.Now().Add(5 * time.Second)
	for {
		rc3 := dialRaw(t, ts.addr, "reject")
		got := strings.Join(rc3.until("ErrorResponse"), "|")
		if got == "ErrorResponse FATAL 28000" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rejected session: %s", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestShutdownEndsSessions(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	backend := newFakeBackend()
	srv := NewServer(Config{Backend: backend})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), ln) }()

	running := dialRaw(t, ln.Addr().String(), "tester")
	running.until("ReadyForQuery")
	running.send(&pgproto3.Query{String: "SLEEP"})
	<-backend.started
	idle := dialRaw(t, ln.Addr().String(), "tester")
	idle.until("ReadyForQuery")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-served; !errors.Is(err, ErrServerClosed) {
		t.Errorf("Serve returned %v", err)
	}
	<-backend.canceled
	if got := strings.Join(idle.until("ErrorResponse"), "|"); got != "ErrorResponse FATAL 57P01" {
		t.Errorf("idle session: %s", got)
	}
	backend.mu.Lock()
	defer backend.mu.Unlock()
	if backend.sessions != 2 {
		t.Errorf("%d sessions closed, want 2", backend.sessions)
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("listener still accepting")
	}
}

func TestErrorResponseFields(t *testing.T) {
	ts := startServer(t, nil)
	conn := ts.connect(t, pgx.QueryExecModeCacheStatement)
	_, err := conn.Exec(testCtx(t), "FAIL")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("%v", err)
	}
	want := sqlerr.New(sqlerr.UndefinedTable, "relation \"nope\" does not exist")
	if pe.Code != string(want.Code) || pe.Message != want.Message || pe.Severity != "ERROR" || pe.SeverityUnlocalized != "ERROR" || pe.Hint != "check the name" {
		t.Errorf("ErrorResponse = %+v", pe)
	}
}

// TestPsql runs the real psql 15 client (sslmode=prefer, so it starts with an
// SSLRequest) and checks the text rendering of every common type.
func TestPsql(t *testing.T) {
	ts := startServer(t, nil)
	host, port, _ := net.SplitHostPort(ts.addr)
	ctx := testCtx(t)
	cmd := exec.CommandContext(ctx, "psql", fmt.Sprintf("host=%s port=%s user=tester dbname=db sslmode=prefer", host, port),
		"-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", "SELECT types", "-c", "SELECT series 2; INSERT")
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=5")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	want := `-2|123456|1099511627776|1.5|0.1|t|2024-01-02 03:04:05.123456|2024-01-02 03:04:05.123456+00|2023-12-31|-12.50|héllo|\x0001ff|{1,2,NULL}|
1
2
INSERT 0 1
`
	if string(out) != want {
		t.Errorf("psql printed:\n%s\nwant:\n%s", out, want)
	}
}
