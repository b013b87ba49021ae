package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/testbin"
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

// uncertainOp is a statement whose outcome the client never learnt.
type uncertainOp struct {
	// a kv statement: the key, its state before, and after if applied
	key           int64
	before, after keyState
	isKV          bool
	// log rows (an INSERT or a COPY): all of them or none
	seqs []int64
}

// writer is one client's model of what it has written.
type writer struct {
	id      int
	rng     *rand.Rand
	keys    map[int64]keyState // exact state of each owned key
	logged  map[int64]bool     // log seqs acknowledged (or seen after a restart)
	refused []int64            // log seqs whose INSERT was refused inside BEGIN
	pending *uncertainOp
	nextSeq int64
	nextVer int64
	acked   int // statements acknowledged, for the report
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
func (w *writer) run(conn *pgx.Conn, stop <-chan struct{}, tryTx bool) {
	ctx := context.Background()
	if tryTx {
		if !w.refusedTxWrite(ctx, conn) {
			return
		}
	}
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
			un = &uncertainOp{isKV: true, key: k, before: before, after: after}
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

// refusedTxWrite checks that a write inside BEGIN is refused with 0A000
// (rather than accepted and silently dropped) and that the session
// recovers with ROLLBACK. It returns false when the connection died.
func (w *writer) refusedTxWrite(ctx context.Context, conn *pgx.Conn) bool {
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		return w.connError(err)
	}
	seq := w.nextSeq
	w.nextSeq++
	_, err := conn.Exec(ctx, "INSERT INTO log (writer, seq, note) VALUES ($1, $2, 'in-tx')", w.id, seq)
	switch code := sqlState(err); {
	case err == nil:
		w.failure = fmt.Errorf("writer %d: INSERT inside BEGIN was accepted; writes in transactions are not implemented, so it must be refused", w.id)
		return false
	case code == "0A000":
		w.refused = append(w.refused, seq)
	case code != "":
		w.failure = fmt.Errorf("writer %d: INSERT inside BEGIN: %s %v, want 0A000", w.id, code, err)
		return false
	default:
		w.pending = &uncertainOp{seqs: []int64{seq}}
		return false
	}
	if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
		return w.connError(err)
	}
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
		if w.pending != nil && !w.pending.isKV {
			uncertain = map[int64]bool{}
			present := 0
			for _, s := range w.pending.seqs {
				uncertain[s] = true
				if got[s] > 0 {
					present++
				}
			}
			if present != 0 && present != len(w.pending.seqs) {
				problems = append(problems, fmt.Sprintf("writer %d: an unacknowledged statement of %d log rows is half-visible (%d rows)", w.id, len(w.pending.seqs), present))
			}
			if present > 0 { // recovery kept it: from now on it must stay
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
				problems = append(problems, fmt.Sprintf("writer %d: log row seq %d written inside BEGIN was refused with 0A000 but is present", w.id, s))
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
			if w.pending != nil && w.pending.isKV && w.pending.key == k {
				if have != w.pending.before && have != w.pending.after {
					problems = append(problems, fmt.Sprintf("writer %d: key %d holds %+v after an unacknowledged statement; want %+v (not applied) or %+v (applied)", w.id, k, have, w.pending.before, w.pending.after))
				}
				w.keys[k] = have
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
	rounds := envInt(t, "SQLGATE_CRASH_ROUNDS", 10)
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
		conns := make([]*pgx.Conn, len(writers))
		for i := range writers {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			c, err := pgx.Connect(ctx, proc.connString())
			cancel()
			if err != nil {
				t.Fatalf("round %d: connect: %v", round, err)
			}
			conns[i] = c
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for i, w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.run(conns[i], stop, i == round%len(writers))
			}()
		}
		// Kill at a random moment while the writers are busy.
		time.Sleep(time.Duration(30+rng.IntN(500)) * time.Millisecond)
		proc.kill()
		close(stop)
		wg.Wait()
		for _, c := range conns {
			c.Close(context.Background())
		}
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
		problems := verify(ctx, conn, writers)
		cancel()
		conn.Close(context.Background())
		acked := 0
		for _, w := range writers {
			acked += w.acked
			w.acked = 0
		}
		totalAcked += acked
		if len(problems) > 0 {
			if len(problems) > 20 {
				problems = append(problems[:20], fmt.Sprintf("... and %d more", len(problems)-20))
			}
			t.Fatalf("round %d (seed %d): after SIGKILL and restart:\n%s", round, seed, joinLines(problems))
		}
		t.Logf("round %d: %d statements acknowledged before SIGKILL, all present after a restart of %v", round, acked, restart.Round(time.Millisecond))
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
