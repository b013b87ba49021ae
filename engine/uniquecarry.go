package engine

import (
	"cmp"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ALTER TABLE ... ADD CONSTRAINT (and CREATE UNIQUE INDEX) of a table
// the transaction block wrote, carrying the block's rows along, as
// pg_restore --single-transaction needs (CREATE TABLE, COPY, then ADD
// PRIMARY KEY, UNIQUE, FOREIGN KEY, CREATE INDEX, in any order, all in
// one block). sqlgate applies DDL at once (txddl.go) and otherwise
// refuses DDL of a table the block holds rows for, which were checked
// against the table as it was. Adding a constraint changes none of the
// rows the block wrote, so the statement carries them, as PostgreSQL's
// ALTER TABLE sees its own transaction's rows, when they are the block's
// whole difference from the stored table: a log table's appended rows,
// or a primary-key table's pending rows while it stores none (a table
// the block created, or rewrote by ADD PRIMARY KEY, and loaded: every
// pending row then an insert). Each constraint is validated over the
// stored rows and then the carried ones:
//   - ADD FOREIGN KEY validates the rows as the transaction sees them
//     (fkddl.go's fkValidate reads them so);
//   - ADD CHECK (altercheck.go) and SET NOT NULL (altercolumn.go) read
//     the carried rows after the stored ones (23514, 23502);
//   - ADD UNIQUE and CREATE UNIQUE INDEX build the index from the stored
//     rows at once, then add the carried rows' entries to the
//     transaction's view of it (23505 "could not create unique index"
//     for a value met twice): COMMIT writes them with the rows, ROLLBACK
//     forgets both;
//   - ADD PRIMARY KEY (of a log table) rewrites the table from its stored
//     rows (rewrite.go) and writes the appended rows into the new table
//     within the transaction. Their keys are checked first, as the
//     rewrite's own (23505 for a duplicate among all the rows, then 23502
//     for a NULL), since the rewrite takes effect at once: a failure of
//     the carried rows after it would leave the table changed by a
//     statement that failed.
// The transaction's view of the table then follows the table as the
// statement left it, its later writes checked against the new
// constraints. A ROLLBACK forgets the rows; the constraint stays, as
// every DDL statement of a block does (a WARNING says so).
// Not carried, refused as before: the pending updates and deletes of a
// primary-key table that stores rows, rows staged on disk (a transaction
// past its spill limit), a TRUNCATE's, a statement with other actions,
// and any under a savepoint (see blockRows).

// carried is the block's rows of one table that ALTER TABLE carries.
type carried struct {
	id   int64               // the table's id before the statement
	rows []arrow.RecordBatch // the rows the block appended, retained
}

func (c *carried) release() {
	for _, r := range c.rows {
		r.Release()
	}
}

// carries returns the rows of the block's that ALTER TABLE d of info's
// table carries along (nil: none, and blockDDL refuses or forgets as for
// any DDL).
func (s *session) carries(ctx context.Context, info fluss.TableInfo, d *sql.DDLStmt) (*carried, error) {
	if len(d.Actions) == 0 {
		return nil, nil
	}
	for _, a := range d.Actions {
		switch a.Kind {
		case sql.AlterAddUnique, sql.AlterAddForeignKey, sql.AlterAddCheck, sql.AlterSetNotNull:
		case sql.AlterAddPrimaryKey:
			if len(d.Actions) > 1 || info.HasPrimaryKey() {
				return nil, nil // (a second key: 42P16, before the rows matter)
			}
		default:
			return nil, nil
		}
	}
	return s.blockRows(ctx, info)
}

// blockRows are the block's rows of info's table when they can be
// carried along by a statement that adds constraints (nil: none). Under a
// savepoint, a ROLLBACK TO it would forget what the statement did with
// the rows (a UNIQUE index's entries, the rows written into the
// rewritten table) but keep the constraint, which the rows before the
// savepoint would then not meet (PostgreSQL's undoes the ALTER). A log
// table's are the rows the block appended; a primary-key table's are its
// pending rows when the table stores none (one the block created, or
// rewrote by ADD PRIMARY KEY, and loaded): then they are the table as
// the block sees it, every one an insert, and none updates or deletes a
// stored row whose index entries the statement would build.
func (s *session) blockRows(ctx context.Context, info fluss.TableInfo) (*carried, error) {
	if s.tx == nil || len(s.tx.ddlAt) > 0 {
		return nil, nil
	}
	pt, err := s.tx.pending(info.TableID)
	if err != nil || pt == nil || !pt.HasWrites() {
		return nil, err
	}
	if !info.HasPrimaryKey() {
		rows, ok := pt.Appended()
		if !ok {
			return nil, nil
		}
		return &carried{id: info.TableID, rows: rows}, nil
	}
	stored, err := s.anyBatch(ctx, info.Path, keyIndexes(info), func(b arrow.RecordBatch) (bool, error) { // domains.go
		return b.NumRows() > 0, nil
	})
	if err != nil || stored {
		return nil, err
	}
	rows, ok := pt.Upserted()
	if !ok {
		return nil, nil
	}
	return &carried{id: info.TableID, rows: rows}, nil
}

// carryRows runs the statement run over info's table with the block's
// rows of it carried along when blockRows has them (runCarrying).
func (s *session) carryRows(ctx context.Context, info fluss.TableInfo, run func() (pgwire.Result, error)) (pgwire.Result, error) {
	c, err := s.blockRows(ctx, info)
	if err != nil {
		return nil, err
	}
	return s.runCarrying(ctx, info, c, run)
}

// runCarrying runs the statement run over info's table carrying c (nil:
// none, run as it is): afterwards the block's view of the table follows
// the table as the statement left it, its constraints checked on the
// block's later writes.
func (s *session) runCarrying(ctx context.Context, info fluss.TableInfo, c *carried, run func() (pgwire.Result, error)) (pgwire.Result, error) {
	if c == nil {
		return run()
	}
	defer c.release()
	s.tx.carry = c
	defer func() { s.tx.carry = nil }()
	res, err := run()
	if err != nil {
		return res, err
	}
	return res, s.rebaseCarried(ctx, info)
}

// rebaseCarried points the block's view of info's table, whose rows a
// statement carried, at the table as the statement left it.
func (s *session) rebaseCarried(ctx context.Context, info fluss.TableInfo) error {
	pt, err := s.tx.pending(info.TableID)
	if err != nil || pt == nil {
		return err
	}
	t, err := s.eng.store.Table(ctx, info.Path)
	if err != nil {
		return err
	}
	pt.Rebase(t.Info(), t) // its constraints as the statement left them
	// (checked again on the block's next write: a CHECK the statement added)
	pt.checks, pt.checksBound, pt.uq = nil, false, nil
	return nil
}

// eachCarried calls fn with each row batch the running statement carries
// of stored's table, after the stored rows were read: a constraint the
// statement adds is validated over the rows as the block sees them.
func (s *session) eachCarried(stored fluss.TableInfo, fn func(arrow.RecordBatch) (bool, error)) error {
	c := s.carriedOf(stored.TableID)
	if c == nil {
		return nil
	}
	for _, r := range c.rows {
		if stop, err := fn(r); err != nil || stop {
			return err
		}
	}
	return nil
}

// carriedOf is the rows the running ALTER TABLE carries of the table with
// id (nil: none).
func (s *session) carriedOf(id int64) *carried {
	if s.tx == nil || s.tx.carry == nil || s.tx.carry.id != id {
		return nil
	}
	return s.tx.carry
}

// alterTableCarrying is ALTER TABLE (altertable.go), carrying the block's
// rows of the table along when it adds constraints only (see above).
func (s *session) alterTableCarrying(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	info, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		return s.alterTable(ctx, d) // its error, or IF EXISTS' notice
	}
	if s.tx != nil && !s.tx.readOnly { // (a read-only block's 25006 comes first, from blockDDL)
		// a second key is 42P16 before the block's rows matter (blockDDL's
		// 0A000 for rows it cannot carry), as PostgreSQL's
		if err := secondKey(info, d.Actions); err != nil { // addpk.go
			return nil, err
		}
	}
	c, err := s.carries(ctx, info, d)
	if err != nil {
		return nil, err
	}
	if c == nil || d.Actions[0].Kind != sql.AlterAddPrimaryKey {
		return s.runCarrying(ctx, info, c, func() (pgwire.Result, error) { return s.alterTable(ctx, d) })
	}
	defer c.release()
	s.tx.carry = c
	defer func() { s.tx.carry = nil }()
	if err := s.checkCarriedKey(ctx, info, d.Actions[0]); err != nil {
		return nil, err
	}
	// the rewrite makes a new table: the block's view of the old one,
	// and of its index tables, goes (its rows are written again below)
	s.forgetTable(info)
	res, err := s.alterTable(ctx, d)
	if err != nil {
		return res, err
	}
	now, err := s.eng.storeTable(ctx, info.Path)
	if err != nil {
		return nil, err
	}
	pt, err := s.writeTable(ctx, "ALTER TABLE", now) // write.go
	if err != nil {
		return nil, err
	}
	schema := now.ArrowSchema()
	for _, r := range c.rows {
		// the same columns, the key's NOT NULL now (checked above)
		rec := array.NewRecordBatch(schema, r.Columns(), r.NumRows())
		err := pt.LockInsert(ctx, rec)
		if err == nil {
			_, err = pt.Upsert(ctx, rec, fluss.UpsertOptions{})
		}
		rec.Release()
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// forgetTable drops the block's view of info's table and of its unique
// constraints' index tables.
func (s *session) forgetTable(info fluss.TableInfo) {
	idx := uniqueIndexPaths(info) // rewriteunique.go
	for _, ot := range slices.Clone(s.tx.Tables()) {
		if ot.Info().TableID == info.TableID || slices.Contains(idx, ot.Info().Path) {
			s.tx.Forget(ot)
		}
	}
}

// checkCarriedKey checks ADD PRIMARY KEY a's columns over the rows of
// info's table as the block sees them (the stored rows and those it
// carries): 23505 "could not create unique index" for the first key
// value met twice, else 23502 for a NULL, as the rewrite reports them
// (addpk.go). A column the table lacks is left to the rewrite's error.
func (s *session) checkCarriedKey(ctx context.Context, info fluss.TableInfo, a sql.AlterAction) error {
	var cols []int
	for _, name := range a.Unique.Columns {
		i := info.ColumnIndex(name)
		if i < 0 || slices.Contains(cols, i) {
			return nil
		}
		cols = append(cols, i)
	}
	t, err := s.readTable(ctx, info.Path)
	if err != nil {
		return err
	}
	c := fluss.UniqueConstraint{Name: fluss.PrimaryKeyName(info.Path.Table), Columns: cols}
	if a.Unique.Name != "" {
		c.Name = a.Unique.Name
	}
	d := newKeyDups(info, c)
	null := -1 // the first key column met NULL
	var dup error
	keys := make([]arrow.Array, len(cols))
	err = scanEach(ctx, t, fluss.ScanOptions{BatchRows: copyBatchRows}, func(b arrow.RecordBatch) (bool, error) { // tables.go
		defer b.Release()
		for k, col := range cols {
			keys[k] = b.Column(col)
		}
		for r := range int(b.NumRows()) {
			if dup = d.add(s, keys, r); dup != nil {
				return true, nil
			}
			if null < 0 {
				null = d.null()
			}
		}
		return false, nil
	})
	if err != nil || dup != nil {
		return cmp.Or(err, dup)
	}
	if null < 0 {
		return nil
	}
	return sqlerr.New(sqlerr.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", info.Descriptor.Schema.Columns[cols[null]].Name, info.Path.Table)
}

// carryEntries adds the entries of the rows the running ALTER TABLE
// carries of stored's table to the block's view of the index table of
// c, which buildIndex filled from the stored rows: 23505 "could not
// create unique index" for a value met twice.
func (s *session) carryEntries(ctx context.Context, stored fluss.TableInfo, c fluss.UniqueConstraint) error {
	cr := s.carriedOf(stored.TableID)
	if cr == nil || !enforced(c, keyIndexes(stored)) {
		return nil
	}
	ui := &uniqueIndex{c: c, path: fluss.IndexTablePath(stored.TableID, c.ID)}
	u := &uniqueTable{s: s, tx: s.tx, info: stored, pk: keyIndexes(stored), cons: []*uniqueIndex{ui}}
	var rows []uniqueRow
	for _, r := range cr.rows {
		for i := range int(r.NumRows()) {
			rows = append(rows, u.rowOf(r, i))
		}
	}
	_, err := u.admit(ctx, rows, false, func(ui *uniqueIndex, row uniqueRow) error {
		return s.duplicateIn(stored, ui.c, row) // uniqueddl.go
	})
	return err
}

// keyDups finds the first value of a unique key's columns that rows
// hold twice, as an index build does: rows with a NULL in the key are no
// duplicates, as in PostgreSQL's unique index. It reads the key's
// columns only, into one row of values it reuses.
type keyDups struct {
	info fluss.TableInfo // the table the key's columns are of
	c    fluss.UniqueConstraint
	seen map[string]struct{}
	vals []any // the row read last: its key's values, by column position
	u    uniqueTable
}

func newKeyDups(info fluss.TableInfo, c fluss.UniqueConstraint) *keyDups {
	return &keyDups{info: info, c: c, seen: map[string]struct{}{}, vals: make([]any, len(info.Descriptor.Schema.Columns))}
}

// add reads row r of keys (the key's columns, in c's order): the 23505
// "could not create unique index" naming its value when the value was
// met before (uniqueddl.go's duplicateIn), else nil.
func (d *keyDups) add(s *session, keys []arrow.Array, r int) error {
	for k, col := range d.c.Columns {
		d.vals[col] = types.ValueAt(keys[k], r)
	}
	key := d.u.keyOf(d.vals, d.c.Columns)
	if key == "" {
		return nil
	}
	if _, ok := d.seen[key]; ok {
		return s.duplicateIn(d.info, d.c, uniqueRow{vals: d.vals})
	}
	d.seen[key] = struct{}{}
	return nil
}

// null is the position in the key of the first NULL of the row read last
// (-1: none).
func (d *keyDups) null() int {
	return slices.IndexFunc(d.c.Columns, func(col int) bool { return d.vals[col] == nil })
}
