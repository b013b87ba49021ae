package clients

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSubscribeSoak (issue 28, acceptance 3): subscribers follow one table
// through COPY (SUBSCRIBE ...) TO STDOUT while a writer commits rows at a
// steady rate; every subscriber must receive every row once, in offset
// order per bucket. It logs the latency from each write's COMMIT
// acknowledgement to its delivery (p50, p99; a row delivered before the
// writer saw its acknowledgement counts 0) and the process's RSS over the
// run. Sized by SQLGATE_SUBSCRIBE_SOAK=subscribers,rows_per_second,seconds
// (default 4,1000,2; `make soak-subscribe` runs 64,10000,60). Timings are
// reported, never asserted. TestClusterSubscribeSoak runs it on a Fluss
// cluster.
func TestSubscribeSoak(t *testing.T) { subscribeSoak(t, embeddedBackend) }

func subscribeSoak(t *testing.T, be subscribeBackend) {
	subs, rate, secs := 4, 1000, 2
	if v := os.Getenv("SQLGATE_SUBSCRIBE_SOAK"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d,%d", &subs, &rate, &secs); err != nil {
			t.Fatalf("SQLGATE_SUBSCRIBE_SOAK=%q: want subscribers,rows_per_second,seconds", v)
		}
	}
	total := rate * secs
	srv := be.start(t)
	w := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE soak (id BIGINT) WITH ('bucket.num' = '4')")

	// unix ns of each row's commit being sent and acknowledged
	sentAt, ackAt := make([]atomic.Int64, total), make([]atomic.Int64, total)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	readers := make([]*soakReader, subs)
	var wg sync.WaitGroup
	for i := range readers {
		r := &soakReader{seen: make([]bool, total), next: map[int]int64{}, sentAt: sentAt, ackAt: ackAt}
		readers[i] = r
		conn := connectPgx(t, srv.ConnString())
		// A reader starved of CPU on a loaded machine is slow, not gone:
		// the soak measures delivery, not the cut-off (TestSubscribeSlowClient).
		mustExec(t, conn, "SET sqlgate.subscribe_send_timeout = '10min'")
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := conn.PgConn().CopyTo(ctx, r, "COPY (SUBSCRIBE soak FROM EARLIEST) TO STDOUT")
			r.mu.Lock()
			r.err = err
			r.mu.Unlock()
		}()
	}
	var rss []string
	rssDone := make(chan struct{})
	go func() {
		defer close(rssDone)
		tk := time.NewTicker(max(time.Duration(secs)*time.Second/6, time.Second))
		defer tk.Stop()
		for {
			rss = append(rss, vmRSS())
			select {
			case <-tk.C:
			case <-ctx.Done():
				return
			}
		}
	}()

	// The writer keeps to the rate: each commit writes the rows due by
	// now (more per commit when commits are slow), at most one per 10 ms.
	start := time.Now()
	commits := 0
	for written := 0; written < total; {
		// At most 50 ms of rows per commit: a writer that falls behind
		// shows as a lower rate, not as a few huge commits.
		due := min(int(float64(rate)*time.Since(start).Seconds())+1, total, written+max(rate/20, 1))
		if due-written < max(rate/100, 1) && due < total {
			time.Sleep(time.Millisecond)
			continue
		}
		sent := time.Now().UnixNano()
		_, err := w.Exec(ctx, "INSERT INTO soak SELECT g FROM generate_series($1::bigint, $2::bigint) g", written, due-1)
		if err != nil {
			t.Fatalf("commit %d: %v", commits, err)
		}
		ack := time.Now().UnixNano()
		for i := written; i < due; i++ {
			sentAt[i].Store(sent)
			ackAt[i].Store(ack)
		}
		written = due
		commits++
	}
	wrote := time.Since(start)

	deadline := time.Now().Add(max(60*time.Second, 4*wrote))
	for _, r := range readers {
		for r.count() < total && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	caughtUp := time.Since(start)
	cancel()
	wg.Wait()
	<-rssDone // the sampler has stopped appending
	rss = append(rss, vmRSS())

	var hist, fromSent [latencyBuckets]int64
	for i, r := range readers {
		r.mu.Lock()
		if r.bad != "" {
			t.Errorf("subscriber %d: %s", i, r.bad)
		}
		if r.n != total {
			t.Errorf("subscriber %d received %d of %d rows (error %v)", i, r.n, total, r.err)
		}
		for b, n := range r.hist {
			hist[b] += n
		}
		for b, n := range r.fromSent {
			fromSent[b] += n
		}
		r.mu.Unlock()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d subscribers, %d rows in %d commits over %v (%.0f rows/s), all delivered after %v", subs, total, commits, wrote.Round(time.Millisecond),
		float64(total)/wrote.Seconds(), caughtUp.Round(time.Millisecond))
	t.Logf("COMMIT-to-delivery latency over %d deliveries: p50 %v, p99 %v, max bucket %v", int64(total)*int64(subs),
		percentile(hist[:], 0.50), percentile(hist[:], 0.99), percentile(hist[:], 1))
	t.Logf("from the INSERT's sending (its commit's fsync included): p50 %v, p99 %v, max bucket %v",
		percentile(fromSent[:], 0.50), percentile(fromSent[:], 0.99), percentile(fromSent[:], 1))
	t.Logf("process RSS over the run: %s; Go heap now %d MiB", strings.Join(rss, " "), ms.HeapAlloc>>20)
}

