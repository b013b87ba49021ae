package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bulkDesc is a table keyed by an INT64 or a STRING (keys sharing a long
// prefix, so that sorting them compares whole keys), with two values.
func bulkDesc(strKey bool, buckets int) fluss.TableDescriptor {
	key := types.Int64Type
	if strKey {
		key = types.StringType
	}
	return fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "k", Type: key}, {Name: "v", Type: types.Int64Type}, {Name: "s", Type: types.StringType},
	}, PrimaryKey: []string{"k"}}, BucketCount: buckets}
}

// bulkPart is n rows with keys first, first+1, ... (modulo mod when mod > 0)
// and values that tell the part (tag) and row apart.
func bulkPart(schema *arrow.Schema, strKey bool, tag, first, n, mod int) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for j := range n {
		k := first + j
		if mod > 0 {
			k %= mod
		}
		if strKey {
			rb.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("customer-000000-%d", k))
		} else {
			rb.Field(0).(*array.Int64Builder).Append(int64(k))
		}
		rb.Field(1).(*array.Int64Builder).Append(int64(tag*1_000_000 + j))
		if j%7 == 0 {
			rb.Field(2).AppendNull()
		} else {
			rb.Field(2).(*array.StringBuilder).Append(strings.Repeat("x", j%13))
		}
	}
	return rb.NewRecordBatch()
}

// readAll formats every row a reader gives, skipping the columns in skip.
func readAll(t *testing.T, r fluss.RecordReader, err error, skip map[string]bool) []string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return out
		}
		for i := range int(rec.NumRows()) {
			// WriteString, not fmt: this runs for every cell of 130k-row
			// tables, and under the race detector fmt was most of its cost.
			var sb strings.Builder
			for c, f := range rec.Schema().Fields() {
				if !skip[f.Name] {
					sb.WriteString(rec.Column(c).ValueStr(i))
					sb.WriteByte('|')
				}
			}
			out = append(out, sb.String())
		}
		rec.Release()
	}
}

