package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// COPY. A prepared COPY is an ordinary *statement whose parsed statement is
// the COPY (Kind sql.Copy):
//
//   - COPY ... TO STDOUT is the statement of its query (SELECT cols FROM t,
//     or the inner query) bound through prepareOne, so Execute streams the
//     rows like any SELECT; pgwire frames them as CopyData.
//   - COPY ... FROM STDIN has no plan: cols lists the target columns (with
//     their table OID and attribute number) and CopyFrom writes the rows
//     pgwire decodes, all in one Table.Append / Upsert so that a COPY is
//     atomic. Outside a transaction block, into a primary-key table whose
//     store takes an upsert in parts (fluss.BulkUpserter) or a log table
//     whose store takes an append in parts (fluss.BulkAppender, staged on
//     disk), each batch goes to the store as it is decoded and the store
//     writes them at the end, still as one write (copyStreaming).
//
// Every *statement has the CopyStatement methods (the type is shared); for
// statements other than COPY, CopyOptions has no Format, which pgwire reads
// as "not a COPY".

// prepareCopy prepares a COPY statement (see pgwire.CopyStatement).
func (s *session) prepareCopy(ctx context.Context, st *sql.Statement) (*statement, error) {
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	c := st.Copy
	if c == nil {
		return nil, sqlerr.New(sqlerr.InternalError, "COPY statement without details")
	}
	if !c.From {
		ps, err := s.prepareCopyTo(ctx, st)
		if err != nil || c.File == "" {
			return ps, err
		}
		return fileCopy(ps), nil // copyfile.go
	}
	path := s.copyFromPath(ctx, c)
	if err := systemTable(path); err != nil {
		return nil, err
	}
	if err := s.eng.rewrites.wait(ctx, path); err != nil { // rewritegate.go: the new table's columns
		return nil, err
	}
	s.eng.ddl.RLock()
	info, err := s.eng.storeTable(ctx, path)
	s.eng.ddl.RUnlock()
	if err != nil {
		return nil, s.relationAsWritten(ctx, err, sql.ObjectName{Schema: c.Schema, Name: c.Table})
	}
	cols, err := copyColumns(info, c.Columns)
	if err != nil {
		return nil, err
	}
	ps := &statement{sess: s, parsed: st, cols: cols}
	if c.File != "" {
		return fileCopy(ps), nil // copyfile.go
	}
	return ps, nil
}

// copyPath is COPY's table, an unqualified name found over the search path.
func (s *session) copyPath(ctx context.Context, c *sql.CopyStmt) fluss.TablePath {
	db := c.Schema
	if db == "" {
		db = fluss.DefaultDatabase
		cat := &recordingCatalog{tables: s.eng.tables, views: s.eng.meta.Views(), meta: s.eng.meta, hidden: s.hidden}
		if r, err := cat.ResolveSchema(s.sessionCtx(ctx), c.Table, false); err == nil {
			db = r
		}
	}
	return fluss.TablePath{Database: db, Table: c.Table}
}

// copyFromPath is the table COPY FROM writes: copyPath's, or for a
// partition its parent's (pgpartitions.go; copyRecord checks that the
// rows are the partition's).
func (s *session) copyFromPath(ctx context.Context, c *sql.CopyStmt) fluss.TablePath {
	path := s.copyPath(ctx, c)
	if v, ok := s.partitionAt(path); ok {
		if parent, ok := s.partitionParent(ctx, v); ok {
			return parent
		}
	}
	return path
}

// copyColumns resolves COPY's column list (all columns when empty).
func copyColumns(info fluss.TableInfo, names []string) ([]pgwire.ResultColumn, error) {
	schema := info.Descriptor.Schema.Columns
	col := func(i int) pgwire.ResultColumn {
		return pgwire.ResultColumn{Name: schema[i].Name, Type: schema[i].Type, TableOID: tableOID(info.TableID), ColumnNumber: int16(i + 1)}
	}
	var cols []pgwire.ResultColumn
	if len(names) == 0 {
		gen := binder.GeneratedColumns(info)
		for i := range schema {
			if gen == nil || !gen[i] {
				cols = append(cols, col(i))
			}
		}
		return cols, nil
	}
	for _, n := range names {
		i := info.ColumnIndex(n)
		if i < 0 {
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", n, info.Path.Table)
		}
		if err := refuseCopyGenerated(info, i); err != nil { // generated.go
			return nil, err
		}
		cols = append(cols, col(i))
	}
	return cols, nil
}

