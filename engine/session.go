package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// session is one connection's SQL state. pgwire never calls it concurrently.
type session struct {
	eng      *Engine
	parser   *sql.Parser
	info     pgwire.SessionInfo
	settings map[string]string
	changed  map[string]string
	// txStart is when the current transaction (block or statement) began:
	// now() within a transaction block returns it.
	txStart time.Time
	// txStatus is 'I', 'T' or 'E'.
	txStatus byte
	// tx holds the writes of the open transaction block (txn.go; package txnstore); implicit
	// holds those of the running statement outside a block, or, while
	// held, those of every statement since HoldImplicit (a pipeline up to
	// Sync, a Query string of several statements).
	tx, implicit *txn
	held         bool
	// superuser: the role bypasses privilege checks (privileges.go).
	superuser bool
	// viewParser parses the definitions of the views queries name (views.go).
	viewParser *sql.Parser
	// zoneSetting is the timezone setting zoneLoc was loaded from
	// (location).
	zoneSetting string
	zoneLoc     *time.Location
	// statusFn and setFn are s.Status and s.setConfig as func values,
	// made once: every execution hands them to the session functions,
	// and a method value allocates each time it is taken.
	statusFn   func(string) (string, bool)
	setFn      func(name, value string, reset, local bool) (string, error)
	preparedFn func() []functions.PreparedStatement // s.preparedStatements
	cursorsFn  func() []functions.Cursor            // s.listCursors
	// rowLocks owns the row locks of the session's transactions (nil
	// until the first write, or when the store takes no row locks).
	rowLocks *rowlock.Txn
	// sqlPrepared are the statements of SQL-level PREPARE (sqlprepare.go);
	// protocol drops the client's Parse-prepared ones at DEALLOCATE.
	sqlPrepared map[string]*statement
	// sqlPreparedMeta is what pg_prepared_statements shows of them beyond
	// the statement (preparedstmts.go).
	sqlPreparedMeta map[string]*sqlPreparedMeta
	protocol        pgwire.ProtocolStatements
	// tempSchema is the session's pg_temp_N once it created a temporary
	// table (temptables.go); dropped with the session.
	tempSchema string
	// stmtText is the running statement's text, for lock reports.
	stmtText string
	// metaFresh: Prepare refreshed the metadata (metadata.go), so the
	// Execute that follows need not look again.
	metaFresh bool
	// seqs serves nextval, currval, setval and lastval (sequences.go).
	seqs sessionSequences
	// cursors are the open SQL cursors (cursors.go).
	cursors cursorSet
}

func (s *session) TxStatus() byte { return s.txStatus }

// Close ends the session; an open transaction is rolled back, and so is
// an implicit one a pipeline left without its Sync.
func (s *session) Close() {
	s.cursors.closeAll()
	s.endTxn()
	s.dropImplicit()
	s.dropTempSchema()
}

// HoldImplicit implements pgwire.ImplicitTransactions: the statements
// that run outside a transaction block from now until EndImplicit share
// one implicit transaction, as PostgreSQL's do up to Sync. Its start is
// the transaction's start (now()).
func (s *session) HoldImplicit() {
	if s.held {
		return
	}
	s.held = true
	if s.txStatus == 'I' {
		s.txStart = time.Now()
	}
}

// EndImplicit implements pgwire.ImplicitTransactions: it commits the held
// implicit transaction (its writes become visible to other sessions only
// now) or rolls it back.
func (s *session) EndImplicit(ctx context.Context, commit bool) error {
	s.held = false
	if s.txStatus == 'I' {
		if err := s.endCursors(ctx, commit); err != nil { // cursors.go
			s.dropImplicit()
			return err
		}
	}
	tx := s.implicit
	if tx == nil {
		return nil
	}
	s.implicit = nil
	defer tx.Release()
	if !commit {
		return nil
	}
	return tx.Commit(s.commitContext(ctx), s.eng.store)
}

// dropImplicit rolls back the implicit transaction.
func (s *session) dropImplicit() {
	if s.implicit != nil {
		s.implicit.Release()
		s.implicit = nil
	}
}

// chain opens a new transaction block at once (COMMIT / ROLLBACK AND
// CHAIN) when on.
func (s *session) chain(on bool) {
	if !on {
		return
	}
	s.txStatus = 'T'
	s.txStart = time.Now()
	s.tx = s.newTxn()
}

// newTxn starts a transaction's state, with the session's lock owner.
func (s *session) newTxn() *txn {
	tx := &txn{}
	tx.Init(s.eng.opts.TransactionMemoryLimit, txnstore.SpillLimit(s.eng.opts.TransactionSpillBytes))
	if s.eng.locks != nil {
		if s.rowLocks == nil {
			s.rowLocks = s.eng.locks.NewTxn(int32(s.info.ProcessID))
		}
		tx.Locks = s.rowLocks
	}
	return tx
}

// endTxn forgets the open transaction block.
func (s *session) endTxn() {
	if s.tx != nil {
		s.tx.Release()
		s.tx = nil
	}
	s.txStatus = 'I'
	s.settings["transaction_isolation"] = s.settings["default_transaction_isolation"]
}

// writeTxn is the transaction a write joins: the open block, or an
// implicit one that the statement commits (finishImplicit).
func (s *session) writeTxn() *txn {
	if s.tx != nil {
		return s.tx
	}
	if s.implicit == nil {
		s.implicit = s.newTxn()
	}
	return s.implicit
}

// finishImplicit commits the statement's implicit transaction when the
// statement succeeded (err == nil) and forgets it either way. A held one
// stays open after a success (EndImplicit commits it) and is rolled back
// whole by an error, as PostgreSQL aborts the pipeline's transaction.
func (s *session) finishImplicit(ctx context.Context, err error) error {
	tx := s.implicit
	if tx == nil {
		return err
	}
	if s.held {
		if err != nil {
			s.dropImplicit()
		}
		return err
	}
	s.implicit = nil
	defer tx.Release()
	if err != nil {
		return err
	}
	return tx.Commit(s.commitContext(ctx), s.eng.store)
}

