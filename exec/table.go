package exec

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/arrowrec"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TableScan reads a consistent snapshot of a table, decoding only the
// projected columns.
type TableScan struct {
	Table fluss.Table
	// Changelog reads the table's changes (t$changelog) instead of its rows.
	Changelog bool
	Options   fluss.ScanOptions
	Out       *arrow.Schema
	reader    fluss.RecordReader

	// Binlog (with Changelog) pairs the changes into t$binlog rows; the
	// changelog is then read whole (Options' projection and limit are
	// not applied to it).
	Binlog bool
	binlog *binlogPairer
}

func (o *TableScan) Schema() *arrow.Schema { return o.Out }
func (o *TableScan) Close() {
	if o.reader != nil {
		o.reader.Close()
		o.reader = nil
	}
	if o.binlog != nil {
		o.binlog.close()
	}
}

func (o *TableScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.reader == nil {
		var r fluss.RecordReader
		var err error
		if o.Changelog {
			cs, ok := o.Table.(fluss.ChangelogScanner)
			if !ok {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "table %q has no readable changelog", o.Table.Info().Path.Table)
			}
			opts := o.Options
			if o.Binlog {
				opts = fluss.ScanOptions{BatchRows: opts.BatchRows}
				o.binlog = &binlogPairer{out: o.Out}
			}
			r, err = cs.ScanChangelog(ctx, opts)
		} else {
			r, err = o.Table.Scan(ctx, o.Options)
		}
		if err != nil {
			return nil, err
		}
		o.reader = r
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	b, err := o.reader.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	if o.binlog != nil {
		out, err := o.binlog.convert(b)
		b.Release()
		return out, err
	}
	// The store names and types columns as the table does; re-label with
	// the blueprint's schema so downstream nodes see their own field names.
	if err := fitsSchema(o.Out, b, o.Table); err != nil {
		b.Release()
		return nil, err
	}
	out := array.NewRecordBatch(o.Out, b.Columns(), b.NumRows())
	b.Release()
	return out, nil
}

// fitsSchema fails a read whose store batch b does not have the columns
// its plan's schema out describes: the table's columns changed after the
// plan was made (an ALTER TABLE that ran while the statement read it,
// which takes no table lock), so the batch cannot be labelled as the plan
// expects. It was a panic (XX000) in array.NewRecordBatch.
func fitsSchema(out *arrow.Schema, b arrow.RecordBatch, t fluss.Table) error {
	cols := b.Columns()
	ok := len(cols) == out.NumFields()
	for i := 0; ok && i < len(cols); i++ {
		ok = arrow.TypeEqual(cols[i].DataType(), out.Field(i).Type)
	}
	if ok {
		return nil
	}
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent change of the columns of table \"%s\"", t.Info().Path.Table).
		WithHint("Run the statement again.")
}

// Lookup reads the rows of a primary-key table whose full key equals one of
// Keys (each a constant or parameter per key column), projected.
type Lookup struct {
	EC         *EvalContext
	Table      fluss.Table
	Keys       [][]Expr
	Projection []int
	Out        *arrow.Schema
	// KeySchema is the primary-key columns' schema (KeySchemaOf), built once
	// per prepared statement; nil = built per execution from the table.
	KeySchema *arrow.Schema
	// Labels, when set, is shared by the executions of one plan: the table
	// labels its records with a schema of its own, equal to Out but not
	// Out, and comparing them field by field cost a point lookup as much
	// as building its key.
	Labels *SchemaMemo
	// Reuse, when set, lets a table that can (fluss.ReusingLookuper) decode
	// a one-key lookup's row into a record it keeps there and rewrites at
	// the next execution: set only when the batch goes to the client,
	// which keeps nothing of it past Release (lower.BuildForClient).
	Reuse *fluss.ReuseSlot
	done  bool
	// key is the record of a single BIGINT key, in the operator's own
	// allocation (an operator runs its lookup once).
	key int64Key
}

// SchemaMemo remembers the schema that was last found equal to an
// operator's output schema, so that a table handing out records labelled
// with that same schema again is answered by a pointer comparison. It is
// safe for concurrent use.
type SchemaMemo struct{ same atomic.Pointer[arrow.Schema] }

// Equal reports whether s equals out, the operator's output schema (always
// the same one for a memo).
func (m *SchemaMemo) Equal(s, out *arrow.Schema) bool {
	if s == out || (m != nil && m.same.Load() == s) {
		return true
	}
	if !s.Equal(out) {
		return false
	}
	if m != nil {
		m.same.Store(s)
	}
	return true
}

// rowSchema is info.ArrowSchema(), built once per version of the table's
// schema (kept in its ArrowSchemas under the key the engine's pending
// tables and the store use for the whole row): building it per statement
// was ~2% of a one-row UPDATE's CPU, and a write whose record carries the
// very schema the store validates against skips the validation's per-column
// copies (fluss.ValidateRecordAs).
func rowSchema(info fluss.TableInfo) *arrow.Schema {
	return info.ArrowSchemas.Get([]byte{'w'}, info.ArrowSchema)
}

// KeySchemaOf is the schema of a table's primary-key columns, in key order:
// what Lookup sends the table.
func KeySchemaOf(info fluss.TableInfo) *arrow.Schema {
	full := info.ArrowSchema()
	var fields []arrow.Field
	for _, name := range info.Descriptor.Schema.PrimaryKey {
		fields = append(fields, full.Field(info.ColumnIndex(name)))
	}
	return arrow.NewSchema(fields, nil)
}

