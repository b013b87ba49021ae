package reliability

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/tests/testbin"
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
	crashSequenceRounds(t, rounds, "s", "orders", 0, func() *process { return startProcess(t, bin, dir) })
}

// crashSequenceRounds runs the rounds of TestCrashSequenceNeverRepeats
// against the sqlgate that start starts (on the embedded store or a
// cluster), with sequence seq and a table named table whose id is
// BIGSERIAL; each round runs settle longer before the kill (a cluster's
// sessions take longer to get going).
func crashSequenceRounds(t *testing.T, rounds int, seq, table string, settle time.Duration, start func() *process) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 0))

	proc := start()
	{
		conn := connect(t, proc.connString())
		mustExec(t, conn, "CREATE SEQUENCE "+seq+" CACHE 1")
		mustExec(t, conn, "CREATE TABLE "+table+" (id BIGSERIAL PRIMARY KEY, note TEXT)")
		conn.Close(context.Background())
	}
	const sessions = 4
	var mu sync.Mutex
	acked := map[string]map[int64]bool{seq: {}, table: {}}
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
		before := map[string]int64{seq: highest[seq], table: highest[table]}
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
					name, q := seq, "SELECT nextval('"+seq+"')"
					if i%2 == 1 {
						name, q = table, "INSERT INTO "+table+" (note) VALUES ('x') RETURNING id"
					}
					var v int64
					if err := conn.QueryRow(context.Background(), q).Scan(&v); err != nil {
						return // killed: the value was not acknowledged
					}
					if !record(name, v) {
						dupMu.Lock()
						dups = append(dups, name)
						dupMu.Unlock()
						t.Errorf("round %d: %s handed out %d twice", round, name, v)
					}
				}
			}()
		}
		time.Sleep(settle + time.Duration(50+rng.IntN(400))*time.Millisecond)
		proc.kill()
		close(stop)
		wg.Wait()

		proc = start()
		conn := connect(t, proc.connString())
		for _, c := range []struct{ seq, q string }{
			{seq, "SELECT nextval('" + seq + "')"},
			{table, "INSERT INTO " + table + " (note) VALUES ('after') RETURNING id"},
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
		if err := conn.QueryRow(context.Background(), "SELECT count(*), count(DISTINCT id) FROM "+table).Scan(&rows, &distinct); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		n := int64(len(acked[table]))
		mu.Unlock()
		if rows < n || rows != distinct {
			t.Fatalf("round %d: %s has %d rows (%d distinct ids), %d acknowledged", round, table, rows, distinct, n)
		}
		conn.Close(context.Background())
		t.Logf("round %d: nextval acknowledged up to %s=%d %s=%d (from %d, %d)", round, seq, highest[seq], table, highest[table], before[seq], before[table])
	}
	if len(dups) > 0 {
		t.Fatalf("%d values handed out twice", len(dups))
	}
}
