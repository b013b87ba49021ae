package embedded

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// partDesc is a primary-key table (p, k, v) partitioned by p.
func partDesc(props map[string]string) fluss.TableDescriptor {
	return fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("p", "k", "v"), PrimaryKey: []string{"p", "k"}},
		PartitionKeys: []string{"p"}, BucketCount: 2, Properties: props}
}

func partitionNames(t *testing.T, s *Store, p fluss.TablePath) []string {
	t.Helper()
	ps, err := s.ListPartitions(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, pi := range ps {
		out = append(out, pi.Name)
	}
	return out
}

// TestPartitionedTable writes rows of a partitioned table (each row's
// partition created by the write), reads them back whole and pruned,
// deletes by key, drops a partition, and reopens the store: the
// partitions, their ids and rows are kept, and a dropped partition's files
// are gone.
func TestPartitionedTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.CreateTable(ctx, path("pt"), partDesc(nil), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"k"}; !slices.Equal(info.Descriptor.BucketKey, want) {
		t.Fatalf("bucket key %v, want %v (the primary key without the partition key)", info.Descriptor.BucketKey, want)
	}
	tb, err := s.Table(ctx, path("pt"))
	if err != nil {
		t.Fatal(err)
	}
	rec := intRecord([]string{"p", "k", "v"}, []int32{1, 1, 10}, []int32{2, 1, 20}, []int32{1, 2, 11}, []int32{3, 1, 30})
	if res, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil || res.Rows != 4 {
		t.Fatalf("upsert: %+v, %v", res, err)
	}
	rec.Release()
	if got := partitionNames(t, s, path("pt")); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Fatalf("partitions %v", got)
	}
	if e, ok := tb.(fluss.RowEstimator); !ok || e.EstimateRows() != 4 {
		t.Fatalf("row estimate of 4 rows in 3 partitions: %v", tb)
	}
	got, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{2}})
	vs := int32Values(got, 0)
	slices.Sort(vs)
	if !slices.Equal(vs, []int32{10, 11, 20, 30}) {
		t.Fatalf("scan: %v", vs)
	}
	got, _ = scanAll(t, tb, fluss.ScanOptions{Projection: []int{2}, Partitions: func(p fluss.PartitionInfo) bool { return p.Name == "1" }})
	if vs := int32Values(got, 0); len(vs) != 2 {
		t.Fatalf("pruned scan of partition 1: %v", vs)
	}
	keys := intRecord([]string{"p", "k"}, []int32{1, 2}, []int32{9, 9})
	if _, err := tb.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	keys.Release()
	if got := partitionNames(t, s, path("pt")); len(got) != 3 {
		t.Fatalf("a delete created a partition: %v", got)
	}
	lk := intRecord([]string{"p", "k"}, []int32{1, 1}, []int32{1, 2}, []int32{2, 1})
	found, err := tb.Lookup(ctx, lk, []int{2})
	lk.Release()
	if err != nil || found.NumRows() != 2 {
		t.Fatalf("lookup: %v rows, %v", found.NumRows(), err)
	}
	found.Release()
	ps, _ := s.ListPartitions(ctx, path("pt"))
	dropped := ps[1] // "2"
	if err := s.DropPartition(ctx, path("pt"), []string{"2"}, false); err != nil {
		t.Fatal(err)
	}
	if err := s.DropPartition(ctx, path("pt"), []string{"2"}, false); sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		t.Fatalf("dropping a missing partition: %v", err)
	}
	if err := s.CreatePartition(ctx, path("pt"), []string{"3"}, false); sqlerr.CodeOf(err) != sqlerr.DuplicateObject {
		t.Fatalf("creating an existing partition: %v", err)
	}
	if err := s.CreatePartition(ctx, path("pt"), []string{"a b"}, false); sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
		t.Fatalf("creating an invalid partition: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.tableDir(dropped.ID)); !os.IsNotExist(err) {
		t.Fatalf("dropped partition's directory: %v", err)
	}

	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ps2, _ := s.ListPartitions(ctx, path("pt"))
	if len(ps2) != 2 || ps2[0].ID != ps[0].ID || ps2[1].ID != ps[2].ID {
		t.Fatalf("partitions after reopening %+v, before %+v", ps2, ps)
	}
	tb, _ = s.Table(ctx, path("pt"))
	got, _ = scanAll(t, tb, fluss.ScanOptions{Projection: []int{2}})
	vs = int32Values(got, 0)
	slices.Sort(vs)
	if !slices.Equal(vs, []int32{10, 30}) {
		t.Fatalf("scan after reopening: %v", vs)
	}
	if err := s.DropTable(ctx, path("pt"), false); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps2 {
		if _, err := os.Stat(s.tableDir(p.ID)); !os.IsNotExist(err) {
			t.Fatalf("partition %s of a dropped table: %v", p.Name, err)
		}
	}
	if _, err := s.ListPartitions(ctx, path("pt")); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Fatalf("partitions of a dropped table: %v", err)
	}
}

