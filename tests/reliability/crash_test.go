package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// The crash workload. Each writer owns a disjoint range of primary keys and
// its own sequence numbers in the log table, and runs its statements one at
// a time, so the state a writer expects is exact except for the one
// statement that was in flight when the server died: after a restart that
// statement's effect must be either wholly there or wholly absent.
const (
	crashWriters       = 6
	crashKeysPerWriter = 16
	crashCopyRows      = 25
)

// keyState is what a primary key holds: absent, or a row with version ver.
type keyState struct {
	present bool
	ver     int64
}

// kvChange is what a statement or transaction does to one key.
type kvChange struct {
	key           int64
	before, after keyState
}

// uncertainOp is a statement or transaction whose outcome the client never
// learnt: after a restart, all of its effects must be there or none.
type uncertainOp struct {
	kvs []kvChange
	// log rows (an INSERT, a COPY or a transaction's): all of them or none
	seqs []int64
}

// writer is one client's model of what it has written.
type writer struct {
	id      int
	rng     *rand.Rand
	keys    map[int64]keyState // exact state of each owned key
	logged  map[int64]bool     // log seqs acknowledged (or seen after a restart)
	refused []int64            // log seqs of transactions rolled back: never visible
	pending *uncertainOp
	nextSeq int64
	nextVer int64
	acked   int // statements acknowledged, for the report
	txs     int // transactions committed or rolled back, for the report
	failure error
}

func newWriter(id int, seed uint64) *writer {
	w := &writer{id: id, rng: rand.New(rand.NewPCG(seed, uint64(id))), keys: map[int64]keyState{}, logged: map[int64]bool{}, nextSeq: 1, nextVer: 1}
	for i := 0; i < crashKeysPerWriter; i++ {
		w.keys[w.key(i)] = keyState{}
	}
	return w
}

func (w *writer) key(i int) int64 { return int64(w.id*1000 + i) }

// run issues statements on conn until one fails or stop is closed. A
// connection error ends the run with that statement left uncertain; a
// server error is a test failure (the workload is valid SQL).
func (w *writer) run(conn *pgx.Conn, stop <-chan struct{}) {
	ctx := context.Background()
	for {
		select {
		case <-stop:
			return
		default:
		}
		op := w.rng.IntN(100)
		var err error
		var un *uncertainOp
		var apply func()
		switch {
		case op < 15: // a transaction: all of it or none
			if !w.transaction(ctx, conn) {
				return
			}
			continue
		case op < 25: // one log row
			seq := w.nextSeq
			w.nextSeq++
			un = &uncertainOp{seqs: []int64{seq}}
			_, err = conn.Exec(ctx, "INSERT INTO log (writer, seq, note) VALUES ($1, $2, $3)", w.id, seq, fmt.Sprintf("w%d-%d", w.id, seq))
			apply = func() { w.logged[seq] = true }
		case op < 35: // a COPY of several log rows: all or nothing
			seqs := make([]int64, crashCopyRows)
			rows := make([][]any, crashCopyRows)
			for i := range seqs {
				seqs[i] = w.nextSeq
				w.nextSeq++
				rows[i] = []any{int32(w.id), seqs[i], "copy"}
			}
			un = &uncertainOp{seqs: seqs}
			var n int64
			n, err = conn.CopyFrom(ctx, pgx.Identifier{"log"}, []string{"writer", "seq", "note"}, pgx.CopyFromRows(rows))
			if err == nil && n != crashCopyRows {
				w.failure = fmt.Errorf("writer %d: COPY reported %d rows, want %d", w.id, n, crashCopyRows)
				return
			}
			apply = func() {
				for _, s := range seqs {
					w.logged[s] = true
				}
			}
		default:
			k := w.key(w.rng.IntN(crashKeysPerWriter))
			before := w.keys[k]
			ver := w.nextVer
			w.nextVer++
			var after keyState
			var sql string
			var args []any
			var wantTag string
			switch {
			case op < 65: // upsert: a plain INSERT replaces an existing key
				after = keyState{present: true, ver: ver}
				sql, args, wantTag = "INSERT INTO kv (k, ver, writer) VALUES ($1, $2, $3)", []any{k, ver, w.id}, "INSERT 0 1"
			case op < 88:
				after, wantTag = before, "UPDATE 0"
				if before.present {
					after, wantTag = keyState{present: true, ver: ver}, "UPDATE 1"
				}
				sql, args = "UPDATE kv SET ver = $1 WHERE k = $2", []any{ver, k}
			default:
				after, wantTag = keyState{}, "DELETE 0"
				if before.present {
					wantTag = "DELETE 1"
				}
				sql, args = "DELETE FROM kv WHERE k = $1", []any{k}
			}
			un = &uncertainOp{kvs: []kvChange{{key: k, before: before, after: after}}}
			tag, e := conn.Exec(ctx, sql, args...)
			err = e
			if err == nil && tag.String() != wantTag {
				w.failure = fmt.Errorf("writer %d: %s %v: tag %q, want %q (model %+v)", w.id, sql, args, tag, wantTag, before)
				return
			}
			apply = func() { w.keys[k] = after }
		}
		if err != nil {
			if code := sqlState(err); code != "" {
				w.failure = fmt.Errorf("writer %d: server error %s: %v", w.id, code, err)
				return
			}
			w.pending = un // the server died under it
			return
		}
		apply()
		w.acked++
	}
}

