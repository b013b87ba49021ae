package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// UNIQUE constraint enforcement (constraints beyond the primary key,
// fluss.UniqueConstraint). Each constraint has an index table in the same
// store (fluss.IndexTablePath, hidden from every catalog): its primary key
// is the constraint's columns, its other columns the primary key of the
// row that holds the value (none on a log table, whose rows are only
// appended: append below). A transaction writes the index table as it
// writes the table (pendingTable.Upsert / Delete call the hooks here), so
// the two commit in one atomic group (fluss.AtomicWriter: one pebble
// batch on the embedded store, no sync of their own) and a crash keeps or
// loses both. A row with a null in the constraint's columns has no entry
// (NULLS DISTINCT).
//
// Each row written is checked in order against the index as the
// transaction sees it, as PostgreSQL checks a non-deferrable constraint
// per row: an UPDATE that moves a value onto one a later row still holds
// fails. The index keys a write touches are locked first (row locks of
// the index table), so that two transactions writing the same value take
// turns: the second waits for the first and then finds its entry (23505)
// or, if it rolled back, none. An entry whose row no longer holds the
// value (left by a crash between a DDL statement's steps, or by a
// TRUNCATE outside a block whose read of the index came before a row's
// commit: uniqueddl.go's truncateUnique) is stale, and is checked against
// the row before it counts as a conflict.
//
// Stores that are not fluss.AtomicWriter and fluss.RowLockable (a Fluss
// cluster) refuse unique constraints (uniqueddl.go).

// hasUniques reports whether d has unique constraints, from its keys alone
// (no parse of the metadata: every write asks it).
func hasUniques(d fluss.TableDescriptor) bool {
	for _, props := range []map[string]string{d.CustomProperties, d.Properties} {
		for k := range props {
			if strings.HasPrefix(k, fluss.MetaPrefix+"unique.") {
				return true
			}
		}
	}
	return false
}

// uniqueTable is what a written table's unique constraints need: each
// enforced constraint with its index table.
type uniqueTable struct {
	s       *session
	tx      *txn
	version uint64
	info    fluss.TableInfo
	pk      []int
	cons    []*uniqueIndex
	cols    []int // needed's
	// arbiter is the running INSERT's ON CONFLICT constraint (arbitrate):
	// DO NOTHING skips the rows only it refuses ("": every constraint).
	arbiter string
}

// arbitrate sets the arbiter of the INSERT about to write t (the
// binder's Insert.Arbiter) and returns its reset.
func arbitrate(t fluss.Table, name string) func() {
	pt, ok := t.(*pendingTable)
	if !ok || pt.uq == nil || name == "" {
		return func() {}
	}
	pt.uq.arbiter = name
	return func() { pt.uq.arbiter = "" }
}

// skips reports whether a write with ON CONFLICT DO NOTHING (ignore)
// skips a row constraint ui refuses, rather than failing.
func (u *uniqueTable) skips(ui *uniqueIndex, ignore bool) bool {
	return ignore && (u.arbiter == "" || u.arbiter == ui.c.Name)
}

// uniqueIndex is one enforced constraint.
type uniqueIndex struct {
	c    fluss.UniqueConstraint
	path fluss.TablePath
	// idx is the index table as the transaction sees it, opened at the
	// first write that needs it.
	idx *pendingTable
}

// enforced reports whether c needs an index: a constraint whose columns
// include the whole primary key holds whatever the rows are (a log
// table's constraints, pk empty, all need one).
func enforced(c fluss.UniqueConstraint, pk []int) bool {
	if len(pk) == 0 {
		return true
	}
	for _, k := range pk {
		if !slices.Contains(c.Columns, k) {
			return true
		}
	}
	return false
}

// attachUniques gives a table opened for a write its unique constraints.
func (s *session) attachUniques(ctx context.Context, pt *pendingTable, tx *txn) error {
	info := pt.Info()
	if !hasUniques(info.Descriptor) {
		pt.uq = nil
		return nil
	}
	v := s.eng.catalog.Load()
	if pt.uq != nil && pt.uq.version == v && pt.uq.tx == tx {
		return nil
	}
	u := &uniqueTable{s: s, tx: tx, version: v, info: info, pk: keyIndexes(info)}
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if enforced(c, u.pk) {
			u.cons = append(u.cons, &uniqueIndex{c: c, path: fluss.IndexTablePath(info.TableID, c.ID)})
		}
	}
	if len(u.cons) == 0 {
		u = nil
	}
	pt.uq = u
	return nil
}

