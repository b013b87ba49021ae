package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestJoinedWriteRecheckDifferential runs random interleavings of two
// sessions on sqlgate and PostgreSQL 15: session A opens a transaction
// and changes target rows (their join column, their value, or deletes
// them) and source rows; session B then runs a joined write (UPDATE ...
// FROM, DELETE ... USING, or a MERGE of several WHEN clauses) that may
// wait for A's rows; A commits or rolls back, and B's answer, whether it
// waited, and both tables afterwards are compared. A waiting write's
// re-check of a changed row (READ COMMITTED's EvalPlanQual) must read the
// row's newest version with the source row it had joined as the statement
// first read it; a row whose key A moved is followed to its new key, a
// row A deleted and wrote again under another key is not (B's plain
// UPDATE and DELETE too). The source's join column is unique, so that
// each target row joins at most one source row and no answer depends on
// join order.
func TestJoinedWriteRecheckDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	conns := func() [2]*pgconn.PgConn {
		var out [2]*pgconn.PgConn
		for i, s := range []string{r.SQLGate.(*Session).connString, r.Postgres.(*Session).connString} {
			c, err := pgconn.Connect(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Close(context.Background()) })
			out[i] = c
		}
		return out
	}
	a, b := conns(), conns()
	rng := seededRand(t, 53)
	const sequences = 40
	differed := 0
	for n := 0; n < sequences; n++ {
		setup := epqSetup(rng)
		var changes []string
		for k := 0; k <= rng.IntN(3); k++ {
			changes = append(changes, epqChange(rng))
		}
		write := epqWrite(rng)
		commit := []string{"COMMIT", "COMMIT", "ROLLBACK"}[rng.IntN(3)]
		// both servers at once: most sequences wait a moment for B
		var got [2]string
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = epqInterleave(ctx, a[i], b[i], setup, changes, write, commit)
			}()
		}
		wg.Wait()
		if got[0] != got[1] {
			differed++
			if differed <= 5 {
				t.Errorf("sequence %d differs\nsetup: %s\nA: BEGIN; %s; (B: %s); A: %s\nsqlgate:    %s\npostgresql: %s", n, setup, strings.Join(changes, "; "), write, commit, got[0], got[1])
			}
		}
	}
	if differed > 0 {
		t.Errorf("%d of %d sequences differed", differed, sequences)
	}
}

// epqInterleave runs one sequence on one server and describes it: A's
// changes in a transaction, B's write (blocked or not after a moment), A's
// end, B's answer, the tables.
func epqInterleave(ctx context.Context, a, b *pgconn.PgConn, setup string, changes []string, write, end string) string {
	var out []string
	exec := func(c *pgconn.PgConn, q string) string {
		qctx, cancel := context.WithTimeout(ctx, queryTimeout)
		defer cancel()
		res, err := c.Exec(qctx, q).ReadAll()
		return epqOutcome(res, err)
	}
	exec(a, setup)
	exec(a, "BEGIN")
	for _, q := range changes {
		out = append(out, "A: "+exec(a, q))
	}
	done := make(chan string, 1)
	go func() { done <- exec(b, write) }()
	var answer string
	select {
	case answer = <-done:
		out = append(out, "B did not wait")
		exec(a, end)
	case <-time.After(250 * time.Millisecond):
		exec(a, end)
		answer = <-done
		out = append(out, "B waited")
	}
	out = append(out, "B: "+answer)
	out = append(out, "t: "+exec(a, "SELECT id, k, v FROM et ORDER BY id"))
	out = append(out, "s: "+exec(a, "SELECT id, k, w FROM es ORDER BY id"))
	return strings.Join(out, " | ")
}

func epqOutcome(res []*pgconn.Result, err error) string {
	var out []string
	for _, r := range res {
		// RETURNING's rows come in the join's order, which neither
		// server promises: they are compared as a set
		var rows []string
		for _, row := range r.Rows {
			cells := make([]string, len(row))
			for i, c := range row {
				cells[i] = string(c)
			}
			rows = append(rows, "["+strings.Join(cells, ",")+"]")
		}
		sort.Strings(rows)
		out = append(out, strings.Join(append([]string{r.CommandTag.String()}, rows...), " "))
	}
	if err != nil {
		if pe, ok := err.(*pgconn.PgError); ok {
			out = append(out, "ERROR "+pe.Code)
		} else {
			out = append(out, "ERROR "+err.Error())
		}
	}
	return strings.Join(out, "; ")
}

