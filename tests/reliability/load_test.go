package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/server"
)

const (
	loadClients = 64
	loadItems   = 2000
	loadGroups  = 16
)

// loadOps are the statement kinds of the load mix, by weight.
var loadOps = []struct {
	name   string
	weight int
}{
	{"point", 40}, {"scan", 15}, {"aggregate", 5}, {"insert", 25}, {"upsert", 15},
}

// latencies collects one worker's statement latencies by kind.
type latencies map[string][]time.Duration

// TestLoadLeavesNoResidue runs 64 concurrent pgx clients against an
// in-process sqlgate for a fixed time, mixing prepared point lookups,
// filtered scans, GROUP BY aggregates, inserts and upserts. Every
// statement must succeed with a plausible answer; afterwards the server's
// goroutines, file descriptors and heap must return to their baseline.
func TestLoadLeavesNoResidue(t *testing.T) {
	seconds := envInt(t, "SQLGATE_LOAD_SECONDS", 5)
	ctx := context.Background()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), MaxConnections: loadClients + 8})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := srv.Stop(sctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
	}()

	setup := connect(t, srv.ConnString())
	mustExec(t, setup, "CREATE TABLE items (id BIGINT PRIMARY KEY, grp INT NOT NULL, val DOUBLE PRECISION, name TEXT)")
	mustExec(t, setup, "CREATE TABLE events (worker INT NOT NULL, seq BIGINT NOT NULL, payload TEXT)")
	rows := make([][]any, loadItems)
	for i := range rows {
		id := int64(i + 1)
		rows[i] = []any{id, int32(id % loadGroups), float64(id) / 7, fmt.Sprintf("item-%d", id)}
	}
	if n, err := setup.CopyFrom(ctx, pgx.Identifier{"items"}, []string{"id", "grp", "val", "name"}, pgx.CopyFromRows(rows)); err != nil || n != loadItems {
		t.Fatalf("CopyFrom: %d, %v", n, err)
	}
	setup.Close(ctx)

	// The baseline: the server is up and idle, with no client connected.
	baseGoroutines := settledGoroutines(0, 0)
	baseFDs := countFDs(t)
	baseHeap := heapInUse()

	conns := make([]*pgx.Conn, loadClients)
	for i := range conns {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		c, err := pgx.Connect(cctx, srv.ConnString())
		cancel()
		if err != nil {
			t.Fatalf("client %d: connect: %v", i, err)
		}
		conns[i] = c
	}

	deadline := time.Now().Add(time.Duration(seconds) * time.Second)
	var inserted atomic.Int64
	var failures sync.Map
	all := make([]latencies, loadClients)
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := latencies{}
			all[i] = lat
			rng := rand.New(rand.NewPCG(uint64(i), uint64(start.UnixNano())))
			var seq int64
			for time.Now().Before(deadline) {
				kind := pickOp(rng)
				began := time.Now()
				err := runLoadOp(ctx, c, kind, i, &seq, rng)
				lat[kind] = append(lat[kind], time.Since(began))
				if err != nil {
					failures.Store(fmt.Sprintf("client %d %s", i, kind), err)
					return
				}
				if kind == "insert" {
					inserted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	failures.Range(func(k, v any) bool {
		t.Errorf("%s: %v", k, v)
		return true
	})

	reportLatencies(t, all, elapsed)

	// The inserts are all there and the upserts replaced rather than added.
	check := conns[0]
	var events, items int64
	if err := check.QueryRow(ctx, "SELECT count(*) FROM events").Scan(&events); err != nil {
		t.Fatal(err)
	}
	if events != inserted.Load() {
		t.Errorf("events holds %d rows, %d inserts were acknowledged", events, inserted.Load())
	}
	if err := check.QueryRow(ctx, "SELECT count(*) FROM items").Scan(&items); err != nil {
		t.Fatal(err)
	}
	if items != loadItems {
		t.Errorf("items holds %d rows after upserts of existing keys, want %d", items, loadItems)
	}

	for _, c := range conns {
		c.Close(ctx)
	}
	goroutines := settledGoroutines(baseGoroutines+3, 15*time.Second)
	if goroutines > baseGoroutines+3 {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d before the load, %d after every client closed\n%s", baseGoroutines, goroutines, buf[:n])
	}
	// pebble may rotate a WAL or add a table file under load; a leak of one
	// descriptor per connection or statement would be far larger.
	fds := countFDs(t)
	if fds > baseFDs+8 {
		t.Errorf("file descriptors: %d before the load, %d after (%s)", baseFDs, fds, fdTargets(t))
	}
	heap := heapInUse()
	t.Logf("residue: goroutines %d -> %d, fds %d -> %d, heap in use %d MiB -> %d MiB",
		baseGoroutines, goroutines, baseFDs, fds, baseHeap>>20, heap>>20)
	if heap > 2*baseHeap+64<<20 {
		t.Errorf("heap in use grew from %d MiB to %d MiB and stayed", baseHeap>>20, heap>>20)
	}
}

func pickOp(rng *rand.Rand) string {
	total := 0
	for _, op := range loadOps {
		total += op.weight
	}
	n := rng.IntN(total)
	for _, op := range loadOps {
		if n < op.weight {
			return op.name
		}
		n -= op.weight
	}
	return loadOps[0].name
}

// runLoadOp runs one statement of kind and checks its answer is plausible.
func runLoadOp(ctx context.Context, c *pgx.Conn, kind string, worker int, seq *int64, rng *rand.Rand) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	switch kind {
	case "point":
		id := int64(1 + rng.IntN(loadItems))
		var grp int32
		var name string
		if err := c.QueryRow(ctx, "SELECT grp, name FROM items WHERE id = $1", id).Scan(&grp, &name); err != nil {
			return err
		}
		if grp != int32(id%loadGroups) {
			return fmt.Errorf("id %d: grp %d, want %d", id, grp, id%loadGroups)
		}
	case "scan":
		g := int32(rng.IntN(loadGroups))
		rows, err := c.Query(ctx, "SELECT id, grp FROM items WHERE grp = $1 AND val >= $2", g, 100.0)
		if err != nil {
			return err
		}
		n := 0
		for rows.Next() {
			var id int64
			var grp int32
			if err := rows.Scan(&id, &grp); err != nil {
				return err
			}
			if grp != g || id < 700 {
				return fmt.Errorf("scan of grp %d returned id %d grp %d", g, id, grp)
			}
			n++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("scan of grp %d returned nothing", g)
		}
	case "aggregate":
		rows, err := c.Query(ctx, "SELECT grp, count(*), max(val) FROM items GROUP BY grp ORDER BY grp")
		if err != nil {
			return err
		}
		var total int64
		groups := 0
		for rows.Next() {
			var grp int32
			var n int64
			var mx float64
			if err := rows.Scan(&grp, &n, &mx); err != nil {
				return err
			}
			total += n
			groups++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if total != loadItems || groups != loadGroups {
			return fmt.Errorf("GROUP BY saw %d rows in %d groups, want %d in %d", total, groups, loadItems, loadGroups)
		}
	case "insert":
		*seq++
		tag, err := c.Exec(ctx, "INSERT INTO events (worker, seq, payload) VALUES ($1, $2, $3)", worker, *seq, "load")
		if err != nil {
			return err
		}
		if tag.String() != "INSERT 0 1" {
			return fmt.Errorf("insert tag %q", tag)
		}
	case "upsert":
		id := int64(1 + rng.IntN(loadItems))
		if _, err := c.Exec(ctx, "INSERT INTO items (id, grp, val, name) VALUES ($1, $2, $3, $4)",
			id, int32(id%loadGroups), float64(id)/7, fmt.Sprintf("item-%d-w%d", id, worker)); err != nil {
			return err
		}
	}
	return nil
}

// reportLatencies logs throughput and p50/p95/p99/max latency per kind.
func reportLatencies(t *testing.T, all []latencies, elapsed time.Duration) {
	t.Helper()
	merged := latencies{}
	var every []time.Duration
	for _, l := range all {
		for k, v := range l {
			merged[k] = append(merged[k], v...)
			every = append(every, v...)
		}
	}
	t.Logf("%d clients, %v: %d statements, %.0f statements/s", loadClients, elapsed.Round(time.Millisecond), len(every), float64(len(every))/elapsed.Seconds())
	line := func(name string, d []time.Duration) {
		if len(d) == 0 {
			return
		}
		slices.Sort(d)
		pct := func(p float64) time.Duration {
			return d[min(len(d)-1, int(p*float64(len(d))))].Round(10 * time.Microsecond)
		}
		t.Logf("  %-9s n=%-7d p50=%-9v p95=%-9v p99=%-9v max=%v", name, len(d), pct(0.50), pct(0.95), pct(0.99), d[len(d)-1].Round(10*time.Microsecond))
	}
	for _, op := range loadOps {
		line(op.name, merged[op.name])
	}
	line("all", every)
	if len(every) == 0 {
		t.Error("no statement ran")
	}
}

// settledGoroutines waits up to wait for the goroutine count to fall to
// target and returns the last count (with wait 0, the count now).
func settledGoroutines(target int, wait time.Duration) int {
	deadline := time.Now().Add(wait)
	for {
		runtime.GC()
		n := runtime.NumGoroutine()
		if n <= target || time.Now().After(deadline) {
			return n
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func countFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("count file descriptors: %v", err)
	}
	return len(entries)
}

// fdTargets lists what the process's descriptors point at, for a failure.
func fdTargets(t *testing.T) string {
	entries, _ := os.ReadDir("/proc/self/fd")
	var out []string
	for _, e := range entries {
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err == nil {
			out = append(out, target)
		}
	}
	return fmt.Sprint(out)
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