// runtimeTables is what a statement's executor reads: inside a
// transaction, the tables it wrote show its pending writes.
func (s *session) runtimeTables() lower.Tables {
	tx := s.tx
	if tx == nil {
		tx = s.implicit
	}
	if tx == nil {
		return s.eng.runtime
	}
	return txnTables{tables: s.eng.tables, tx: tx}
}

func (s *session) StatusChanges() map[string]string {
	if len(s.changed) == 0 {
		return nil
	}
	out := s.changed
	s.changed = map[string]string{}
	return out
}

func (s *session) Status(name string) (string, bool) {
	// Lowered in a stack buffer: pgwire asks for "TimeZone" at every Bind,
	// and strings.ToLower would allocate each time (a map index by
	// string(bytes) does not).
	var buf [64]byte
	if len(name) > len(buf) {
		v, ok := s.settings[strings.ToLower(name)]
		return v, ok
	}
	b := buf[:len(name)]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	v, ok := s.settings[string(b)]
	return v, ok
}

// Prepare parses and binds every statement of text.
func (s *session) Prepare(ctx context.Context, text string, paramOIDs []uint32) ([]pgwire.Statement, error) {
	if err := s.refreshMeta(ctx); err != nil {
		return nil, s.failed(err)
	}
	s.metaFresh = true
	stmts, err := s.parser.Parse(text)
	if err != nil {
		return nil, s.failed(err)
	}
	declared := make([]types.T, len(paramOIDs))
	for i, oid := range paramOIDs {
		t, err := typeOfOID(oid)
		if err != nil {
			return nil, s.failed(err)
		}
		declared[i] = t
	}
	out := make([]pgwire.Statement, 0, len(stmts))
	if len(stmts) == 1 {
		// One statement (always the case for Parse): bind now, so that
		// Describe knows the parameter and result types and errors surface
		// at Parse, as in PostgreSQL.
		ps, err := s.prepareOne(ctx, stmts[0], declared)
		if err != nil {
			return nil, s.failed(err)
		}
		ps.source = text
		return append(out, ps), nil
	}
	// Several statements (a simple query): each is bound just before it
	// runs, so that "CREATE TABLE t ...; INSERT INTO t ..." sees the table.
	for _, st := range stmts {
		out = append(out, &lazyStatement{sess: s, parsed: st, declared: declared, source: text})
	}
	return out, nil
}

// lazyStatement binds on first use. pgwire asks for Columns() and then
// Execute() of one statement of a simple query before the next one's.
type lazyStatement struct {
	sess     *session
	parsed   *sql.Statement
	declared []types.T
	source   string // the whole query string
	ps       *statement
	err      error
	done     bool
}

func (l *lazyStatement) bind() (*statement, error) {
	if !l.done {
		l.done = true
		l.ps, l.err = l.sess.prepareOne(context.Background(), l.parsed, l.declared)
		if l.err != nil {
			l.err = l.sess.failed(l.err)
		} else {
			l.ps.source = l.source
		}
	}
	return l.ps, l.err
}

func (l *lazyStatement) SQL() string { return l.parsed.Text }
func (l *lazyStatement) ParamTypes() []types.T {
	if ps, err := l.bind(); err == nil {
		return ps.ParamTypes()
	}
	return nil
}
func (l *lazyStatement) Columns() []pgwire.ResultColumn {
	if ps, err := l.bind(); err == nil {
		return ps.Columns()
	}
	return nil
}
func (l *lazyStatement) Execute(ctx context.Context, params []any) (pgwire.Result, error) {
	ps, err := l.bind()
	if err != nil {
		return nil, err
	}
	return ps.Execute(ctx, params)
}

// failed marks an open transaction block as failed, as PostgreSQL does after
// any error inside one.
// FailTransaction implements pgwire.TransactionFailer: an error pgwire
// reported itself (a bad Bind, a missing portal) fails an open block too.
func (s *session) FailTransaction() {
	if s.txStatus == 'T' {
		s.txStatus = 'E'
		s.abortLocks()
	}
}

func (s *session) failed(err error) error {
	if s.txStatus == 'T' {
		s.txStatus = 'E'
		s.abortLocks()
	}
	return err
}

// abortLocks releases the row locks of a block that an error aborted, as
// PostgreSQL does when it aborts the transaction (the block itself lasts
// until ROLLBACK): nothing of it can commit any more. With a savepoint,
// ROLLBACK TO could resume the block and commit its earlier writes, so its
// locks are kept.
func (s *session) abortLocks() {
	if s.tx != nil && s.tx.Savepoints() == 0 {
		s.tx.Unlock(false)
	}
}