// prepareCopyTo binds the query whose rows COPY ... TO STDOUT sends.
func (s *session) prepareCopyTo(ctx context.Context, st *sql.Statement) (*statement, error) {
	c := st.Copy
	text := c.Query
	if text == "" {
		list := "*"
		if len(c.Columns) > 0 {
			q := make([]string, len(c.Columns))
			for i, n := range c.Columns {
				q[i] = quoteIdent(n)
			}
			list = strings.Join(q, ", ")
		}
		path := s.copyPath(ctx, c)
		if len(c.Columns) == 0 {
			list = s.copyToColumns(ctx, path) // generated.go
		}
		text = "SELECT " + list + " FROM " + quoteIdent(path.Database) + "." + quoteIdent(path.Table)
	}
	stmts, err := s.parser.Parse(text)
	if err != nil {
		if e := sqlerr.As(err); e != nil && e.Position > 0 && c.Query != "" {
			// Point into the COPY statement, not into the inner query.
			return nil, e.WithPosition(e.Position + len([]rune(st.Text[:c.QueryOffset-st.Offset])))
		}
		return nil, err
	}
	if len(stmts) == 1 && stmts[0].Kind == sql.Subscribe {
		ps, err := s.prepareOne(ctx, stmts[0], nil) // subscribe.go
		if err != nil {
			return nil, err
		}
		ps.parsed = st
		return ps, nil
	}
	if len(stmts) != 1 || stmts[0].Kind != sql.Select {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "COPY (query) TO supports only SELECT queries")
	}
	ps, err := s.prepareOne(ctx, stmts[0], nil)
	if err != nil {
		return nil, err
	}
	if len(ps.params) > 0 {
		return nil, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $1")
	}
	ps.parsed = st
	return ps, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// CopyIn reports whether the statement is COPY ... FROM STDIN.
func (ps *statement) CopyIn() bool {
	return ps.parsed.Kind == sql.Copy && ps.parsed.Copy != nil && ps.parsed.Copy.From
}

// CopyColumns are the columns COPY reads or writes, in data order.
func (ps *statement) CopyColumns() []pgwire.ResultColumn { return ps.cols }

// CopyRelationOID implements pgwire.CopyRelation: the COPY's table, 0 for
// COPY (query) TO.
func (ps *statement) CopyRelationOID() uint32 {
	if ps.parsed.Kind != sql.Copy || ps.parsed.Copy == nil {
		return 0
	}
	return copyRelation(ps, ps.parsed.Copy)
}

// CopyOptions are the COPY's format options; zero for other statements.
func (ps *statement) CopyOptions() pgwire.CopyOptions {
	if ps.parsed.Kind != sql.Copy || ps.parsed.Copy == nil || ps.file != nil {
		// a server-side file's COPY is no COPY sub-protocol: it runs
		// like any statement and answers with its tag
		return pgwire.CopyOptions{}
	}
	c := ps.parsed.Copy
	return pgwire.CopyOptions{Format: c.Format, Delimiter: c.Delimiter, Null: c.Null, Quote: c.Quote, Escape: c.Escape, Header: c.Header}
}

// CopyFrom writes the rows src yields into the table in one write.
func (ps *statement) CopyFrom(ctx context.Context, src pgwire.BatchSource) (string, error) {
	tag, err := ps.copyFrom(ctx, src)
	if err == nil {
		err = ps.sess.fkEndStatement(ps.sess.copyContext(ctx)) // fk.go
	}
	if err != nil {
		ps.sess.fkDropStatement()
	}
	err = ps.sess.finishImplicit(ctx, err)
	if err != nil {
		var cd *pgwire.CopyDataError
		if errors.As(err, &cd) && cd.Table == "" && ps.parsed.Copy != nil {
			cd.Table = ps.parsed.Copy.Table
		}
		return "", ps.sess.failed(mapContextError(ctx, err))
	}
	return tag, nil
}