func (o *Lookup) Schema() *arrow.Schema { return o.Out }
func (o *Lookup) Close()                {}
func (o *Lookup) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	o.done = true
	keySchema := o.KeySchema
	if keySchema == nil {
		keySchema = KeySchemaOf(o.Table.Info())
	}
	if len(o.Keys) == 1 && len(o.Keys[0]) == 1 && keySchema.NumFields() == 1 && keySchema.Field(0).Type.ID() == arrow.INT64 {
		// The prepared `WHERE id = $1` on a BIGINT key: its key record is
		// built without a record builder.
		v, err := EvalScalar(o.EC, o.Keys[0][0])
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, nil // key = NULL matches nothing
		}
		if id, ok := v.(int64); ok {
			return o.lookup(ctx, o.key.init(keySchema, id))
		}
	}
	bld := array.NewRecordBuilder(o.EC.Mem, keySchema)
	defer bld.Release()
	rows := 0
	var vals []any
	// An IN list may name a key twice (id IN (1, 1), or two parameters
	// with one value): each row is still returned once.
	var seen map[string]bool
	if len(o.Keys) > 1 {
		seen = make(map[string]bool, len(o.Keys))
	}
	for _, key := range o.Keys {
		vals = vals[:0]
		null := false
		for _, e := range key {
			v, err := EvalScalar(o.EC, e)
			if err != nil {
				return nil, err
			}
			if v == nil {
				null = true // key = NULL matches nothing
			}
			vals = append(vals, v)
		}
		if null {
			continue
		}
		if seen != nil {
			id := fmt.Sprintf("%#v", vals)
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		for i, v := range vals {
			appendValue(bld.Field(i), v)
		}
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	return o.lookup(ctx, bld.NewRecordBatch())
}

// lookup reads the rows of keys (released here), labelled with Out.
func (o *Lookup) lookup(ctx context.Context, keys arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer keys.Release()
	var b arrow.RecordBatch
	var err error
	if rl, ok := o.Table.(fluss.ReusingLookuper); ok && o.Reuse != nil && keys.NumRows() == 1 {
		b, err = rl.LookupReusing(ctx, keys, o.Projection, o.Out, o.Reuse)
	} else {
		b, err = o.Table.Lookup(ctx, keys, o.Projection)
	}
	if err != nil || b == nil {
		return nil, err
	}
	if b.NumRows() == 0 {
		b.Release()
		return nil, nil
	}
	if o.Labels.Equal(b.Schema(), o.Out) {
		return b, nil // already labelled as the plan labels it
	}
	if err := fitsSchema(o.Out, b, o.Table); err != nil {
		b.Release()
		return nil, err
	}
	out := array.NewRecordBatch(o.Out, b.Columns(), b.NumRows())
	b.Release()
	return out, nil
}

// int64Key is the one-row record of a single BIGINT key column and the
// storage of its column, held at once rather than as a value slice, a
// buffer header, a buffer list, the column's Data, a record and its column
// list (the column's Int64 is the one other allocation). A Lookup keeps one
// for the prepared `WHERE id = $1` (Lookup.key).
type int64Key struct {
	arrowrec.Record
	val  [1]int64
	buf  memory.Buffer
	bufs [2]*memory.Buffer
	data array.Data
	cols [1]arrow.Array
}

// init makes k, a zero int64Key, the one-row record of id.
func (k *int64Key) init(schema *arrow.Schema, id int64) arrow.RecordBatch {
	k.val[0] = id
	k.buf.Reset(arrow.Int64Traits.CastToBytes(k.val[:]))
	k.bufs[1] = &k.buf
	k.data.Reset(schema.Field(0).Type, 1, k.bufs[:], nil, 0, 0)
	k.cols[0] = array.NewInt64Data(&k.data)
	k.Init(schema, k.cols[:], 1)
	return k
}

// rowsRecord is ownedRecord's record: the header and a short column list
// in one allocation, where array.NewRecordBatch made two (a point lookup's
// projection, an UPDATE's rows relabelled as the table's: two each per
// statement of the W10 transaction).
type rowsRecord struct {
	arrowrec.Record
	cols [4]arrow.Array
}

// ownedRecord is a record of schema over cols (rows long), taking over the
// caller's reference to each column. Columns that do not match schema
// (which NewRecordBatch panics on) and long column lists go through
// NewRecordBatch.
func ownedRecord(schema *arrow.Schema, cols []arrow.Array, rows int64) arrow.RecordBatch {
	if !fitsRowsRecord(schema, cols, rows) {
		out := array.NewRecordBatch(schema, cols, rows)
		for _, c := range cols {
			c.Release()
		}
		return out
	}
	r := &rowsRecord{}
	copy(r.cols[:], cols)
	r.Init(schema, r.cols[:len(cols)], rows)
	return r
}

// fitsRowsRecord reports whether cols fit a rowsRecord of schema: few
// enough, each of its field's type and rows long.
func fitsRowsRecord(schema *arrow.Schema, cols []arrow.Array, rows int64) bool {
	if len(cols) > len(rowsRecord{}.cols) || len(cols) != schema.NumFields() {
		return false
	}
	for i, c := range cols {
		if int64(c.Len()) != rows || !arrow.TypeEqual(c.DataType(), schema.Field(i).Type) {
			return false
		}
	}
	return true
}

// tableRows is ownedRecord over cols, which it retains: the rows an UPDATE
// writes, relabelled as the table's.
func tableRows(schema *arrow.Schema, cols []arrow.Array, rows int64) arrow.RecordBatch {
	for _, c := range cols {
		c.Retain()
	}
	return ownedRecord(schema, cols, rows)
}

// Insert writes every batch of Source into a table (Append for log tables,
// Upsert for primary-key tables) and returns the row count as its result.
type Insert struct {
	EC             *EvalContext
	Table          fluss.Table
	Source         Operator
	IgnoreExisting bool
	// RefuseExisting: a key the table holds, or that an earlier row of
	// the statement wrote, is 23505, as PostgreSQL's primary key index
	// refuses it (MERGE's INSERT), where the store's Upsert would replace
	// the row.
	RefuseExisting bool
	// Merge, when set (ON CONFLICT DO UPDATE), computes the row that
	// replaces an existing one: one expression per table column over the
	// existing row's columns followed by the proposed row's.
	Merge []Expr
	// MergeWhere, when set, is DO UPDATE's WHERE over the same pair: a
	// conflicting row for which it is not true is left as it is (not
	// written, counted or returned), as PostgreSQL leaves it.
	MergeWhere Expr
	// MergeGenerated, when set, replaces the generated columns of the
	// rows Merge computed (cols, one per table column) by their values
	// over those rows: PostgreSQL computes them from the updated row
	// (ExecComputeStoredGenerated), once Merge's SET values are.
	MergeGenerated func(cols []arrow.Array, rows int64) error
	// ProposedChecked: Source checked its rows' NOT NULL and CHECK
	// constraints as proposed, before it changed them (an ON CONFLICT
	// arbiter that gives a row the key of the row it conflicts with:
	// PostgreSQL's failing row is the proposed one), so Merge does not
	// check them again.
	ProposedChecked bool
	// ProposedKeys: Source's batches carry, after the table's columns,
	// the primary-key columns of each row as proposed, before an ON
	// CONFLICT arbiter gave the row the key of the row it conflicts with
	// (engine's UNIQUE arbiter): EXCLUDED, in Merge and MergeWhere, is the
	// proposed row with those keys, as PostgreSQL's excluded row is the
	// proposed one.
	ProposedKeys bool
	// KeyLock: DO UPDATE's SET assigns a column of a unique
	// constraint, so the rows it updates are locked FOR UPDATE rather
	// than FOR NO KEY UPDATE (UpsertLock.Mode).
	KeyLock bool
	Rows    int64
	// merged are the keys the statement's merge inserted or updated so
	// far: a key proposed again, in any batch, is PostgreSQL's 21000 (a
	// key whose existing row DO UPDATE's WHERE skipped is not one).
	merged map[string]bool
	// proposed are the keys proposed so far, in any batch
	// (IgnoreExisting's, RefuseExisting's).
	proposed map[string]bool
	// Returning, when set, is evaluated over every row as written (after
	// Merge; with IgnoreExisting, only the rows that were absent) into Ret.
	Returning []Expr
	Ret       *Returned
	// ViewChecks are the WITH CHECK OPTION conditions of the views the
	// INSERT writes through (viewcheck.go), checked on every row written
	// (after Merge).
	ViewChecks []ViewCheck
	// Journal: Source calls something volatile, whose sequence calls the
	// rows after a failing one take back (roworder.go).
	Journal bool
	drained bool
}

// Run drains Source into the table. Each batch is one durable write.
func (o *Insert) Run(ctx context.Context) error {
	defer o.Source.Close()
	info := o.Table.Info()
	schema := rowSchema(info)
	for {
		// the batch's nextval calls (a SERIAL's default) are journaled:
		// PostgreSQL called them for the rows up to a failing one only
		mark, end := -1, func() {}
		if o.Journal {
			mark, end = sequenceMark(o.EC)
		}
		err := o.runBatch(ctx, info, schema, mark)
		end()
		if err != nil || o.drained {
			return err
		}
	}
}

// runBatch writes Source's next batch (drained: there was none).
func (o *Insert) runBatch(ctx context.Context, info fluss.TableInfo, schema *arrow.Schema, mark int) error {
	b, err := o.Source.Next(ctx)
	if err != nil {
		return err
	}
	if b == nil {
		o.drained = true
		return nil
	}
	rec := array.NewRecordBatch(schema, b.Columns()[:len(schema.Fields())], b.NumRows())
	var excl arrow.RecordBatch // the proposed rows, when rec's keys are not theirs
	if o.ProposedKeys {
		excl = proposedRows(info, schema, b)
		defer excl.Release()
	}
	b.Release()
	// NOT NULL before anything else, as PostgreSQL's ExecConstraints,
	// its DETAIL in the session's settings (the store's check has none)
	if row, err := fluss.NotNullRow(info, rec.Columns(), o.EC.Location(), o.EC.Style()); err != nil {
		if mark >= 0 {
			functions.RewindSequences(o.EC.Ctx, mark, int(rec.NumRows()), row+1)
		}
		// PostgreSQL wrote the rows before the failing one first: a
		// CHECK or unique constraint they break is the error
		return o.failAt(ctx, info, rec, excl, row, err)
	}
	n := rec.NumRows()
	err = o.write(ctx, info, rec, excl)
	if err != nil && mark >= 0 && o.Merge == nil {
		if f, ok := o.Table.(RowFailer); ok && f.FailedRow() >= 0 {
			functions.RewindSequences(o.EC.Ctx, mark, int(n), f.FailedRow()+1)
		}
	}
	return err
}

// proposedRows is the batch b (the table's columns, then the proposed
// primary-key columns: ProposedKeys) as proposed: its key columns are
// the trailing ones.
func proposedRows(info fluss.TableInfo, schema *arrow.Schema, b arrow.RecordBatch) arrow.RecordBatch {
	n := len(schema.Fields())
	cols := append([]arrow.Array{}, b.Columns()[:n]...)
	for i, k := range info.Descriptor.Schema.PrimaryKey {
		cols[info.ColumnIndex(k)] = b.Column(n + i)
	}
	return array.NewRecordBatch(schema, cols, b.NumRows())
}

// failAt is the error of batch rec whose row row fails with err (row < 0:
// not a row's): PostgreSQL writes a row at a time, so the rows before it
// were written first, and their failure is the error. It releases rec;
// excl (rec's rows as proposed, nil when they are rec's) is borrowed.
func (o *Insert) failAt(ctx context.Context, info fluss.TableInfo, rec, excl arrow.RecordBatch, row int, err error) error {
	if row > 0 {
		var prefix arrow.RecordBatch
		if excl != nil {
			prefix = excl.NewSlice(0, int64(row))
			defer prefix.Release()
		}
		if perr := o.write(ctx, info, rec.NewSlice(0, int64(row)), prefix); perr != nil {
			err = perr
		}
	}
	rec.Release()
	return err
}

// write writes one batch rec (its NOT NULL constraints passed), which it
// releases; excl is rec's rows as proposed (nil: rec's), which ON CONFLICT
// DO UPDATE's EXCLUDED reads.
func (o *Insert) write(ctx context.Context, info fluss.TableInfo, rec, excl arrow.RecordBatch) error {
	var err error
	proposed := o.proposed
	defer func() { o.proposed = proposed }()
	if info.HasPrimaryKey() {
		// Locked before anything reads whether the keys exist, so that
		// ON CONFLICT reads the newest committed rows.
		if err := lockInsert(ctx, o.Table, rec, o.upsertLock()); err != nil {
			rec.Release()
			return err
		}
		if o.RefuseExisting {
			if proposed == nil {
				proposed = map[string]bool{}
			}
			if err := o.refuseExisting(ctx, rec, proposed); err != nil {
				rec.Release()
				return err
			}
		}
	}
	if o.Merge != nil {
		if rc, ok := o.Table.(RowChecker); ok && !o.ProposedChecked {
			// PostgreSQL's ExecInsert checks a proposed row's CHECK
			// constraints before ON CONFLICT's arbiters: a row that fails
			// one is 23514 even when its key exists and DO UPDATE would
			// have replaced it with a row that passes. It goes a row at a
			// time: the rows before the failing one were merged first,
			// and their failure is the error
			if row, err := rc.CheckRows(ctx, rec); err != nil {
				return o.failAt(ctx, info, rec, excl, row, err)
			}
		}
		if r := o.remerged(ctx, rec, excl); r >= 0 {
			// PostgreSQL merged the rows before the second proposal
			// first: their failure (a CHECK's) is the error
			return o.failAt(ctx, info, rec, excl, r, AffectedTwice())
		}
		merged, err := o.merge(ctx, rec, excl)
		rec.Release()
		if err != nil {
			return err
		}
		rec = merged
	}
	if len(o.ViewChecks) > 0 {
		err := o.checkViews(ctx, info, rec, proposed, func(prefix arrow.RecordBatch) error {
			var err error
			if info.HasPrimaryKey() || o.IgnoreExisting {
				_, err = o.Table.Upsert(ctx, prefix, fluss.UpsertOptions{IgnoreExisting: o.IgnoreExisting})
			} else {
				_, err = o.Table.Append(ctx, prefix)
			}
			return err
		})
		if err != nil {
			rec.Release()
			return err
		}
	}
	written := rec
	if o.Returning != nil && o.IgnoreExisting && info.HasPrimaryKey() {
		if proposed == nil {
			proposed = map[string]bool{}
		}
		if written, err = absentRows(ctx, o.EC, o.Table, rec, proposed); err != nil {
			rec.Release()
			return err
		}
	} else {
		written.Retain()
	}
	// RETURNING is computed before the batch is written, so that its
	// subqueries read the table without the statement's own rows, as
	// PostgreSQL's (run under the statement's snapshot) do; UPDATE
	// and DELETE compute theirs before writing too
	var early *Returned
	if o.Returning != nil {
		early = &Returned{Schema: o.Ret.Schema}
		if err := evalReturning(o.EC, o.Returning, written, early); err != nil {
			early.Release()
			written.Release()
			rec.Release()
			return err
		}
	}
	var res fluss.WriteResult
	if info.HasPrimaryKey() || o.IgnoreExisting { // (a log table's DO NOTHING: its UNIQUE constraints may skip rows)
		res, err = o.Table.Upsert(ctx, rec, fluss.UpsertOptions{IgnoreExisting: o.IgnoreExisting})
	} else {
		res, err = o.Table.Append(ctx, rec)
	}
	late := false
	if err == nil && res.Kept != nil && o.Returning != nil && o.IgnoreExisting {
		// the table skipped rows the key alone did not (a UNIQUE
		// constraint's conflict): its own list is the rows inserted,
		// whose RETURNING is computed now
		written.Release()
		early.Release()
		late = true
		written, err = takeRows(o.EC, rec, res.Kept)
		if err != nil {
			rec.Release()
			return err
		}
	}
	rec.Release()
	switch {
	case err == nil && late:
		err = evalReturning(o.EC, o.Returning, written, o.Ret)
	case err == nil && early != nil:
		o.Ret.Batches = append(o.Ret.Batches, early.Batches...)
	default:
		early.Release()
	}
	written.Release()
	if err != nil {
		return err
	}
	o.Rows += res.Rows
	return nil
}

// upsertLock is how an ON CONFLICT insert locks its keys (nil: a plain
// INSERT's FOR UPDATE).
func (o *Insert) upsertLock() *UpsertLock {
	switch {
	case o.IgnoreExisting:
		return &UpsertLock{Mode: rowlock.Update, DoNothing: true}
	case o.Merge != nil && o.KeyLock:
		return &UpsertLock{Mode: rowlock.Update}
	case o.Merge != nil:
		return &UpsertLock{Mode: rowlock.NoKeyUpdate}
	}
	return nil
}

// refuseExisting is RefuseExisting's check of rec (its keys locked): the
// first row whose key exists or was proposed before is 23505.
func (o *Insert) refuseExisting(ctx context.Context, rec arrow.RecordBatch, proposed map[string]bool) error {
	info := o.Table.Info()
	keep, keyCols, err := absentIndexes(ctx, o.Table, rec, proposed)
	if err != nil || len(keep) == int(rec.NumRows()) {
		return err
	}
	r := 0
	for r < len(keep) && int(keep[r]) == r {
		r++
	}
	return duplicateKey(o.EC, info, rec, r, keyCols)
}

// cancelled maps a context error to 57014.
func cancelled(err error) error {
	if se := sqlerr.As(err); se != nil {
		return se
	}
	return sqlerr.Wrap(err, sqlerr.QueryCanceled, "canceling statement due to user request")
}

// Update upserts the new rows Source yields into a primary-key table. When
// KeyChanged, each batch also carries the old keys (after the table's
// columns): then every row is read first, the new keys are checked for
// collisions (23505, as PostgreSQL's unique primary key reports), all old
// keys are deleted and all new rows written — so that SET id = id + 1
// cannot clobber a row it has not moved yet.
type Update struct {
	EC         *EvalContext
	Table      fluss.Table
	Source     Operator
	KeyChanged bool
	// KeyLock takes the rows FOR UPDATE although their keys stay: the
	// UPDATE changes a UNIQUE constraint's column, which a foreign key
	// may reference (binder.Update.UniqueChanged).
	KeyLock bool
	Rows    int64

	// Joined (UPDATE ... FROM): a target row may come several times; only
	// its first one is written.
	Joined bool
	// RetAt > 0: Source's columns from RetAt on are the RETURNING values
	// (as many as Ret's schema has; a joined write's other tables'
	// columns may follow, binder.Recheck.At), collected into Ret for the
	// rows written.
	RetAt int
	Ret   *Returned
	// Recheck, when the table takes row locks, collects the rows to re-read
	// (first pass) or names the only rows to write (second pass); see
	// RowLocker.
	Recheck *Recheck
	// ViewChecks: as Insert's, over the new rows.
	ViewChecks []ViewCheck
}

// Run drains Source into the table.
func (o *Update) Run(ctx context.Context) error {
	err := o.run(ctx)
	if err == nil {
		o.Recheck.settle(o.Table)
	}
	return err
}

func (o *Update) run(ctx context.Context) error {
	defer o.Source.Close()
	info := o.Table.Info()
	schema := rowSchema(info)
	ncols := schema.NumFields() // Fields() copies the list
	pk := info.Descriptor.Schema.PrimaryKey
	// the columns identifying the target row: its old key when it moves
	// (these lists, and the key's types, on the stack for short keys)
	var targetBuf [4]int
	targetKey := targetBuf[:0]
	for i, k := range pk {
		if o.KeyChanged {
			targetKey = append(targetKey, ncols+i)
		} else {
			targetKey = append(targetKey, info.ColumnIndex(k))
		}
	}
	var seen map[string]bool // UPDATE ... FROM's target rows written
	if o.Joined {
		seen = map[string]bool{}
	}
	var ktBuf [2]types.T
	kt := appendKeyTypes(ktBuf[:0], info)
	// An UPDATE that moves keys (or changes a UNIQUE constraint's
	// column, KeyLock) takes the rows FOR UPDATE, others FOR NO KEY
	// UPDATE, as PostgreSQL does.
	mode := rowlock.NoKeyUpdate
	if o.KeyChanged || o.KeyLock {
		mode = rowlock.Update
	}
	next := func() (arrow.RecordBatch, error) {
		for {
			b, err := o.Source.Next(ctx)
			if err != nil || b == nil {
				return b, err
			}
			if b, err = lockWritten(ctx, o.EC, o.Table, kt, o.Recheck, b, targetKey, seen, mode); err != nil {
				return nil, err
			}
			if b.NumRows() > 0 {
				return b, nil
			}
			b.Release()
		}
	}
	returned := func(b arrow.RecordBatch) {
		if o.RetAt > 0 {
			o.Ret.addFrom(b, o.RetAt)
		}
	}
	if !o.KeyChanged {
		for {
			b, err := next()
			if err != nil || b == nil {
				return err
			}
			rec := tableRows(schema, b.Columns()[:ncols], b.NumRows())
			err = o.writeRows(ctx, info, rec)
			n := rec.NumRows()
			rec.Release()
			if err == nil {
				returned(b)
			}
			b.Release()
			if err != nil {
				return err
			}
			o.Rows += n
		}
	}
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	var failed error // a row's constraint failure, after the rows before it
	for {
		b, err := next()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		// PostgreSQL updates a row at a time, each checked for NOT NULL,
		// then its CHECK constraints, then its new key: the error is the
		// first row's to fail any of them, so the rows before one failing
		// a constraint are still probed for their keys, and the rows the
		// source has not made yet never come (a null key is refused here,
		// as the store refuses it, before the keys are encoded)
		first := firstRowFailure{at: -1}
		if err := o.rowConstraints(ctx, info, schema, b, &first); err != nil {
			b.Release()
			return err
		}
		if first.at >= 0 {
			failed = first.err
			if first.at > 0 {
				batches = append(batches, b.NewSlice(0, first.at))
			}
			b.Release()
			break
		}
		batches = append(batches, b)
	}
	if len(batches) == 0 {
		return failed
	}
	keyOf := rowKey
	newKeyCols := make([]int, len(pk))
	oldKeyCols := make([]int, len(pk))
	for i, k := range pk {
		newKeyCols[i] = info.ColumnIndex(k)
		oldKeyCols[i] = ncols + i
	}
	oldKeys, newKeys := map[string]bool{}, map[string]bool{}
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			oldKeys[keyOf(b, r, oldKeyCols)] = true
		}
	}
	var fs []arrow.Field
	for _, c := range newKeyCols {
		fs = append(fs, schema.Field(c))
	}
	keySchema := arrow.NewSchema(fs, nil)
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			k := keyOf(b, r, newKeyCols)
			if newKeys[k] {
				return duplicateKey(o.EC, info, b, r, newKeyCols)
			}
			newKeys[k] = true
		}
		// A new key that exists and is not being moved away collides.
		cols := make([]arrow.Array, len(newKeyCols))
		for i, c := range newKeyCols {
			cols[i] = b.Column(c)
		}
		probe := array.NewRecordBatch(keySchema, cols, b.NumRows())
		if l, ok := o.Table.(RowLocker); ok {
			// The new keys are locked before their collision check reads them.
			nk := make([]int, len(newKeyCols))
			for i := range nk {
				nk[i] = i
			}
			keys, err := keyStrings(kt, probe, nk)
			if err == nil {
				_, err = l.LockRows(ctx, keys, RowLock{Mode: rowlock.Update, Write: true})
			}
			if err != nil {
				probe.Release()
				return err
			}
		}
		found, err := o.Table.Lookup(ctx, probe, newKeyCols)
		probe.Release()
		if err != nil {
			return err
		}
		if found != nil {
			idx := make([]int, len(newKeyCols))
			for i := range idx {
				idx[i] = i
			}
			collide := map[string]bool{}
			for r := 0; r < int(found.NumRows()); r++ {
				if k := keyOf(found, r, idx); !oldKeys[k] {
					collide[k] = true
				}
			}
			found.Release()
			// the first row (in the statement's order) moving onto one
			for r := 0; r < int(b.NumRows()) && len(collide) > 0; r++ {
				if collide[keyOf(b, r, newKeyCols)] {
					return duplicateKey(o.EC, info, b, r, newKeyCols)
				}
			}
		}
	}
	if failed != nil {
		return failed
	}
	if len(o.ViewChecks) > 0 {
		for _, b := range batches {
			rec := array.NewRecordBatch(schema, b.Columns()[:ncols], b.NumRows())
			row, k, err := failedViewCheck(o.EC, o.ViewChecks, rec, nil)
			if err == nil && row >= 0 {
				err = viewCheckError(o.EC, info, o.ViewChecks[k], rec, row)
			}
			rec.Release()
			if err != nil {
				return err
			}
		}
	}
	for _, b := range batches {
		keys := array.NewRecordBatch(keySchema, b.Columns()[ncols:ncols+len(pk)], b.NumRows())
		_, err := o.Table.Delete(ctx, keys)
		keys.Release()
		if err != nil {
			return err
		}
	}
	for _, b := range batches {
		rec := array.NewRecordBatch(schema, b.Columns()[:ncols], b.NumRows())
		_, err := o.Table.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil {
			return err
		}
		returned(b)
		o.Rows += b.NumRows()
	}
	// the rows' new keys, for a statement waiting for one of them to
	// follow it there (RowLocker.Follow)
	if l, ok := o.Table.(RowLocker); ok {
		var from, to []string
		for _, b := range batches {
			f, err := keyStrings(kt, b, oldKeyCols)
			if err != nil {
				return err
			}
			t, err := keyStrings(kt, b, newKeyCols)
			if err != nil {
				return err
			}
			from, to = append(from, f...), append(to, t...)
		}
		l.Moving(from, to) // at once: a statement's moves are simultaneous
	}
	return nil
}