// TestBulkUpsertMatchesUpsert: a bulk upsert of parts leaves the state,
// changelog, row count and distinct-count sketches that one Upsert of the
// same rows leaves, for new keys (the commit's fast path), keys repeated
// within and across parts, and keys that exist before; committed as a
// pebble batch and as ingested sstables.
//
// The large parts' cases lower Options.ParallelEncodeRows to large (a
// part of that many rows is encoded on two cores as one of the default's
// 65536 is) and keep their shape: the second part overlaps the first,
// which overlaps the rows before. The other cases keep the default, under
// which each of their parts and the reference Upsert encode on one core.
func TestBulkUpsertMatchesUpsert(t *testing.T) {
	ctx := context.Background()
	const large = 2 << 10
	for _, c := range []struct {
		name     string
		strKey   bool
		buckets  int
		parts    [][2]int // first key and rows of each part
		mod      int      // keys modulo mod (0: none)
		before   int      // rows 0..before-1 upserted first
		parallel int      // Options.ParallelEncodeRows (0: the default)
	}{
		{"new keys, one bucket", false, 1, [][2]int{{0, 3000}, {3000, 3000}, {6000, 1000}, {7000, 5000}, {12000, 10}}, 0, 0, 0},
		{"new keys, four buckets", false, 4, [][2]int{{0, 2000}, {2000, 4000}, {6000, 3000}}, 0, 0, 0},
		{"string keys sharing prefixes", true, 3, [][2]int{{0, 2500}, {2500, 2500}, {5000, 2500}}, 0, 0, 0},
		{"repeated keys", false, 2, [][2]int{{0, 3000}, {1500, 3000}, {0, 2000}}, 2500, 0, 0},
		{"existing keys", false, 2, [][2]int{{3000, 3000}, {6000, 2000}}, 0, 4000, 0},
		// Parts this large are encoded on two cores (encodePart).
		{"large parts, repeated and existing keys", false, 2, [][2]int{{0, large}, {large * 5 / 8, large + 7}, {large * 3, 10}}, 0, 1000, large},
		{"large parts, string keys", true, 3, [][2]int{{0, large + 1}, {large + 1, 5}}, 0, 0, large},
	} {
		for _, ingest := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, ingested %v", c.name, ingest), func(t *testing.T) {
				opts := Options{ParallelEncodeRows: c.parallel}
				if ingest { // every group commit ingests sstables
					opts.IngestBytes = 1
				}
				s, err := Open(t.TempDir(), opts)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				bulk := createTable(t, s, "bulk", bulkDesc(c.strKey, c.buckets))
				ref := createTable(t, s, "ref", bulkDesc(c.strKey, c.buckets))
				schema := bulk.Info().ArrowSchema()
				if c.before > 0 {
					rec := bulkPart(schema, c.strKey, 99, 0, c.before, 0)
					for _, tb := range []fluss.Table{bulk, ref} {
						if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
							t.Fatal(err)
						}
					}
					rec.Release()
				}
				up, err := bulk.(fluss.BulkUpserter).BeginUpsert(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var parts []arrow.RecordBatch
				for i, p := range c.parts {
					rec := bulkPart(schema, c.strKey, i, p[0], p[1], c.mod)
					if err := up.Add(ctx, rec); err != nil {
						t.Fatal(err)
					}
					parts = append(parts, rec)
				}
				got, err := up.Commit(ctx)
				if err != nil {
					t.Fatal(err)
				}
				up.Discard() // after Commit: nothing
				all, err := concatRecords(schema, parts)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range parts {
					p.Release()
				}
				want, err := ref.Upsert(ctx, all, fluss.UpsertOptions{})
				all.Release()
				if err != nil {
					t.Fatal(err)
				}
				if got.Rows != want.Rows || got.Kept != nil || want.Kept != nil {
					t.Fatalf("bulk upsert wrote %+v, Upsert %+v", got, want)
				}
				for _, read := range []struct {
					what string
					scan func(tb fluss.Table) (fluss.RecordReader, error)
				}{
					{"state", func(tb fluss.Table) (fluss.RecordReader, error) { return tb.Scan(ctx, fluss.ScanOptions{}) }},
					{"changelog", func(tb fluss.Table) (fluss.RecordReader, error) {
						return tb.(fluss.ChangelogScanner).ScanChangelog(ctx, fluss.ScanOptions{})
					}},
				} {
					skip := map[string]bool{fluss.CommitTimestampColumn: true}
					rb, err := read.scan(bulk)
					b := readAll(t, rb, err, skip)
					rr, err := read.scan(ref)
					r := readAll(t, rr, err, skip)
					if len(b) != len(r) {
						t.Fatalf("%s: %d rows after the bulk upsert, %d after Upsert", read.what, len(b), len(r))
					}
					for i := range b {
						if b[i] != r[i] {
							t.Fatalf("%s row %d: %q after the bulk upsert, %q after Upsert", read.what, i, b[i], r[i])
						}
					}
					if len(b) == 0 {
						t.Fatalf("%s: empty", read.what)
					}
				}
				// Every sstable built was ingested or removed.
				if left, _ := os.ReadDir(filepath.Join(s.dir, ingestDir)); len(left) > 0 {
					t.Errorf("%d files left in %s", len(left), ingestDir)
				}
				for col := range 3 {
					gb, okb := bulk.(fluss.DistinctEstimator).EstimateDistinct(col)
					gr, okr := ref.(fluss.DistinctEstimator).EstimateDistinct(col)
					if gb != gr || okb != okr {
						t.Errorf("column %d: distinct estimate %d (%v) after the bulk upsert, %d (%v) after Upsert", col, gb, okb, gr, okr)
					}
				}
			})
		}
	}
}