func (ps *statement) copyFrom(ctx context.Context, src pgwire.BatchSource) (string, error) {
	s := ps.sess
	if !ps.CopyIn() {
		return "", sqlerr.New(sqlerr.InternalError, "CopyFrom on a statement that is not COPY FROM")
	}
	if s.txStatus == 'E' {
		return "", sqlerr.TransactionAborted()
	}
	path := s.copyFromPath(ctx, ps.parsed.Copy)
	if err := s.eng.rewrites.wait(ctx, path); err != nil { // rewritegate.go
		return "", err
	}
	s.stmtText = ps.parsed.Text
	info, err := s.lockWrittenPath(ctx, path) // ddllock.go: the table as a DDL statement holding it left it
	if err != nil {
		return "", err
	}
	if len(ps.cols) > 0 && ps.cols[0].TableOID != tableOID(info.TableID) {
		return "", sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created since the statement was prepared", info.Path.Table)
	}
	if err := ps.copyColumnsNow(info); err != nil {
		return "", err
	}
	if err := s.needSchemaUsage(info.Path.Database); err != nil { // schemaprivs.go
		return "", err
	}
	if err := s.need(info.TableID, info.Path, access.Insert); err != nil {
		return "", err
	}
	t, err := s.writeTable(ctx, "COPY FROM", info)
	if err != nil {
		return "", err
	}
	ctx = s.copyContext(ctx)
	if ps.fill, err = s.copyDefaults(ctx, info, ps.cols); err != nil { // coldefs.go
		return "", err
	}
	if ps.generate, err = s.copyGenerated(ctx, info); err != nil { // generated.go
		return "", err
	}
	if s.tx == nil && !s.held && (t.fk == nil || len(t.fk.own) == 0) && t.uq == nil { // (unique.go: each row checked) // (fk.go: a referencing table's rows are checked at the end)
		if bu, ok := t.base.(fluss.BulkUpserter); ok && info.HasPrimaryKey() {
			up, err := bu.BeginUpsert(ctx)
			if err != nil {
				return "", err
			}
			return ps.copyStreaming(ctx, src, info, t, up, true)
		}
		if ba, ok := t.base.(fluss.BulkAppender); ok && !info.HasPrimaryKey() {
			ap, err := ba.BeginAppend(ctx)
			if err != nil {
				return "", err
			}
			return ps.copyStreaming(ctx, src, info, t, ap, false)
		}
	}

	// Inside a transaction block (or a pipeline's implicit transaction),
	// each batch joins the transaction as it is decoded: the transaction
	// makes the COPY atomic, and stages it on disk when it grows large
	// (txnspill.go).
	rows, err := ps.eachBatch(ctx, src, func(b arrow.RecordBatch) error {
		mark, end := ps.copyMark()
		defer end()
		rec, err := ps.copyRecord(ctx, info, []arrow.RecordBatch{b}, b.NumRows(), mark)
		b.Release()
		if err != nil {
			return err
		}
		defer rec.Release()
		if info.HasPrimaryKey() {
			if err = t.LockInsert(ctx, rec); err == nil {
				_, err = t.Upsert(ctx, rec, fluss.UpsertOptions{})
			}
		} else {
			_, err = t.Append(ctx, rec)
		}
		if err != nil && t.failedRow >= 0 {
			ps.copyRewind(ctx, mark, rec.NumRows(), t.failedRow)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", rows), nil
}

// copyStreaming is COPY FROM outside a transaction block into a table that
// takes a write in parts: each decoded batch goes to the store as it
// arrives (encoded there while the next one is decoded) and the store writes
// them at the end as one write, so that the COPY stays atomic. The implicit
// transaction holds no rows (only the COPY's locks). The store stages
// what it is handed on disk (a log table's batches as they come, a
// primary-key table's sorted runs past a memory budget), so a COPY of any
// size is bounded by the disk alone (53100 when full).
func (ps *statement) copyStreaming(ctx context.Context, src pgwire.BatchSource, info fluss.TableInfo, pt *pendingTable, up fluss.BulkUpsert, keyed bool) (string, error) {
	defer up.Discard()
	rows, err := ps.eachBatch(ctx, src, func(b arrow.RecordBatch) error {
		mark, end := ps.copyMark()
		defer end()
		rec, err := ps.copyRecord(ctx, info, []arrow.RecordBatch{b}, b.NumRows(), mark)
		b.Release()
		if err != nil {
			return err
		}
		defer rec.Release()
		if row, err := pt.checks.checkRow(ctx, rec); err != nil {
			ps.copyRewind(ctx, mark, rec.NumRows(), row)
			return err
		}
		if !keyed {
			// an append's lock (txnstore's LockAppend): a build of a
			// unique index waits for the COPY
			if err := pt.LockAppend(ctx); err != nil {
				return err
			}
			return up.Add(ctx, rec)
		}
		// Its keys are locked like an INSERT's (the whole table, for a
		// large COPY nobody else is writing), until the implicit
		// transaction ends after the store's commit.
		if err := pt.LockInsert(ctx, rec); err != nil {
			return err
		}
		return up.Add(ctx, rec)
	})
	if err != nil {
		return "", err
	}
	if rows == 0 {
		return "COPY 0", nil
	}
	if _, err := up.Commit(ps.sess.commitContext(ctx)); err != nil {
		return "", err
	}
	return fmt.Sprintf("COPY %d", rows), nil
}

// eachBatch hands fn each batch src yields, checked to have the COPY's
// columns (fn owns it), and returns how many rows they had.
func (ps *statement) eachBatch(ctx context.Context, src pgwire.BatchSource, fn func(b arrow.RecordBatch) error) (int64, error) {
	var rows int64
	for {
		b, err := src.Next(ctx)
		if err != nil || b == nil {
			return rows, err
		}
		if int(b.NumCols()) != len(ps.cols) {
			b.Release()
			return rows, sqlerr.New(sqlerr.InternalError, "COPY batch has %d columns, expected %d", b.NumCols(), len(ps.cols))
		}
		rows += b.NumRows()
		if err := fn(b); err != nil {
			return rows, err
		}
	}
}

// copyRecord assembles the table's record from the decoded batches: the
// copied columns concatenated, the others NULL.
// copyMark marks the session's sequence journal before a batch's
// defaults are filled (none to mark without defaults): PostgreSQL reads
// COPY's rows one by one, and a row failing NOT NULL or CHECK leaves the
// sequences after its own default's value (copyRewind).
func (ps *statement) copyMark() (int, func()) {
	if ps.fill == nil {
		return -1, func() {}
	}
	seqs := &ps.sess.seqs
	m := seqs.Mark()
	return m, func() { seqs.Unmark(m) }
}

// copyRewind takes back the sequence calls of the rows of a batch of rows
// rows after row, which failed (row < 0: none known).
func (ps *statement) copyRewind(ctx context.Context, mark int, rows int64, row int) {
	if mark >= 0 && row >= 0 {
		ps.sess.seqs.Rewind(ctx, mark, int(rows), row+1)
	}
}

func (ps *statement) copyRecord(ctx context.Context, info fluss.TableInfo, batches []arrow.RecordBatch, rows int64, mark int) (arrow.RecordBatch, error) {
	mem := ps.sess.eng.mem
	schema := info.Descriptor.Schema.Columns
	source := make([]int, len(schema)) // table column -> batch column, or -1
	for i := range source {
		source[i] = -1
	}
	for k, c := range ps.cols {
		source[int(c.ColumnNumber)-1] = k
	}
	cols := make([]arrow.Array, 0, len(schema))
	defer func() {
		for _, a := range cols {
			a.Release()
		}
	}()
	for i, col := range schema {
		var arr arrow.Array
		if k := source[i]; k >= 0 {
			parts := make([]arrow.Array, len(batches))
			for j, b := range batches {
				parts[j] = b.Column(k)
			}
			if len(parts) == 1 {
				arr = parts[0]
				arr.Retain()
			} else {
				var err error
				if arr, err = array.Concatenate(parts, mem); err != nil {
					return nil, sqlerr.Wrap(err, sqlerr.InternalError, "internal error")
				}
			}
		} else if ps.fill != nil {
			var err error
			if arr, err = ps.fill(i, rows); err != nil {
				return nil, err
			}
		} else {
			arr = array.MakeArrayOfNull(mem, col.Type.ArrowType(), int(rows))
		}
		cols = append(cols, arr)
	}
	if ps.generate != nil {
		if err := ps.generate(cols, rows); err != nil {
			return nil, err
		}
	}
	// The store's check, made here on the whole record so that the first
	// failing row is reported (with its values) before anything is written.
	if row, err := fluss.NotNullRow(info, cols, ps.sess.location(), ps.sess.style()); err != nil {
		ps.copyRewind(ctx, mark, rows, row)
		return nil, err
	}
	rec := array.NewRecordBatch(info.ArrowSchema(), cols, rows)
	if c := ps.parsed.Copy; c != nil {
		// COPY into a partition: its rows must be its own (pgpartitions.go)
		db := c.Schema
		if db == "" {
			db = info.Path.Database
		}
		if v, ok := ps.sess.partitionAt(fluss.TablePath{Database: db, Table: c.Table}); ok {
			if row, err := partitionViolation(ctx, info, v, rec); err != nil {
				rec.Release()
				ps.copyRewind(ctx, mark, rows, row)
				return nil, err
			}
		}
	}
	return rec, nil
}

// The statements of a multi-statement simple query bind lazily; a COPY
// among them is a COPY too. CopyOptions binds it (pgwire asks for it
// first); a statement that fails to bind is no COPY, and its Execute then
// reports the binding error.

// CopyIn implements pgwire.CopyStatement.
func (l *lazyStatement) CopyIn() bool {
	ps, err := l.bind()
	return err == nil && ps.CopyIn()
}

// CopyColumns implements pgwire.CopyStatement.
func (l *lazyStatement) CopyColumns() []pgwire.ResultColumn {
	if ps, err := l.bind(); err == nil {
		return ps.CopyColumns()
	}
	return nil
}

// CopyRelationOID implements pgwire.CopyRelation.
func (l *lazyStatement) CopyRelationOID() uint32 {
	if ps, err := l.bind(); err == nil {
		return ps.CopyRelationOID()
	}
	return 0
}

// CopyOptions implements pgwire.CopyStatement.
func (l *lazyStatement) CopyOptions() pgwire.CopyOptions {
	if ps, err := l.bind(); err == nil {
		return ps.CopyOptions()
	}
	return pgwire.CopyOptions{}
}

// CopyFrom implements pgwire.CopyStatement.
func (l *lazyStatement) CopyFrom(ctx context.Context, src pgwire.BatchSource) (string, error) {
	ps, err := l.bind()
	if err != nil {
		return "", err
	}
	return ps.CopyFrom(ctx, src)
}
