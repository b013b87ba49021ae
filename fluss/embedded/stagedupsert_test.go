package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestStagedUpsertMatchesMemory runs each workload through two stores, one
// holding bulk upserts in memory and one staging them on disk after a few
// kilobytes (many runs), and compares what they committed: the state
// (every key's last row) and, per key, the changelog's sequence of changes
// with their values (inserts for new keys, update pairs for keys that
// existed or repeat in the load). Only the order of different keys within
// the load's changelog may differ (key order when staged, row order in
// memory). The workloads cover the staged commit's ways to its changelog:
// the inserts staged from the records (every key new and once), the merge's
// own (a key stored or repeated within a run: the staged inserts are given
// up before the commit), and both (the merge finds the first stored or
// repeated key part way: the keys before it are logged by a second pass).
func TestStagedUpsertMatchesMemory(t *testing.T) {
	ctx := context.Background()
	names := []string{"id", "k"}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols(names...), PrimaryKey: []string{"id"}}, BucketCount: 3}
	// ids returns 30 parts of 400 distinct new keys (a permutation of
	// 0..11999), with the value part*1000+i.
	ids := func() [][][]int32 {
		var parts [][][]int32
		for part := range int32(30) {
			var rows [][]int32
			for i := range int32(400) {
				rows = append(rows, []int32{(part*400 + i) * 7919 % 12000, part*1000 + i})
			}
			parts = append(parts, rows)
		}
		return parts
	}
	type workload struct {
		name  string
		pre   [][]int32 // rows upserted before the load
		parts [][][]int32
	}
	mixed := workload{name: "stored and repeated keys"}
	for i := range int32(1000) {
		mixed.pre = append(mixed.pre, []int32{i, -i})
	}
	for part := range int32(30) {
		var rows [][]int32
		for i := range int32(400) {
			// New keys, old keys, and keys repeated within and across parts.
			id := (part*397 + i*7919) % 5000
			rows = append(rows, []int32{id, part*1000 + i})
		}
		rows = append(rows, []int32{part % 3, part}) // a key written by every part
		mixed.parts = append(mixed.parts, rows)
	}
	repeatedLate := workload{name: "a key of the first part again in the last", parts: ids()}
	repeatedLate.parts[29] = append(repeatedLate.parts[29], []int32{repeatedLate.parts[0][5][0], -1})
	repeatedInPart := workload{name: "a key twice in one part", parts: ids()}
	repeatedInPart.parts[3] = append(repeatedInPart.parts[3], []int32{repeatedInPart.parts[3][0][0], -1})
	repeatedInLast := workload{name: "a key twice in the last part", parts: ids()}
	repeatedInLast.parts[29] = append(repeatedInLast.parts[29], []int32{repeatedInLast.parts[29][7][0], -1})
	workloads := []workload{
		mixed,
		{name: "every key new", parts: ids()},
		{name: "key 6000 stored", pre: [][]int32{{6000, -6}}, parts: ids()},
		{name: "key 0 stored", pre: [][]int32{{0, -1}}, parts: ids()},
		{name: "key 11999 stored", pre: [][]int32{{11999, -1}}, parts: ids()},
		{name: "stored keys before and after the load's", pre: [][]int32{{-5, -5}, {20000, 2}}, parts: ids()},
		repeatedLate,
		repeatedInPart,
		repeatedInLast,
	}
	type outcome struct {
		state   map[int32]int32
		changes map[int32]string
	}
	run := func(w workload, stage int64) outcome {
		dir := t.TempDir()
		s, err := Open(dir, Options{StageBytes: stage})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tb := createTable(t, s, "pk", desc)
		if len(w.pre) > 0 {
			rec := intRecord(names, w.pre...)
			if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
				t.Fatal(err)
			}
			rec.Release()
		}
		up, err := tb.(fluss.BulkUpserter).BeginUpsert(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := int64(0)
		for _, rows := range w.parts {
			rec := intRecord(names, rows...)
			if err := up.Add(ctx, rec); err != nil {
				t.Fatal(err)
			}
			rec.Release()
			n += int64(len(rows))
		}
		staged := 0
		if ents, err := os.ReadDir(filepath.Join(dir, stagingDir)); err == nil {
			staged = len(ents)
		}
		if (stage > 0) != (staged > 0) {
			t.Fatalf("StageBytes %d: %d staging directories before Commit", stage, staged)
		}
		res, err := up.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows != n {
			t.Fatalf("StageBytes %d: Commit wrote %d rows, want %d", stage, res.Rows, n)
		}
		assertNoStaging(t, dir)
		out := outcome{state: map[int32]int32{}, changes: map[int32]string{}}
		all, _ := scanAll(t, tb, fluss.ScanOptions{})
		for i := range int(all.NumRows()) {
			out.state[all.Column(0).(*array.Int32).Value(i)] = all.Column(1).(*array.Int32).Value(i)
		}
		all.Release()
		// Reopened: the logs' offsets and CRCs check, the state is the same.
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if s, err = Open(dir, Options{StageBytes: stage}); err != nil {
			t.Fatal(err)
		}
		if c := s.Corruptions(); len(c) > 0 {
			t.Fatalf("corruptions after reopening: %v", c)
		}
		if got := countRows(t, mustTable(t, s, "pk")); got != len(out.state) {
			t.Fatalf("%d rows after reopening, want %d", got, len(out.state))
		}
		ents := readChangelog(t, s, "pk")
		slices.SortStableFunc(ents, func(a, b logEntry) int { return int(a.offset - b.offset) })
		for _, e := range ents {
			out.changes[e.id] += fmt.Sprintf("%v%d ", e.change, e.v)
		}
		return out
	}
	for _, w := range workloads {
		t.Run(w.name, func(t *testing.T) {
			mem := run(w, -1)
			// 4 KiB: every part is a run file. 50 KiB: a run every four
			// parts of ~15 KB (rows of ~38 bytes as the budget counts
			// them), and the last two parts are the commit's run in
			// memory (keepTail).
			for _, stage := range []int64{4 << 10, 50 << 10} {
				staged := run(w, stage)
				if len(mem.state) != len(staged.state) {
					t.Fatalf("StageBytes %d: %d keys in memory, %d staged", stage, len(mem.state), len(staged.state))
				}
				if len(mem.changes) != len(staged.changes) {
					t.Fatalf("StageBytes %d: changelog of %d keys in memory, %d staged", stage, len(mem.changes), len(staged.changes))
				}
				for k, v := range mem.state {
					if staged.state[k] != v {
						t.Fatalf("StageBytes %d: key %d: %d in memory, %d staged", stage, k, v, staged.state[k])
					}
					if mem.changes[k] != staged.changes[k] {
						t.Fatalf("StageBytes %d: key %d changelog: %q in memory, %q staged", stage, k, mem.changes[k], staged.changes[k])
					}
				}
			}
		})
	}
}

