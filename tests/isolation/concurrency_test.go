package isolation

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Concurrent clients through the wire, checking invariants that hold on
// PostgreSQL 15 at READ COMMITTED: each test runs the same workload against
// sqlgate and PostgreSQL and asserts the same outcome of both.

const clients = 16

// runClients runs fn(i) on clients connections at once and fails on the
// first error.
func runClients(t *testing.T, conn string, n int, fn func(ctx context.Context, c *pgx.Conn, i int) error) {
	t.Helper()
	conns := make([]*pgx.Conn, n)
	for i := range conns {
		conns[i] = connect(t, conn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range conns {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := fn(ctx, conns[i], i); err != nil {
				errs <- fmt.Errorf("client %d: %w", i, err)
				cancel()
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestCounterIncrements: 16 clients incrementing one row lose no update,
// one statement at a time and in transactions.
func TestCounterIncrements(t *testing.T) {
	per := sized(60, 1000)
	for _, tg := range targets(t) {
		for _, inTx := range []bool{false, true} {
			name := tg.name + "/autocommit"
			if inTx {
				name = tg.name + "/transaction"
			}
			t.Run(name, func(t *testing.T) {
				c := connect(t, tg.conn)
				mustExec(t, c, "DROP TABLE IF EXISTS ctr")
				mustExec(t, c, "CREATE TABLE ctr (id INT PRIMARY KEY, n BIGINT NOT NULL)")
				mustExec(t, c, "INSERT INTO ctr VALUES (1, 0), (2, 0)")
				runClients(t, tg.conn, clients, func(ctx context.Context, c *pgx.Conn, _ int) error {
					for j := 0; j < per; j++ {
						if !inTx {
							if _, err := c.Exec(ctx, "UPDATE ctr SET n = n + 1 WHERE id = 1"); err != nil {
								return err
							}
							continue
						}
						tx, err := c.Begin(ctx)
						if err != nil {
							return err
						}
						if _, err := tx.Exec(ctx, "UPDATE ctr SET n = n + 1 WHERE id = 1"); err != nil {
							return err
						}
						if _, err := tx.Exec(ctx, "UPDATE ctr SET n = n + 2 WHERE id = 2"); err != nil {
							return err
						}
						if err := tx.Commit(ctx); err != nil {
							return err
						}
					}
					return nil
				})
				var n1, n2 int64
				if err := c.QueryRow(context.Background(), "SELECT (SELECT n FROM ctr WHERE id = 1), (SELECT n FROM ctr WHERE id = 2)").Scan(&n1, &n2); err != nil {
					t.Fatal(err)
				}
				want2 := int64(0)
				if inTx {
					want2 = int64(2 * clients * per)
				}
				if n1 != int64(clients*per) || n2 != want2 {
					t.Fatalf("counters %d, %d; want %d, %d", n1, n2, clients*per, want2)
				}
			})
		}
	}
}

// TestBankTransfers: transfers between 100 accounts, each checking the
// balance it takes from, keep the total, never make a balance negative,
// and leave every account at its start plus the committed transfers.
func TestBankTransfers(t *testing.T) {
	d := time.Duration(sized(2, 30)) * time.Second
	const accounts, start = 100, 1000
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			c := connect(t, tg.conn)
			mustExec(t, c, "DROP TABLE IF EXISTS acct")
			mustExec(t, c, "CREATE TABLE acct (id INT PRIMARY KEY, bal BIGINT NOT NULL)")
			mustExec(t, c, fmt.Sprintf("INSERT INTO acct SELECT g, %d FROM generate_series(1, %d) AS g", start, accounts))
			deltas := make([][accounts + 1]int64, clients)
			var mu sync.Mutex
			committed, refused, deadlocks := 0, 0, 0
			stop := time.Now().Add(d)
			runClients(t, tg.conn, clients, func(ctx context.Context, c *pgx.Conn, i int) error {
				r := rand.New(rand.NewSource(int64(i)))
				for time.Now().Before(stop) {
					from, to := 1+r.Intn(accounts), 1+r.Intn(accounts)
					if from == to {
						continue
					}
					amt := int64(1 + r.Intn(300))
					outcome, err := transfer(ctx, c, from, to, amt)
					if err != nil {
						return err
					}
					mu.Lock()
					switch outcome {
					case "committed":
						committed++
						deltas[i][from] -= amt
						deltas[i][to] += amt
					case "refused":
						refused++
					case "deadlock":
						deadlocks++
					}
					mu.Unlock()
				}
				return nil
			})
			t.Logf("%d transfers committed, %d refused for funds, %d deadlocks", committed, refused, deadlocks)
			if committed == 0 {
				t.Fatal("no transfer committed")
			}
			want := make([]int64, accounts+1)
			for id := 1; id <= accounts; id++ {
				want[id] = start
				for i := range deltas {
					want[id] += deltas[i][id]
				}
			}
			rows, err := c.Query(context.Background(), "SELECT id, bal FROM acct")
			if err != nil {
				t.Fatal(err)
			}
			var total int64
			n := 0
			for rows.Next() {
				var id int32
				var bal int64
				if err := rows.Scan(&id, &bal); err != nil {
					t.Fatal(err)
				}
				n++
				total += bal
				if bal < 0 {
					t.Errorf("account %d is negative: %d", id, bal)
				}
				if bal != want[id] {
					t.Errorf("account %d holds %d, the committed transfers say %d", id, bal, want[id])
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if n != accounts || total != accounts*start {
				t.Fatalf("%d accounts holding %d, want %d holding %d", n, total, accounts, accounts*start)
			}
		})
	}
}

// transfer moves amt from one account to another if the first holds it.
// A deadlock (40P01) rolls the transfer back, as an application retrying
// would see it.
func transfer(ctx context.Context, c *pgx.Conn, from, to int, amt int64) (string, error) {
	tx, err := c.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, "UPDATE acct SET bal = bal - $1 WHERE id = $2 AND bal >= $1", amt, from)
	if sqlState(err) == "40P01" {
		return "deadlock", nil
	}
	if err != nil {
		return "", err
	}
	if tag.RowsAffected() == 0 {
		return "refused", tx.Rollback(ctx)
	}
	_, err = tx.Exec(ctx, "UPDATE acct SET bal = bal + $1 WHERE id = $2", amt, to)
	if sqlState(err) == "40P01" {
		return "deadlock", nil
	}
	if err != nil {
		return "", err
	}
	return "committed", tx.Commit(ctx)
}

// TestOnConflictCounting: INSERT ... ON CONFLICT DO UPDATE from 16 clients
// counts every call, including the races to insert a key first.
func TestOnConflictCounting(t *testing.T) {
	per := sized(60, 1000)
	const keys = 4
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			c := connect(t, tg.conn)
			mustExec(t, c, "DROP TABLE IF EXISTS hits")
			mustExec(t, c, "CREATE TABLE hits (id INT PRIMARY KEY, n BIGINT NOT NULL)")
			runClients(t, tg.conn, clients, func(ctx context.Context, c *pgx.Conn, i int) error {
				for j := 0; j < per; j++ {
					if _, err := c.Exec(ctx, "INSERT INTO hits AS t VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET n = t.n + excluded.n", (i+j)%keys); err != nil {
						return err
					}
				}
				return nil
			})
			var total, rows int64
			if err := c.QueryRow(context.Background(), "SELECT sum(n), count(*) FROM hits").Scan(&total, &rows); err != nil {
				t.Fatal(err)
			}
			if total != int64(clients*per) || rows != keys {
				t.Fatalf("%d calls counted over %d keys, want %d over %d", total, rows, clients*per, keys)
			}
		})
	}
}

