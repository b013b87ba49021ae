package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE ... ADD CONSTRAINT of a table the transaction block wrote,
// carrying the block's rows along, as pg_restore --single-transaction
// needs (CREATE TABLE, COPY, then ADD UNIQUE, PRIMARY KEY and FOREIGN
// KEY, all in one block). sqlgate applies DDL at once (txddl.go) and
// otherwise refuses DDL of a table the block holds rows for, which were
// checked against the table as it was. Adding a UNIQUE, PRIMARY KEY or
// FOREIGN KEY constraint to a log table changes none of the rows the
// block appended, so their statement carries them, as PostgreSQL's
// ALTER TABLE sees its own transaction's rows:
//   - ADD FOREIGN KEY validates the rows as the transaction sees them
//     (fkddl.go's fkValidate reads them so);
//   - ADD UNIQUE builds the index from the stored rows at once, then
//     adds the appended rows' entries to the transaction's view of it
//     (23505 "could not create unique index" for a value met twice):
//     COMMIT writes them with the rows, ROLLBACK forgets both;
//   - ADD PRIMARY KEY rewrites the table from its stored rows
//     (rewrite.go) and writes the appended rows into the new table
//     within the transaction. Their keys are checked first, as the
//     rewrite's own (23505 for a duplicate among all the rows, then 23502
//     for a NULL), since the rewrite takes effect at once: a failure of
//     the carried rows after it would leave the table changed by a
//     statement that failed.
// The transaction's view of the table then follows the table as the
// statement left it. A ROLLBACK forgets the rows; the constraint stays,
// as every DDL statement of a block does (a WARNING says so).
// Not carried, refused as before: a primary-key table's pending writes
// (updates and deletes), rows staged on disk (a transaction past its
// spill limit), a TRUNCATE's, a statement with other actions, and any
// under a savepoint (see carries).

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
func (s *session) carries(info fluss.TableInfo, d *sql.DDLStmt) (*carried, error) {
	// Under a savepoint, a ROLLBACK TO it would forget what the statement
	// did with the rows (a UNIQUE index's entries, the rows written into
	// the rewritten table) but keep the constraint, which the rows before
	// the savepoint would then not meet (PostgreSQL's undoes the ALTER).
	if s.tx == nil || len(s.tx.ddlAt) > 0 || info.HasPrimaryKey() || len(d.Actions) == 0 {
		return nil, nil
	}
	for _, a := range d.Actions {
		switch a.Kind {
		case sql.AlterAddUnique, sql.AlterAddForeignKey:
		case sql.AlterAddPrimaryKey:
			if len(d.Actions) > 1 {
				return nil, nil
			}
		default:
			return nil, nil
		}
	}
	pt, err := s.tx.pending(info.TableID)
	if err != nil || pt == nil || !pt.HasWrites() {
		return nil, err
	}
	rows, ok := pt.Appended()
	if !ok {
		return nil, nil
	}
	return &carried{id: info.TableID, rows: rows}, nil
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
	c, err := s.carries(info, d)
	if err != nil || c == nil {
		if err != nil {
			return nil, err
		}
		return s.alterTable(ctx, d)
	}
	defer c.release()
	s.tx.carry = c
	defer func() { s.tx.carry = nil }()
	addsKey := d.Actions[0].Kind == sql.AlterAddPrimaryKey
	if addsKey {
		if err := s.checkCarriedKey(ctx, info, d.Actions[0]); err != nil {
			return nil, err
		}
		// the rewrite makes a new table: the block's view of the old one,
		// and of its index tables, goes (its rows are written again below)
		s.forgetTable(info)
	}
	res, err := s.alterTable(ctx, d)
	if err != nil {
		return res, err
	}
	now, err := s.eng.store.GetTable(ctx, info.Path)
	if err != nil {
		return nil, err
	}
	if !addsKey {
		pt, err := s.tx.pending(c.id)
		if err != nil || pt == nil {
			return res, err
		}
		t, err := s.eng.store.Table(ctx, info.Path)
		if err != nil {
			return nil, err
		}
		pt.Rebase(t.Info(), t) // its constraints as the statement left them
		return res, nil
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
	null := -1 // the first key column met NULL
	err = s.firstDuplicate(ctx, t, info, c, func(row uniqueRow) {
		if null < 0 {
			null = slices.IndexFunc(cols, func(col int) bool { return row.vals[col] == nil })
		}
	})
	if err != nil || null < 0 {
		return err
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

// firstDuplicate scans t (rows of info's table) for the first value of
// c's columns met twice: 23505 "could not create unique index", as
// PostgreSQL's index build reports it. see, when not nil, is shown each
// row read.
func (s *session) firstDuplicate(ctx context.Context, t fluss.Table, info fluss.TableInfo, c fluss.UniqueConstraint, see func(uniqueRow)) error {
	u := &uniqueTable{info: info, pk: keyIndexes(info), cons: []*uniqueIndex{{c: c}}}
	seen := map[string]bool{}
	var dup error
	err := scanEach(ctx, t, fluss.ScanOptions{BatchRows: copyBatchRows}, func(b arrow.RecordBatch) (bool, error) { // tables.go
		defer b.Release()
		for i := range int(b.NumRows()) {
			row := u.rowOf(b, i)
			if see != nil {
				see(row)
			}
			k := u.keyOf(row.vals, c.Columns)
			if k == "" {
				continue
			}
			if seen[k] {
				dup = s.duplicateIn(info, c, row) // uniqueddl.go
				return true, nil
			}
			seen[k] = true
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	return dup
}
