package clients

import (
	"context"
	"errors"
	"fmt"

	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestSubscribeSlowClient (issue 28, acceptance 4): a client that starts
// COPY (SUBSCRIBE ...) TO STDOUT and then stops reading while a writer
// commits far more than the socket buffers hold. The server's memory
// stays bounded (the subscription lags in the log, nothing queues), the
// subscription ends once the client has left data unread for the send
// timeout (the server closes the connection), and another session is
// served all along.
func TestSubscribeSlowClient(t *testing.T) {
	srv := startServer(t)
	w := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE slow (id INT, pad TEXT)")

	nc, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "sqlgate", "database": "sqlgate"}})
	query := func(q string) {
		t.Helper()
		fe.Send(&pgproto3.Query{String: q})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	readyFor := func() {
		t.Helper()
		for {
			m, err := fe.Receive()
			if err != nil {
				t.Fatal(err)
			}
			switch m := m.(type) {
			case *pgproto3.ErrorResponse:
				t.Fatalf("%s: %s", m.Code, m.Message)
			case *pgproto3.ReadyForQuery:
				return
			}
		}
	}
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	readyFor()
	query("SET sqlgate.subscribe_send_timeout = '1s'")
	readyFor()
	query("COPY (SUBSCRIBE slow WITH (SNAPSHOT = false)) TO STDOUT")
	// Wait for CopyOutResponse, then read nothing more.
	for {
		m, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*pgproto3.CopyOutResponse); ok {
			break
		}
	}

	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	pad := strings.Repeat("x", 1000)
	const commits, rowsPer = 60, 500 // 30 MB of rows
	for i := range commits {
		mustExec(t, w, fmt.Sprintf("INSERT INTO slow SELECT g, '%s' FROM generate_series(%d, %d) g", pad, i*rowsPer, (i+1)*rowsPer-1))
	}
	written := uint64(commits * rowsPer * len(pad))
	// Past the send timeout: the subscription must have been ended.
	time.Sleep(2500 * time.Millisecond)
	after := heap()
	grown := int64(after) - int64(before)
	t.Logf("heap before %d MiB, after %d MiB (grown %d MiB) with %d MiB written", before>>20, after>>20, grown>>20, written>>20)
	if grown > int64(written/2) {
		t.Errorf("the server's heap grew by %d MiB while a client left %d MiB of changes unread", grown>>20, written>>20)
	}
	// Another session is served.
	var n int
	if err := w.QueryRow(context.Background(), "SELECT count(*) FROM slow").Scan(&n); err != nil || n != commits*rowsPer {
		t.Fatalf("count(*) while a subscriber stalls: %d, %v", n, err)
	}
	// The stalled connection was closed by the server: reading drains
	// what the buffers hold and then meets its end.
	_ = nc.SetReadDeadline(time.Now().Add(20 * time.Second))
	var rerr error
	var drained uint64
	for {
		m, err := fe.Receive()
		if err != nil {
			rerr = err
			break
		}
		cd, ok := m.(*pgproto3.CopyData)
		if !ok {
			t.Fatalf("the stalled subscription sent %T", m)
		}
		drained += uint64(len(cd.Data))
	}
	var ne net.Error
	if errors.As(rerr, &ne) && ne.Timeout() || errors.Is(rerr, os.ErrDeadlineExceeded) {
		t.Fatal("the stalled subscriber's connection is still open after the send timeout")
	}
	t.Logf("the stalled client then read %d MiB before the connection's end (%v)", drained>>20, rerr)
	if drained >= written {
		t.Fatalf("the stalled client received all %d MiB: the subscription was not cut off", written>>20)
	}
}