// index opens ui's index table in the transaction.
func (u *uniqueTable) index(ctx context.Context, ui *uniqueIndex) (*pendingTable, error) {
	if ui.idx != nil {
		// A ROLLBACK TO a savepoint made before the index table was first
		// written drops the transaction's view of it (txnstore's
		// RollbackTo), while the table it indexes, opened earlier, keeps
		// its uniqueTable: the view kept here then holds the entries of
		// the rolled-back rows, which would refuse their values again.
		if ot := u.tx.Lookup(ui.idx.Info().TableID); ot == &ui.idx.Table {
			return ui.idx, nil
		}
		ui.idx = nil
	}
	t, err := u.s.eng.store.Table(ctx, ui.path)
	if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		// made by a DDL statement a crash interrupted: built again
		if err = u.s.buildIndex(ctx, u.info, ui.c, true); err == nil { // uniqueddl.go
			t, err = u.s.eng.store.Table(ctx, ui.path)
		}
	}
	if err != nil {
		return nil, err
	}
	pt, err := u.tx.pending(t.Info().TableID)
	if err != nil {
		return nil, err
	}
	if pt == nil {
		u.newest(func() error { pt = u.tx.openPending(t); return nil })
	}
	ui.idx = pt
	return pt, nil
}

// newest runs fn with the transaction's REPEATABLE READ snapshot set
// aside: an index table is read, and its keys locked, at the newest
// committed state (with the transaction's own writes over it), as
// PostgreSQL checks a unique index whatever the isolation level — a
// value another transaction committed since the snapshot is a 23505, not
// a 40001.
func (u *uniqueTable) newest(fn func() error) error {
	snap := u.tx.Snap
	u.tx.Snap = nil
	defer func() { u.tx.Snap = snap }()
	return fn()
}

// uniqueRow is a row of the table as the unique constraints see it: its
// primary key's text and its values.
type uniqueRow struct {
	key  string
	vals []any
}

// rowOf reads row r of rec (the table's columns).
func (u *uniqueTable) rowOf(rec arrow.RecordBatch, r int) uniqueRow {
	vals := make([]any, rec.NumCols())
	for _, c := range u.needed() {
		vals[c] = types.ValueAt(rec.Column(c), r)
	}
	return uniqueRow{key: u.keyOf(vals, u.pk), vals: vals}
}

// needed are the columns the constraints read: the primary key's and the
// constrained ones (a row's other values are never decoded).
func (u *uniqueTable) needed() []int {
	if u.cols == nil {
		u.cols = slices.Clone(u.pk)
		for _, ui := range u.cons {
			for _, c := range ui.c.Columns {
				if !slices.Contains(u.cols, c) {
					u.cols = append(u.cols, c)
				}
			}
		}
	}
	return u.cols
}

// keyOf is the text of vals' columns idx ("" when one is null: a row
// with a null has no index entry): each value's length-prefixed text,
// the common key types written without fmt.
func (u *uniqueTable) keyOf(vals []any, idx []int) string {
	var b []byte
	for _, c := range idx {
		var t string
		switch v := vals[c].(type) {
		case nil:
			return ""
		case int64:
			b = strconv.AppendInt(append(b, 'i'), v, 10)
			b = append(b, 0)
			continue
		case int32:
			b = strconv.AppendInt(append(b, 'i'), int64(v), 10)
			b = append(b, 0)
			continue
		case string:
			t = "s" + v
		default:
			t = keyText(v) // fk.go
		}
		b = strconv.AppendInt(b, int64(len(t)), 10)
		b = append(append(b, ':'), t...)
	}
	return string(b)
}