// writeRows writes the new rows rec of an UPDATE that keeps its keys.
// PostgreSQL updates a row at a time: when a row fails its NOT NULL
// constraints or its views' check options (checked after the row is
// written), the rows before it are written first, and a CHECK or unique
// constraint one of them (or, for a view's check, the row itself) breaks
// is the error.
func (o *Update) writeRows(ctx context.Context, info fluss.TableInfo, rec arrow.RecordBatch) error {
	// NOT NULL with its DETAIL in the session's settings (the store's own
	// check has none)
	n, err := fluss.NotNullRow(info, rec.Columns(), o.EC.Location(), o.EC.Style())
	if err == nil {
		n = int(rec.NumRows())
	}
	if len(o.ViewChecks) > 0 && n > 0 {
		head := rec.NewSlice(0, int64(n))
		row, k, verr := failedViewCheck(o.EC, o.ViewChecks, head, nil)
		head.Release()
		switch {
		case verr != nil:
			return verr
		case row >= 0 && o.ViewChecks[k].Partition: // checked before the row is written
			n, err = row, viewCheckError(o.EC, info, o.ViewChecks[k], rec, row)
		case row >= 0:
			n, err = row+1, viewCheckError(o.EC, info, o.ViewChecks[k], rec, row)
		}
	}
	if n <= 0 {
		return err
	}
	head := rec
	if n < int(rec.NumRows()) {
		head = rec.NewSlice(0, int64(n))
		defer head.Release()
	}
	if _, werr := o.Table.Upsert(ctx, head, fluss.UpsertOptions{}); werr != nil {
		return werr
	}
	return err
}