func (s *session) prepareOne(ctx context.Context, st *sql.Statement, declared []types.T) (*statement, error) {
	ps := &statement{sess: s, parsed: st}
	if st.DDL != nil {
		return s.prepareDDL(ctx, ps)
	}
	switch st.Kind {
	case sql.Copy:
		return s.prepareCopy(ctx, st)
	case sql.Savepoint, sql.ReleaseSavepoint, sql.RollbackToSavepoint:
		return ps, nil
	case sql.Set, sql.Reset, sql.Show, sql.Begin, sql.Commit, sql.Rollback, sql.Discard, sql.Deallocate, sql.Grant, sql.Revoke, sql.Role:
		if st.Kind == sql.Show {
			name := showColumnName(st.Show.Name)
			if st.Show.Name == "tables" {
				name = "table_name"
			}
			ps.cols = []pgwire.ResultColumn{{Name: name, Type: types.StringType}}
		}
		return ps, nil
	}
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	if st.Sequence != nil || st.Function != nil { // sequences.go, pyfunctions.go
		return ps, nil
	}
	cat := &recordingCatalog{tables: s.eng.tables, udfs: s.eng.UDFs(), views: s.eng.meta.Views(), meta: s.eng.meta, parse: s.parseView, files: s}
	// The binder parses literals (a timestamptz without offset is in the
	// session's zone) and folds session functions.
	ctx = functions.WithSession(ctx, functions.Session{User: s.info.User, Database: s.info.Database,
		BackendPID: int32(s.info.ProcessID), Setting: s.Status, Location: s.location()})
	s.eng.ddl.RLock()
	ps.catalog, ps.searchPath, ps.declared = s.eng.catalog.Load(), s.settings["search_path"], declared
	err := s.viewTarget(st)
	var bound binder.Statement
	if err == nil {
		bound, err = binder.Bind(ctx, cat, st, declared)
	}
	s.eng.ddl.RUnlock()
	if err != nil {
		return nil, err
	}
	ps.bound = bound
	ps.reads = cat.seen
	ps.params = bound.Params()
	switch b := bound.(type) {
	case *binder.Query:
		if ps.plan, err = lower.PlanWith(b.Plan, lower.Options{Ctx: ctx, Stats: s.eng.tables}); err != nil {
			return nil, err
		}
		// a query has a row description even with no columns (SELECT FROM t)
		ps.cols = make([]pgwire.ResultColumn, 0, len(b.Plan.Columns()))
		for _, c := range b.Plan.Columns() {
			ps.cols = append(ps.cols, pgwire.ResultColumn{Name: c.Name, Type: c.T, TableOID: tableOID(c.TableID), ColumnNumber: int16(c.Ordinal)})
		}
		if info, ok := binder.LockedTable(b.Plan); ok {
			ps.locked = &info
		}
	case *binder.Insert, *binder.Update, *binder.Delete:
		if ps.cols, err = ps.prepareWrite(b); err != nil {
			return nil, err
		}
	case *binder.Describe:
		ps.cols = []pgwire.ResultColumn{{Name: "column_name", Type: types.StringType}, {Name: "data_type", Type: types.StringType},
			{Name: "is_nullable", Type: types.StringType}, {Name: "key", Type: types.StringType}}
	case *binder.CreateTable:
		if b.Source != nil {
			if ps.plan, err = lower.Plan(b.Source); err != nil {
				return nil, err
			}
		}
	case *binder.Explain:
		switch inner := b.Statement.(type) {
		case *binder.Query:
			if ps.plan, err = lower.PlanWith(inner.Plan, lower.Options{Ctx: ctx, Stats: s.eng.tables}); err != nil {
				return nil, err
			}
		case *binder.Insert, *binder.Update, *binder.Delete:
			if ps.writeCols, err = ps.prepareWrite(inner); err != nil {
				return nil, err
			}
		default:
			return nil, sqlerr.NotSupported("EXPLAIN of this statement")
		}
		ps.cols = []pgwire.ResultColumn{{Name: "QUERY PLAN", Type: types.StringType}}
	}
	return ps, nil
}

// prepareWrite plans an INSERT, UPDATE or DELETE: the plan of the rows it
// writes, the expressions it evaluates itself, and its RETURNING columns.
func (ps *statement) prepareWrite(bound binder.Statement) (cols []pgwire.ResultColumn, err error) {
	switch b := bound.(type) {
	case *binder.Insert:
		if ps.plan, err = lower.Plan(b.Source); err != nil {
			return nil, err
		}
		if b.OnConflictUpdate != nil {
			if ps.merge, err = lower.LowerExprs(b.OnConflictUpdate); err != nil {
				return nil, err
			}
		}
		if b.Returning != nil {
			if ps.ret, err = lower.LowerExprs(b.Returning.Exprs); err != nil {
				return nil, err
			}
			cols = returningColumns(b.Returning)
		}
	case *binder.Update:
		if ps.plan, err = lower.Plan(b.Source); err != nil {
			return nil, err
		}
		cols = returningColumns(b.Returning)
	case *binder.Delete:
		if ps.plan, err = lower.Plan(b.Keys); err != nil {
			return nil, err
		}
		cols = returningColumns(b.Returning)
	}
	return cols, nil
}

// tableOID is the OID a table shows to PostgreSQL clients.
func tableOID(id int64) uint32 {
	if id == 0 {
		return 0
	}
	return uint32(16384 + id)
}

func showColumnName(name string) string {
	switch name {
	case "transaction_isolation":
		return "transaction_isolation"
	case "all":
		return "name"
	}
	return displayName(name)
}

// statement is a prepared statement.
type statement struct {
	sess   *session
	parsed *sql.Statement
	bound  binder.Statement
	plan   lower.Node
	merge  []exec.Expr // ON CONFLICT DO UPDATE
	// locked is the table a SELECT ... FOR UPDATE (or FOR SHARE ...) locks.
	locked *fluss.TableInfo
	ret    []exec.Expr // INSERT ... RETURNING
	params []types.T
	cols   []pgwire.ResultColumn
	// reads are the stored tables the statement resolved (privileges.go).
	reads []tableRef
	// What the bound plan depends on besides the text (replan): the
	// catalog count and search_path it was bound at, the declared
	// parameter types.
	catalog    uint64
	searchPath string
	declared   []types.T
	// The backend hint in the statement's text (backend.go), once found.
	hint     exec.BackendRequest
	hasHint  bool
	hintErr  error
	hintDone bool
	// writeCols are the RETURNING columns of the write an EXPLAIN
	// explains (explainwrite.go).
	writeCols []pgwire.ResultColumn
	// fill gives the columns a COPY FROM omits their defaults (coldefs.go).
	fill func(col int, rows int64) (arrow.Array, error)
	// source is the whole query string the statement came from (a
	// PREPARE's, for pg_prepared_statements.statement).
	source string
	// access caches TableAccess for the plan it was computed from
	// (tableaccess.go).
	access accessCache
	// sub is a SUBSCRIBE's plan, bare or in COPY (subscribe.go).
	sub *subscribePlan
	// binary: a FETCH from a BINARY cursor (cursorparams.go).
	binary bool
	// file is set on COPY to or from a server-side file (copyfile.go).
	file *copyFile
}

