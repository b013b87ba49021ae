package reliability

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/testbin"
)

// TestCrashSequenceNeverRepeats kills sqlgate with SIGKILL while sessions
// call nextval (directly and through a SERIAL column's default) and
// checks, after every restart, that no value acknowledged to a client
// before the kill is handed out again, and that values keep increasing:
// the store logs a block of values ahead and resumes after it, as
// PostgreSQL does after a crash. SQLGATE_SEQ_CRASH_ROUNDS sets the rounds.
func TestCrashSequenceNeverRepeats(t *testing.T) {
	rounds := envInt(t, "SQLGATE_SEQ_CRASH_ROUNDS", 3)
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 0))

	proc := startProcess(t, bin, dir)
	{
		conn := connect(t, proc.connString())
		mustExec(t, conn, "CREATE SEQUENCE s CACHE 1")
		mustExec(t, conn, "CREATE TABLE orders (id BIGSERIAL PRIMARY KEY, note TEXT)")
		conn.Close(context.Background())
	}
	const sessions = 4
	var mu sync.Mutex
	acked := map[string]map[int64]bool{"s": {}, "orders": {}}
	highest := map[string]int64{}
	record := func(seq string, v int64) bool {
		mu.Lock()
		defer mu.Unlock()
		if acked[seq][v] {
			return false
		}
		acked[seq][v] = true
		highest[seq] = max(highest[seq], v)
		return true
	}
	var dupMu sync.Mutex
	var dups []string
	for round := 1; round <= rounds; round++ {
		before := map[string]int64{"s": highest["s"], "orders": highest["orders"]}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				conn, err := pgx.Connect(ctx, proc.connString())
				cancel()
				if err != nil {
					return // the kill came first
				}
				defer conn.Close(context.Background())
				for {
					select {
					case <-stop:
						return
					default:
					}
					seq, q := "s", "SELECT nextval('s')"
					if i%2 == 1 {
						seq, q = "orders", "INSERT INTO orders (note) VALUES ('x') RETURNING id"
					}
					var v int64
					if err := conn.QueryRow(context.Background(), q).Scan(&v); err != nil {
						return // killed: the value was not acknowledged
					}
					if !record(seq, v) {
						dupMu.Lock()
						dups = append(dups, seq)
						dupMu.Unlock()
						t.Errorf("round %d: %s handed out %d twice", round, seq, v)
					}
				}
			}()
		}
		time.Sleep(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		proc.kill()
		close(stop)
		wg.Wait()

		proc = startProcess(t, bin, dir)
		conn := connect(t, proc.connString())
		for _, c := range []struct{ seq, q string }{
			{"s", "SELECT nextval('s')"},
			{"orders", "INSERT INTO orders (note) VALUES ('after') RETURNING id"},
		} {
			var v int64
			if err := conn.QueryRow(context.Background(), c.q).Scan(&v); err != nil {
				t.Fatalf("round %d: after restart: %s: %v", round, c.q, err)
			}
			mu.Lock()
			h := highest[c.seq]
			mu.Unlock()
			if v <= h {
				t.Fatalf("round %d: after SIGKILL and restart %s gave %d, not above %d acknowledged before", round, c.seq, v, h)
			}
			record(c.seq, v)
		}
		// every acknowledged row is there once
		var rows, distinct int64
		if err := conn.QueryRow(context.Background(), "SELECT count(*), count(DISTINCT id) FROM orders").Scan(&rows, &distinct); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		n := int64(len(acked["orders"]))
		mu.Unlock()
		if rows < n || rows != distinct {
			t.Fatalf("round %d: orders has %d rows (%d distinct ids), %d acknowledged", round, rows, distinct, n)
		}
		conn.Close(context.Background())
		t.Logf("round %d: nextval acknowledged up to s=%d orders=%d (from %d, %d)", round, highest["s"], highest["orders"], before["s"], before["orders"])
	}
	if len(dups) > 0 {
		t.Fatalf("%d values handed out twice", len(dups))
	}
}