// TestStagedUpsertDiscardAndCrash: a staged upsert's runs are removed by
// Discard, and by Open after a crash before Commit, which leaves no row
// visible; a table dropped before Commit fails it.
func TestStagedUpsertDiscardAndCrash(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := Options{StageBytes: 1 << 10}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k"), PrimaryKey: []string{"id"}}, BucketCount: 2}
	tb := createTable(t, s, "pk", desc)
	begin := func() fluss.BulkUpsert {
		t.Helper()
		up, err := tb.(fluss.BulkUpserter).BeginUpsert(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for part := range int32(10) {
			var rows [][]int32
			for i := range int32(200) {
				rows = append(rows, []int32{part*200 + i, i})
			}
			rec := intRecord([]string{"id", "k"}, rows...)
			if err := up.Add(ctx, rec); err != nil {
				t.Fatal(err)
			}
			rec.Release()
		}
		return up
	}
	up := begin()
	if ents, _ := os.ReadDir(filepath.Join(dir, stagingDir)); len(ents) == 0 {
		t.Fatal("nothing staged before Discard: its clean-up is not tested")
	}
	up.Discard()
	if got := countRows(t, tb); got != 0 {
		t.Fatalf("%d rows after Discard", got)
	}
	assertNoStaging(t, dir)

	// A crash: never committed nor discarded (its worker stopped, as a
	// killed process's would be, before the next Open).
	begin().(*bulkUpsert).stop()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, stagingDir)); len(ents) == 0 {
		t.Fatal("no staging left to test the clean-up with")
	}
	if s, err = Open(dir, opts); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	assertNoStaging(t, dir)
	tb = mustTable(t, s, "pk")
	if got := countRows(t, tb); got != 0 {
		t.Fatalf("%d rows of an uncommitted upsert after reopening", got)
	}

	up = begin()
	if err := s.DropTable(ctx, path("pk"), false); err != nil {
		t.Fatal(err)
	}
	_, err = up.Commit(ctx)
	wantCode(t, err, sqlerr.UndefinedTable, "pk")
	assertNoStaging(t, dir)
}