func (ps *statement) SQL() string                    { return ps.parsed.Text }
func (ps *statement) ParamTypes() []types.T          { return ps.params }
func (ps *statement) Columns() []pgwire.ResultColumn { return ps.cols }

// Execute runs the statement.
func (ps *statement) Execute(ctx context.Context, params []any) (pgwire.Result, error) {
	if !ps.sess.metaFresh {
		if err := ps.sess.refreshMeta(ctx); err != nil {
			return nil, ps.sess.failed(err)
		}
	}
	ps.sess.metaFresh = false
	res, err := ps.execute(ctx, params)
	ps.sess.ddlFinished(err) // txddl.go
	err = ps.sess.finishImplicit(ctx, err)
	if err != nil {
		if res != nil {
			res.Close()
		}
		return nil, ps.sess.failed(mapContextError(ctx, err))
	}
	return res, nil
}

func (ps *statement) execute(ctx context.Context, params []any) (pgwire.Result, error) {
	s := ps.sess
	s.stmtText = ps.parsed.Text
	if ps.sub != nil {
		return s.execSubscribe(ctx, ps) // subscribe.go
	}
	if ps.parsed.DDL != nil {
		return s.execDDL(ctx, ps, params)
	}
	if ps.parsed.CurrentOf != nil {
		return s.execCurrentOf(ctx, ps, params) // currentof.go
	}
	if ps.file != nil {
		return s.execCopyFile(ctx, ps, params) // copyfile.go
	}
	switch ps.parsed.Kind {
	case sql.Set, sql.Reset:
		return s.execSet(ps.parsed.Set)
	case sql.Show:
		return s.execShow(ps.parsed.Show)
	case sql.Begin:
		if s.txStatus == 'I' {
			if err := s.beginIsolation(ps.parsed.Tx); err != nil {
				return nil, err
			}
			s.txStatus = 'T'
			if s.implicit != nil {
				// BEGIN inside an implicit transaction (a pipeline, a
				// Query string) makes it the block, with what it wrote.
				s.tx, s.implicit = s.implicit, nil
			} else {
				s.txStart = time.Now()
				s.tx = s.newTxn()
			}
			s.tx.readOnly = ps.parsed.Tx != nil && ps.parsed.Tx.ReadOnly ||
				(ps.parsed.Tx == nil || !ps.parsed.Tx.ReadWrite) && s.settings["default_transaction_read_only"] == "on"
		}
		return tagOnly("BEGIN"), nil
	case sql.Commit:
		chain := ps.parsed.Tx != nil && ps.parsed.Tx.Chain
		if err := s.endCursors(ctx, s.txStatus == 'T'); err != nil { // cursors.go
			s.endTxn()
			return nil, err
		}
		if s.txStatus == 'E' {
			var ddl []string
			if s.tx != nil {
				ddl = s.tx.ddl
			}
			s.endTxn()
			s.chain(chain)
			return notUndone("ROLLBACK", ddl), nil // txddl.go
		}
		tx := s.tx
		s.tx = nil
		s.txStatus = 'I'
		s.settings["transaction_isolation"] = s.settings["default_transaction_isolation"]
		if tx == nil {
			// COMMIT outside a block commits the implicit transaction it
			// runs in, as PostgreSQL does (with a warning).
			tx, s.implicit = s.implicit, nil
		}
		if tx != nil {
			defer tx.Release()
			if err := tx.Commit(s.commitContext(ctx), s.eng.store); err != nil {
				return nil, err
			}
			s.chain(chain)
			if chain {
				s.tx.readOnly = tx.readOnly
			}
		}
		return tagOnly("COMMIT"), nil
	case sql.Rollback:
		var readOnly bool
		var ddl []string
		if s.tx != nil {
			readOnly, ddl = s.tx.readOnly, s.tx.ddl
		}
		s.endTxn()
		s.dropImplicit()
		_ = s.endCursors(ctx, false) // a rollback reads nothing: no error
		if ps.parsed.Tx != nil && ps.parsed.Tx.Chain {
			s.chain(true)
			s.tx.readOnly = readOnly
		}
		return notUndone("ROLLBACK", ddl), nil // txddl.go
	case sql.Discard:
		if ps.parsed.Discard == "all" {
			s.cursors.closeAll()
		}
		return tagOnly("DISCARD ALL"), nil
	case sql.Savepoint, sql.ReleaseSavepoint, sql.RollbackToSavepoint:
		// Writes never happen inside a transaction block (see write), so a
		// savepoint has nothing to undo; it only has to exist in a block.
		if s.txStatus == 'I' || s.tx == nil {
			return nil, sqlerr.New(sqlerr.NoActiveSQLTransaction, "%s can only be used in transaction blocks", savepointVerb(ps.parsed.Kind))
		}
		name := ""
		if ps.parsed.Tx != nil {
			name = ps.parsed.Tx.Savepoint
		}
		if ps.parsed.Kind == sql.RollbackToSavepoint {
			i, err := s.tx.FindSavepoint(name)
			if err != nil {
				return nil, err
			}
			done := s.tx.rollbackTo(i)
			s.cursorsRolledBackTo(i) // cursors.go
			s.txStatus = 'T'
			return notUndone("ROLLBACK", done), nil // txddl.go
		}
		if s.txStatus == 'E' {
			return nil, sqlerr.TransactionAborted()
		}
		if ps.parsed.Kind == sql.ReleaseSavepoint {
			i, err := s.tx.FindSavepoint(name)
			if err != nil {
				return nil, err
			}
			s.tx.releaseSavepoint(i)
		} else if err := s.tx.savepoint(name); err != nil {
			return nil, err
		}
		return tagOnly(savepointVerb(ps.parsed.Kind)), nil
	case sql.Deallocate:
		return s.deallocate(ps.parsed.Deallocate)
	case sql.Grant, sql.Revoke:
		if s.txStatus == 'E' {
			return nil, sqlerr.TransactionAborted()
		}
		return s.execGrant(ctx, ps.parsed.Grant)
	case sql.Role:
		if s.txStatus == 'E' {
			return nil, sqlerr.TransactionAborted()
		}
		return s.execRole(ctx, ps.parsed.Role)
	}
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	if ps.parsed.Sequence != nil {
		return s.execSequence(ctx, ps.parsed.Sequence)
	}
	if ps.parsed.Function != nil {
		return s.execFunction(ctx, ps.parsed.Function)
	}
	if err := s.firstQuery(ctx); err != nil {
		return nil, err
	}
	if ps.bound != nil && (ps.catalog != s.eng.catalog.Load() || ps.searchPath != s.settings["search_path"]) {
		if err := ps.replan(ctx); err != nil {
			return nil, err
		}
	}
	if err := s.authorize(ps); err != nil {
		return nil, err
	}
	// One allocation for the execution's state: a prepared point lookup
	// runs this per Execute.
	st := &execState{}
	loc := s.location()
	values, err := s.convertParams(ctx, st.params[:0], params, ps.params, loc)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if s.txStart.IsZero() || s.txStatus == 'I' && !s.held {
		s.txStart = now
	}
	ci, _ := s.eng.opts.Virtual.(functions.CatalogInfo)
	s.seqs.s = s
	ctx = functions.WithStatement(ctx, functions.Clock{TransactionStart: s.txStart, StatementStart: now}, ci,
		functions.Session{User: s.info.User, Database: s.info.Database, BackendPID: int32(s.info.ProcessID), Setting: s.statusFn, Location: loc, SetSetting: s.setFn,
			SSL: functions.SSLStatusOf(s.info.TLS), Sequences: &s.seqs, Prepared: s.preparedFn, Cursors: s.cursorsFn})
	backend, err := ps.backend(&st.req)
	if err != nil {
		return nil, err
	}
	ec, rt := &st.ec, &st.rt
	*ec = exec.EvalContext{Ctx: ctx, Mem: s.eng.mem, Params: values, Backend: backend.Default, Families: backend.Families}
	*rt = lower.Runtime{Ctx: ctx, Tables: s.runtimeTables(), EC: ec, Backends: backend,
		Mem: relop.NewMemoryAccount(s.eng.opts.QueryMemoryLimit), SpillDir: s.eng.opts.SpillDir,
		Untransacted: s.tx == nil && s.implicit == nil}
	rt.CTEs = &st.ctes
	ec.Env = rt
	// The execution's WITH query rows last until it ends: here, unless
	// its rows are streamed, when the result frees them once closed.
	streamed := false
	defer func() {
		if !streamed {
			rt.Close()
		}
	}()
	switch b := ps.bound.(type) {
	case *binder.Query:
		if ps.locked != nil {
			return s.lockedQuery(ctx, rt, ps)
		}
		op, err := lower.BuildForClient(rt, ps.plan)
		if err != nil {
			return nil, err
		}
		st.res = queryResult{op: op, verb: "SELECT", sess: s, rt: rt}
		streamed = true
		return &st.res, nil
	case *binder.Describe:
		return describeResult(s.eng, b.Table), nil
	case *binder.Truncate:
		return s.truncate(ctx, b.Table)
	case *binder.Explain:
		s.explainPartitions(ctx, ps.plan, rt.EC) // partitions.go
		if _, ok := b.Statement.(*binder.Query); !ok {
			return s.explainWrite(ctx, ps, b, rt, backend) // explainwrite.go
		}
		if !b.Analyze {
			return explainResult(s.eng, ps.plan, nil, b.Format, backend), nil
		}
		// EXPLAIN ANALYZE runs the plan, discarding its rows, and reports
		// what each node did.
		// The plan is built as for a client (a root scan reads ahead),
		// measuring what METRICS asks (the binder checked the level).
		rt.Metrics = map[lower.Node]*exec.Metrics{}
		rt.MetricsLevel, _ = exec.ParseMetricsLevel(b.Metrics)
		op, err := lower.BuildForClient(rt, ps.plan)
		if err != nil {
			return nil, err
		}
		for {
			batch, err := op.Next(ctx)
			if err != nil {
				op.Close()
				return nil, err
			}
			if batch == nil {
				break
			}
			batch.Release()
		}
		op.Close()
		rt.Metrics[ps.plan].Finish()
		return explainResult(s.eng, ps.plan, rt.Metrics, b.Format, backend), nil
	case *binder.Insert, *binder.Update, *binder.Delete:
		res, _, err := s.runWrite(ctx, ps, b, rt, ec, ps.returned())
		return res, err
	case *binder.CreateTable:
		if err := s.blockDDL("CREATE TABLE", nil); err != nil {
			return nil, err
		}
		s.eng.ddl.Lock()
		s.eng.catalog.Add(1)
		if _, isView := s.eng.meta.Views().Get(b.Path); isView {
			s.eng.ddl.Unlock()
			if b.IfNotExists {
				return tagOnly("CREATE TABLE"), nil
			}
			return nil, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", b.Path.Table)
		}
		err := s.noteTempSchema(ctx, b.Path.Database)
		var info fluss.TableInfo
		if err == nil {
			info, err = s.createTable(ctx, b) // metadata.go: with its owner and sequences
		}
		s.eng.ddl.Unlock()
		if err != nil {
			return nil, err
		}
		if b.Source == nil {
			return tagOnly("CREATE TABLE"), nil
		}
		// CREATE TABLE ... AS: fill the new table; PostgreSQL reports SELECT n.
		t, src, err := s.openWrite(rt, "CREATE TABLE AS", ps.plan, info)
		if err != nil {
			return nil, err
		}
		ins := &exec.Insert{EC: ec, Table: t, Source: src}
		if err := ins.Run(ctx); err != nil {
			return nil, err
		}
		return tagOnly(fmt.Sprintf("SELECT %d", ins.Rows)), nil
	case *binder.CreateView:
		return s.createView(ctx, b)
	case *binder.DropView:
		return s.dropView(ctx, b, sql.DropCascade(ps.parsed))
	case *binder.DropTable:
		if err := s.blockDDL("DROP TABLE", pathIn(b.Paths)); err != nil {
			return nil, err
		}
		s.eng.ddl.Lock()
		s.eng.catalog.Add(1)
		defer s.eng.ddl.Unlock()
		var notices []*sqlerr.Error
		for _, p := range b.Paths {
			if err := systemTable(p); err != nil {
				return nil, err
			}
			info, err := s.eng.store.GetTable(ctx, p)
			if err != nil {
				if _, isView := s.eng.meta.Views().Get(p); isView {
					return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a table", p.Table).WithHint("Use DROP VIEW to remove a view.")
				}
				if b.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
					continue
				}
				return nil, err
			}
			if err := s.mayDrop(info); err != nil {
				return nil, err
			}
			cascaded, err := s.dependentViews("table", p, nil, sql.DropCascade(ps.parsed)) // cascade.go
			if err != nil {
				return nil, err
			}
			if err := s.dropTable(ctx, info, b.IfExists); err != nil {
				return nil, err
			}
			if n, err := s.dropCascaded(ctx, cascaded); err != nil || n != nil {
				if err != nil {
					return nil, err
				}
				notices = append(notices, n)
			}
			if err := s.dropOwnedSequences(ctx, p); err != nil {
				return nil, err
			}
		}
		return noticeResult("DROP TABLE", notices...), nil
	}
	return nil, sqlerr.New(sqlerr.InternalError, "cannot execute %T", ps.bound)
}

