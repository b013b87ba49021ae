package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestCrashWithLocksHeld kills sqlgate with SIGKILL while clients hold row
// locks and others wait for them (increments of a few hot rows, in
// transactions and alone, and SELECT ... FOR UPDATE holders), then checks
// after each restart that nothing is locked (FOR UPDATE NOWAIT on every
// row, an empty pg_locks) and that every acknowledged increment is there,
// with each one in flight at the kill applied wholly or not at all.
func TestCrashWithLocksHeld(t *testing.T) {
	rounds := max(3, envInt(t, "SQLGATE_CRASH_ROUNDS", 50)/20)
	const rows, clients = 4, 8
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	proc := startProcess(t, bin, dir)
	{
		conn := connect(t, proc.connString())
		mustExec(t, conn, "CREATE TABLE ctr (id INT PRIMARY KEY, n BIGINT NOT NULL)")
		mustExec(t, conn, "INSERT INTO ctr VALUES (1, 0), (2, 0), (3, 0), (4, 0)")
		conn.Close(context.Background())
	}
	var acked, unsure [rows + 1]int64
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 1))
	for round := 1; round <= rounds; round++ {
		var mu sync.Mutex
		var wg sync.WaitGroup
		var waited int
		stop := make(chan struct{})
		for c := 0; c < clients; c++ {
			conn := connect(t, proc.connString())
			r := rand.New(rand.NewPCG(seed, uint64(round*100+c)))
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := context.Background()
				for {
					select {
					case <-stop:
						return
					default:
					}
					id := 1 + r.IntN(rows)
					var err error
					began := time.Now()
					switch r.IntN(3) {
					case 0: // alone
						_, err = conn.Exec(ctx, "UPDATE ctr SET n = n + 1 WHERE id = $1", id)
					case 1: // in a transaction, holding the lock a while
						err = incrementInTx(ctx, conn, id, time.Duration(r.IntN(20))*time.Millisecond)
					default: // a FOR UPDATE holder that writes nothing
						err = holdForUpdate(ctx, conn, id, time.Duration(r.IntN(20))*time.Millisecond)
						if err == nil {
							continue
						}
						return // the kill; holders change nothing
					}
					mu.Lock()
					if time.Since(began) > 5*time.Millisecond {
						waited++
					}
					if err == nil {
						acked[id]++
					} else {
						// Lost with the server: applied or not, wholly.
						unsure[id]++
					}
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(100+rng.IntN(400)) * time.Millisecond)
		proc.kill()
		close(stop)
		wg.Wait()

		proc = startProcess(t, bin, dir)
		conn := connect(t, proc.connString())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var locks int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_locks").Scan(&locks); err != nil || locks != 0 {
			t.Fatalf("round %d: pg_locks after restart: %d rows, %v", round, locks, err)
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int32]int64{}
		rs, err := tx.Query(ctx, "SELECT id, n FROM ctr ORDER BY id FOR UPDATE NOWAIT")
		if err != nil {
			t.Fatalf("round %d: rows still locked after restart: %v", round, err)
		}
		for rs.Next() {
			var id int32
			var n int64
			if err := rs.Scan(&id, &n); err != nil {
				t.Fatal(err)
			}
			got[id] = n
		}
		if err := rs.Err(); err != nil {
			t.Fatalf("round %d: rows still locked after restart: %v", round, err)
		}
		_ = tx.Rollback(ctx)
		cancel()
		conn.Close(context.Background())
		for id := int32(1); id <= rows; id++ {
			n := got[id]
			if n < acked[id] || n > acked[id]+unsure[id] {
				t.Fatalf("round %d: row %d holds %d; %d increments acknowledged, %d in flight", round, id, n, acked[id], unsure[id])
			}
			// What was in flight is settled now.
			acked[id], unsure[id] = n, 0
		}
		t.Logf("round %d: counters %v after restart; %d increments waited for a lock", round, got, waited)
	}
}

func incrementInTx(ctx context.Context, conn *pgx.Conn, id int, hold time.Duration) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "UPDATE ctr SET n = n + 1 WHERE id = $1", id); err != nil {
		return fmt.Errorf("update: %w", err)
	}
	time.Sleep(hold)
	return tx.Commit(ctx)
}

func holdForUpdate(ctx context.Context, conn *pgx.Conn, id int, hold time.Duration) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	var n int64
	if err := tx.QueryRow(ctx, "SELECT n FROM ctr WHERE id = $1 FOR UPDATE", id).Scan(&n); err != nil {
		return err
	}
	time.Sleep(hold)
	return tx.Rollback(ctx)
}
