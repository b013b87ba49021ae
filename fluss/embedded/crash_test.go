package embedded

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// The crash test re-executes the test binary as a writer child (selected by
// crashChildEnv), kills it with SIGKILL at a random moment, reopens the store
// and checks that every acknowledged write survived whole and that no write
// is visible in part.
const (
	crashChildEnv = "SQLGATE_EMBEDDED_CRASH_CHILD"
	crashStartEnv = "SQLGATE_EMBEDDED_CRASH_START"
	crashRowsLog  = 50
	// crashIngestEnv makes the child ingest every group commit's state as
	// sstables (Options.IngestBytes = 1), the path bulk loads take.
	crashIngestEnv = "SQLGATE_EMBEDDED_CRASH_INGEST"
	// crashStagedEnv makes the child write the log table with staged bulk
	// appends (staged.go).
	crashStagedEnv = "SQLGATE_EMBEDDED_CRASH_STAGED"
	// crashWritersEnv is the number of the child's writers (4 unless
	// set); one writer holds every bucket log's end (tailclaim.go), and
	// its commits are lone groups (commitlog.go).
	crashWritersEnv = "SQLGATE_EMBEDDED_CRASH_WRITERS"
	// crashStagedUpsertEnv makes the child write the primary-key table
	// with bulk upserts staged on disk part by part (stagedupsert.go).
	crashStagedUpsertEnv = "SQLGATE_EMBEDDED_CRASH_STAGED_UPSERT"
	// crashAsyncEnv makes half of the child's writers ("half") or all of
	// them ("all") write without waiting for the sync
	// (fluss.WithoutSyncWait): they print "aack id", and the others print
	// "begin id" before their writes (asynccommit.go).
	crashAsyncEnv = "SQLGATE_EMBEDDED_CRASH_ASYNC"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(recoveryChildEnv); dir != "" {
		runRecoveryChild(dir) // recovery_test.go; killed, never returns
	}
	if dir := os.Getenv(crashChildEnv); dir != "" {
		start, _ := strconv.ParseInt(os.Getenv(crashStartEnv), 10, 32)
		if err := runCrashChild(dir, int32(start)); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func crashTables(ctx context.Context, s *Store) (fluss.Table, fluss.Table, error) {
	_, err := s.CreateTable(ctx, path("crash_log"), fluss.TableDescriptor{
		Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 4, BucketKey: []string{"k"}}, true)
	if err != nil {
		return nil, nil, err
	}
	_, err = s.CreateTable(ctx, path("crash_pk"), fluss.TableDescriptor{
		Schema: fluss.Schema{Columns: intCols("k", "id"), PrimaryKey: []string{"k"}}, BucketCount: 3}, true)
	if err != nil {
		return nil, nil, err
	}
	lt, err := s.Table(ctx, path("crash_log"))
	if err != nil {
		return nil, nil, err
	}
	pt, err := s.Table(ctx, path("crash_pk"))
	return lt, pt, err
}

// runCrashChild writes until killed: each batch id appends crashRowsLog rows
// to the log table and upserts key id into the PK table, then prints "ack id".
func runCrashChild(dir string, start int32) error {
	ctx := context.Background()
	opts := Options{}
	if os.Getenv(crashIngestEnv) != "" {
		opts.IngestBytes = 1
	}
	stagedUpsert := os.Getenv(crashStagedUpsertEnv) != ""
	if stagedUpsert {
		opts.StageBytes = 1 // every part is a run on disk
	}
	var outMu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	if spec := os.Getenv(crashSyncKillEnv); spec != "" {
		ks, err := newKillSyncer(spec, &outMu, out)
		if err != nil {
			return err
		}
		opts.Syncer, opts.CheckpointBytes = ks, crashCheckpointBytes
	}
	s, err := Open(dir, opts)
	if err != nil {
		return err
	}
	lt, pt, err := crashTables(ctx, s)
	if err != nil {
		return err
	}
	var next atomic.Int32
	next.Store(start)
	staged := os.Getenv(crashStagedEnv) != ""
	asyncMode := os.Getenv(crashAsyncEnv)
	writers := 4
	if n, err := strconv.Atoi(os.Getenv(crashWritersEnv)); err == nil && n > 0 {
		writers = n
	}
	errc := make(chan error, writers)
	for w := 0; w < writers; w++ {
		async := asyncMode == "all" || asyncMode == "half" && w%2 == 0
		ctx := ctx
		ack := "ack"
		if async {
			ctx, ack = fluss.WithoutSyncWait(ctx), "aack"
		}
		go func() {
			for {
				id := next.Add(1) - 1
				if asyncMode != "" && !async {
					// Printed before the write is submitted: every "aack"
					// printed before it was committed before it, and the
					// write's sync makes those durable too.
					outMu.Lock()
					fmt.Fprintf(out, "begin %d\n", id)
					out.Flush()
					outMu.Unlock()
				}
				rows := make([][]int32, crashRowsLog)
				for k := range rows {
					rows[k] = []int32{id, int32(k)}
				}
				var err error
				if staged {
					err = appendStaged(ctx, lt, rows)
				} else {
					rec := intRecord([]string{"id", "k"}, rows...)
					_, err = lt.Append(ctx, rec)
					rec.Release()
				}
				switch {
				case err != nil:
				case stagedUpsert:
					err = upsertStaged(ctx, pt, [][]int32{{id, id}}, [][]int32{{-1, id}})
				default:
					rec := intRecord([]string{"k", "id"}, []int32{id, id}, []int32{-1, id})
					_, err = pt.Upsert(ctx, rec, fluss.UpsertOptions{})
					rec.Release()
				}
				if err != nil {
					errc <- err
					return
				}
				outMu.Lock()
				fmt.Fprintf(out, "%s %d\n", ack, id)
				out.Flush()
				outMu.Unlock()
			}
		}()
	}
	return <-errc
}

func crashRounds() int {
	if n, err := strconv.Atoi(os.Getenv("SQLGATE_CRASH_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 20 // issue 3: twenty SIGKILLs in every `make test`
}

func TestCrashRecovery(t *testing.T) { crashRecovery(t, crashRounds(), false) }

// TestCrashRecoveryStaged is TestCrashRecovery with the log table's
// batches written as staged bulk appends of two parts each (staged.go): a
// torn one would show half a batch.
func TestCrashRecoveryStaged(t *testing.T) {
	crashRecovery(t, max(crashRounds()/2, 1), false, crashStagedEnv+"=1")
}

// TestCrashRecoveryStagedAlone is TestCrashRecoveryStaged with one
// writer: each bulk append holds the claim on every bucket log's end
// (tailclaim.go) and writes its batches there, so the kill lands while
// they are written past the committed lengths, stamped or synced: none
// may show, nor be left in the logs, unless acknowledged.
func TestCrashRecoveryStagedAlone(t *testing.T) {
	crashRecovery(t, max(crashRounds()/2, 1), false, crashStagedEnv+"=1", crashWritersEnv+"=1")
}

// appendStaged appends rows to tb as a bulk append of two parts.
func appendStaged(ctx context.Context, tb fluss.Table, rows [][]int32) error {
	ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		return err
	}
	defer ap.Discard()
	half := len(rows) / 2
	for _, part := range [][][]int32{rows[:half], rows[half:]} {
		rec := intRecord([]string{"id", "k"}, part...)
		err := ap.Add(ctx, rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	_, err = ap.Commit(ctx)
	return err
}

// TestCrashRecoveryStagedUpsert is TestCrashRecovery with the primary-key
// table's keys written as bulk upserts staged on disk, a run per part:
// killed while staging, merging or ingesting, nothing of an
// unacknowledged one may be left (no staging, no log bytes past the
// committed lengths), and every acknowledged one is there.
func TestCrashRecoveryStagedUpsert(t *testing.T) {
	crashRecovery(t, max(crashRounds()/2, 1), false, crashStagedUpsertEnv+"=1")
}

// upsertStaged upserts the (k, id) rows of parts into tb as one bulk
// upsert of those parts.
func upsertStaged(ctx context.Context, tb fluss.Table, parts ...[][]int32) error {
	up, err := tb.(fluss.BulkUpserter).BeginUpsert(ctx)
	if err != nil {
		return err
	}
	defer up.Discard()
	for _, part := range parts {
		rec := intRecord([]string{"k", "id"}, part...)
		err := up.Add(ctx, rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	_, err = up.Commit(ctx)
	return err
}

// TestCrashRecoveryIngest is TestCrashRecovery with every group commit's
// state ingested as sstables: the committed lengths must stay atomic with
// the state there too.
func TestCrashRecoveryIngest(t *testing.T) { crashRecovery(t, max(crashRounds()/2, 1), true) }

// TestCrashRecoveryAsync is TestCrashRecovery with writers that do not
// wait for their sync (synchronous_commit = off): half of them, or every
// one in one round out of three. SIGKILL loses what pebble had not
// written out yet (a commit without a sync stays in its write-ahead log's
// buffer), so those writes may be lost even when acknowledged, but never
// in part; every write that waited survives, and so does every write
// acknowledged before one that waited began.
func TestCrashRecoveryAsync(t *testing.T) {
	dir := t.TempDir()
	acked := map[int32]bool{}
	lost := 0
	for round := 1; round <= max(crashRounds()/2, 3); round++ {
		mode := "half"
		if round%3 == 0 {
			mode = "all"
		}
		env := []string{crashChildEnv + "=" + dir, crashStartEnv + "=" + strconv.Itoa(round*1_000_000), crashAsyncEnv + "=" + mode}
		// Every second round lives long enough for the committer's
		// timer to sync unsynced commits beside the writers
		// (asynccommit.go, every asyncSyncDelay) before the kill.
		maxDelay := 150 * time.Millisecond
		if round%2 == 0 {
			maxDelay = 4 * asyncSyncDelay
		}
		var aacks []int32         // the async acknowledgements, in order
		before := map[int32]int{} // a waiting write's id -> len(aacks) when it began
		var waited, asyncAcks int
		killChild(t, "TestCrashRecovery", env, maxDelay, func(line string) bool {
			var id int32
			switch {
			case scan(line, "aack %d", &id):
				aacks = append(aacks, id)
				asyncAcks++
				return true
			case scan(line, "begin %d", &id):
				before[id] = len(aacks)
			case scan(line, "ack %d", &id):
				acked[id] = true
				waited++
				// Its sync covered every write acknowledged before it began.
				for _, a := range aacks[:before[id]] {
					acked[a] = true
				}
				return true
			}
			return false
		})
		required := 0
		for _, a := range aacks {
			if acked[a] {
				required++
			}
		}
		s := reopenAfterKill(t, dir)
		lt, _, err := crashTables(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := scanAll(t, lt, fluss.ScanOptions{Projection: []int{0}})
		present := map[int32]bool{}
		for _, id := range int32Values(got, 0) {
			present[id] = true
		}
		if got != nil {
			got.Release()
		}
		s.Close()
		roundLost := 0
		for _, a := range aacks {
			if !present[a] {
				roundLost++
			}
		}
		lost += roundLost
		t.Logf("round %d (%s): %d writes that waited and %d that did not acknowledged before SIGKILL; %d of these required by a later sync, %d lost",
			round, mode, waited, asyncAcks, required, roundLost)
		verifyCrashStore(t, dir, acked)
	}
	t.Logf("%d acknowledged writes that did not wait were lost in all", lost)
}

func crashRecovery(t *testing.T, rounds int, ingest bool, env ...string) {
	dir := t.TempDir()
	acked := map[int32]bool{}
	for round := 1; round <= rounds; round++ {
		env := append([]string{crashChildEnv + "=" + dir, crashStartEnv + "=" + strconv.Itoa(round*1_000_000)}, env...)
		if ingest {
			env = append(env, crashIngestEnv+"=1")
		}
		roundAcks := 0
		killChild(t, "TestCrashRecovery", env, 150*time.Millisecond, func(line string) bool {
			var id int32
			if _, err := fmt.Sscanf(line, "ack %d", &id); err != nil {
				return false
			}
			acked[id] = true
			roundAcks++
			return true
		})
		t.Logf("round %d: %d batches acknowledged before SIGKILL", round, roundAcks)
		verifyCrashStore(t, dir, acked)
	}
}

// startCrashChild starts the writer child of round on dir, with env added
// to its environment, and returns it with its standard output.
func startCrashChild(t *testing.T, dir string, round int, env ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	env = append([]string{crashChildEnv + "=" + dir, crashStartEnv + "=" + strconv.Itoa(round*1_000_000)}, env...)
	return startChild(t, "TestCrashRecovery", env)
}

// startChild starts this test binary running only test, with env added
// to its environment, and returns it with its standard output.
func startChild(t *testing.T, test string, env []string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout
}

// reopenAfterKill opens the store a killed child left, which must open
// without finding damage.
func reopenAfterKill(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open after SIGKILL: %v", err)
	}
	if c := s.Corruptions(); len(c) > 0 {
		s.Close()
		t.Fatalf("corruption after SIGKILL: %v", c)
	}
	return s
}

func verifyCrashStore(t *testing.T, dir string, acked map[int32]bool) {
	t.Helper()
	s := reopenAfterKill(t, dir)
	defer s.Close()
	assertNoStaging(t, dir)
	lt, pt, err := crashTables(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := scanAll(t, lt, fluss.ScanOptions{Projection: []int{0}})
	counts := map[int32]int{}
	for _, id := range int32Values(got, 0) {
		counts[id]++
	}
	if got != nil {
		got.Release()
	}
	for id, n := range counts {
		if n != crashRowsLog {
			t.Fatalf("batch %d has %d of its %d rows: a write was torn", id, n, crashRowsLog)
		}
	}
	var keys [][]int32
	for id := range acked {
		if counts[id] != crashRowsLog {
			t.Fatalf("acknowledged batch %d lost (%d rows)", id, counts[id])
		}
		keys = append(keys, []int32{id})
	}
	if len(keys) == 0 {
		return
	}
	krec := intRecord([]string{"k"}, keys...)
	defer krec.Release()
	rows, err := pt.Lookup(context.Background(), krec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Release()
	if int(rows.NumRows()) != len(keys) {
		t.Fatalf("lookup found %d of %d acknowledged keys", rows.NumRows(), len(keys))
	}
	ks, ids := rows.Column(0).(*array.Int32), rows.Column(1).(*array.Int32)
	for i := 0; i < ks.Len(); i++ {
		if ks.Value(i) != ids.Value(i) {
			t.Fatalf("key %d holds %d", ks.Value(i), ids.Value(i))
		}
	}
}

// killChild runs the test binary's test named test as a child with env
// added, hands each line it prints to onLine (called from one goroutine;
// it reports whether the line acknowledged something), kills it with
// SIGKILL a random moment below maxDelay after its first acknowledgement,
// and returns once its output is read: every acknowledgement it printed
// has been handed over.
func killChild(t *testing.T, test string, env []string, maxDelay time.Duration, onLine func(string) bool) {
	t.Helper()
	cmd, stdout := startChild(t, test, env)
	first := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stdout)
		once := sync.Once{}
		for sc.Scan() {
			if onLine(sc.Text()) {
				once.Do(func() { close(first) })
			}
		}
	}()
	select {
	case <-first:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("%s: the child acknowledged nothing in 10s", test)
	}
	time.Sleep(time.Duration(rand.Int64N(int64(maxDelay))))
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-readDone
	_ = cmd.Wait()
}