// replan binds and plans ps again after the catalog or search_path
// changed since it was bound: a table dropped and created again (or a
// TRUNCATEd log table) has a new id, a view a new definition. As in
// PostgreSQL, a statement whose result columns or parameter types would
// change fails with 0A000 instead, since the client already holds its
// descriptions.
func (ps *statement) replan(ctx context.Context) error {
	fresh, err := ps.sess.prepareOne(ctx, ps.parsed, ps.declared)
	if err != nil {
		return err
	}
	if !sameColumns(fresh.cols, ps.cols) || !sameTypes(fresh.params, ps.params) {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cached plan must not change result type")
	}
	ps.bound, ps.plan, ps.merge, ps.ret, ps.reads, ps.locked = fresh.bound, fresh.plan, fresh.merge, fresh.ret, fresh.reads, fresh.locked
	ps.catalog, ps.searchPath = fresh.catalog, fresh.searchPath
	return nil
}

func sameColumns(a, b []pgwire.ResultColumn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !a[i].Type.Equal(b[i].Type) {
			return false
		}
	}
	return true
}

func sameTypes(a, b []types.T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// runWrite runs the INSERT, UPDATE or DELETE bound (ps's, or the one its
// EXPLAIN ANALYZE explains) with rt, the write's own expressions in ec, and
// returns its result and the rows it wrote; ret receives its RETURNING rows
// (nil: none).
func (s *session) runWrite(ctx context.Context, ps *statement, bound binder.Statement, rt *lower.Runtime, ec *exec.EvalContext, ret *exec.Returned) (pgwire.Result, int64, error) {
	switch b := bound.(type) {
	case *binder.Insert:
		if ps.merge != nil {
			if err := s.needRowLocks("INSERT ... ON CONFLICT DO UPDATE"); err != nil {
				return nil, 0, err
			}
		}
		t, src, err := s.openWrite(rt, "INSERT", ps.plan, b.Table)
		if err != nil {
			return nil, 0, err
		}
		ins := &exec.Insert{EC: ec, Table: t, Source: src, IgnoreExisting: b.OnConflictDoNothing, Merge: ps.merge, Returning: ps.ret, Ret: ret}
		if err := ins.Run(ctx); err != nil {
			ret.Release()
			return nil, 0, err
		}
		return writeResult(fmt.Sprintf("INSERT 0 %d", ins.Rows), ret), ins.Rows, nil
	case *binder.Update:
		if err := s.needRowLocks("UPDATE"); err != nil {
			return nil, 0, err
		}
		t, src, err := s.openWrite(rt, "UPDATE", ps.plan, b.Table)
		if err != nil {
			return nil, 0, err
		}
		var rows int64
		err = s.recheckPasses(rt, ps.plan, src, func(src exec.Operator, rc *exec.Recheck) error {
			up := &exec.Update{EC: ec, Table: t, Source: src, KeyChanged: b.KeyChanged, Joined: b.Joined, Ret: ret, Recheck: rc}
			if b.Returning != nil {
				up.RetAt = b.Returning.At
			}
			err := up.Run(ctx)
			rows += up.Rows
			return err
		})
		if err != nil {
			ret.Release()
			return nil, 0, err
		}
		return writeResult(fmt.Sprintf("UPDATE %d", rows), ret), rows, nil
	case *binder.Delete:
		t, src, err := s.openWrite(rt, "DELETE", ps.plan, b.Table)
		if err != nil {
			return nil, 0, err
		}
		var rows int64
		err = s.recheckPasses(rt, ps.plan, src, func(src exec.Operator, rc *exec.Recheck) error {
			del := &exec.Delete{EC: ec, Table: t, Source: src, Joined: b.Joined, Ret: ret, Recheck: rc}
			if b.Returning != nil {
				del.RetAt = b.Returning.At
			}
			err := del.Run(ctx)
			rows += del.Rows
			return err
		})
		if err != nil {
			ret.Release()
			return nil, 0, err
		}
		return writeResult(fmt.Sprintf("DELETE %d", rows), ret), rows, nil
	}
	return nil, 0, sqlerr.New(sqlerr.InternalError, "runWrite of %T", bound)
}

// openWrite opens the target table of a write and instantiates the plan
// that feeds it, after checking that writing is allowed here and that the
// table is still the one the statement was bound against.
func (s *session) openWrite(rt *lower.Runtime, verb string, plan lower.Node, info fluss.TableInfo) (fluss.Table, exec.Operator, error) {
	t, err := s.writeTable(rt.Ctx, verb, info)
	if err != nil {
		return nil, nil, err
	}
	// The source reads through the transaction's tables, now including
	// the target.
	rt.Tables = s.runtimeTables()
	src, err := lower.Build(rt, plan)
	if err != nil {
		return nil, nil, err
	}
	return t, src, nil
}

// writeTable opens the target of a write as the transaction sees it,
// checking that the table is still the one the statement was bound against.
func (s *session) writeTable(ctx context.Context, verb string, info fluss.TableInfo) (*pendingTable, error) {
	tx := s.writeTxn()
	if tx.readOnly {
		return nil, sqlerr.New(sqlerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", verb)
	}
	s.startLocking(tx)
	pt, err := tx.pending(info.TableID)
	if err != nil {
		return nil, err
	}
	if pt == nil {
		t, err := s.eng.store.Table(ctx, info.Path)
		if err != nil {
			return nil, err
		}
		if t.Info().TableID != info.TableID {
			return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created since the statement was prepared", info.Path.Table)
		}
		pt = tx.openPending(t)
	}
	if err := s.attachChecks(ctx, pt); err != nil { // coldefs.go
		return nil, err
	}
	return pt, nil
}

// noTxnBlock refuses a statement that cannot run inside a transaction
// block (25001): VACUUM, as in PostgreSQL, and TRUNCATE, whose removed rows
// a ROLLBACK could not bring back. Other DDL runs in a block (txddl.go).
func (s *session) noTxnBlock(what string) error {
	if s.txStatus != 'I' {
		return sqlerr.New(sqlerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", what)
	}
	return nil
}

func (s *session) execSet(st *sql.SetStmt) (pgwire.Result, error) {
	if st.ResetAll {
		for k, v := range s.defaults() { // logsettings.go
			if s.settings[k] != v {
				s.settings[k] = v
				if reported[k] {
					s.changed[displayName(k)] = v
				}
			}
		}
		return tagOnly("RESET"), nil
	}
	if st.Name == "" { // SET [SESSION CHARACTERISTICS AS] TRANSACTION ...
		if err := s.setTransaction(st); err != nil {
			return nil, err
		}
		return tagOnly("SET"), nil
	}
	name := strings.ToLower(st.Name)
	var v string
	switch {
	case st.Reset || st.Default:
		v = s.defaults()[name]
	default:
		v = strings.Join(st.Values, ", ")
	}
	switch name {
	case "server_version", "server_encoding", "integer_datetimes", "is_superuser", "in_hot_standby", "server_version_num":
		return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "parameter %q cannot be changed", name)
	case "client_encoding":
		if up := strings.ToUpper(strings.ReplaceAll(v, "-", "")); up != "UTF8" && up != "UNICODE" {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "client encoding %q is not supported; sqlgate speaks UTF8", v)
		}
		v = "UTF8"
	case backendSetting:
		b, err := exec.ParseBackend(v)
		if err != nil {
			return nil, err
		}
		v = b.String()
	case "transaction_isolation", "default_transaction_isolation":
		l, err := s.isolationLevel(v)
		if err != nil {
			return nil, err
		}
		if name == "transaction_isolation" && s.txStatus != 'I' {
			if err := s.isolationChangeable(l); err != nil {
				return nil, err
			}
		}
		v = l
	case LogMinDurationStatement: // logsettings.go
		var err error
		if v, err = s.setLogMinDuration(v); err != nil {
			return nil, err
		}
	case SynchronousCommit: // synccommit.go
		var err error
		if v, err = synchronousCommitValue(v); err != nil {
			return nil, err
		}
	case "timezone":
		// PostgreSQL's accepted forms, stored as SHOW spells them
		// ("europe/paris" -> "Europe/Paris", -5 -> "<-05>+05"); else 22023
		_, canon, err := types.LoadZone(v)
		if err != nil {
			return nil, err
		}
		v = canon
	}
	if s.settings[name] != v {
		s.settings[name] = v
		if reported[name] {
			s.changed[displayName(name)] = v
		}
	}
	if st.Reset {
		return tagOnly("RESET"), nil
	}
	return tagOnly("SET"), nil
}

// setConfig is set_config(name, value, is_local): SET through the same
// rules, returning the value now in force. (SET LOCAL is taken as a
// session-level SET, as sqlgate's SET LOCAL is.)
func (s *session) setConfig(name, value string, reset, local bool) (string, error) {
	st := &sql.SetStmt{Name: name, Values: []string{value}, Default: reset}
	if _, err := s.execSet(st); err != nil {
		return "", err
	}
	v, _ := s.Status(name)
	return v, nil
}

func (s *session) execShow(st *sql.ShowStmt) (pgwire.Result, error) {
	name := strings.ToLower(st.Name)
	if name == "tables" { // SHOW TABLES: the tables of the default database
		infos, err := s.eng.store.ListTables(context.Background(), fluss.DefaultDatabase)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(infos))
		for i, t := range infos {
			names[i] = t.Path.Table
		}
		return stringsResult(s.eng, "table_name", names), nil
	}
	if name == "all" {
		names := make([]string, 0, len(s.settings))
		for k := range s.settings {
			names = append(names, k)
		}
		sort.Strings(names)
		rows := make([]string, len(names))
		for i, k := range names {
			rows[i] = displayName(k) + " = " + s.settings[k]
		}
		return stringsResult(s.eng, "setting", rows), nil
	}
	v, ok := s.settings[name]
	if !ok {
		return nil, sqlerr.New(sqlerr.UndefinedObject, "unrecognized configuration parameter %q", st.Name)
	}
	return stringsResult(s.eng, showColumnName(name), []string{v}), nil
}