// TestJobQueueSkipLocked: workers taking jobs with FOR UPDATE SKIP LOCKED
// hand each job to exactly one of them, and every job is done.
func TestJobQueueSkipLocked(t *testing.T) {
	jobs := sized(200, 2000)
	const workers = 8
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			c := connect(t, tg.conn)
			mustExec(t, c, "DROP TABLE IF EXISTS queue")
			mustExec(t, c, "CREATE TABLE queue (id INT PRIMARY KEY, done BOOLEAN NOT NULL, worker INT)")
			mustExec(t, c, fmt.Sprintf("INSERT INTO queue (id, done) SELECT g, false FROM generate_series(1, %d) AS g", jobs))
			var mu sync.Mutex
			taken := map[int32]int{}
			runClients(t, tg.conn, workers, func(ctx context.Context, c *pgx.Conn, w int) error {
				for {
					tx, err := c.Begin(ctx)
					if err != nil {
						return err
					}
					var id int32
					err = tx.QueryRow(ctx, "SELECT id FROM queue WHERE NOT done ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED").Scan(&id)
					if err == pgx.ErrNoRows {
						_ = tx.Rollback(ctx)
						// Jobs locked by others may still be rolled back;
						// none are here, so no row left means done.
						var left int
						if err := c.QueryRow(ctx, "SELECT count(*) FROM queue WHERE NOT done").Scan(&left); err != nil {
							return err
						}
						if left == 0 {
							return nil
						}
						continue
					}
					if err != nil {
						return err
					}
					if _, err := tx.Exec(ctx, "UPDATE queue SET done = true, worker = $1 WHERE id = $2", w, id); err != nil {
						return err
					}
					if err := tx.Commit(ctx); err != nil {
						return err
					}
					mu.Lock()
					taken[id]++
					mu.Unlock()
				}
			})
			if len(taken) != jobs {
				t.Fatalf("%d jobs taken, want %d", len(taken), jobs)
			}
			for id, n := range taken {
				if n != 1 {
					t.Fatalf("job %d taken %d times", id, n)
				}
			}
			var undone, workersSeen int
			if err := c.QueryRow(context.Background(), "SELECT count(*) FILTER (WHERE NOT done), count(DISTINCT worker) FROM queue").Scan(&undone, &workersSeen); err != nil {
				t.Fatal(err)
			}
			if undone != 0 {
				t.Fatalf("%d jobs not done", undone)
			}
			t.Logf("%d jobs over %d workers", jobs, workersSeen)
		})
	}
}

