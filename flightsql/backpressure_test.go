package flightsql

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/types"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// endless is a backend whose every query returns batches of 64k BIGINTs
// without end, counting the batches asked for.
type endless struct{ produced atomic.Int64 }

func (e *endless) NewSession(context.Context, pgwire.SessionInfo) (pgwire.Session, error) {
	return &endlessSession{e: e}, nil
}

type endlessSession struct{ e *endless }

func (s *endlessSession) Prepare(_ context.Context, text string, _ []uint32) ([]pgwire.Statement, error) {
	return []pgwire.Statement{&endlessStatement{e: s.e, text: text}}, nil
}
func (s *endlessSession) TxStatus() byte                   { return 'I' }
func (s *endlessSession) StatusChanges() map[string]string { return nil }
func (s *endlessSession) Status(string) (string, bool)     { return "", false }
func (s *endlessSession) Close()                           {}
func (st *endlessStatement) SQL() string                   { return st.text }
func (st *endlessStatement) ParamTypes() []types.T         { return nil }
func (st *endlessStatement) Columns() []pgwire.ResultColumn {
	return []pgwire.ResultColumn{{Name: "n", Type: types.Int64Type}}
}
func (r *endlessResult) Tag() string { return "SELECT" }
func (r *endlessResult) Close()      {}

type endlessStatement struct {
	e    *endless
	text string
}

func (st *endlessStatement) Execute(context.Context, []any) (pgwire.Result, error) {
	return &endlessResult{e: st.e}, nil
}

type endlessResult struct{ e *endless }

func (r *endlessResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.e.produced.Add(1)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(make([]int64, 1<<16), nil)
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len())), nil
}

// TestStalledClientHoldsBoundedMemory: a client that stops reading an
// endless result stops the server asking the executor for more (one batch
// in flight, and what gRPC's flow-control window holds), instead of the
// server buffering the result.
func TestStalledClientHoldsBoundedMemory(t *testing.T) {
	be := &endless{}
	s, err := New(Config{Backend: be})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer s.Shutdown(context.Background())
	cl, err := afsql.NewClient(ln.Addr().String(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	info, err := cl.Execute(ctx, "SELECT endless")
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	if !rdr.Next() {
		t.Fatal(rdr.Err())
	}
	// the client stops reading; the server may fill the transport's
	// windows (a few MiB), then must wait
	var last int64
	for i := 0; i < 20; i++ {
		time.Sleep(50 * time.Millisecond)
		last = be.produced.Load()
	}
	time.Sleep(300 * time.Millisecond)
	if now := be.produced.Load(); now != last || now > 200 {
		t.Fatalf("the server went on producing for a stalled client: %d batches of 512 KiB, then %d", last, now)
	}
	t.Logf("%d batches of 512 KiB produced for a client that read one", last)
	// reading again resumes the stream
	for i := 0; i < 5; i++ {
		if !rdr.Next() {
			t.Fatal(rdr.Err())
		}
	}
	if be.produced.Load() <= last {
		t.Fatal("the stream did not resume")
	}
}