// epqSetup recreates the two tables' rows: four target rows whose join
// column k is one of 1..3, three source rows with k 1..3 (unique).
func epqSetup(rng *rand.Rand) string {
	var tv, sv []string
	for id := 1; id <= 4; id++ {
		tv = append(tv, fmt.Sprintf("(%d, %d, %d)", id, 1+rng.IntN(3), rng.IntN(10)))
	}
	for id := 1; id <= 3; id++ {
		sv = append(sv, fmt.Sprintf("(%d, %d, %d)", id, id, 10*(1+rng.IntN(5))))
	}
	return "DROP TABLE IF EXISTS et; DROP TABLE IF EXISTS es; " +
		"CREATE TABLE et (id INT PRIMARY KEY, k INT NOT NULL, v INT NOT NULL); " +
		"CREATE TABLE es (id INT PRIMARY KEY, k INT NOT NULL, w INT NOT NULL); " +
		"INSERT INTO et VALUES " + strings.Join(tv, ", ") + "; INSERT INTO es VALUES " + strings.Join(sv, ", ")
}

// epqChange draws one of A's changes. A row is named by its id's last
// digit, which a move of its key (id + 10) keeps, so that later changes
// still find it.
func epqChange(rng *rand.Rand) string {
	id := 1 + rng.IntN(4)
	switch rng.IntN(11) {
	case 0, 1:
		return fmt.Sprintf("UPDATE et SET k = %d WHERE id %% 10 = %d", 1+rng.IntN(4), id)
	case 2, 3:
		return fmt.Sprintf("UPDATE et SET v = v + %d WHERE id %% 10 = %d", 1+rng.IntN(20), id)
	case 4:
		return fmt.Sprintf("DELETE FROM et WHERE id %% 10 = %d", id)
	case 5:
		return fmt.Sprintf("UPDATE es SET w = w + %d WHERE id = %d", 1+rng.IntN(50), 1+rng.IntN(3))
	case 6, 7:
		// the key moves: PostgreSQL's waiting write follows the row
		return fmt.Sprintf("UPDATE et SET id = id + 10 WHERE id %% 10 = %d", id)
	case 8:
		return fmt.Sprintf("UPDATE et SET id = id + 10, k = %d WHERE id %% 10 = %d", 1+rng.IntN(4), id)
	case 9:
		// deleted and written again under another key: another row
		return fmt.Sprintf("INSERT INTO et SELECT id + 50, k, v FROM et WHERE id %% 10 = %d AND id < 50; DELETE FROM et WHERE id %% 10 = %d AND id < 50", id, id)
	}
	return "INSERT INTO es VALUES (4, 4, 77) ON CONFLICT (id) DO NOTHING"
}

// epqWrite draws B's write: mostly joined, some plain, one moving keys.
func epqWrite(rng *rand.Rand) string {
	cond := []string{"", " AND et.v < 8", " AND es.w + et.v > 30", " AND et.k <> 2"}[rng.IntN(4)]
	switch rng.IntN(8) {
	case 5:
		return "UPDATE et SET v = v + 1 WHERE k = 2 OR v > 7 RETURNING id, k, v"
	case 6:
		return "DELETE FROM et WHERE v < 5 RETURNING id"
	case 7:
		return "UPDATE et SET id = et.id + 100 FROM es WHERE et.k = es.k" + cond + " RETURNING et.id, es.id"
	case 0:
		return "UPDATE et SET v = et.v + es.w FROM es WHERE et.k = es.k" + cond
	case 1:
		return "UPDATE et SET v = es.w, k = es.k + 1 FROM es WHERE et.k = es.k" + cond + " RETURNING et.id, et.v, es.id"
	case 2:
		return "DELETE FROM et USING es WHERE et.k = es.k" + cond + " RETURNING et.id, es.w"
	case 3:
		return "MERGE INTO et USING es ON et.k = es.k" + cond +
			" WHEN MATCHED AND et.v > 5 THEN UPDATE SET v = et.v * 2" +
			" WHEN MATCHED AND es.w > 30 THEN DELETE" +
			" WHEN MATCHED THEN UPDATE SET v = et.v + es.w" +
			" WHEN NOT MATCHED THEN INSERT VALUES (es.id + 10 * es.k + 100, es.k, es.w)"
	}
	return "MERGE INTO et USING es ON et.k = es.k" +
		" WHEN MATCHED AND et.v + es.w > 35" + cond + " THEN DELETE" +
		" WHEN MATCHED THEN UPDATE SET v = 0"
}