// convertParams converts the wire's decoded parameters to the physical
// values of the parameters' types, appended to dst (the execution's
// buffer, used when the parameters fit).
func (s *session) convertParams(ctx context.Context, dst, in []any, ts []types.T, loc *time.Location) ([]any, error) {
	out := slices.Grow(dst[:0], len(ts))[:len(ts)]
	for i := range ts {
		if i >= len(in) || in[i] == nil {
			continue
		}
		if text, ok := in[i].(string); ok && ts[i].Kind == types.Oid && ts[i].Variant.IsReg() {
			// A reg* parameter sent as text is read by the type's input
			// function, which looks names up in the catalog (nextval($1)
			// with 'myseq').
			oid, err := s.regParam(ctx, ts[i].Variant, text)
			if err != nil {
				return nil, err
			}
			out[i] = int64(oid)
			continue
		}
		v, err := paramValue(in[i], ts[i], loc)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func mapContextError(ctx context.Context, err error) error {
	if ctx.Err() != nil && sqlerr.As(err) == nil {
		return sqlerr.Wrap(err, sqlerr.QueryCanceled, "canceling statement due to user request")
	}
	return err
}

// tagResult is a result without rows.
type tagResult struct{ tag string }

func tagOnly(tag string) *tagResult                                  { return &tagResult{tag: tag} }
func (r *tagResult) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (r *tagResult) Tag() string                                     { return r.tag }
func (r *tagResult) Close()                                          {}

// execState is what one execution allocates: its evaluation context, its
// runtime and, for a query, its result.
type execState struct {
	ec  exec.EvalContext
	rt  lower.Runtime
	req exec.BackendRequest // the session setting's, when no hint
	// ctes are rt's WITH query rows (rt.CTEs).
	ctes lower.CTERuns
	res  queryResult
	// params holds the converted parameters when they are few (a point
	// lookup's key).
	params [4]any
}

// queryResult streams an operator's batches.
type queryResult struct {
	op   exec.Operator
	verb string
	rows int64
	done bool
	// sess, when set, learns of an error raised while streaming: it aborts
	// the transaction block like an error from Execute.
	sess *session
	// rt, when set, is the runtime op was built with: Close closes it
	// after op (it holds the execution's WITH query rows).
	rt *lower.Runtime
}

func (r *queryResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.done {
		return nil, nil
	}
	b, err := r.op.Next(ctx)
	if err != nil {
		r.Close()
		err = mapContextError(ctx, err)
		if r.sess != nil {
			err = r.sess.failed(err)
		}
		return nil, err
	}
	if b == nil {
		r.Close()
		return nil, nil
	}
	r.rows += b.NumRows()
	return b, nil
}

// Tag is "SELECT n" for queries; SHOW and EXPLAIN report their verb alone.
func (r *queryResult) Tag() string {
	switch {
	case r.verb != "SELECT":
		return r.verb
	case r.rows == 1:
		return "SELECT 1" // a point lookup's: no formatting
	}
	return "SELECT " + strconv.FormatInt(r.rows, 10)
}
func (r *queryResult) Close() {
	if !r.done {
		r.done = true
		r.op.Close()
		if r.rt != nil {
			r.rt.Close()
		}
	}
}

// stringsResult returns one text column of rows.
func stringsResult(e *Engine, name string, rows []string) pgwire.Result {
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewStringBuilder(e.mem)
	defer b.Release()
	b.AppendValues(rows, nil)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(rows)))
	return &queryResult{op: &onceOperator{batch: rec}, verb: "SHOW"}
}

func explainResult(e *Engine, plan lower.Node, metrics map[lower.Node]*exec.Metrics, format string, backend *exec.BackendRequest) pgwire.Result {
	lines := lower.ExplainFor(plan, metrics, backend)
	if format == "json" {
		lines = []string{lower.ExplainJSONFor(plan, metrics, backend)}
	}
	r := stringsResult(e, "QUERY PLAN", lines).(*queryResult)
	r.verb = "EXPLAIN"
	return r
}

// onceOperator emits one prepared batch.
type onceOperator struct{ batch arrow.RecordBatch }

func (o *onceOperator) Schema() *arrow.Schema { return o.batch.Schema() }
func (o *onceOperator) Next(context.Context) (arrow.RecordBatch, error) {
	b := o.batch
	o.batch = nil
	return b, nil
}
func (o *onceOperator) Close() {
	if o.batch != nil {
		o.batch.Release()
		o.batch = nil
	}
}

func savepointVerb(k sql.Kind) string {
	switch k {
	case sql.ReleaseSavepoint:
		return "RELEASE"
	case sql.RollbackToSavepoint:
		return "ROLLBACK"
	}
	return "SAVEPOINT"
}