// transaction runs BEGIN, a few writes (log rows, upserts and deletes of
// distinct keys) and COMMIT, or ROLLBACK one time in four. It returns false
// when the run must end (connection lost: the transaction is left
// uncertain unless it was rolling back; or a failure).
func (w *writer) transaction(ctx context.Context, conn *pgx.Conn) bool {
	rollback := w.rng.IntN(4) == 0
	un := &uncertainOp{}
	lost := func(err error) bool {
		if code := sqlState(err); code != "" {
			w.failure = fmt.Errorf("writer %d: in a transaction: server error %s: %v", w.id, code, err)
			return false
		}
		if rollback { // never committed: none of it may appear
			w.refused = append(w.refused, un.seqs...)
		} else {
			w.pending = un
		}
		return false
	}
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		return lost(err)
	}
	used := map[int64]bool{}
	for n := 1 + w.rng.IntN(4); n > 0; n-- {
		if w.rng.IntN(2) == 0 {
			seq := w.nextSeq
			w.nextSeq++
			un.seqs = append(un.seqs, seq)
			if _, err := conn.Exec(ctx, "INSERT INTO log (writer, seq, note) VALUES ($1, $2, 'tx')", w.id, seq); err != nil {
				return lost(err)
			}
			continue
		}
		k := w.key(w.rng.IntN(crashKeysPerWriter))
		if used[k] {
			continue
		}
		used[k] = true
		before := w.keys[k]
		ch := kvChange{key: k, before: before}
		var err error
		if w.rng.IntN(3) == 0 {
			_, err = conn.Exec(ctx, "DELETE FROM kv WHERE k = $1", k)
		} else {
			ver := w.nextVer
			w.nextVer++
			ch.after = keyState{present: true, ver: ver}
			_, err = conn.Exec(ctx, "INSERT INTO kv (k, ver, writer) VALUES ($1, $2, $3)", k, ver, w.id)
		}
		un.kvs = append(un.kvs, ch)
		if err != nil {
			return lost(err)
		}
		// Inside the transaction the write is visible to itself.
		var got int64
		err = conn.QueryRow(ctx, "SELECT count(*) FROM kv WHERE k = $1", k).Scan(&got)
		if err != nil {
			return lost(err)
		}
		if want := map[bool]int64{true: 1, false: 0}[ch.after.present]; got != want {
			w.failure = fmt.Errorf("writer %d: inside a transaction key %d counts %d rows after its own write, want %d", w.id, k, got, want)
			return false
		}
	}
	end := "COMMIT"
	if rollback {
		end = "ROLLBACK"
	}
	tag, err := conn.Exec(ctx, end)
	if err != nil {
		return lost(err)
	}
	if tag.String() != end {
		w.failure = fmt.Errorf("writer %d: %s answered %q", w.id, end, tag)
		return false
	}
	if rollback {
		w.refused = append(w.refused, un.seqs...)
	} else {
		for _, s := range un.seqs {
			w.logged[s] = true
		}
		for _, c := range un.kvs {
			w.keys[c.key] = c.after
		}
	}
	w.acked++
	w.txs++
	return true
}

