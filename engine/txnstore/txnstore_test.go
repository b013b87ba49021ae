package txnstore_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// row is one row of the test tables: (id BIGINT NOT NULL, v TEXT, n BIGINT).
type row struct {
	id int64
	v  string
	n  int64
}

func openStore(t *testing.T) *embedded.Store {
	t.Helper()
	s, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// createTable makes table name (a primary-key table on id when pk) holding
// rows, committed.
func createTable(t *testing.T, s *embedded.Store, name string, pk bool, rows ...row) fluss.Table {
	t.Helper()
	ctx := context.Background()
	id := types.Int64Type
	id.NotNull = true
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: id}, {Name: "v", Type: types.StringType}, {Name: "n", Type: types.Int64Type}}}}
	if pk {
		d.Schema.PrimaryKey = []string{"id"}
	}
	p := fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
	if _, err := s.CreateTable(ctx, p, d, false); err != nil {
		t.Fatal(err)
	}
	tb, err := s.Table(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) > 0 {
		rec := record(tb.Info(), rows...)
		defer rec.Release()
		if pk {
			_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		} else {
			_, err = tb.Append(ctx, rec)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

func record(info fluss.TableInfo, rows ...row) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, info.ArrowSchema())
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		b.Field(1).(*array.StringBuilder).Append(r.v)
		b.Field(2).(*array.Int64Builder).Append(r.n)
	}
	return b.NewRecordBatch()
}

func keys(info fluss.TableInfo, ids ...int64) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{info.ArrowSchema().Field(0)}, nil))
	defer b.Release()
	for _, id := range ids {
		b.Field(0).(*array.Int64Builder).Append(id)
	}
	return b.NewRecordBatch()
}

// rowsOf renders a record's rows as "a|b|c", sorted.
func rowsOf(rec arrow.RecordBatch) []string {
	if rec == nil {
		return nil
	}
	var out []string
	for i := 0; i < int(rec.NumRows()); i++ {
		var f []string
		for _, c := range rec.Columns() {
			f = append(f, c.ValueStr(i))
		}
		out = append(out, strings.Join(f, "|"))
	}
	slices.Sort(out)
	return out
}

func scanRows(t *testing.T, tb fluss.Table, opts fluss.ScanOptions) []string {
	t.Helper()
	ctx := context.Background()
	r, err := tb.Scan(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		b, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		out = append(out, rowsOf(b)...)
		b.Release()
	}
	slices.Sort(out)
	return out
}

func upsert(t *testing.T, pt *txnstore.Table, opts fluss.UpsertOptions, rows ...row) {
	t.Helper()
	rec := record(pt.Info(), rows...)
	defer rec.Release()
	if _, err := pt.Upsert(context.Background(), rec, opts); err != nil {
		t.Fatal(err)
	}
}

func del(t *testing.T, pt *txnstore.Table, ids ...int64) {
	t.Helper()
	k := keys(pt.Info(), ids...)
	defer k.Release()
	if _, err := pt.Delete(context.Background(), k); err != nil {
		t.Fatal(err)
	}
}