// firstRowFailure is the first row of a batch to fail a constraint, and
// its error; at < 0: none.
type firstRowFailure struct {
	at  int64
	err error
}

// RowChecker is a table that checks rows against its CHECK constraints
// without writing them: the first failing row and its error (-1 with an
// error: not a row's).
type RowChecker interface {
	CheckRows(ctx context.Context, rec arrow.RecordBatch) (int, error)
}

// rowConstraints notes in first the first row of b that fails NOT NULL
// or a CHECK constraint (NOT NULL first within a row, as PostgreSQL's
// ExecConstraints); an error not a row's is returned.
func (o *Update) rowConstraints(ctx context.Context, info fluss.TableInfo, schema *arrow.Schema, b arrow.RecordBatch, first *firstRowFailure) error {
	rec := array.NewRecordBatch(schema, b.Columns()[:schema.NumFields()], b.NumRows())
	defer rec.Release()
	// a partition's constraint first (ExecUpdateAct checks it before
	// ExecConstraints): the constraints below count before its row only
	if prow, perr := partitionCheckRow(o.EC, info, o.ViewChecks, rec); perr != nil && prow < 0 {
		return perr
	} else if perr != nil {
		first.at, first.err = int64(prow), perr
		head := rec.NewSlice(0, int64(prow))
		defer head.Release()
		var hf firstRowFailure
		hf.at = -1
		if err := o.rowConstraints(ctx, info, schema, head, &hf); err != nil {
			return err
		}
		if hf.at >= 0 {
			*first = hf
		}
		return nil
	}
	row, err := RowConstraintFailure(ctx, o.EC, o.Table, rec)
	if err != nil && row < 0 {
		return err
	}
	if err != nil {
		first.at, first.err = int64(row), err
	}
	return nil
}

