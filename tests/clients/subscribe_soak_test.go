package clients

import (
	"bytes"
	"context"
	"fmt"
	"os"
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
// order per bucket. The server runs as its own process (cmd/sqlgate serve),
// so that its resident set is measured apart from the test's clients: its
// VmRSS, RssAnon and RssFile (/proc/PID/status), Go heap (its /metrics)
// and the bucket logs' size are sampled every few seconds, and the soak
// fails when the server's memory grows after warm-up
// (checkServerMemory). The checkers keep constant-size books (per bucket
// the next offset and last id, a count and a checksum), so the test's
// own memory does not grow with the deliveries either. It logs the latency from each write's COMMIT
// acknowledgement to its delivery (p50, p99; a row delivered before the
// writer saw its acknowledgement counts 0). Sized by
// SQLGATE_SUBSCRIBE_SOAK=subscribers,rows_per_second,seconds (default
// 4,1000,2; `make soak-subscribe` runs 64,10000,60). Timings are reported,
// never asserted. TestClusterSubscribeSoak runs it on a Fluss cluster.
func TestSubscribeSoak(t *testing.T) { subscribeSoak(t, embeddedBackend) }

// soakAnonGrowthMiB is how far the server's own memory (RssAnon: Go heap,
// pebble's C memory, stacks) may rise after the first third of the
// writing. A steady server still rises some: its live heap stays near
// 25 MiB (pprof heap of the server process, 17th session), but the
// collector lets garbage grow to the 64 MiB heap floor plus the live
// heap between collections, runs late when the machine is loaded, and
// the runtime returns freed pages to the kernel only slowly, so RssAnon
// climbs toward the highest heap a collection let through (+17 MiB after
// warm-up in 60 s, +19 MiB in 180 s, bench/LEDGER.md). 48 MiB is about
// twice that; a leak of two bytes per delivery (25M deliveries after
// warm-up in the full soak) or 30 KiB per commit passes it.
const soakAnonGrowthMiB = 48

// soakFileSlackMiB: RssFile may grow by the logs' growth plus this (pages
// of the binary's text first touched late).
const soakFileSlackMiB = 16

func subscribeSoak(t *testing.T, be subscribeBackend) {
	subs, rate, secs := 4, 1000, 2
	if v := os.Getenv("SQLGATE_SUBSCRIBE_SOAK"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d,%d", &subs, &rate, &secs); err != nil {
			t.Fatalf("SQLGATE_SUBSCRIBE_SOAK=%q: want subscribers,rows_per_second,seconds", v)
		}
	}
	total := rate * secs
	srv := be.soakServer(t)
	w := connectPgx(t, srv.connString)
	mustExec(t, w, "CREATE TABLE soak (id BIGINT) WITH ('bucket.num' = '4')")

	// unix ns of each row's commit being sent and acknowledged: the
	// writer's record, allocated once for the run, shared by the checkers
	sentAt, ackAt := make([]atomic.Int64, total), make([]atomic.Int64, total)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	readers := make([]*soakReader, subs)
	var wg sync.WaitGroup
	for i := range readers {
		r := &soakReader{total: total, sentAt: sentAt, ackAt: ackAt}
		readers[i] = r
		conn := connectPgx(t, srv.connString)
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
	var mem []memSample // the sampler's, read after rssDone
	start := time.Now()
	rssDone := make(chan struct{})
	go func() {
		defer close(rssDone)
		tk := time.NewTicker(max(time.Duration(secs)*time.Second/12, time.Second))
		defer tk.Stop()
		for {
			mem = append(mem, srv.sample(time.Since(start)))
			select {
			case <-tk.C:
			case <-ctx.Done():
				return
			}
		}
	}()

	// The writer keeps to the rate: each commit writes the rows due by
	// now (more per commit when commits are slow), at most one per 10 ms.
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
	last := srv.sample(caughtUp) // with every subscription still open
	cancel()
	wg.Wait()
	<-rssDone // the sampler has stopped appending
	mem = append(mem, last)

	var hist, fromSent [latencyBuckets]int64
	for i, r := range readers {
		r.mu.Lock()
		if r.bad != "" {
			t.Errorf("subscriber %d: %s", i, r.bad)
		}
		if r.n != total {
			t.Errorf("subscriber %d received %d of %d rows (error %v)", i, r.n, total, r.err)
		} else if want := idChecksum(total); r.sum != want {
			// total rows, each bucket's offsets gapless from 0 and its ids
			// rising: a row lost and another duplicated leave the count
			// right and the checksum wrong.
			t.Errorf("subscriber %d: checksum of the ids %x, want %x (a row lost and another duplicated)", i, r.sum, want)
		}
		for b, n := range r.hist {
			hist[b] += n
		}
		for b, n := range r.fromSent {
			fromSent[b] += n
		}
		r.mu.Unlock()
	}
	t.Logf("%d subscribers, %d rows in %d commits over %v (%.0f rows/s), all delivered after %v", subs, total, commits, wrote.Round(time.Millisecond),
		float64(total)/wrote.Seconds(), caughtUp.Round(time.Millisecond))
	t.Logf("COMMIT-to-delivery latency over %d deliveries: p50 %v, p99 %v, max bucket %v", int64(total)*int64(subs),
		percentile(hist[:], 0.50), percentile(hist[:], 0.99), percentile(hist[:], 1))
	t.Logf("from the INSERT's sending (its commit's fsync included): p50 %v, p99 %v, max bucket %v",
		percentile(fromSent[:], 0.50), percentile(fromSent[:], 0.99), percentile(fromSent[:], 1))
	checkServerMemory(t, srv.what, mem, wrote)
}

// checkServerMemory logs the memory samples and, when they are the
// server process's alone, judges the growth after warm-up: from the
// largest sample of the first third of the writing to the last one (taken
// after every subscriber caught up, all still subscribed). The server's
// own memory (RssAnon) may grow by soakAnonGrowthMiB; its mapped file
// pages (RssFile) by what the bucket logs grew on disk, plus
// soakFileSlackMiB, since those pages are the log itself.
func checkServerMemory(t *testing.T, what string, mem []memSample, wrote time.Duration) {
	t.Helper()
	rows := []string{memHeader}
	for _, m := range mem {
		rows = append(rows, m.row())
	}
	t.Logf("%s memory every few seconds:\n%s", what, strings.Join(rows, "\n"))
	if what != serverProcess {
		t.Logf("memory not judged: the server shares the test's process")
		return
	}
	warm := memSample{rss: -1, anon: -1, file: -1, logs: -1}
	for _, m := range mem {
		if m.at <= wrote/3 {
			warm.rss, warm.anon, warm.file, warm.logs = max(warm.rss, m.rss), max(warm.anon, m.anon), max(warm.file, m.file), max(warm.logs, m.logs)
		}
	}
	last := mem[len(mem)-1]
	if min(warm.rss, warm.anon, warm.file, warm.logs, last.rss, last.anon, last.file, last.logs) < 0 {
		t.Fatalf("no memory samples of the server in the first third of the writing (%v), or unreadable ones", wrote)
	}
	mib := func(kib int64) int64 { return kib >> 10 }
	anonGrown, fileGrown, logsGrown := mib(last.anon-warm.anon), mib(last.file-warm.file), mib(last.logs-warm.logs)
	verdict := "flat"
	if anonGrown > soakAnonGrowthMiB {
		verdict = "GROWING"
		t.Errorf("server RssAnon grew from %d MiB (max of the first third) to %d MiB: %d MiB, bound %d MiB", mib(warm.anon), mib(last.anon), anonGrown, soakAnonGrowthMiB)
	}
	if fileGrown > logsGrown+soakFileSlackMiB {
		verdict = "GROWING"
		t.Errorf("server RssFile grew by %d MiB while the bucket logs grew by %d MiB (slack %d MiB)", fileGrown, logsGrown, soakFileSlackMiB)
	}
	t.Logf("server memory after warm-up (max of the first third -> last, MiB): VmRSS %d -> %d (+%d); RssAnon %d -> %d (+%d, bound %d); RssFile %d -> %d (+%d, bound: the logs' +%d on disk +%d): %s",
		mib(warm.rss), mib(last.rss), mib(last.rss-warm.rss), mib(warm.anon), mib(last.anon), anonGrown, soakAnonGrowthMiB,
		mib(warm.file), mib(last.file), fileGrown, logsGrown, soakFileSlackMiB, verdict)
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

// soakReader checks one subscriber's COPY text rows (change type,
// bucket, offset, commit time, id) in constant memory: each bucket's next
// offset and last id, the count and an order-free checksum of the ids.
type soakReader struct {
	mu       sync.Mutex
	total    int
	partial  []byte
	n        int
	sum      uint64                // idChecksum of what arrived
	next     [soakMaxBuckets]int64 // each bucket's next offset
	lastID   [soakMaxBuckets]int64 // each bucket's last id (+1; 0: none yet)
	bad      string
	err      error
	ackAt    []atomic.Int64
	sentAt   []atomic.Int64
	hist     [latencyBuckets]int64
	fromSent [latencyBuckets]int64
}

// soakMaxBuckets bounds the bucket numbers the checker accepts (the soak
// table has 4).
const soakMaxBuckets = 64

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
		r.row(data[:i], now)
		data = data[i+1:]
	}
	r.partial = append(r.partial[:0], data...)
	return len(p), nil
}