// TestReadsOwnWrites: Lookup and Scan of a table the transaction wrote
// answer with its pending upserts and deletes over the store's rows, under
// every projection, while the store itself shows none of them.
func TestReadsOwnWrites(t *testing.T) {
	s := openStore(t)
	base := createTable(t, s, "t", true, row{1, "a", 10}, row{2, "b", 20}, row{3, "c", 30})
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := tx.Table(base)
	upsert(t, pt, fluss.UpsertOptions{}, row{2, "b2", 21}, row{4, "d", 40})
	del(t, pt, 3)

	ctx := context.Background()
	for _, c := range []struct {
		name string
		proj []int
		scan []string
		// lookup of keys 1..5
		lookup []string
	}{
		{"all columns", nil, []string{"1|a|10", "2|b2|21", "4|d|40"}, []string{"1|a|10", "2|b2|21", "4|d|40"}},
		{"one column", []int{1}, []string{"a", "b2", "d"}, []string{"a", "b2", "d"}},
		{"reordered without the key", []int{2, 1}, []string{"10|a", "21|b2", "40|d"}, []string{"10|a", "21|b2", "40|d"}},
		{"key last", []int{1, 0}, []string{"a|1", "b2|2", "d|4"}, []string{"a|1", "b2|2", "d|4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := scanRows(t, pt, fluss.ScanOptions{Projection: c.proj}); !slices.Equal(got, c.scan) {
				t.Errorf("Scan = %v, want %v", got, c.scan)
			}
			k := keys(pt.Info(), 1, 2, 3, 4, 5)
			defer k.Release()
			got, err := pt.Lookup(ctx, k, c.proj)
			if err != nil {
				t.Fatal(err)
			}
			if rows := rowsOf(got); !slices.Equal(rows, c.lookup) {
				t.Errorf("Lookup = %v, want %v", rows, c.lookup)
			}
			if got != nil {
				got.Release()
			}
			// One pending key alone: its row sliced out of the pending
			// record.
			one := keys(pt.Info(), 4)
			defer one.Release()
			got, err = pt.Lookup(ctx, one, c.proj)
			if err != nil {
				t.Fatal(err)
			}
			if rows := rowsOf(got); len(rows) != 1 || rows[0] != c.lookup[2] {
				t.Errorf("Lookup(4) = %v, want [%s]", rows, c.lookup[2])
			}
			got.Release()
		})
	}
	if got, want := scanRows(t, pt, fluss.ScanOptions{Limit: 2}), 2; len(got) != want {
		t.Errorf("Scan with limit 2 read %d rows: %v", len(got), got)
	}
	if got, want := scanRows(t, base, fluss.ScanOptions{}), []string{"1|a|10", "2|b|20", "3|c|30"}; !slices.Equal(got, want) {
		t.Errorf("the store before COMMIT = %v, want %v", got, want)
	}
	if err := tx.Commit(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got, want := scanRows(t, base, fluss.ScanOptions{}), []string{"1|a|10", "2|b2|21", "4|d|40"}; !slices.Equal(got, want) {
		t.Errorf("the store after COMMIT = %v, want %v", got, want)
	}
}