// current reads the rows of the table with the primary keys of rows, as
// the transaction sees them, by key text.
func (u *uniqueTable) current(ctx context.Context, pt fluss.Table, rows []uniqueRow) (map[string]uniqueRow, error) {
	out := map[string]uniqueRow{}
	if len(rows) == 0 {
		return out, nil
	}
	keys := make([][]any, 0, len(rows))
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.key] {
			continue
		}
		seen[r.key] = true
		k := make([]any, len(u.pk))
		for i, c := range u.pk {
			k[i] = r.vals[c]
		}
		keys = append(keys, k)
	}
	rec, err := buildRows(keySchemaOf(u.info), keys) // fk.go
	if err != nil {
		return nil, err
	}
	if p, ok := pt.(*pendingTable); ok {
		pt = &p.Table // the overlay's own Lookup
	}
	found, err := pt.Lookup(ctx, rec, nil)
	rec.Release()
	if err != nil || found == nil {
		return out, err
	}
	defer found.Release()
	for r := 0; r < int(found.NumRows()); r++ {
		row := u.rowOf(found, r)
		out[row.key] = row
	}
	return out, nil
}

// keySchemaOf is the schema of info's primary-key columns.
func keySchemaOf(info fluss.TableInfo) *arrow.Schema {
	full := info.ArrowSchema()
	var fs []arrow.Field
	for _, c := range keyIndexes(info) {
		fs = append(fs, full.Field(c))
	}
	return arrow.NewSchema(fs, nil)
}

// indexDescriptor is the descriptor of c's index table.
func indexDescriptor(info fluss.TableInfo, c fluss.UniqueConstraint) fluss.TableDescriptor {
	cols := info.Descriptor.Schema.Columns
	var d fluss.TableDescriptor
	for i, col := range c.Columns {
		t := cols[col].Type
		t.NotNull = true
		name := fmt.Sprintf("k%d", i+1)
		d.Schema.Columns = append(d.Schema.Columns, fluss.Column{Name: name, Type: t})
		d.Schema.PrimaryKey = append(d.Schema.PrimaryKey, name)
	}
	for i, col := range keyIndexes(info) {
		t := cols[col].Type
		t.NotNull = true
		d.Schema.Columns = append(d.Schema.Columns, fluss.Column{Name: fmt.Sprintf("p%d", i+1), Type: t})
	}
	d.BucketCount = 1
	return d
}

// entry is an index row: the constraint's values of row, then its key.
func (u *uniqueTable) entry(ui *uniqueIndex, row uniqueRow) []any {
	out := make([]any, 0, len(ui.c.Columns)+len(u.pk))
	for _, c := range ui.c.Columns {
		out = append(out, row.vals[c])
	}
	for _, c := range u.pk {
		out = append(out, row.vals[c])
	}
	return out
}

// indexState is what one write learned of one index: the entries it
// read (by value text; loaded), those of them found to name a row that
// holds the value (checked), and the entries the write sets (an index
// row) or removes (nil), applied after the table's write.
type indexState struct {
	loaded  map[string][]any
	checked map[string]bool
	set     map[string][]any
}

func newIndexState() *indexState {
	return &indexState{loaded: map[string][]any{}, checked: map[string]bool{}, set: map[string][]any{}}
}

// load locks and reads the entries of ui for the values of entries (index
// rows by value text) into st.loaded.
func (u *uniqueTable) load(ctx context.Context, ui *uniqueIndex, entries map[string][]any, st *indexState) error {
	if len(entries) == 0 {
		return nil
	}
	idx, err := u.index(ctx, ui)
	if err != nil {
		return err
	}
	keys := slices.Sorted(maps.Keys(entries))
	rows := make([][]any, len(keys))
	for i, k := range keys {
		rows[i] = entries[k]
	}
	schema := idx.Info().ArrowSchema()
	rec, err := buildRows(schema, rows) // fk.go
	if err != nil {
		return err
	}
	defer rec.Release()
	// Locked before they are read, so that a concurrent writer of the
	// same value is waited for and its outcome read (in sorted order:
	// two writers of the same values lock them in one order).
	nk := len(ui.c.Columns)
	var found arrow.RecordBatch
	err = u.newest(func() error {
		if err := idx.LockInsert(ctx, rec); err != nil {
			return err
		}
		probe := array.NewRecordBatch(arrow.NewSchema(schema.Fields()[:nk], nil), rec.Columns()[:nk], rec.NumRows())
		defer probe.Release()
		var err error
		found, err = idx.Table.Lookup(ctx, probe, nil)
		return err
	})
	if err != nil || found == nil {
		return err
	}
	defer found.Release()
	for r := 0; r < int(found.NumRows()); r++ {
		e := make([]any, found.NumCols())
		for c := range e {
			e[c] = types.ValueAt(found.Column(c), r)
		}
		st.loaded[u.keyOf(e, seq(0, nk))] = e
	}
	return nil
}