func (w *writer) connError(err error) bool {
	if code := sqlState(err); code != "" {
		w.failure = fmt.Errorf("writer %d: %s %v", w.id, code, err)
	}
	return false
}

// verify compares what the restarted server holds with the writers'
// models, resolves each uncertain statement to what recovery kept, and
// returns the problems found.
func verify(ctx context.Context, conn *pgx.Conn, writers []*writer) []string {
	var problems []string
	logRows := map[int]map[int64]int{} // writer -> seq -> count
	rows, err := conn.Query(ctx, "SELECT writer, seq, note FROM log")
	if err != nil {
		return []string{"scan log: " + err.Error()}
	}
	total := 0
	for rows.Next() {
		var wid int32
		var seq int64
		var note string
		if err := rows.Scan(&wid, &seq, &note); err != nil {
			return []string{"scan log row: " + err.Error()}
		}
		if logRows[int(wid)] == nil {
			logRows[int(wid)] = map[int64]int{}
		}
		logRows[int(wid)][seq]++
		total++
	}
	if err := rows.Err(); err != nil {
		return []string{"scan log: " + err.Error()}
	}
	var count int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM log").Scan(&count); err != nil {
		problems = append(problems, "count log: "+err.Error())
	} else if count != int64(total) {
		problems = append(problems, fmt.Sprintf("count(*) on log is %d but a scan returned %d rows", count, total))
	}

	kv := map[int64]keyState{}
	owner := map[int64]int32{}
	rows, err = conn.Query(ctx, "SELECT k, ver, writer FROM kv")
	if err != nil {
		return append(problems, "scan kv: "+err.Error())
	}
	for rows.Next() {
		var k, ver int64
		var wid int32
		if err := rows.Scan(&k, &ver, &wid); err != nil {
			return append(problems, "scan kv row: "+err.Error())
		}
		if _, dup := kv[k]; dup {
			problems = append(problems, fmt.Sprintf("kv key %d returned twice", k))
		}
		kv[k], owner[k] = keyState{present: true, ver: ver}, wid
	}
	if err := rows.Err(); err != nil {
		return append(problems, "scan kv: "+err.Error())
	}

	known := map[int64]bool{}
	for _, w := range writers {
		got := logRows[w.id]
		delete(logRows, w.id)
		var uncertain map[int64]bool
		pendingKV := map[int64]kvChange{}
		if w.pending != nil {
			// Which effects of the unacknowledged statement or transaction
			// did recovery keep? All or none.
			uncertain = map[int64]bool{}
			kept, lost := 0, 0
			for _, s := range w.pending.seqs {
				uncertain[s] = true
				if got[s] > 0 {
					kept++
				} else {
					lost++
				}
			}
			for _, c := range w.pending.kvs {
				pendingKV[c.key] = c
				if c.before == c.after {
					continue // tells nothing
				}
				switch kv[c.key] {
				case c.after:
					kept++
				case c.before:
					lost++
				default:
					problems = append(problems, fmt.Sprintf("writer %d: key %d holds %+v after an unacknowledged write; want %+v (not applied) or %+v (applied)", w.id, c.key, kv[c.key], c.before, c.after))
				}
			}
			if kept > 0 && lost > 0 {
				problems = append(problems, fmt.Sprintf("writer %d: an unacknowledged statement or transaction is half-visible (%d effects kept, %d lost): %+v", w.id, kept, lost, *w.pending))
			}
			if kept > 0 { // recovery kept it: from now on it must stay
				for _, s := range w.pending.seqs {
					w.logged[s] = true
				}
			}
		}
		for s := range w.logged {
			if got[s] != 1 {
				problems = append(problems, fmt.Sprintf("writer %d: acknowledged log row seq %d appears %d times", w.id, s, got[s]))
			}
		}
		for _, s := range w.refused {
			if got[s] != 0 {
				problems = append(problems, fmt.Sprintf("writer %d: log row seq %d of a rolled-back transaction is present", w.id, s))
			}
		}
		for s, n := range got {
			if !w.logged[s] && !uncertain[s] && !contains(w.refused, s) {
				problems = append(problems, fmt.Sprintf("writer %d: log row seq %d (x%d) was never written", w.id, s, n))
			}
		}

		for k, want := range w.keys {
			known[k] = true
			have := kv[k]
			if _, ok := pendingKV[k]; ok {
				w.keys[k] = have // checked above
				continue
			}
			if have != want {
				problems = append(problems, fmt.Sprintf("writer %d: key %d holds %+v, the acknowledged state is %+v", w.id, k, have, want))
			}
			if have.present && owner[k] != int32(w.id) {
				problems = append(problems, fmt.Sprintf("key %d owned by writer %d holds writer %d", k, w.id, owner[k]))
			}
		}
		w.pending = nil
	}
	for wid := range logRows {
		problems = append(problems, fmt.Sprintf("log rows of unknown writer %d", wid))
	}
	for k := range kv {
		if !known[k] {
			problems = append(problems, fmt.Sprintf("kv key %d belongs to no writer", k))
		}
	}
	sort.Strings(problems)
	return problems
}