// TestLogTableAppends: a log table's appends are read after the store's
// rows and written at COMMIT.
func TestLogTableAppends(t *testing.T) {
	s := openStore(t)
	base := createTable(t, s, "l", false, row{1, "a", 10})
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := tx.Table(base)
	rec := record(pt.Info(), row{1, "a", 10}, row{2, "b", 20})
	defer rec.Release()
	ctx := context.Background()
	if _, err := pt.Append(ctx, rec); err != nil {
		t.Fatal(err)
	}
	want := []string{"a|1", "a|1", "b|2"}
	if got := scanRows(t, pt, fluss.ScanOptions{Projection: []int{1, 0}}); !slices.Equal(got, want) {
		t.Errorf("Scan = %v, want %v", got, want)
	}
	if err := tx.Commit(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got := scanRows(t, base, fluss.ScanOptions{Projection: []int{1, 0}}); !slices.Equal(got, want) {
		t.Errorf("the store after COMMIT = %v, want %v", got, want)
	}
}

// TestSavepointRollback: ROLLBACK TO a savepoint undoes the upserts and
// deletes made since (of tables written before it and after it), keeps the
// savepoint for a second ROLLBACK TO, and COMMIT writes the state restored.
func TestSavepointRollback(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		// before runs ahead of the savepoint, after behind it.
		before, after func(t *testing.T, tx *txnstore.Txn, tb, other fluss.Table)
		want          []string // table t after ROLLBACK TO
		wantOther     []string // table o after ROLLBACK TO
	}{
		{
			name: "upserts over upserts",
			before: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				upsert(t, tx.Table(tb), fluss.UpsertOptions{}, row{1, "x", 1})
			},
			after: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				upsert(t, tx.Table(tb), fluss.UpsertOptions{}, row{1, "y", 2}, row{5, "e", 50})
			},
			want: []string{"1|x|1", "2|b|20", "3|c|30"},
		},
		{
			name: "deletes of pending and stored rows",
			before: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				upsert(t, tx.Table(tb), fluss.UpsertOptions{}, row{4, "d", 40})
			},
			after: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				del(t, tx.Table(tb), 4, 2)
			},
			want: []string{"1|a|10", "2|b|20", "3|c|30", "4|d|40"},
		},
		{
			name: "a delete undone, then an upsert of the key",
			before: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				del(t, tx.Table(tb), 3)
			},
			after: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				upsert(t, tx.Table(tb), fluss.UpsertOptions{IgnoreExisting: true}, row{3, "again", 3})
			},
			want: []string{"1|a|10", "2|b|20"},
		},
		{
			name: "a table first written after the savepoint",
			before: func(t *testing.T, tx *txnstore.Txn, tb, _ fluss.Table) {
				upsert(t, tx.Table(tb), fluss.UpsertOptions{}, row{1, "x", 1})
			},
			after: func(t *testing.T, tx *txnstore.Txn, _, other fluss.Table) {
				upsert(t, tx.Table(other), fluss.UpsertOptions{}, row{9, "o", 9})
			},
			want: []string{"1|x|1", "2|b|20", "3|c|30"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := openStore(t)
			tb := createTable(t, s, "t", true, row{1, "a", 10}, row{2, "b", 20}, row{3, "c", 30})
			other := createTable(t, s, "o", true)
			tx := txnstore.New(0, 0)
			defer tx.Release()
			c.before(t, tx, tb, other)
			if err := tx.Savepoint("sp"); err != nil {
				t.Fatal(err)
			}
			for round := 0; round < 2; round++ { // the savepoint survives ROLLBACK TO
				c.after(t, tx, tb, other)
				i, err := tx.FindSavepoint("sp")
				if err != nil {
					t.Fatal(err)
				}
				tx.RollbackTo(i)
				if got := scanRows(t, tx.Table(tb), fluss.ScanOptions{}); !slices.Equal(got, c.want) {
					t.Errorf("round %d: after ROLLBACK TO = %v, want %v", round, got, c.want)
				}
				if pt := tx.Lookup(other.Info().TableID); pt != nil && pt.HasWrites() {
					t.Errorf("round %d: table o keeps writes made after the savepoint", round)
				}
			}
			if tx.Savepoints() != 1 {
				t.Errorf("%d savepoints, want 1", tx.Savepoints())
			}
			if err := tx.Commit(ctx, s); err != nil {
				t.Fatal(err)
			}
			if got := scanRows(t, tb, fluss.ScanOptions{}); !slices.Equal(got, c.want) {
				t.Errorf("the store after COMMIT = %v, want %v", got, c.want)
			}
			if got := scanRows(t, other, fluss.ScanOptions{}); len(got) != 0 {
				t.Errorf("table o after COMMIT = %v, want nothing", got)
			}
		})
	}
}

// TestSavepointErrors: an unknown savepoint is 3B001; RELEASE forgets the
// savepoint and the ones after it.
func TestSavepointErrors(t *testing.T) {
	tx := txnstore.New(0, 0)
	defer tx.Release()
	if _, err := tx.FindSavepoint("nope"); sqlerr.CodeOf(err) != sqlerr.InvalidSavepointSpecification {
		t.Errorf("FindSavepoint of an unknown name: %v, want 3B001", err)
	}
	for _, n := range []string{"a", "b", "a"} {
		if err := tx.Savepoint(n); err != nil {
			t.Fatal(err)
		}
	}
	i, err := tx.FindSavepoint("a")
	if err != nil || i != 2 {
		t.Fatalf("FindSavepoint(a) = %d, %v: want the innermost, 2", i, err)
	}
	j, _ := tx.FindSavepoint("b")
	tx.ReleaseSavepoint(j)
	if tx.Savepoints() != 1 {
		t.Errorf("%d savepoints after RELEASE b, want 1", tx.Savepoints())
	}
}