// seq is [from, to).
func seq(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// entryOwner is the key text of the row an index row names.
func (u *uniqueTable) entryOwner(ui *uniqueIndex, e []any) string {
	return u.keyOf(e, seq(len(ui.c.Columns), len(e)))
}

// entryOf is the entry of value text key as the write sees it (nil:
// none), and whether the write set it.
func (st *indexState) entryOf(key string) ([]any, bool) {
	if e, ok := st.set[key]; ok {
		return e, true
	}
	return st.loaded[key], false
}

// conflicts reports whether the entry of value text key names a row other
// than self that holds the value. An entry read from the index whose row
// no longer holds the value is stale: forgotten, no conflict.
func (u *uniqueTable) conflicts(ctx context.Context, pt *pendingTable, ui *uniqueIndex, st *indexState, key, self string) (bool, error) {
	e, written := st.entryOf(key)
	if e == nil {
		return false, nil
	}
	owner := u.entryOwner(ui, e)
	if owner == self {
		return false, nil
	}
	if written || st.checked[key] {
		return true, nil
	}
	vals := make([]any, len(u.info.Descriptor.Schema.Columns))
	for i, c := range u.pk {
		vals[c] = e[len(ui.c.Columns)+i]
	}
	held, err := u.holds(ctx, pt, ui, owner, vals, key)
	if err != nil || !held {
		if err == nil {
			delete(st.loaded, key)
		}
		return false, err
	}
	st.checked[key] = true
	return true, nil
}

// holds reports whether the row with key text owner (its key in vals)
// holds value text key of ui: as the transaction sees the row, or, under
// REPEATABLE READ, as the newest committed state has it (a row committed
// since the snapshot holds its value too, as PostgreSQL's unique check
// sees it).
func (u *uniqueTable) holds(ctx context.Context, pt *pendingTable, ui *uniqueIndex, owner string, vals []any, key string) (bool, error) {
	rows := []uniqueRow{{key: owner, vals: vals}}
	cur, err := u.current(ctx, pt, rows)
	if err != nil {
		return false, err
	}
	if row, ok := cur[owner]; ok && u.keyOf(row.vals, ui.c.Columns) == key {
		return true, nil
	}
	if u.tx.Snap == nil {
		return false, nil
	}
	t, err := u.s.eng.store.Table(ctx, u.info.Path)
	if err != nil {
		return false, err
	}
	cur, err = u.current(ctx, t, rows)
	if err != nil {
		return false, err
	}
	row, ok := cur[owner]
	return ok && u.keyOf(row.vals, ui.c.Columns) == key, nil
}

// beforeUpsert checks the rows of rec (the table's columns) against the
// constraints, in order, and notes the entries they set and remove.
// ignore (ON CONFLICT DO NOTHING) skips a row whose key exists or that a
// constraint refuses instead of failing; keep lists the rows to write
// (nil: all).
func (u *uniqueTable) beforeUpsert(ctx context.Context, pt *pendingTable, rec arrow.RecordBatch, ignore bool) (keep []int, states []*indexState, err error) {
	n := int(rec.NumRows())
	rows := make([]uniqueRow, n)
	for r := range rows {
		rows[r] = u.rowOf(rec, r)
	}
	cur, err := u.current(ctx, pt, rows)
	if err != nil {
		return nil, nil, err
	}
	states = make([]*indexState, len(u.cons))
	for i, ui := range u.cons {
		want := map[string][]any{}
		for _, row := range rows {
			nk := u.keyOf(row.vals, ui.c.Columns)
			old, had := cur[row.key]
			ok := ""
			if had {
				ok = u.keyOf(old.vals, ui.c.Columns)
			}
			if had && nk == ok && !ignore {
				continue // a value the row keeps (an UPDATE of other columns): nothing to read
			}
			if nk != "" {
				want[nk] = u.entry(ui, row)
			}
			if ok != "" {
				want[ok] = u.entry(ui, old)
			}
		}
		states[i] = newIndexState()
		if err := u.load(ctx, ui, want, states[i]); err != nil {
			return nil, nil, err
		}
	}
	latest := map[string]uniqueRow{} // the rows written before, by key
	skipped := false
	arb := u.arbiterIndex()
	for r, row := range rows {
		prev, had := latest[row.key]
		if !had {
			prev, had = cur[row.key]
		}
		if ignore && had && arb >= 0 {
			// ON CONFLICT (u) DO NOTHING with u a unique constraint: the
			// row is skipped only when u refuses it (the existing row holds
			// its value, or another does); else it is a plain insert, and
			// the primary key refuses it, as PostgreSQL's.
			ui := u.cons[arb]
			nk := u.keyOf(row.vals, ui.c.Columns)
			refused := nk != "" && nk == u.keyOf(prev.vals, ui.c.Columns)
			if !refused && nk != "" {
				c, err := u.conflicts(ctx, pt, ui, states[arb], nk, row.key)
				if err != nil {
					return nil, nil, err
				}
				refused = c
			}
			if !refused {
				return nil, nil, u.keyViolation(row)
			}
		}
		if ignore && had {
			skipped = true
			continue
		}
		// As PostgreSQL's speculative insertion, a row an arbiter of ON
		// CONFLICT DO NOTHING refuses is skipped whatever the others say;
		// else the first constraint refusing it fails the statement.
		refused, skip := -1, false
		for i, ui := range u.cons {
			nk := u.keyOf(row.vals, ui.c.Columns)
			if nk == "" || had && nk == u.keyOf(prev.vals, ui.c.Columns) {
				continue
			}
			c, err := u.conflicts(ctx, pt, ui, states[i], nk, row.key)
			if err != nil {
				return nil, nil, err
			}
			if c && refused < 0 {
				refused = i
			}
			skip = skip || c && u.skips(ui, ignore)
		}
		if skip {
			skipped = true
			continue
		}
		if refused >= 0 {
			return nil, nil, u.violation(u.cons[refused], row)
		}
		for i, ui := range u.cons {
			st := states[i]
			nk := u.keyOf(row.vals, ui.c.Columns)
			ok := ""
			if had {
				ok = u.keyOf(prev.vals, ui.c.Columns)
			}
			if had && nk == ok {
				continue
			}
			if ok != "" {
				if e, _ := st.entryOf(ok); e != nil && u.entryOwner(ui, e) == row.key {
					st.set[ok] = nil
				}
			}
			if nk != "" {
				st.set[nk] = u.entry(ui, row)
			}
		}
		latest[row.key] = row
		keep = append(keep, r)
	}
	if !skipped {
		return nil, states, nil
	}
	if keep == nil {
		keep = []int{} // every row skipped: none to write, not all
	}
	return keep, states, nil
}

// beforeDelete notes the entries of the rows with the primary keys keys
// (the table's key columns) as removed.
func (u *uniqueTable) beforeDelete(ctx context.Context, pt *pendingTable, keys arrow.RecordBatch) ([]*indexState, error) {
	rows := make([]uniqueRow, keys.NumRows())
	for r := range rows {
		vals := make([]any, len(u.info.Descriptor.Schema.Columns))
		for i, c := range u.pk {
			vals[c] = types.ValueAt(keys.Column(i), r)
		}
		rows[r] = uniqueRow{key: u.keyOf(vals, u.pk), vals: vals}
	}
	cur, err := u.current(ctx, pt, rows)
	if err != nil {
		return nil, err
	}
	states := make([]*indexState, len(u.cons))
	for i, ui := range u.cons {
		want := map[string][]any{}
		for _, old := range cur {
			if k := u.keyOf(old.vals, ui.c.Columns); k != "" {
				want[k] = u.entry(ui, old)
			}
		}
		st := newIndexState()
		if err := u.load(ctx, ui, want, st); err != nil {
			return nil, err
		}
		for k, e := range st.loaded {
			if _, ok := cur[u.entryOwner(ui, e)]; ok {
				st.set[k] = nil
			}
		}
		states[i] = st
	}
	return states, nil
}

// apply writes the entries states noted to the index tables.
func (u *uniqueTable) apply(ctx context.Context, states []*indexState) error {
	for i, ui := range u.cons {
		st := states[i]
		if len(st.set) == 0 {
			continue
		}
		idx, err := u.index(ctx, ui)
		if err != nil {
			return err
		}
		schema := idx.Info().ArrowSchema()
		nk := len(ui.c.Columns)
		var dels, puts [][]any
		for _, k := range slices.Sorted(maps.Keys(st.set)) {
			if e := st.set[k]; e != nil {
				puts = append(puts, e)
			} else if old := st.loaded[k]; old != nil {
				dels = append(dels, old[:nk])
			}
		}
		if len(dels) > 0 {
			rec, err := buildRows(arrow.NewSchema(schema.Fields()[:nk], nil), dels)
			if err != nil {
				return err
			}
			_, err = idx.Table.Delete(ctx, rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		if len(puts) > 0 {
			rec, err := buildRows(schema, puts)
			if err != nil {
				return err
			}
			_, err = idx.Table.Upsert(ctx, rec, fluss.UpsertOptions{})
			rec.Release()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// violation is PostgreSQL's 23505 of a row whose value constraint ui
// already holds.
func (u *uniqueTable) violation(ui *uniqueIndex, row uniqueRow) error {
	loc, st := u.s.location(), u.s.style()
	cols := u.info.Descriptor.Schema.Columns
	names := make([]string, len(ui.c.Columns))
	vals := make([]string, len(ui.c.Columns))
	for k, c := range ui.c.Columns {
		names[k] = cols[c].Name
		vals[k] = exec.DetailValue(row.vals[c], cols[c].Type, loc, st) // coldefs.go
	}
	return sqlerr.New(sqlerr.UniqueViolation, "duplicate key value violates unique constraint \"%s\"", ui.c.Name).
		WithDetail("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
}

// keyViolation is PostgreSQL's 23505 for row colliding with another on
// the primary key: what an INSERT whose ON CONFLICT arbiter is a unique
// constraint (not the key) meets when the arbiter does not refuse the row
// (the row is a plain insert then, and the key index refuses it).
func (u *uniqueTable) keyViolation(row uniqueRow) error {
	loc, st := u.s.location(), u.s.style()
	cols := u.info.Descriptor.Schema.Columns
	names := make([]string, len(u.pk))
	vals := make([]string, len(u.pk))
	for k, c := range u.pk {
		names[k] = cols[c].Name
		vals[k] = exec.DetailValue(row.vals[c], cols[c].Type, loc, st) // coldefs.go
	}
	return sqlerr.New(sqlerr.UniqueViolation, "duplicate key value violates unique constraint \"%s\"", u.info.PrimaryKeyName()).
		WithDetail("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
}

// arbiterIndex is the position in cons of the running INSERT's arbiter
// when it is a unique constraint other than the primary key (-1: none).
func (u *uniqueTable) arbiterIndex() int {
	if u.arbiter == "" {
		return -1
	}
	return slices.IndexFunc(u.cons, func(ui *uniqueIndex) bool { return ui.c.Name == u.arbiter })
}

// upsert is pendingTable.Upsert of a table with unique constraints: the
// rows checked (beforeUpsert), written, then their entries.
func (u *uniqueTable) upsert(ctx context.Context, pt *pendingTable, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	if err := pt.checkFirst(ctx, rec, func(prefix arrow.RecordBatch) error {
		_, err := u.upsert(ctx, pt, prefix, opts)
		return err
	}); err != nil {
		return fluss.WriteResult{}, err
	}
	defer pt.checkedNone()
	keep, states, err := u.beforeUpsert(ctx, pt, rec, opts.IgnoreExisting)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	if keep != nil {
		kept, err := takeRows(rec, keep) // fk.go
		if err != nil {
			return fluss.WriteResult{}, err
		}
		defer kept.Release()
		rec = kept
	}
	res, err := pt.Table.Upsert(ctx, rec, opts)
	if err != nil {
		return res, err
	}
	if opts.IgnoreExisting {
		// the rows written: RETURNING lists these, not those whose key
		// alone was absent (exec.Insert)
		res.Kept = make([]int32, 0, len(keep))
		if keep == nil {
			for r := range int(rec.NumRows()) {
				res.Kept = append(res.Kept, int32(r))
			}
		} else {
			for _, r := range keep {
				res.Kept = append(res.Kept, int32(r))
			}
		}
	}
	return res, u.apply(ctx, states)
}

// delete is pendingTable.Delete of a table with unique constraints.
func (u *uniqueTable) delete(ctx context.Context, pt *pendingTable, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	states, err := u.beforeDelete(ctx, pt, keys)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	res, err := pt.Table.Delete(ctx, keys)
	if err != nil {
		return res, err
	}
	return res, u.apply(ctx, states)
}

// checkFirst runs rec's CHECK constraints before its unique constraints
// are consulted, as PostgreSQL's ExecInsert runs ExecConstraints before it
// checks ON CONFLICT's arbiters or inserts index entries (a row that
// fails both is 23514, and a row ON CONFLICT DO NOTHING skips is still
// checked); the store's Check of the same batch then skips them.
//
// PostgreSQL checks and writes a row at a time: when row r > 0 fails a
// CHECK, the rows before it were written first, and a unique constraint
// one of them breaks is the error. before writes such a prefix of rec
// (nil: the table has nothing but CHECKs to meet); its error wins.
func (pt *pendingTable) checkFirst(ctx context.Context, rec arrow.RecordBatch, before func(arrow.RecordBatch) error) error {
	row, err := pt.checks.checkRow(ctx, rec)
	pt.failedRow = row
	if err != nil {
		if row > 0 && before != nil {
			prefix := rec.NewSlice(0, int64(row))
			perr := before(prefix)
			prefix.Release()
			if perr != nil {
				return perr
			}
		}
		return err
	}
	pt.prechecked = rec
	return nil
}

// checkedNone ends checkFirst's batch.
func (pt *pendingTable) checkedNone() { pt.prechecked = nil }

// upsertRows writes rec to the table, through its unique constraints when
// it has some (a log table: the store's error).
func (pt *pendingTable) upsertRows(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	if opts.IgnoreExisting && !pt.Info().HasPrimaryKey() {
		return pt.appendSkipping(ctx, rec)
	}
	if pt.uq == nil || len(pt.uq.pk) == 0 {
		return pt.Table.Upsert(ctx, rec, opts)
	}
	return pt.uq.upsert(ctx, pt, rec, opts)
}

// deleteRows deletes keys from the table, and their rows' index entries.
func (pt *pendingTable) deleteRows(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	if pt.uq == nil || len(pt.uq.pk) == 0 {
		return pt.Table.Delete(ctx, keys)
	}
	return pt.uq.delete(ctx, pt, keys)
}

// Append implements fluss.Table: an append locks the log table against
// a whole-table lock (txnstore's LockAppend: an index build's), and rows
// appended to a log table with unique constraints are checked against
// them, and their entries written, first.
func (pt *pendingTable) Append(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if pt.uq == nil || len(pt.uq.pk) > 0 {
		return pt.Table.Append(ctx, rec) // which takes the append lock itself
	}
	// the lock before the index entries admit writes
	if err := pt.LockAppend(ctx); err != nil {
		return fluss.WriteResult{}, err
	}
	return pt.uq.append(ctx, pt, rec)
}

// append is pendingTable.Append of a log table with unique constraints.
// A log table's rows are never updated or deleted one by one (sqlgate
// refuses UPDATE and DELETE of a log table; TRUNCATE replaces the table
// and its index tables, uniqueddl.go's recreateIndexes), so an entry
// names no row: it is the value alone, and one that is there is held, a
// conflict (no stale entries to check). The entries are written before
// the rows, so that a transaction large enough to stage its writes on
// disk, which it does for one table only, never stages the table's.
func (u *uniqueTable) append(ctx context.Context, pt *pendingTable, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if err := pt.checkFirst(ctx, rec, func(prefix arrow.RecordBatch) error {
		_, err := u.append(ctx, pt, prefix)
		return err
	}); err != nil {
		return fluss.WriteResult{}, err
	}
	defer pt.checkedNone()
	rows := make([]uniqueRow, rec.NumRows())
	for r := range rows {
		rows[r] = u.rowOf(rec, r)
	}
	if _, err := u.admit(ctx, rows, false, u.violation); err != nil {
		return fluss.WriteResult{}, err
	}
	return pt.Table.Append(ctx, rec)
}

// appendSkipping is INSERT ... ON CONFLICT DO NOTHING into a log table
// (exec.Insert writes it as an upsert that ignores existing rows): the
// rows its unique constraints refuse (the arbiter's, or any without one)
// are skipped, the others appended; Kept lists them for RETURNING. A
// log table without constraints has no conflict: every row is appended.
func (pt *pendingTable) appendSkipping(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if pt.uq == nil {
		return pt.Table.Append(ctx, rec) // which takes the append lock itself
	}
	if err := pt.LockAppend(ctx); err != nil {
		return fluss.WriteResult{}, err
	}
	if err := pt.checkFirst(ctx, rec, func(prefix arrow.RecordBatch) error { // the skipped rows' too
		_, err := pt.appendSkipping(ctx, prefix)
		return err
	}); err != nil {
		return fluss.WriteResult{}, err
	}
	defer pt.checkedNone()
	u := pt.uq
	rows := make([]uniqueRow, rec.NumRows())
	for r := range rows {
		rows[r] = u.rowOf(rec, r)
	}
	keep, err := u.admit(ctx, rows, true, u.violation)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	res := fluss.WriteResult{Kept: make([]int32, 0, len(keep))}
	for _, r := range keep {
		res.Kept = append(res.Kept, int32(r))
	}
	if len(keep) == 0 {
		return res, nil
	}
	if len(keep) < len(rows) {
		kept, err := takeRows(rec, keep) // fk.go
		if err != nil {
			return fluss.WriteResult{}, err
		}
		defer kept.Release()
		rec = kept
	}
	w, err := pt.Table.Append(ctx, rec)
	res.Rows = w.Rows
	return res, err
}

// admit checks a log table's rows against its constraints, row by row as
// PostgreSQL inserts them, writes their entries and returns the rows
// admitted: the first value taken (by a stored row or an earlier one of
// rows) fails with taken's error, or, under ignore (ON CONFLICT DO
// NOTHING), skips the row when a constraint it skips for refuses it
// (uniqueTable.skips).
func (u *uniqueTable) admit(ctx context.Context, rows []uniqueRow, ignore bool, taken func(*uniqueIndex, uniqueRow) error) ([]int, error) {
	states := make([]*indexState, len(u.cons))
	keys := make([][]string, len(u.cons)) // each row's value text, by constraint
	for i, ui := range u.cons {
		want := map[string][]any{}
		keys[i] = make([]string, len(rows))
		for r, row := range rows {
			if k := u.keyOf(row.vals, ui.c.Columns); k != "" {
				keys[i][r] = k
				want[k] = u.entry(ui, row)
			}
		}
		states[i] = newIndexState()
		if err := u.load(ctx, ui, want, states[i]); err != nil {
			return nil, err
		}
	}
	keep := make([]int, 0, len(rows))
	for r, row := range rows {
		refused, skip := -1, false
		for i, ui := range u.cons {
			if k := keys[i][r]; k != "" {
				if e, _ := states[i].entryOf(k); e != nil {
					if refused < 0 {
						refused = i
					}
					skip = skip || u.skips(ui, ignore)
				}
			}
		}
		if skip {
			continue
		}
		if refused >= 0 {
			return nil, taken(u.cons[refused], row)
		}
		for i, ui := range u.cons {
			if k := keys[i][r]; k != "" {
				states[i].set[k] = u.entry(ui, row)
			}
		}
		keep = append(keep, r)
	}
	return keep, u.apply(ctx, states)
}

// truncateIndexes empties the index tables of a table a transaction
// truncates, with it (txnstore/truncate.go).
func (pt *pendingTable) truncateIndexes(ctx context.Context) error {
	if pt.uq == nil {
		return nil
	}
	for _, ui := range pt.uq.cons {
		idx, err := pt.uq.index(ctx, ui)
		if err != nil {
			return err
		}
		if err := idx.Truncate(); err != nil {
			return err
		}
	}
	return nil
}
