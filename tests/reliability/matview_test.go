package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// Materialized views: REFRESH writes the new rows to a table of their own
// and then switches the view to them in one metadata commit. Killed with
// SIGKILL at a random moment, a server must come back with the rows of the
// last acknowledged refresh or of the one in flight, whole; and readers
// running beside refreshes (plain and CONCURRENTLY) must see the old rows
// or the new, never a mix, never none.

// matviewRows is how many rows each generation of the base table holds.
const matviewRows = 3000

// fillGeneration sets every row of the base table to generation g in one
// statement (an upsert of every key).
func fillGeneration(ctx context.Context, conn *pgx.Conn, g int) error {
	_, err := conn.Exec(ctx, fmt.Sprintf("INSERT INTO base SELECT i, %d FROM generate_series(1, %d) AS s(i)", g, matviewRows))
	return err
}

// matviewSnapshot reads the view's row count and its least and greatest
// generation.
func matviewSnapshot(ctx context.Context, conn *pgx.Conn) (n, lo, hi int64, err error) {
	err = conn.QueryRow(ctx, "SELECT count(*), coalesce(min(gen), -1), coalesce(max(gen), -1) FROM mv").Scan(&n, &lo, &hi)
	return
}

func setupMatview(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	mustExec(t, conn, "CREATE TABLE base (k INT PRIMARY KEY, gen INT)")
	if err := fillGeneration(context.Background(), conn, 0); err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, "CREATE MATERIALIZED VIEW mv AS SELECT k, gen FROM base")
	mustExec(t, conn, "CREATE UNIQUE INDEX mv_k ON mv (k)")
}

func TestCrashDuringRefreshKeepsOldOrNewRows(t *testing.T) {
	rounds := envInt(t, "SQLGATE_CRASH_ROUNDS", 6)
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 2))
	proc := startProcess(t, bin, dir)
	conn := connect(t, proc.connString())
	setupMatview(t, conn)
	conn.Close(context.Background())
	acked, inFlight := 0, 0 // the generation of the last acknowledged refresh, and of the one sent after it
	refreshes := 0
	for round := 1; round <= rounds; round++ {
		killWhileRunning(t, round, proc, []string{proc.connString()}, 600*time.Millisecond, rng, func(_ int, conn *pgx.Conn, stop <-chan struct{}) {
			ctx := context.Background()
			for g := acked + 1; ; g++ {
				select {
				case <-stop:
					return
				default:
				}
				if fillGeneration(ctx, conn, g) != nil {
					return
				}
				verb := "REFRESH MATERIALIZED VIEW mv"
				if g%2 == 0 {
					verb = "REFRESH MATERIALIZED VIEW CONCURRENTLY mv"
				}
				inFlight = g
				if _, err := conn.Exec(ctx, verb); err != nil {
					return
				}
				acked = g
				refreshes++
			}
		})
		proc = startProcess(t, bin, dir)
		conn := connect(t, proc.connString())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		n, lo, hi, err := matviewSnapshot(ctx, conn)
		cancel()
		if err != nil {
			t.Fatalf("round %d (seed %d): reading the view after restart: %v", round, seed, err)
		}
		if n != matviewRows || lo != hi {
			t.Fatalf("round %d (seed %d): the view holds %d rows of generations %d..%d, want %d rows of one generation", round, seed, n, lo, hi, matviewRows)
		}
		if hi != int64(acked) && hi != int64(inFlight) {
			t.Fatalf("round %d (seed %d): the view holds generation %d; the last acknowledged refresh was of %d, the one in flight of %d", round, seed, hi, acked, inFlight)
		}
		acked = int(hi)
		t.Logf("round %d: the view came back with generation %d (%d refreshes acknowledged so far)", round, hi, refreshes)
		conn.Close(context.Background())
	}
	if refreshes == 0 {
		t.Fatal("no refresh was acknowledged in any round: the workload never ran")
	}
}

func TestReadersDuringRefreshSeeOldOrNewRows(t *testing.T) {
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	proc := startProcess(t, bin, t.TempDir())
	conn := connect(t, proc.connString())
	setupMatview(t, conn)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var done atomic.Bool
	var wg sync.WaitGroup
	var reads atomic.Int64
	problems := make(chan string, 16)
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc := connect(t, proc.connString())
			last := int64(-1)
			for !done.Load() {
				n, lo, hi, err := matviewSnapshot(ctx, rc)
				switch {
				case err != nil:
					problems <- fmt.Sprintf("a reader failed: %v", err)
					return
				case n != matviewRows || lo != hi:
					problems <- fmt.Sprintf("a reader saw %d rows of generations %d..%d, want %d rows of one generation", n, lo, hi, matviewRows)
					return
				case hi < last:
					problems <- fmt.Sprintf("a reader saw generation %d after %d", hi, last)
					return
				}
				last = hi
				reads.Add(1)
			}
		}()
	}
	const generations = 12
	for g := 1; g <= generations; g++ {
		if err := fillGeneration(ctx, conn, g); err != nil {
			t.Fatal(err)
		}
		verb := "REFRESH MATERIALIZED VIEW mv"
		if g%2 == 0 {
			verb = "REFRESH MATERIALIZED VIEW CONCURRENTLY mv"
		}
		mustExec(t, conn, verb)
	}
	done.Store(true)
	wg.Wait()
	close(problems)
	for p := range problems {
		t.Error(p)
	}
	n, lo, hi, err := matviewSnapshot(ctx, conn)
	if err != nil || n != matviewRows || lo != generations || hi != generations {
		t.Fatalf("after the refreshes: %d rows of generations %d..%d (%v), want %d of %d", n, lo, hi, err, matviewRows, generations)
	}
	if reads.Load() == 0 {
		t.Fatal("no read ran beside the refreshes")
	}
	t.Logf("%d reads beside %d refreshes", reads.Load(), generations)
}