func contains(xs []int64, x int64) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestCrashLosesNoAcknowledgedWrite kills a writing sqlgate with SIGKILL at
// random moments and checks, after every restart, that each acknowledged
// statement's effect is there, that each statement in flight at the kill
// is wholly applied or wholly absent, and that every table scans.
func TestCrashLosesNoAcknowledgedWrite(t *testing.T) {
	rounds := envInt(t, "SQLGATE_CRASH_ROUNDS", 50)
	var bins testbin.Cache
	began := time.Now()
	bin := bins.Sqlgate(t)
	t.Logf("built cmd/sqlgate in %v", time.Since(began).Round(time.Millisecond))
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 0))

	proc := startProcess(t, bin, dir)
	{
		conn := connect(t, proc.connString())
		mustExec(t, conn, "CREATE TABLE log (writer INT NOT NULL, seq BIGINT NOT NULL, note TEXT)")
		mustExec(t, conn, "CREATE TABLE kv (k BIGINT PRIMARY KEY, ver BIGINT NOT NULL, writer INT NOT NULL)")
		conn.Close(context.Background())
	}
	writers := make([]*writer, crashWriters)
	for i := range writers {
		writers[i] = newWriter(i+1, seed)
	}
	totalAcked := 0
	for round := 1; round <= rounds; round++ {
		// Kill at a random moment while the writers are busy.
		cs := make([]string, len(writers))
		for i := range cs {
			cs[i] = proc.connString()
		}
		killWhileRunning(t, round, proc, cs, 500*time.Millisecond, rng, func(i int, conn *pgx.Conn, stop <-chan struct{}) {
			writers[i].run(conn, stop)
		})
		for _, w := range writers {
			if w.failure != nil {
				t.Fatalf("round %d: %v", round, w.failure)
			}
		}

		restarted := time.Now()
		proc = startProcess(t, bin, dir)
		restart := time.Since(restarted)
		conn := connect(t, proc.connString())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		inFlight := 0
		for _, w := range writers {
			if w.pending != nil {
				inFlight++
			}
		}
		problems := verify(ctx, conn, writers)
		cancel()
		conn.Close(context.Background())
		acked, txs := 0, 0
		for _, w := range writers {
			acked += w.acked
			txs += w.txs
			w.acked, w.txs = 0, 0
		}
		totalAcked += acked
		if len(problems) > 0 {
			if len(problems) > 20 {
				problems = append(problems[:20], fmt.Sprintf("... and %d more", len(problems)-20))
			}
			t.Fatalf("round %d (seed %d): after SIGKILL and restart:\n%s", round, seed, joinLines(problems))
		}
		t.Logf("round %d: %d statements acknowledged before SIGKILL (%d of them transactions), %d in flight resolved all-or-nothing, all present after a restart of %v",
			round, acked, txs, inFlight, restart.Round(time.Millisecond))
	}
	if totalAcked == 0 {
		t.Fatal("no statement was acknowledged in any round: the workload never ran")
	}
}

func joinLines(xs []string) string {
	out := ""
	for _, x := range xs {
		out += "  " + x + "\n"
	}
	return out
}
