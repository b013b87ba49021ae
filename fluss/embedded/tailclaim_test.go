package embedded

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// logHeader is one batch header of a bucket log, with its CRC's verdict.
type logHeader struct {
	h     format.BatchHeader
	crcOK bool
}

// logHeaders reads the headers of every batch of bucket b's log of table
// name up to its committed length, checking each CRC, and fails unless the
// batches' log offsets run on from 0 and the log file ends at the
// committed length.
func logHeaders(t *testing.T, s *Store, name string, b int) []logHeader {
	t.Helper()
	s.catMu.Lock()
	ts := s.tables[path(name)]
	s.catMu.Unlock()
	bl := ts.buckets[b]
	ts.mu.RLock()
	limit := bl.committed
	ts.mu.RUnlock()
	data, err := os.ReadFile(bl.path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != limit {
		t.Fatalf("bucket %d's log is %d bytes long, %d committed: bytes left past the committed length", b, len(data), limit)
	}
	var out []logHeader
	var next int64
	for pos := int64(0); pos < limit; {
		h, err := format.ParseHeader(data[pos:])
		if err != nil {
			t.Fatal(err)
		}
		if h.BaseOffset != next {
			t.Fatalf("bucket %d: batch at byte %d has base offset %d, want %d", b, pos, h.BaseOffset, next)
		}
		out = append(out, logHeader{h: h, crcOK: format.VerifyBatch(data[pos:pos+h.Size()]) == nil})
		next = h.NextOffset()
		pos += h.Size()
	}
	return out
}

// stagingFiles lists the bucket files under the store's staging/.
func stagingFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, stagingDir, "*", "bucket-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func addRows(t *testing.T, ap fluss.BulkAppend, from, n int32) {
	t.Helper()
	rows := make([][]int32, n)
	for i := range rows {
		rows[i] = []int32{from + int32(i), int32(i)}
	}
	rec := intRecord([]string{"id", "k"}, rows...)
	defer rec.Release()
	if err := ap.Add(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
}

// TestStagedAppendClaimsLogEnds: a bulk append alone on its table writes
// its batches past the logs' committed lengths (nothing staged, nothing
// visible), and its commit stamps them with the commit time in place:
// offsets run on from the earlier writes, every CRC holds, each batch
// carries the time of its commit, and the logs end at their committed
// lengths, before and after reopening.
func TestStagedAppendClaimsLogEnds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var clock atomic.Int64
	clock.Store(1_000_000)
	opts := Options{Now: func() time.Time { return time.UnixMilli(clock.Load()) }}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	tb := createTable(t, s, "claimed", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 2})
	for i := range int32(4) { // both buckets hold committed batches
		rec := intRecord([]string{"id", "k"}, []int32{-1 - i, i})
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for part := range int32(6) {
		clock.Add(1000)
		addRows(t, ap, part*1000, 700)
	}
	if f := stagingFiles(t, dir); len(f) > 0 {
		t.Fatalf("a lone bulk append staged %v instead of writing its logs' ends", f)
	}
	if got := countRows(t, tb); got != 4 {
		t.Fatalf("%d rows visible before Commit, want the 4 committed", got)
	}
	clock.Store(9_000_000)
	res, err := ap.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ap.Discard()
	if res.Rows != 4200 {
		t.Fatalf("Commit wrote %d rows, want 4200", res.Rows)
	}
	check := func(s *Store) {
		t.Helper()
		if got := countRows(t, mustTable(t, s, "claimed")); got != 4204 {
			t.Fatalf("%d rows, want 4204", got)
		}
		for b := range 2 {
			hs := logHeaders(t, s, "claimed", b)
			if len(hs) != 2+3 {
				t.Fatalf("bucket %d holds %d batches, want 2 appends and 3 parts", b, len(hs))
			}
			for i, h := range hs {
				want := int64(1_000_000)
				if i >= 2 {
					want = 9_000_000
				}
				if !h.crcOK || h.h.CommitTimestamp != want {
					t.Fatalf("bucket %d batch %d: CRC ok %v, commit time %d, want %d", b, i, h.crcOK, h.h.CommitTimestamp, want)
				}
			}
		}
	}
	check(s)
	s = reopenClean(t, s, dir)
	defer s.Close()
	check(s)
}