// RowConstraintFailure is the first row of rec (rows of t, its columns
// in table order) that fails NOT NULL or one of t's CHECK constraints
// (when t is a RowChecker), NOT NULL first within a row, as PostgreSQL's
// ExecConstraints checks a row: its index and error; -1 and nil when
// every row passes, -1 and an error that is not a row's.
func RowConstraintFailure(ctx context.Context, ec *EvalContext, t fluss.Table, rec arrow.RecordBatch) (int, error) {
	row, err := fluss.NotNullRow(t.Info(), rec.Columns(), ec.Location(), ec.Style())
	if err != nil && row < 0 {
		return -1, err
	}
	if rc, ok := t.(RowChecker); ok {
		n := rec.NumRows()
		if err != nil {
			n = int64(row) // a CHECK counts before it only
		}
		prefix := rec.NewSlice(0, n)
		crow, cerr := rc.CheckRows(ctx, prefix)
		prefix.Release()
		if cerr != nil && crow < 0 {
			return -1, cerr
		}
		if cerr != nil {
			row, err = crow, cerr
		}
	}
	if err == nil {
		return -1, nil
	}
	return row, err
}

// duplicateKey is PostgreSQL's 23505 of the primary key for row r of rec,
// whose key columns are cols (in key order), with its DETAIL "Key (id)=(7)
// already exists." in the session's text style.
func duplicateKey(ec *EvalContext, info fluss.TableInfo, rec arrow.RecordBatch, r int, cols []int) error {
	defs := info.Descriptor.Schema.Columns
	names := make([]string, len(cols))
	vals := make([]string, len(cols))
	loc, st := ec.Location(), ec.Style()
	for k, name := range info.Descriptor.Schema.PrimaryKey {
		names[k] = name
		var v any
		if a := rec.Column(cols[k]); !a.IsNull(r) {
			v = types.ValueAt(a, r)
		}
		vals[k] = DetailValue(v, defs[info.ColumnIndex(name)].Type.Nullable(), loc, st)
	}
	return sqlerr.New(sqlerr.UniqueViolation, "duplicate key value violates unique constraint %q", info.PrimaryKeyName()).
		WithDetail("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
}

// DetailValue is a value of type t as an error's DETAIL prints it: its
// type's output function in the session's zone and styles (a boolean is
// t or f, as boolout writes it, not the true of a cast to text), null for
// NULL.
func DetailValue(v any, t types.T, loc *time.Location, st types.Style) string {
	if v == nil {
		return "null"
	}
	if b, ok := v.(bool); ok && t.Kind == types.Bool {
		if b {
			return "t"
		}
		return "f"
	}
	return types.FormatTextStyle(v, t, loc, st)
}

// Delete deletes the keys Source yields from a primary-key table.
type Delete struct {
	Table  fluss.Table
	Source Operator
	Rows   int64

	EC *EvalContext
	// Joined (DELETE ... USING): a key may come several times.
	Joined bool
	// RetAt > 0: Source's columns from RetAt on are the RETURNING values
	// of the deleted row, collected into Ret.
	RetAt int
	Ret   *Returned
	// Recheck: as Update's.
	Recheck *Recheck
}

// Run drains Source into deletes, one durable write per batch.
func (o *Delete) Run(ctx context.Context) error {
	err := o.run(ctx)
	if err == nil {
		o.Recheck.settle(o.Table)
	}
	return err
}

func (o *Delete) run(ctx context.Context) error {
	defer o.Source.Close()
	info := o.Table.Info()
	schema := rowSchema(info)
	var fs []arrow.Field
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		fs = append(fs, schema.Field(info.ColumnIndex(k)))
	}
	keySchema := arrow.NewSchema(fs, nil)
	nk := len(fs)
	keyCols := make([]int, nk)
	for i := range keyCols {
		keyCols[i] = i
	}
	var seen map[string]bool // DELETE ... USING's target rows deleted
	if o.Joined {
		seen = map[string]bool{}
	}
	kt := keyTypes(info)
	for {
		b, err := o.Source.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		if b, err = lockWritten(ctx, o.EC, o.Table, kt, o.Recheck, b, keyCols, seen, rowlock.Update); err != nil {
			return err
		}
		keys := array.NewRecordBatch(keySchema, b.Columns()[:nk], b.NumRows())
		res, err := o.Table.Delete(ctx, keys)
		keys.Release()
		if err == nil {
			err = deleting(o.Table, kt, b, keyCols)
		}
		if err == nil && o.RetAt > 0 {
			o.Ret.addFrom(b, o.RetAt)
		}
		b.Release()
		if err != nil {
			return err
		}
		o.Rows += res.Rows
	}
}