// TestBulkUpsertWritesNothingOnError: a part that fails (a NULL key in the
// third part) fails the upsert, reported by Add or at the latest Commit
// with its SQLSTATE, and none of its parts is written; Discard writes
// nothing; the table takes a bulk upsert again afterwards.
func TestBulkUpsertWritesNothingOnError(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "t", bulkDesc(false, 2))
	schema := tb.Info().ArrowSchema()
	count := func() int {
		rec, _ := scanAll(t, tb, fluss.ScanOptions{})
		if rec == nil {
			return 0
		}
		defer rec.Release()
		return int(rec.NumRows())
	}
	// nullKey is n rows whose last key is NULL (a part of
	// defaultParallelEncodeRows rows is encoded on two cores: encodePart).
	nullKey := func(n int) arrow.RecordBatch {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer rb.Release()
		for i := range n {
			if i == n-1 {
				rb.Field(0).AppendNull()
			} else {
				rb.Field(0).(*array.Int64Builder).Append(int64(10000 + i))
			}
			rb.Field(1).(*array.Int64Builder).Append(int64(i))
			rb.Field(2).(*array.StringBuilder).Append("a")
		}
		return rb.NewRecordBatch()
	}
	for _, n := range []int{2, defaultParallelEncodeRows} {
		up, err := tb.(fluss.BulkUpserter).BeginUpsert(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var addErr error
		for i, rec := range []arrow.RecordBatch{bulkPart(schema, false, 0, 0, 3000, 0), bulkPart(schema, false, 1, 3000, 3000, 0), nullKey(n), bulkPart(schema, false, 3, 9000, 10, 0)} {
			if addErr == nil {
				addErr = up.Add(ctx, rec)
				if addErr != nil && i < 2 {
					t.Fatalf("part %d: %v", i, addErr)
				}
			}
			rec.Release()
		}
		_, err = up.Commit(ctx)
		if addErr != nil {
			err = addErr
		}
		if sqlerr.CodeOf(err) != sqlerr.NotNullViolation {
			t.Fatalf("upsert with a NULL key in a part of %d rows: %v, want 23502", n, err)
		}
		if n := count(); n != 0 {
			t.Fatalf("%d rows written by a failed bulk upsert", n)
		}
	}

	up, err := tb.(fluss.BulkUpserter).BeginUpsert(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rec := bulkPart(schema, false, 0, 0, 100, 0)
	if err := up.Add(ctx, rec); err != nil {
		t.Fatal(err)
	}
	up.Discard()
	up.Discard()
	if n := count(); n != 0 {
		t.Fatalf("%d rows written by a discarded bulk upsert", n)
	}
	if _, err := up.Commit(ctx); err == nil {
		t.Fatal("Commit after Discard succeeded")
	}

	up, err = tb.(fluss.BulkUpserter).BeginUpsert(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := up.Add(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if res, err := up.Commit(ctx); err != nil || res.Rows != 100 {
		t.Fatalf("bulk upsert after the failed one: %+v, %v", res, err)
	}
	if n := count(); n != 100 {
		t.Fatalf("%d rows after the bulk upsert, want 100", n)
	}
}

// TestBulkStateGroups: the state runs of a group that ingests are
// sstables as they are, prebuilt ones included, unless two runs write one
// table; they are then sorted together and the later request's write of a
// key wins, whichever of them was prebuilt.
func TestBulkStateGroups(t *testing.T) {
	key := func(table int64, k byte) []byte { return append(tablePrefix(prefixData, table), k) }
	pre := func(ents ...kvEntry) *prebuiltState {
		p := &prebuiltState{state: ents, done: make(chan struct{})}
		close(p.done)
		return p
	}
	show := func(groups [][]kvEntry) string {
		var sb strings.Builder
		for _, g := range groups {
			for _, e := range g {
				fmt.Fprintf(&sb, "%d:%d=%s/%v ", e.key[8], e.key[len(e.key)-1], e.value, e.del)
			}
			sb.WriteString("| ")
		}
		return sb.String()
	}
	a1, a2 := kvEntry{key: key(1, 1), value: []byte("a")}, kvEntry{key: key(1, 2), value: []byte("b")}
	del1 := kvEntry{key: key(1, 1), del: true}
	other := kvEntry{key: key(2, 1), value: []byte("c")}

	b := &bulkState{runs: []bulkRun{{ents: []kvEntry{a1, a2}, pre: pre(a1, a2)}, {ents: []kvEntry{other}}}}
	groups, prebuilt := b.groups()
	if got := show(groups); got != "2:1=c/false | " || len(prebuilt) != 1 {
		t.Fatalf("distinct tables: groups %q, %d prebuilt", got, len(prebuilt))
	}
	for _, c := range []struct {
		name string
		runs []bulkRun
		want string
	}{
		{"prebuilt first", []bulkRun{{ents: []kvEntry{a1, a2}, pre: pre(a1, a2)}, {ents: []kvEntry{del1}}}, "1:1=/true 1:2=b/false | "},
		{"prebuilt last", []bulkRun{{ents: []kvEntry{del1}}, {ents: []kvEntry{a1, a2}, pre: pre(a1, a2)}}, "1:1=a/false 1:2=b/false | "},
	} {
		groups, prebuilt := (&bulkState{runs: c.runs}).groups()
		if got := show(groups); got != c.want || prebuilt != nil {
			t.Errorf("%s: groups %q, %d prebuilt; want %q and none", c.name, got, len(prebuilt), c.want)
		}
	}
}

// TestCommitSurvivesPanic: a request whose preparation panics (here: one
// without a table, a bug of its caller) fails with XX000 instead of taking
// the process down, and the store goes on committing.
func TestCommitSurvivesPanic(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "t", bulkDesc(false, 1))
	res, err := s.submit(ctx, &request{kind: reqUpsert, done: make(chan result, 1)})
	if err != nil || sqlerr.CodeOf(res.err) != sqlerr.InternalError {
		t.Fatalf("a request that panics: %+v, %v; want XX000", res, err)
	}
	rec := bulkPart(tb.Info().ArrowSchema(), false, 0, 0, 10, 0)
	defer rec.Release()
	if got, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil || got.Rows != 10 {
		t.Fatalf("upsert after the panic: %+v, %v", got, err)
	}
}

// BenchmarkUpsertMillion writes a million new keys into a fresh table in
// 8192-row parts (what COPY hands over) and in 65536-row parts (a Flight SQL
// ingest's batches): as one bulk upsert, its parts added as they come, and
// as one Upsert of their concatenation. Here the parts come at once, so the
// bulk upsert's worker overlaps nothing: the figure is what the parts cost
// against one call (a COPY gains by the overlap with the stream, bench W8).
// cpu-ns/row is the process's CPU time (user and system, every goroutine)
// over the timed part: on a shared machine it moves less than rows/s.
func BenchmarkUpsertMillion(b *testing.B) {
	const n = 1_000_000
	ctx := context.Background()
	for _, c := range []struct {
		name string
		part int
		bulk bool
	}{{"bulk upsert of 8192-row parts", 8192, true}, {"bulk upsert of 65536-row parts", 65536, true}, {"one upsert", 8192, false}} {
		bulk, part := c.bulk, c.part
		b.Run(c.name, func(b *testing.B) {
			s := openStore(b, b.TempDir())
			defer s.Close()
			var cpu time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				tb := createTable(b, s, fmt.Sprintf("t%d", i), sixColDesc(true, 1))
				var parts []arrow.RecordBatch
				for lo := 0; lo < n; lo += part {
					parts = append(parts, sixColRecord(tb.Info().ArrowSchema(), int64(lo), min(part, n-lo)))
				}
				var all arrow.RecordBatch
				if !bulk {
					var err error
					if all, err = concatRecords(tb.Info().ArrowSchema(), parts); err != nil {
						b.Fatal(err)
					}
				}
				cpu0 := processCPU()
				b.StartTimer()
				if bulk {
					up, err := tb.(fluss.BulkUpserter).BeginUpsert(ctx)
					if err != nil {
						b.Fatal(err)
					}
					for _, p := range parts {
						if err := up.Add(ctx, p); err != nil {
							b.Fatal(err)
						}
					}
					if _, err := up.Commit(ctx); err != nil {
						b.Fatal(err)
					}
				} else if _, err := tb.Upsert(ctx, all, fluss.UpsertOptions{}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += processCPU() - cpu0
				for _, p := range parts {
					p.Release()
				}
				if all != nil {
					all.Release()
				}
				if err := s.DropTable(ctx, path(fmt.Sprintf("t%d", i)), false); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/n, "cpu-ns/row")
		})
	}
}