// TestStagedAppendClaimTakenBack: another writer of a claimed bucket
// commits at once, the append's bytes moved to its staging file; two
// bulk appends of one table, committed in either order, with writes in
// between; a claimed append discarded, or failed by an ALTER TABLE, leaves
// its logs at their committed lengths. Offsets run on and every CRC holds.
func TestStagedAppendClaimTakenBack(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	tb := createTable(t, s, "taken", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 1})
	appendOne := func(id int32) {
		t.Helper()
		rec := intRecord([]string{"id", "k"}, []int32{id, 0})
		defer rec.Release()
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	begin := func() fluss.BulkAppend {
		t.Helper()
		ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ap
	}
	commit := func(ap fluss.BulkAppend, want int64) {
		t.Helper()
		res, err := ap.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows != want {
			t.Fatalf("Commit wrote %d rows, want %d", res.Rows, want)
		}
	}
	want := 0

	// One claimed append, a concurrent row in the middle.
	a1 := begin()
	addRows(t, a1, 0, 300)
	if f := stagingFiles(t, dir); len(f) != 0 {
		t.Fatalf("staged %v before anyone else wrote", f)
	}
	appendOne(-1)
	want++
	if f := stagingFiles(t, dir); len(f) != 1 {
		t.Fatalf("staging holds %v after a concurrent write, want the moved bucket", f)
	}
	logHeaders(t, s, "taken", 0) // the log ends at its committed length
	addRows(t, a1, 1000, 300)
	commit(a1, 600)
	a1.Discard()
	want += 600

	// Two appends: a2 claims, a3 stages; a3 commits first, taking a2's end.
	a2, a3 := begin(), begin()
	addRows(t, a2, 2000, 200)
	addRows(t, a3, 3000, 200)
	addRows(t, a2, 2200, 200)
	commit(a3, 200)
	appendOne(-2)
	addRows(t, a2, 2400, 200)
	commit(a2, 600)
	want += 801

	// A claimed append discarded, and one an ALTER TABLE fails.
	a4 := begin()
	addRows(t, a4, 4000, 500)
	a4.Discard()
	logHeaders(t, s, "taken", 0)
	a5 := begin()
	addRows(t, a5, 5000, 500)
	if _, err := s.AlterTable(ctx, path("taken"), []fluss.TableChange{{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: "c", Type: types.Int32Type}}}); err != nil {
		t.Fatal(err)
	}
	_, err := a5.Commit(ctx)
	wantCode(t, err, sqlerr.SerializationFailure, "altered")
	assertNoStaging(t, dir)

	check := func(s *Store) {
		t.Helper()
		if got := countRows(t, mustTable(t, s, "taken")); got != want {
			t.Fatalf("%d rows, want %d", got, want)
		}
		for i, h := range logHeaders(t, s, "taken", 0) {
			if !h.crcOK {
				t.Fatalf("batch %d fails its CRC", i)
			}
		}
	}
	check(s)
	// The table takes appends after all that.
	tb = mustTable(t, s, "taken")
	a6 := begin()
	rows := make([][]int32, 100)
	for i := range rows {
		rows[i] = []int32{6000 + int32(i), 0, 1}
	}
	rec := intRecord([]string{"id", "k", "c"}, rows...)
	if err := a6.Add(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	commit(a6, 100)
	want += 100
	check(s)
	s = reopenClean(t, s, dir)
	defer s.Close()
	check(s)
}

// TestStagedAppendClaimDropAndClose: a table dropped under a claimed
// append fails its next Add and its Commit; a store closed under one
// leaves bytes past the committed length that Open cuts off.
func TestStagedAppendClaimDropAndClose(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	tb := createTable(t, s, "dropped", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 1})
	ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addRows(t, ap, 0, 100)
	if err := s.DropTable(ctx, path("dropped"), false); err != nil {
		t.Fatal(err)
	}
	rec := intRecord([]string{"id", "k"}, []int32{1, 1})
	err = ap.Add(ctx, rec)
	rec.Release()
	wantCode(t, err, sqlerr.UndefinedTable, "dropped")
	_, err = ap.Commit(ctx)
	wantCode(t, err, sqlerr.UndefinedTable, "dropped")
	assertNoStaging(t, dir)

	tb = createTable(t, s, "closed", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 1})
	ap, err = tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addRows(t, ap, 0, 100)
	s.catMu.Lock()
	logPath := s.tables[path("closed")].buckets[0].path
	s.catMu.Unlock()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(logPath); err != nil || st.Size() == 0 {
		t.Fatalf("no claimed bytes in the log to test Open with (%v)", err)
	}
	s = openStore(t, dir)
	defer s.Close()
	assertNoStaging(t, dir)
	if got := countRows(t, mustTable(t, s, "closed")); got != 0 {
		t.Fatalf("%d rows of an uncommitted append after reopening", got)
	}
	logHeaders(t, s, "closed", 0)
}

// failLogSync fails the fsyncs of bucket logs while armed.
type failLogSync struct{ armed atomic.Bool }

func (f *failLogSync) Sync(name string, kind SyncKind, sync func() error) error {
	if kind == SyncFull && strings.HasSuffix(name, ".log") && f.armed.Load() {
		return errors.New("injected fsync failure")
	}
	return sync()
}

// TestStagedAppendClaimCommitFails: a claimed append whose commit fails
// (its log's fsync) leaves nothing visible and nothing past the committed
// length; the table takes a later bulk append, which claims the end again,
// and the store reopens clean.
func TestStagedAppendClaimCommitFails(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	syncer := &failLogSync{}
	s, err := Open(dir, Options{Syncer: syncer})
	if err != nil {
		t.Fatal(err)
	}
	tb := createTable(t, s, "failing", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 2})
	ap, err := tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addRows(t, ap, 0, 500)
	addRows(t, ap, 500, 500)
	syncer.armed.Store(true)
	if _, err := ap.Commit(ctx); err == nil {
		t.Fatal("Commit succeeded although its log's fsync failed")
	}
	syncer.armed.Store(false)
	ap.Discard()
	if got := countRows(t, tb); got != 0 {
		t.Fatalf("%d rows visible after a failed Commit", got)
	}
	for b := range 2 {
		logHeaders(t, s, "failing", b)
	}
	assertNoStaging(t, dir)
	ap, err = tb.(fluss.BulkAppender).BeginAppend(ctx)
	if err != nil {
		t.Fatal(err)
	}
	addRows(t, ap, 2000, 300)
	addRows(t, ap, 2300, 300)
	if f := stagingFiles(t, dir); len(f) > 0 {
		t.Fatalf("the next bulk append staged %v: the failed one kept its claims", f)
	}
	if _, err := ap.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	ap.Discard()
	if got := countRows(t, tb); got != 600 {
		t.Fatalf("%d rows, want 600", got)
	}
	s = reopenClean(t, s, dir)
	defer s.Close()
	for b := range 2 {
		for i, h := range logHeaders(t, s, "failing", b) {
			if !h.crcOK {
				t.Fatalf("bucket %d batch %d fails its CRC", b, i)
			}
		}
	}
}