// TestAutoPartition: a DAY auto-partitioned table has today's and
// tomorrow's partitions from its creation (num-precreate 2); a day later
// the next one is created and, with num-retention 1, the partitions
// before yesterday are dropped.
func TestAutoPartition(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2024, 11, 30, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s, err := Open(t.TempDir(), Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "dt", Type: types.StringType}, {Name: "v", Type: types.Int32Type}}},
		PartitionKeys: []string{"dt"}, Properties: map[string]string{
			fluss.PropAutoPartitionEnabled: "true", fluss.PropAutoPartitionTimeUnit: "DAY",
			fluss.PropAutoPartitionTimeZone: "UTC", fluss.PropAutoPartitionRetention: "1"}}
	if _, err := s.CreateTable(ctx, path("auto"), d, false); err != nil {
		t.Fatal(err)
	}
	if got := partitionNames(t, s, path("auto")); !slices.Equal(got, []string{"20241130", "20241201"}) {
		t.Fatalf("pre-created partitions %v", got)
	}
	if err := s.CreatePartition(ctx, path("auto"), []string{"20241101"}, false); err != nil {
		t.Fatal(err)
	}
	now = now.Add(48 * time.Hour)
	if got := partitionNames(t, s, path("auto")); !slices.Equal(got, []string{"20241201", "20241202", "20241203"}) {
		t.Fatalf("partitions two days later %v", got)
	}
}

// The partition crash test: a child writes rows of a partitioned table,
// each row in a partition of its own that the write creates, and drops
// every third row's partition, printing what each call acknowledged; it
// is killed with SIGKILL at a random moment. The store reopened must hold
// every acknowledged row whose partition was not dropped, no dropped
// partition, and no files of partitions the catalog does not list.
const partCrashChildEnv = "SQLGATE_EMBEDDED_PARTCRASH_CHILD"
const partCrashStartEnv = "SQLGATE_EMBEDDED_PARTCRASH_START"

func runPartCrashChild(dir string, start int) error {
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		return err
	}
	if _, err := s.CreateTable(ctx, path("pc"), partDesc(nil), true); err != nil {
		return err
	}
	tb, err := s.Table(ctx, path("pc"))
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	for i := start; ; i++ {
		rec := intRecord([]string{"p", "k", "v"}, []int32{int32(i), 1, int32(i)}, []int32{int32(i), 2, int32(i)})
		_, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "row %d\n", i)
		out.Flush()
		if i%3 == 0 {
			fmt.Fprintf(out, "dropping %d\n", i)
			out.Flush()
			if err := s.DropPartition(ctx, path("pc"), []string{strconv.Itoa(i)}, false); err != nil {
				return err
			}
			fmt.Fprintf(out, "drop %d\n", i)
			out.Flush()
		}
	}
}

func TestCrashPartitions(t *testing.T) {
	if dir := os.Getenv(partCrashChildEnv); dir != "" {
		start, _ := strconv.Atoi(os.Getenv(partCrashStartEnv))
		if err := runPartCrashChild(dir, start); err != nil {
			fmt.Fprintln(os.Stderr, "partition crash child:", err)
			os.Exit(2)
		}
		return
	}
	dir := t.TempDir()
	rows, dropping, dropped := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for round := 1; round <= max(crashRounds()/4, 1); round++ {
		env := []string{partCrashChildEnv + "=" + dir, partCrashStartEnv + "=" + strconv.Itoa(round*1000)}
		killChild(t, "TestCrashPartitions", env, 200*time.Millisecond, func(line string) bool {
			var i int
			switch {
			case scan(line, "row %d", &i):
				rows[i] = true
			case scan(line, "dropping %d", &i):
				dropping[i] = true
			case scan(line, "drop %d", &i):
				dropped[i] = true
			default:
				return false
			}
			return true
		})
		verifyPartCrash(t, dir, rows, dropping, dropped)
	}
}

func verifyPartCrash(t *testing.T, dir string, rows, dropping, dropped map[int]bool) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open after SIGKILL: %v", err)
	}
	defer s.Close()
	ps, err := s.ListPartitions(ctx, path("pc"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[int]bool{}
	live := map[string]bool{}
	for _, p := range ps {
		n, _ := strconv.Atoi(p.Name)
		have[n] = true
		live[strconv.FormatInt(p.ID, 10)] = true
	}
	tb, err := s.Table(ctx, path("pc"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{0}})
	perPartition := map[int32]int{}
	for _, p := range int32Values(got, 0) {
		perPartition[p]++
	}
	for i := range rows {
		switch {
		case dropped[i] && have[i]:
			t.Fatalf("partition %d, dropped with acknowledgement, is back", i)
		case !dropping[i] && (!have[i] || perPartition[int32(i)] != 2):
			t.Fatalf("acknowledged rows of partition %d: partition listed %v, %d rows", i, have[i], perPartition[int32(i)])
		}
	}
	for p, n := range perPartition {
		if !have[int(p)] || n != 2 {
			t.Fatalf("partition %d: listed %v, %d rows", p, have[int(p)], n)
		}
	}
	// No files of a partition the catalog does not list (the table's own
	// directory aside).
	info, _ := s.GetTable(ctx, path("pc"))
	ents, err := os.ReadDir(filepath.Join(dir, "tables"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !live[e.Name()] && e.Name() != strconv.FormatInt(info.TableID, 10) {
			t.Fatalf("files of partition or table %s left behind", e.Name())
		}
	}
	t.Logf("%d rows acknowledged, %d partitions dropped, %d open", len(rows), len(dropped), len(ps))
}