// TestWritesDuringSchemaChanges: clients inserting into a table, one
// statement at a time and in transactions, while another adds and drops
// a column in a loop: every acknowledged row is there and no write fails
// (the DDL waits for the writers and they for it, as PostgreSQL's ACCESS
// EXCLUSIVE and ROW EXCLUSIVE locks do; sqlgate lost rows and answered
// XX000 before).
func TestWritesDuringSchemaChanges(t *testing.T) {
	per := sized(100, 1000)
	const writers = 6
	for _, tg := range targets(t) {
		for _, create := range []string{"CREATE TABLE sch (id INT PRIMARY KEY, v INT)", "CREATE TABLE sch (id INT, v INT)"} {
			t.Run(tg.name+"/"+create, func(t *testing.T) {
				c := connect(t, tg.conn)
				mustExec(t, c, "DROP TABLE IF EXISTS sch")
				mustExec(t, c, create)
				var acked atomic.Int64
				var done, changes atomic.Int32
				runClients(t, tg.conn, writers+1, func(ctx context.Context, c *pgx.Conn, i int) error {
					if i == writers { // the schema changer, until the writers are done
						for done.Load() < writers {
							for _, d := range []string{"ALTER TABLE sch ADD COLUMN w INT DEFAULT 1", "ALTER TABLE sch DROP COLUMN w"} {
								if _, err := c.Exec(ctx, d); err != nil {
									return fmt.Errorf("%s: %w", d, err)
								}
							}
							changes.Add(1)
						}
						return nil
					}
					defer done.Add(1)
					for j := 0; j < per; j++ {
						id := i*per + j
						if i%2 == 0 {
							if _, err := c.Exec(ctx, "INSERT INTO sch (id, v) VALUES ($1, $1)", id); err != nil {
								return err
							}
							acked.Add(1)
							continue
						}
						tx, err := c.Begin(ctx)
						if err != nil {
							return err
						}
						for _, k := range []int{id, 100000 + id} {
							if _, err := tx.Exec(ctx, "INSERT INTO sch (id, v) VALUES ($1, $1)", k); err != nil {
								return err
							}
						}
						if err := tx.Commit(ctx); err != nil {
							return err
						}
						acked.Add(2)
					}
					return nil
				})
				var n int64
				if err := c.QueryRow(context.Background(), "SELECT count(*) FROM sch").Scan(&n); err != nil {
					t.Fatal(err)
				}
				if n != acked.Load() {
					t.Fatalf("rows %d, acknowledged %d", n, acked.Load())
				}
				if changes.Load() < 2 {
					t.Fatalf("%d schema changes ran during the writes", changes.Load())
				}
			})
		}
	}
}
