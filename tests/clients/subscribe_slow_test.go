package clients

import (
	"context"
	"errors"
	"fmt"
	"math"

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
// commits far more than the socket buffers hold. While it stalls, the
// server's live heap grows by no more than the README's bound for one
// subscription (one read of at most 4,096 changes and the output buffer:
// FlushThreshold plus one batch's rows), measured with the stalled session
// still there in pg_stat_activity; once it has left data unread for the
// send timeout the server ends the subscription and closes the
// connection, and that memory is freed; another session is served all
// along.
func TestSubscribeSlowClient(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 16 << 10 // fine enough for liveHeapUnder's estimate
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
	// Long enough for the writes below to finish and be measured before
	// the cut-off on a loaded machine (checked: the session must still be
	// there after the measurement).
	const sendTimeout = 10 * time.Second
	query(fmt.Sprintf("SET sqlgate.subscribe_send_timeout = '%dms'", sendTimeout.Milliseconds()))
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

	// The live heap: two collections, since what sync.Pools hold
	// survives the first (their victim caches). What the store holds for
	// itself is left out: pebble's memtables and WAL blocks grow and rotate
	// with the writes, not with the subscription, and race builds allocate
	// them in Go's heap (cgo builds in C's); the row cache's slots are a
	// fixed share of the store's cache, made at its first point read
	// (fluss/embedded/rowhints.go), which may fall between the two
	// measurements.
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		store := liveHeapUnder("github.com/cockroachdb/pebble") +
			liveHeapUnder("github.com/sqlgate/sqlgate/fluss/embedded.(*rowHints)")
		return ms.HeapAlloc - min(ms.HeapAlloc, store)
	}
	stalled := func() bool {
		t.Helper()
		var n int
		if err := w.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY (SUBSCRIBE slow%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	before := heap()
	pad := strings.Repeat("x", 1000)
	// Commits larger than one read (4,096 changes), so that the stalled
	// subscription holds a full read when its client stops taking data.
	const commits, rowsPer = 6, 5000 // 30 MB of rows
	began := time.Now()
	for i := range commits {
		mustExec(t, w, fmt.Sprintf("INSERT INTO slow SELECT g, '%s' FROM generate_series(%d, %d) g", pad, i*rowsPer, (i+1)*rowsPer-1))
	}
	written := uint64(commits * rowsPer * len(pad))
	during := heap()
	if !stalled() {
		t.Fatalf("the stalled subscription was cut off before its memory was measured (the writes took %v, the send timeout is %v)", time.Since(began), sendTimeout)
	}
	// The README's bound: one read of at most 4,096 changes (its Arrow
	// batch, and the shaped rows that share its columns), the output
	// buffer (64 KiB FlushThreshold plus one batch's rows as text), and
	// 2 MiB for the allocator's rounding and the test's own.
	const rowBytes = 1000 + 16
	bound := int64(2*4096*rowBytes + 64<<10 + 2<<20)
	grown := int64(during) - int64(before)
	t.Logf("heap before %d MiB, while stalled %d MiB (grown %.1f MiB, bound %.1f MiB) with %d MiB written", before>>20, during>>20,
		float64(grown)/(1<<20), float64(bound)/(1<<20), written>>20)
	if grown > bound {
		t.Errorf("the server's heap grew by %.1f MiB while a client left %d MiB of changes unread: over the stated bound of %.1f MiB", float64(grown)/(1<<20), written>>20, float64(bound)/(1<<20))
	}
	// Past the send timeout the subscription ends and its session goes.
	for stalled() {
		if time.Since(began) > sendTimeout+60*time.Second {
			t.Fatalf("the stalled subscription is still there %v after the writes began (send timeout %v)", time.Since(began), sendTimeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
	cutAfter := time.Since(began)
	// The session leaves pg_stat_activity while its connection's goroutine
	// is still unwinding (closing the socket, dropping the subscription's
	// buffers): the heap is given a few seconds to come back.
	after := heap()
	for freed := time.Now().Add(10 * time.Second); int64(after)-int64(before) > 1<<20 && time.Now().Before(freed); {
		time.Sleep(100 * time.Millisecond)
		after = heap()
	}
	t.Logf("cut off %v after the writes began (send timeout %v); heap then %d MiB", cutAfter.Round(time.Millisecond), sendTimeout, after>>20)
	if int64(after)-int64(before) > 1<<20 {
		t.Errorf("the ended subscription's memory was not freed: heap %d MiB before, %d MiB after the cut-off", before>>20, after>>20)
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

// liveHeapUnder estimates the live heap allocated with a function of
// package prefix pkg on the stack, from the heap profile as of the last
// collection (each sampled record scaled as pprof scales it).
func liveHeapUnder(pkg string) uint64 {
	n, _ := runtime.MemProfile(nil, false)
	records := make([]runtime.MemProfileRecord, n+64)
	n, ok := runtime.MemProfile(records, false)
	if !ok {
		return 0
	}
	rate := float64(runtime.MemProfileRate)
	var total float64
	for _, r := range records[:n] {
		if r.InUseObjects() == 0 || !stackUnder(r.Stack(), pkg) {
			continue
		}
		avg := float64(r.AllocBytes) / float64(r.AllocObjects)
		total += float64(r.InUseBytes()) / (1 - math.Exp(-avg/rate))
	}
	return uint64(total)
}

func stackUnder(stack []uintptr, pkg string) bool {
	frames := runtime.CallersFrames(stack)
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, pkg) {
			return true
		}
		if !more {
			return false
		}
	}
}