// deleting tells a RowLocker t the keys (columns keyCols of b) of rows a
// DELETE removed: their chains end (RowLocker.Deleting).
func deleting(t fluss.Table, kt []types.T, b arrow.RecordBatch, keyCols []int) error {
	l, ok := t.(RowLocker)
	if !ok || b.NumRows() == 0 {
		return nil
	}
	keys, err := keyStrings(kt, b, keyCols)
	if err == nil {
		l.Deleting(keys)
	}
	return err
}

// AffectedTwice is ON CONFLICT DO UPDATE's 21000 for a row the command
// wrote and a later proposed row conflicts with.
func AffectedTwice() error {
	return sqlerr.New(sqlerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
		WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
}

// remerged is the first row of rec whose key the statement inserted or
// updated before (in rec or an earlier batch), -1 when none is. As in
// PostgreSQL's ExecOnConflictUpdate, the 21000 is for a conflicting row
// this command created (table_tuple_lock's TM_Invisible): a proposal that
// met an existing row and that DO UPDATE's WHERE skipped left the row
// as it was, so a later proposal of its key may still update it.
func (o *Insert) remerged(ctx context.Context, rec, excl arrow.RecordBatch) int {
	info := o.Table.Info()
	var keyCols []int
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		keyCols = append(keyCols, info.ColumnIndex(k))
	}
	n := int(rec.NumRows())
	candidate := -1
	seen := map[string]bool{}
	for r := 0; r < n; r++ {
		k := rowKey(rec, r, keyCols)
		if o.merged[k] || seen[k] {
			candidate = r
			break
		}
		seen[k] = true
	}
	if candidate < 0 || o.MergeWhere == nil {
		return candidate
	}
	// A key proposed again under a WHERE: which earlier proposals wrote.
	exists, pass, err := o.mergeOutcomes(ctx, rec, excl, keyCols)
	if err != nil {
		return -1 // merge evaluates the WHERE again and reports its error
	}
	wrote := map[string]bool{}
	for r := 0; r < n; r++ {
		k := rowKey(rec, r, keyCols)
		if o.merged[k] || wrote[k] {
			return r
		}
		if !exists[r] || pass[r] {
			wrote[k] = true
		}
	}
	return -1
}