// TestCommitDroppedTable: a table dropped and created again under its name
// since the transaction wrote it fails the COMMIT with 55000, and the new
// table receives nothing.
func TestCommitDroppedTable(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	tb := createTable(t, s, "t", true, row{1, "a", 10})
	tx := txnstore.New(0, 0)
	defer tx.Release()
	upsert(t, tx.Table(tb), fluss.UpsertOptions{}, row{2, "b", 20})
	if err := s.DropTable(ctx, tb.Info().Path, false); err != nil {
		t.Fatal(err)
	}
	again := createTable(t, s, "t", true)
	err := tx.Commit(ctx, s)
	if sqlerr.CodeOf(err) != sqlerr.ObjectNotInPrerequisiteState || !strings.Contains(err.Error(), "dropped and re-created") {
		t.Fatalf("COMMIT = %v, want 55000 naming the dropped table", err)
	}
	if got := scanRows(t, again, fluss.ScanOptions{}); len(got) != 0 {
		t.Errorf("the new table holds %v", got)
	}
}

// refuse is a Checker that fails rows whose n is negative.
type refuse struct{}

var errNegative = errors.New("negative n")

func (refuse) Check(_ context.Context, rec arrow.RecordBatch) error {
	n := rec.Column(2).(*array.Int64)
	for i := 0; i < n.Len(); i++ {
		if n.Value(i) < 0 {
			return errNegative
		}
	}
	return nil
}

// TestCheckerAndLimit: a row the table's checker refuses fails its write
// and is not kept; writes beyond the transaction's limit fail with 53200.
func TestCheckerAndLimit(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	tb := createTable(t, s, "t", true)
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := &txnstore.Table{}
	tx.Open(pt, tb, refuse{})
	if pt.Checker() != (refuse{}) || tx.Lookup(tb.Info().TableID) != pt {
		t.Fatal("Open did not keep the table and its checker")
	}
	bad := record(pt.Info(), row{1, "a", 1}, row{2, "b", -1})
	defer bad.Release()
	if _, err := pt.Upsert(ctx, bad, fluss.UpsertOptions{}); !errors.Is(err, errNegative) {
		t.Fatalf("Upsert of a refused row: %v", err)
	}
	if pt.HasWrites() {
		t.Error("the refused record was kept")
	}

	small := txnstore.New(64, 0)
	defer small.Release()
	rows := make([]row, 100)
	for i := range rows {
		rows[i] = row{int64(i), "some text", int64(i)}
	}
	rec := record(tb.Info(), rows...)
	defer rec.Release()
	if _, err := small.Table(tb).Upsert(ctx, rec, fluss.UpsertOptions{}); sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Errorf("a write beyond the limit: %v, want 53200", err)
	}
}

// TestStagedWrites: past spillAt bytes a transaction's plain upserts go to
// the store's bulk writer; reading the table or writing another is then
// refused with 0A000, COMMIT writes every row, and Release of another
// transaction leaves nothing.
func TestStagedWrites(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	tb := createTable(t, s, "t", true)
	other := createTable(t, s, "o", true)
	batch := func(from int) []row {
		rows := make([]row, 100)
		for i := range rows {
			rows[i] = row{int64(from + i), "staged", 1}
		}
		return rows
	}
	for _, commit := range []bool{false, true} {
		tx := txnstore.New(0, 1024)
		pt := tx.Table(tb)
		for b := 0; b < 5; b++ {
			upsert(t, pt, fluss.UpsertOptions{}, batch(b*100)...)
		}
		k := keys(pt.Info(), 1)
		if _, err := pt.Lookup(ctx, k, nil); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("Lookup of a staged table: %v, want 0A000", err)
		}
		k.Release()
		rec := record(other.Info(), row{1, "x", 1})
		if _, err := tx.Table(other).Upsert(ctx, rec, fluss.UpsertOptions{}); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("a write to a second table: %v, want 0A000", err)
		}
		rec.Release()
		if err := tx.Savepoint("sp"); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("SAVEPOINT: %v, want 0A000", err)
		}
		if commit {
			if err := tx.Commit(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		tx.Release()
		want := 0
		if commit {
			want = 500
		}
		if got := scanRows(t, tb, fluss.ScanOptions{}); len(got) != want {
			t.Errorf("commit %v: the store holds %d rows, want %d", commit, len(got), want)
		}
	}
}