func (r *soakReader) row(line []byte, now int64) {
	var f [6][]byte
	nf := 0
	for rest := line; nf < len(f); nf++ {
		i := bytes.IndexByte(rest, '\t')
		if i < 0 {
			f[nf] = rest
			nf++
			break
		}
		f[nf], rest = rest[:i], rest[i+1:]
	}
	if nf != 5 {
		r.fail("line %q", line)
		return
	}
	bucket, err0 := strconv.Atoi(string(f[1]))
	off, err1 := strconv.ParseInt(string(f[2]), 10, 64)
	id, err2 := strconv.Atoi(string(f[4]))
	if string(f[0]) != "+A" || err0 != nil || err1 != nil || err2 != nil || bucket < 0 || bucket >= soakMaxBuckets || id < 0 || id >= r.total {
		r.fail("line %q", line)
		return
	}
	if want := r.next[bucket]; off != want {
		r.fail("bucket %d: offset %d after %d", bucket, off, want-1)
	}
	r.next[bucket] = off + 1
	// A bucket's rows are in commit order and a commit's ids rise, so a
	// bucket's ids rise: a repeat within a bucket shows here, one across
	// buckets in the count and checksum.
	if int64(id) < r.lastID[bucket] {
		r.fail("bucket %d: id %d after %d (delivered twice or out of commit order)", bucket, id, r.lastID[bucket]-1)
	}
	r.lastID[bucket] = int64(id) + 1
	r.sum += mix64(uint64(id))
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

// mix64 is SplitMix64's finaliser: ids summed through it make a checksum
// that lost and duplicated rows do not cancel out in, as they can in a
// plain sum (1 and 4 lost, 2 and 3 twice).
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// idChecksum is the checksum of ids 0..n-1 each delivered once.
func idChecksum(n int) uint64 {
	var s uint64
	for id := range n {
		s += mix64(uint64(id))
	}
	return s
}