// existingRows are the table's rows (every column) whose keys, the
// columns keyCols of rec, rec proposes; nil when none is stored.
func (o *Insert) existingRows(ctx context.Context, rec arrow.RecordBatch, keyCols []int) (arrow.RecordBatch, error) {
	schema := o.Table.Info().ArrowSchema()
	keyArrs := make([]arrow.Array, len(keyCols))
	keyFields := make([]arrow.Field, len(keyCols))
	for i, c := range keyCols {
		keyArrs[i], keyFields[i] = rec.Column(c), schema.Field(c)
	}
	keys := array.NewRecordBatch(arrow.NewSchema(keyFields, nil), keyArrs, rec.NumRows())
	defer keys.Release()
	all := make([]int, len(schema.Fields()))
	for i := range all {
		all[i] = i
	}
	return o.Table.Lookup(ctx, keys, all)
}

// mergeOutcomes is, for each row of rec, whether a row with its key
// exists and whether DO UPDATE's WHERE is true for the pair (excluded:
// excl's row, rec's when nil).
func (o *Insert) mergeOutcomes(ctx context.Context, rec, excl arrow.RecordBatch, keyCols []int) (exists, pass []bool, err error) {
	existing, err := o.existingRows(ctx, rec, keyCols)
	if err != nil {
		return nil, nil, err
	}
	n := int(rec.NumRows())
	exists, pass = make([]bool, n), make([]bool, n)
	if existing == nil {
		return exists, pass, nil
	}
	defer existing.Release()
	at := make(map[string]int32, existing.NumRows())
	for r := 0; r < int(existing.NumRows()); r++ {
		at[rowKey(existing, r, keyCols)] = int32(r)
	}
	var propIdx, oldIdx []int32
	for r := 0; r < n; r++ {
		if e, ok := at[rowKey(rec, r, keyCols)]; ok {
			exists[r] = true
			propIdx, oldIdx = append(propIdx, int32(r)), append(oldIdx, e)
		}
	}
	if len(propIdx) == 0 {
		return exists, pass, nil
	}
	olds, err := takeRows(o.EC, existing, oldIdx)
	if err != nil {
		return nil, nil, err
	}
	defer olds.Release()
	props, err := takeRows(o.EC, excluded(rec, excl), propIdx)
	if err != nil {
		return nil, nil, err
	}
	defer props.Release()
	pairCols := append(append([]arrow.Array{}, olds.Columns()...), props.Columns()...)
	pairFields := append(append([]arrow.Field{}, olds.Schema().Fields()...), props.Schema().Fields()...)
	pair := array.NewRecordBatch(arrow.NewSchema(pairFields, nil), pairCols, int64(len(propIdx)))
	defer pair.Release()
	kept, err := o.mergeWhere(pair)
	if err != nil {
		return nil, nil, err
	}
	for _, i := range kept {
		pass[propIdx[i]] = true
	}
	return exists, pass, nil
}