// TestOnConflictOverOwnDelete: INSERT ... ON CONFLICT DO NOTHING of a key
// the transaction deleted writes the row (the key is absent to it), and
// one of a key the store holds writes nothing.
func TestOnConflictOverOwnDelete(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	tb := createTable(t, s, "t", true, row{1, "a", 10}, row{2, "b", 20})
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := tx.Table(tb)
	del(t, pt, 1)
	rec := record(pt.Info(), row{1, "new", 1}, row{2, "kept?", 2})
	defer rec.Release()
	res, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{IgnoreExisting: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 1 {
		t.Errorf("%d rows written, want 1", res.Rows)
	}
	if err := tx.Commit(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got, want := scanRows(t, tb, fluss.ScanOptions{}), []string{"1|new|1", "2|b|20"}; !slices.Equal(got, want) {
		t.Errorf("after COMMIT = %v, want %v", got, want)
	}
}

// TestTruncate: a truncated table reads only what the transaction wrote
// after the TRUNCATE (Scan, Lookup, ON CONFLICT's existence check), the
// store keeps its rows until COMMIT, ROLLBACK TO a savepoint before the
// TRUNCATE brings the rows back (and runs the undos registered since), and
// COMMIT deletes the store's keys before writing the pending rows.
func TestTruncate(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	base := createTable(t, s, "t", true, row{1, "a", 10}, row{2, "b", 20})
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := tx.Table(base)
	upsert(t, pt, fluss.UpsertOptions{}, row{3, "c", 30})
	if err := tx.Savepoint("a"); err != nil {
		t.Fatal(err)
	}
	undone := 0
	if err := pt.Truncate(); err != nil {
		t.Fatal(err)
	}
	tx.OnRollback(func() { undone++ })
	if got := scanRows(t, pt, fluss.ScanOptions{}); len(got) != 0 {
		t.Errorf("Scan after TRUNCATE = %v", got)
	}
	upsert(t, pt, fluss.UpsertOptions{IgnoreExisting: true}, row{1, "new", 11})
	k := keys(pt.Info(), 1, 2)
	defer k.Release()
	found, err := pt.Lookup(ctx, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(found); !slices.Equal(got, []string{"1|new|11"}) {
		t.Errorf("Lookup after TRUNCATE = %v", got)
	}
	found.Release()
	if got := scanRows(t, base, fluss.ScanOptions{}); len(got) != 2 {
		t.Errorf("the store before COMMIT = %v", got)
	}

	tx.RollbackTo(0)
	if undone != 1 {
		t.Errorf("ROLLBACK TO ran %d undos, want 1", undone)
	}
	want := []string{"1|a|10", "2|b|20", "3|c|30"}
	if got := scanRows(t, pt, fluss.ScanOptions{}); !slices.Equal(got, want) {
		t.Errorf("Scan after ROLLBACK TO = %v, want %v", got, want)
	}

	if err := pt.Truncate(); err != nil {
		t.Fatal(err)
	}
	tx.OnRollback(func() { undone++ })
	upsert(t, pt, fluss.UpsertOptions{}, row{2, "two", 22}, row{5, "e", 50})
	if err := tx.Commit(ctx, s); err != nil {
		t.Fatal(err)
	}
	tx.Release()
	if undone != 1 {
		t.Errorf("a committed transaction ran its undos")
	}
	want = []string{"2|two|22", "5|e|50"}
	if got := scanRows(t, base, fluss.ScanOptions{}); !slices.Equal(got, want) {
		t.Errorf("the store after COMMIT = %v, want %v", got, want)
	}

	// A rolled-back transaction runs its undos.
	tx2 := txnstore.New(0, 0)
	tx2.OnRollback(func() { undone++ })
	tx2.Release()
	if undone != 2 {
		t.Errorf("ROLLBACK ran %d undos in all, want 2", undone)
	}
}

// TestManyTables: a transaction finds each table it opened by id, whether
// its tables are few (searched) or more than it indexes from (a map), also
// after Forget and a ROLLBACK TO that drops the tables opened after the
// savepoint; COMMIT writes every table's rows.
func TestManyTables(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 3, 8, 9, 20} {
		s := openStore(t)
		bases := make([]fluss.Table, n)
		for i := range bases {
			bases[i] = createTable(t, s, "m"+strings.Repeat("x", i), true, row{1, "a", 1})
		}
		tx := txnstore.New(0, 0)
		half := n / 2
		for i, b := range bases {
			if i == half {
				if err := tx.Savepoint("sp"); err != nil {
					t.Fatal(err)
				}
			}
			upsert(t, tx.Table(b), fluss.UpsertOptions{}, row{int64(i + 2), "w", int64(i)})
		}
		for i, b := range bases {
			pt := tx.Lookup(b.Info().TableID)
			if pt == nil || pt.Info().TableID != b.Info().TableID {
				t.Fatalf("%d tables: table %d not found by id", n, i)
			}
			k := keys(b.Info(), int64(i+2))
			got, err := pt.Lookup(ctx, k, []int{2, 1})
			k.Release()
			if err != nil {
				t.Fatal(err)
			}
			if r := rowsOf(got); len(r) != 1 || r[0] != strconv.Itoa(i)+"|w" {
				t.Errorf("%d tables: table %d reads back %v", n, i, r)
			}
			got.Release()
		}
		tx.RollbackTo(0)
		for i, b := range bases {
			if found := tx.Lookup(b.Info().TableID) != nil; found != (i < half) {
				t.Errorf("%d tables: after ROLLBACK TO, table %d found %v", n, i, found)
			}
		}
		if n > 1 {
			tx.Forget(tx.Lookup(bases[0].Info().TableID))
			if tx.Lookup(bases[0].Info().TableID) != nil {
				t.Errorf("%d tables: a forgotten table is still found", n)
			}
		}
		if err := tx.Commit(ctx, s); err != nil {
			t.Fatal(err)
		}
		tx.Release()
		for i, b := range bases {
			want := []string{"1|a|1"}
			if i > 0 && i < half {
				want = append(want, strconv.Itoa(i+2)+"|w|"+strconv.Itoa(i))
				slices.Sort(want)
			}
			if got := scanRows(t, b, fluss.ScanOptions{}); !slices.Equal(got, want) {
				t.Errorf("%d tables: table %d committed %v, want %v", n, i, got, want)
			}
		}
	}
}

// TestLookupOneWrittenRow: a table whose only write is one upserted row
// answers a lookup of that key with the row, under each projection, and a
// lookup of another key (stored or absent) from the store; a later write
// of the same key is what the next lookup reads.
func TestLookupOneWrittenRow(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	base := createTable(t, s, "one", true, row{1, "a", 10}, row{2, "b", 20})
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := tx.Table(base)
	upsert(t, pt, fluss.UpsertOptions{}, row{2, "w", 21})
	lookup := func(id int64, proj []int) []string {
		t.Helper()
		k := keys(base.Info(), id)
		defer k.Release()
		got, err := pt.Lookup(ctx, k, proj)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if got != nil {
				got.Release()
			}
		}()
		return rowsOf(got)
	}
	for _, c := range []struct {
		id   int64
		proj []int
		want []string
	}{
		{2, nil, []string{"2|w|21"}},
		{2, []int{2}, []string{"21"}},
		{2, []int{1, 0}, []string{"w|2"}},
		{1, nil, []string{"1|a|10"}},
		{1, []int{2}, []string{"10"}},
		{3, nil, nil},
	} {
		if got := lookup(c.id, c.proj); !slices.Equal(got, c.want) {
			t.Errorf("lookup %d %v = %v, want %v", c.id, c.proj, got, c.want)
		}
	}
	upsert(t, pt, fluss.UpsertOptions{}, row{2, "x", 22})
	if got := lookup(2, nil); !slices.Equal(got, []string{"2|x|22"}) {
		t.Errorf("after a second write, lookup 2 = %v", got)
	}
	del(t, pt, 2)
	if got := lookup(2, nil); got != nil {
		t.Errorf("after a delete, lookup 2 = %v", got)
	}
}

// TestUpserted: a primary-key table's pending rows that are their keys'
// pending state, in write order, a record sliced where a later write
// replaced or deleted some of its rows (the lazy first record indexed
// first); a log table, a truncated or staged table has none to give.
func TestUpserted(t *testing.T) {
	s := openStore(t)
	tb := createTable(t, s, "t", true)
	tx := txnstore.New(0, 0)
	defer tx.Release()
	pt := tx.Table(tb)
	upsert(t, pt, fluss.UpsertOptions{}, row{1, "a", 1}, row{2, "b", 2}, row{3, "c", 3}, row{4, "d", 4})
	upsert(t, pt, fluss.UpsertOptions{}, row{2, "b2", 22})
	del(t, pt, 3)
	upsert(t, pt, fluss.UpsertOptions{IgnoreExisting: true}, row{1, "no", 0}, row{5, "e", 5})
	recs, ok := pt.Upserted()
	if !ok {
		t.Fatal("Upserted refused a table with pending upserts and deletes")
	}
	var got []string
	for _, r := range recs {
		got = append(got, strings.Join(rowsOf(r), ","))
		r.Release()
	}
	want := []string{"1|a|1", "4|d|4", "2|b2|22", "5|e|5"}
	if !slices.Equal(got, want) {
		t.Errorf("Upserted = %v, want %v (each record's rows)", got, want)
	}

	logTb := createTable(t, s, "l", false)
	if _, ok := tx.Table(logTb).Upserted(); ok {
		t.Error("Upserted of a log table")
	}
	tr := tx.Table(createTable(t, s, "tr", true))
	upsert(t, tr, fluss.UpsertOptions{}, row{1, "a", 1})
	if err := tr.Truncate(); err != nil {
		t.Fatal(err)
	}
	if _, ok := tr.Upserted(); ok {
		t.Error("Upserted of a truncated table")
	}
}

// TestFailSavepoint: an error inside a savepoint runs the undos registered
// since the innermost savepoint at once (a released inner savepoint's
// included), each only once: the ROLLBACK TO and the ROLLBACK after it run
// only what is older; without a savepoint nothing runs before the end.
func TestFailSavepoint(t *testing.T) {
	tx := txnstore.New(0, 0)
	var ran []string
	undo := func(name string) func() { return func() { ran = append(ran, name) } }
	tx.FailSavepoint() // no savepoint: the block's end undoes
	tx.OnRollback(undo("top"))
	tx.FailSavepoint()
	if len(ran) != 0 {
		t.Errorf("FailSavepoint without a savepoint ran %v", ran)
	}
	steps := []struct {
		do   func()
		want []string
	}{
		{func() { _ = tx.Savepoint("a"); tx.OnRollback(undo("a1")) }, nil},
		{func() { _ = tx.Savepoint("b"); tx.OnRollback(undo("b1")); tx.ReleaseSavepoint(1) }, nil},
		{tx.FailSavepoint, []string{"b1", "a1"}},
		{func() { tx.RollbackTo(0) }, []string{"b1", "a1"}},
		{func() { tx.OnRollback(undo("a2")); tx.FailSavepoint() }, []string{"b1", "a1", "a2"}},
		{tx.Release, []string{"b1", "a1", "a2", "top"}},
	}
	for i, st := range steps {
		st.do()
		if !slices.Equal(ran, st.want) {
			t.Errorf("step %d: undos run %v, want %v", i, ran, st.want)
		}
	}
}
