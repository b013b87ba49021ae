package reliability

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestCrashUniqueIndexAgrees kills sqlgate with SIGKILL while sessions
// insert, update and delete rows of a table with a UNIQUE constraint
// (values drawn from a few, so that sessions collide and get 23505), and
// checks after every restart that every acknowledged write is there (the
// one in flight at the kill whole or absent) and that the constraint's
// index (its hidden index table, engine/unique.go) holds exactly the
// table's values, each naming its row: the two commit in one atomic group
// of the embedded store, so no crash leaves one without the other. Then
// the constraint still refuses every stored value and takes a free one.
// SQLGATE_UNIQUE_CRASH_ROUNDS sets the rounds.
func TestCrashUniqueIndexAgrees(t *testing.T) {
	rounds := envInt(t, "SQLGATE_UNIQUE_CRASH_ROUNDS", 3)
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 0))

	proc := startProcess(t, bin, dir)
	var tableID int64
	{
		conn := connect(t, proc.connString())
		mustExec(t, conn, "CREATE TABLE uc (id bigint PRIMARY KEY, a int UNIQUE, note text)")
		if err := conn.QueryRow(context.Background(), "SELECT 'uc'::regclass::oid::bigint - 16384").Scan(&tableID); err != nil {
			t.Fatal(err)
		}
		conn.Close(context.Background())
	}
	index := fmt.Sprintf(`"sqlgate$unique$%d$1"`, tableID) // fluss.IndexTablePath
	const sessions = 4
	// each session's rows: the last acknowledged value of each of its ids
	// (nil: no row), and the write in flight at the kill
	type state struct {
		acked    map[int64]*int
		inflight map[int64]*int
		pending  bool
	}
	states := make([]*state, sessions)
	for i := range states {
		states[i] = &state{acked: map[int64]*int{}}
	}
	for round := 1; round <= rounds; round++ {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i := range sessions {
			st := states[i]
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
				r := rand.New(rand.NewPCG(seed, uint64(round*sessions+i)))
				next := int64(i)*1_000_000 + int64(round)*10_000
				for {
					select {
					case <-stop:
						return
					default:
					}
					v := r.IntN(40)
					var id int64
					var q string
					var after *int
					ids := make([]int64, 0, len(st.acked))
					for k, a := range st.acked {
						if a != nil {
							ids = append(ids, k)
						}
					}
					slices.Sort(ids)
					switch op := r.IntN(4); {
					case op < 2 || len(ids) == 0:
						next++
						id, q, after = next, fmt.Sprintf("INSERT INTO uc VALUES (%d, %d, 'x')", next, v), &v
					case op == 2:
						id = ids[r.IntN(len(ids))]
						q, after = fmt.Sprintf("UPDATE uc SET a = %d WHERE id = %d", v, id), &v
					default:
						id = ids[r.IntN(len(ids))]
						q = fmt.Sprintf("DELETE FROM uc WHERE id = %d", id)
					}
					st.inflight, st.pending = map[int64]*int{id: after}, true
					_, err := conn.Exec(context.Background(), q)
					var pe *pgconn.PgError
					switch {
					case err == nil:
						st.acked[id] = after
					case errors.As(err, &pe) && pe.Code == "23505":
						if _, ok := st.acked[id]; !ok {
							st.acked[id] = nil
						}
					default:
						return // killed: in flight
					}
					st.pending = false
				}
			}()
		}
		time.Sleep(time.Duration(100+rng.IntN(500)) * time.Millisecond)
		proc.kill()
		close(stop)
		wg.Wait()

		proc = startProcess(t, bin, dir)
		conn := connect(t, proc.connString())
		ctx := context.Background()
		rows := map[int64]*int{}
		res, err := conn.Query(ctx, "SELECT id, a FROM uc")
		if err != nil {
			t.Fatal(err)
		}
		for res.Next() {
			var id int64
			var a *int
			if err := res.Scan(&id, &a); err != nil {
				t.Fatal(err)
			}
			rows[id] = a
		}
		if res.Err() != nil {
			t.Fatal(res.Err())
		}
		same := func(x, y *int) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
		for i, st := range states {
			for id, a := range st.acked {
				got := rows[id]
				if same(got, a) {
					continue
				}
				if w, ok := st.inflight[id]; st.pending && ok && same(got, w) {
					st.acked[id] = w // the write in flight committed
					continue
				}
				t.Fatalf("round %d: session %d's row %d is %v after the restart, acknowledged %v", round, i, id, show(got), show(a))
			}
			for id, w := range st.inflight {
				if _, known := st.acked[id]; !known && st.pending {
					st.acked[id] = rows[id] // an insert in flight: whole or absent
					if rows[id] != nil && !same(rows[id], w) {
						t.Fatalf("round %d: the insert of row %d in flight came back as %v, not %v", round, id, show(rows[id]), show(w))
					}
				}
			}
			st.pending = false
		}
		// the index holds exactly the table's values, each naming its row
		want := map[int]int64{}
		for id, a := range rows {
			if a == nil {
				continue
			}
			if other, dup := want[*a]; dup {
				t.Fatalf("round %d: rows %d and %d both hold %d", round, other, id, *a)
			}
			want[*a] = id
		}
		got := map[int]int64{}
		res, err = conn.Query(ctx, "SELECT k1, p1 FROM "+index)
		if err != nil {
			t.Fatal(err)
		}
		for res.Next() {
			var a int
			var id int64
			if err := res.Scan(&a, &id); err != nil {
				t.Fatal(err)
			}
			got[a] = id
		}
		if res.Err() != nil {
			t.Fatal(res.Err())
		}
		for a, id := range want {
			if got[a] != id {
				t.Fatalf("round %d: the index has %d for value %d, the table's row is %d", round, got[a], a, id)
			}
		}
		for a, id := range got {
			if _, ok := want[a]; !ok {
				t.Fatalf("round %d: the index has value %d (row %d), which no row holds", round, a, id)
			}
		}
		// and it is enforced
		for a := range want {
			_, err := conn.Exec(ctx, fmt.Sprintf("INSERT INTO uc VALUES (-1, %d, 'probe')", a))
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "23505" {
				t.Fatalf("round %d: a second row with %d: %v, want 23505", round, a, err)
			}
		}
		mustExec(t, conn, "INSERT INTO uc VALUES (-1, 1000, 'probe')")
		mustExec(t, conn, "DELETE FROM uc WHERE id = -1")
		conn.Close(ctx)
		t.Logf("round %d: %d rows, %d values, the index agrees", round, len(rows), len(want))
	}
}

// show prints a nullable value.
func show(a *int) string {
	if a == nil {
		return "absent"
	}
	return fmt.Sprint(*a)
}