// merge applies ON CONFLICT DO UPDATE to one batch of proposed rows: rows
// whose key exists are replaced by the Merge expressions evaluated over
// (existing row, proposed row: excl's, rec's when nil); the others are
// inserted as proposed. A key proposed twice in one statement is an error,
// as in PostgreSQL.
func (o *Insert) merge(ctx context.Context, rec, excl arrow.RecordBatch) (arrow.RecordBatch, error) {
	info := o.Table.Info()
	schema := info.ArrowSchema()
	var keyCols []int
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		keyCols = append(keyCols, info.ColumnIndex(k))
	}
	keyOf := func(b arrow.RecordBatch, row int) string { return rowKey(b, row, keyCols) }
	n := int(rec.NumRows())
	if o.merged == nil {
		o.merged = make(map[string]bool, n)
	}
	// remerged refused a key this statement wrote before; the keys this
	// batch writes (inserted, or updated past the WHERE) are marked below.
	existing, err := o.existingRows(ctx, rec, keyCols)
	if err != nil {
		return nil, err
	}
	if existing == nil || existing.NumRows() == 0 {
		if existing != nil {
			existing.Release()
		}
		for r := 0; r < n; r++ {
			o.merged[keyOf(rec, r)] = true
		}
		rec.Retain()
		return rec, nil
	}
	defer existing.Release()
	at := make(map[string]int32, existing.NumRows())
	for r := 0; r < int(existing.NumRows()); r++ {
		at[keyOf(existing, r)] = int32(r)
	}
	// Pair each conflicting proposed row with its existing row.
	var propIdx, oldIdx, keep []int32
	for r := 0; r < n; r++ {
		if e, ok := at[keyOf(rec, r)]; ok {
			propIdx, oldIdx = append(propIdx, int32(r)), append(oldIdx, e)
		} else {
			keep = append(keep, int32(r))
		}
	}
	olds, err := takeRows(o.EC, existing, oldIdx)
	if err != nil {
		return nil, err
	}
	defer olds.Release()
	props, err := takeRows(o.EC, excluded(rec, excl), propIdx)
	if err != nil {
		return nil, err
	}
	defer props.Release()
	pairCols := append(append([]arrow.Array{}, olds.Columns()...), props.Columns()...)
	var pairFields []arrow.Field
	pairFields = append(append(pairFields, olds.Schema().Fields()...), props.Schema().Fields()...)
	pair := array.NewRecordBatch(arrow.NewSchema(pairFields, nil), pairCols, int64(len(propIdx)))
	if o.MergeWhere != nil {
		kept, err := o.mergeWhere(pair)
		if err == nil && len(kept) < len(propIdx) {
			// the rows the WHERE leaves out are not written at all
			var sel arrow.RecordBatch
			sel, err = takeRows(o.EC, pair, kept)
			pair.Release()
			pair = sel
			chosen := make([]int32, len(kept))
			for i, r := range kept {
				chosen[i] = propIdx[r]
			}
			propIdx = chosen
		}
		if err != nil {
			if pair != nil {
				pair.Release()
			}
			return nil, err
		}
	}
	defer pair.Release()
	for _, r := range keep {
		o.merged[keyOf(rec, int(r))] = true
	}
	for _, r := range propIdx {
		o.merged[keyOf(rec, int(r))] = true
	}
	updated := make([]arrow.Array, len(o.Merge))
	defer func() {
		for _, a := range updated {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, e := range o.Merge {
		if updated[i], err = e.Eval(o.EC, pair); err != nil {
			return nil, err
		}
		if !arrow.TypeEqual(updated[i].DataType(), schema.Field(i).Type) {
			return nil, sqlerr.New(sqlerr.InternalError, "ON CONFLICT merge of column %q produced %s", schema.Field(i).Name, updated[i].DataType())
		}
	}
	if o.MergeGenerated != nil {
		if err := o.MergeGenerated(updated, int64(len(propIdx))); err != nil {
			return nil, err
		}
	}
	upd := array.NewRecordBatch(schema, updated, int64(len(propIdx)))
	defer upd.Release()
	kept, err := takeRows(o.EC, rec, keep)
	if err != nil {
		return nil, err
	}
	defer kept.Release()
	out := make([]arrow.Array, len(schema.Fields()))
	for c := range out {
		merged, err := array.Concatenate([]arrow.Array{kept.Column(c), upd.Column(c)}, o.EC.Mem)
		if err != nil {
			for _, done := range out[:c] {
				done.Release()
			}
			return nil, err
		}
		out[c] = merged
	}
	res := array.NewRecordBatch(schema, out, int64(len(keep)+len(propIdx)))
	for _, a := range out {
		a.Release()
	}
	// back in the order the rows were proposed, which RETURNING shows
	order := make([]int32, 0, len(keep)+len(propIdx))
	for i, j := 0, 0; i < len(keep) || j < len(propIdx); {
		if j == len(propIdx) || i < len(keep) && keep[i] < propIdx[j] {
			order = append(order, int32(i))
			i++
		} else {
			order = append(order, int32(len(keep)+j))
			j++
		}
	}
	defer res.Release()
	return takeRows(o.EC, res, order)
}

// excluded is the batch EXCLUDED reads for rec's rows: excl, or rec when
// the rows are as proposed (excl nil).
func excluded(rec, excl arrow.RecordBatch) arrow.RecordBatch {
	if excl != nil {
		return excl
	}
	return rec
}

// mergeWhere evaluates MergeWhere over the (existing, proposed) pairs and
// returns the pairs for which it is true.
func (o *Insert) mergeWhere(pair arrow.RecordBatch) ([]int32, error) {
	cond, err := o.MergeWhere.Eval(o.EC, pair)
	if err != nil {
		return nil, err
	}
	defer cond.Release()
	c, ok := cond.(*array.Boolean)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "ON CONFLICT DO UPDATE WHERE produced %s", cond.DataType())
	}
	var kept []int32
	for r := 0; r < c.Len(); r++ {
		if c.IsValid(r) && c.Value(r) {
			kept = append(kept, int32(r))
		}
	}
	return kept, nil
}

// ScanChunks implements ChunkCounter: the store's chunk counts of the read
// (fluss.ChunkReporter).
func (o *TableScan) ScanChunks() fluss.ChunkCounts {
	if c, ok := o.reader.(fluss.ChunkReporter); ok {
		return c.ScanChunks()
	}
	return fluss.ChunkCounts{}
}

// ScanPath implements PathReporter: the path the store reported for the
// read (fluss.ScanPathReporter), once the scan has started.
func (o *TableScan) ScanPath() (string, int) {
	if p, ok := o.reader.(fluss.ScanPathReporter); ok {
		return p.ScanPath(), 1
	}
	return "", 0
}