// latencyBuckets: 0.1 ms each, the last one 10 s and over.
const latencyBuckets = 100000

func percentile(hist []int64, p float64) time.Duration {
	var n int64
	for _, c := range hist {
		n += c
	}
	want := int64(float64(n) * p)
	var at int64
	for b, c := range hist {
		at += c
		if at >= want && c > 0 {
			return time.Duration(b) * 100 * time.Microsecond
		}
	}
	return 0
}

func vmRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			return strconv.Itoa(kb>>10) + "MiB"
		}
	}
	return "?"
}

// soakReader checks one subscriber's COPY text rows: change type,
// bucket, offset, commit time, id.
type soakReader struct {
	mu       sync.Mutex
	partial  []byte
	seen     []bool
	n        int
	next     map[int]int64
	bad      string
	err      error
	ackAt    []atomic.Int64
	sentAt   []atomic.Int64
	hist     [latencyBuckets]int64
	fromSent [latencyBuckets]int64
}

func (r *soakReader) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func (r *soakReader) Write(p []byte) (int, error) {
	now := time.Now().UnixNano()
	r.mu.Lock()
	defer r.mu.Unlock()
	data := append(r.partial, p...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		r.row(string(data[:i]), now)
		data = data[i+1:]
	}
	r.partial = append(r.partial[:0], data...)
	return len(p), nil
}

func (r *soakReader) row(line string, now int64) {
	f := strings.Split(line, "\t")
	if len(f) != 5 {
		r.fail("line %q", line)
		return
	}
	bucket, _ := strconv.Atoi(f[1])
	off, err1 := strconv.ParseInt(f[2], 10, 64)
	id, err2 := strconv.Atoi(f[4])
	if f[0] != "+A" || err1 != nil || err2 != nil || id < 0 || id >= len(r.seen) {
		r.fail("line %q", line)
		return
	}
	if want := r.next[bucket]; off != want {
		r.fail("bucket %d: offset %d after %d", bucket, off, want-1)
	}
	r.next[bucket] = off + 1
	if r.seen[id] {
		r.fail("row %d delivered twice", id)
	}
	r.seen[id] = true
	r.n++
	lat := int64(0)
	if ack := r.ackAt[id].Load(); ack > 0 && now > ack {
		lat = now - ack
	}
	r.hist[min(lat/int64(100*time.Microsecond), latencyBuckets-1)]++
	if sent := r.sentAt[id].Load(); sent > 0 && now > sent {
		r.fromSent[min((now-sent)/int64(100*time.Microsecond), latencyBuckets-1)]++
	}
}

func (r *soakReader) fail(format string, args ...any) {
	if r.bad == "" {
		r.bad = fmt.Sprintf(format, args...)
	}
}
