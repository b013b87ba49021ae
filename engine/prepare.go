package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Preparing statements: Prepare parses a text into statements (a simple
// query's bound one at a time, lazyStatement), prepareOne binds and plans
// one, routing each kind to its own preparation.

// Prepare parses and binds every statement of text.
func (s *session) Prepare(ctx context.Context, text string, paramOIDs []uint32) ([]pgwire.Statement, error) {
	if err := s.refreshMeta(ctx); err != nil {
		return nil, s.failed(err)
	}
	s.metaFresh = true
	if ps := s.txControl.get(text); ps != nil && len(paramOIDs) == 0 {
		return []pgwire.Statement{ps}, nil
	}
	stmts, err := s.parser.Parse(text)
	if err != nil {
		if se := sqlerr.As(err); se != nil && se.Analysed && s.txStatus == 'E' {
			// PostgreSQL raises it after refusing the statement
			err = sqlerr.TransactionAborted()
		}
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
		if len(paramOIDs) == 0 {
			s.txControl.put(text, ps)
		}
		return append(out, ps), nil
	}
	// Several statements (a simple query): each is bound just before it
	// runs, so that "CREATE TABLE t ...; INSERT INTO t ..." sees the table.
	for _, st := range stmts {
		out = append(out, &lazyStatement{sess: s, parsed: st, declared: declared, source: text})
	}
	return out, nil
}

// txControlCache keeps the statements of the last few texts that were one
// BEGIN, COMMIT or ROLLBACK (with their options), so that the same text
// again is not parsed again. Why: a client sends them as simple queries,
// two per transaction (pgx's Begin and Commit, psycopg's and JDBC's
// autocommit-off blocks), and on a short write transaction their parse and
// statement were a few per cent of the server's CPU. Such a statement
// holds nothing from one execution to the next (its parsed options only),
// and its parse depends on no setting, so one statement serves every
// execution. The cache is the session's, as its parser is.
type txControlCache struct {
	entries [4]txControlEntry
	next    int
}

type txControlEntry struct {
	text string
	ps   *statement
}

// get returns the statement of text, nil when it has none.
func (c *txControlCache) get(text string) *statement {
	for i := range c.entries {
		if e := &c.entries[i]; e.ps != nil && e.text == text {
			return e.ps
		}
	}
	return nil
}

// put keeps ps, prepared from text, when it is a transaction statement.
func (c *txControlCache) put(text string, ps *statement) {
	switch ps.parsed.Kind {
	case sql.Begin, sql.Commit, sql.Rollback:
	default:
		return
	}
	if ps.parsed.DDL != nil || ps.parsed.CurrentOf != nil || ps.sub != nil || ps.file != nil {
		return
	}
	c.entries[c.next] = txControlEntry{text: text, ps: ps}
	c.next = (c.next + 1) % len(c.entries)
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

// prepareOne parses nothing: it binds and plans one parsed statement,
// after the DDL statements holding its tables (awaitStatement). A
// write to a table that ALTER TABLE is rewriting waits for the rewrite
// before it is bound for good (rewritegate.go), as PostgreSQL's parse
// analysis waits for the ACCESS EXCLUSIVE lock: it is bound then against
// the new table, and its RETURNING * describes the new columns.
func (s *session) prepareOne(ctx context.Context, st *sql.Statement, declared []types.T) (*statement, error) {
	for {
		ps, err := s.prepareFresh(ctx, st, declared)
		if err != nil {
			return ps, err
		}
		if s.eng.rewrites.n.Load() > 0 {
			if path, ok := writtenTable(ps.bound); ok && s.eng.rewrites.rewriting(path) {
				if err := s.eng.rewrites.wait(ctx, path); err != nil {
					return nil, err
				}
				continue
			}
		}
		// ddllock.go: bound again if it waited for DDL of its tables
		again, err := s.awaitStatement(ctx, ps)
		if err != nil {
			return nil, err
		}
		if !again {
			return ps, nil
		}
	}
}

func (s *session) prepareFresh(ctx context.Context, st *sql.Statement, declared []types.T) (*statement, error) {
	ps := &statement{sess: s, parsed: st}
	if st.DDL != nil {
		return s.prepareDDL(ctx, ps)
	}
	switch st.Kind {
	case sql.Copy:
		return s.prepareCopy(ctx, st)
	case sql.Savepoint, sql.ReleaseSavepoint, sql.RollbackToSavepoint, sql.PrepareTransaction, sql.CommitPrepared, sql.RollbackPrepared:
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
	if st.ModifyingWith != nil && s.withPrep == nil {
		return s.prepareModifyingWith(ctx, st, declared) // modifyingwith.go
	}
	if st.Sequence != nil || st.Function != nil || st.Type != nil || st.Domain != nil || st.Owner != nil || st.Notify != nil || st.Lock != nil { // sequences.go, pyfunctions.go, enumtypes.go, domains.go, owners.go, notify.go, locktable.go
		return ps, nil
	}
	cat := &recordingCatalog{tables: s.eng.tables, udfs: s.udfs(), meta: s.eng.meta, parse: s.parseView, files: s, with: s.withPrep, hidden: s.hidden}
	// The binder parses literals (a timestamptz without offset is in the
	// session's zone) and folds session functions; the planner folds
	// constants under the session's settings.
	ctx = s.planContext(ctx)
	s.eng.ddl.RLock()
	// The views are read under the lock a REFRESH swaps a materialized
	// view's backing table under: taken before it, the snapshot could
	// name a backing table two refreshes had dropped by the time the
	// binder opened it (the previous one is kept for such readers).
	cat.views = s.eng.meta.Views()
	ps.catalog, ps.searchPath, ps.declared, ps.foldGen = s.eng.catalog.Load(), s.settings["search_path"], declared, s.foldGen
	err := s.viewTarget(st)
	var bound binder.Statement
	if err == nil {
		bctx := ctx
		if ci, ok := s.eng.opts.Virtual.(functions.CatalogInfo); ok {
			// a reg* literal is looked up as it is bound, as PostgreSQL's
			// parser does ('nope'::regclass is 42P01 at the literal)
			bctx = functions.WithCatalog(ctx, ci)
		}
		bound, err = binder.Bind(bctx, cat, st, declared)
	}
	s.eng.ddl.RUnlock()
	if err != nil {
		return nil, err
	}
	ps.bound = bound
	ps.reads = cat.seen
	ps.params = bound.Params()
	if err := ps.lowerBound(ctx, bound); err != nil {
		return nil, err
	}
	return ps, nil
}

// planContext is ctx with the session the binder and the planner read:
// its user, database, settings and TimeZone.
func (s *session) planContext(ctx context.Context) context.Context {
	return functions.WithSession(ctx, functions.Session{User: s.info.User, SchemaUsable: s.usableFn, Database: s.info.Database,
		BackendPID: int32(s.info.ProcessID), Setting: s.Status, Style: &s.parsedStyle, Location: s.location(), TempSchema: s.tempSchemaFn})
}

// lowerBound plans what the bound statement runs (its plans, the
// expressions it evaluates itself) and describes its columns, in the
// session of ctx (planContext), whose settings the constants it folds
// read.
func (ps *statement) lowerBound(ctx context.Context, bound binder.Statement) (err error) {
	switch b := bound.(type) {
	case *binder.Query:
		err = ps.prepareQuery(ctx, b)
	case *binder.Insert, *binder.Update, *binder.Delete, *binder.Merge:
		ps.cols, err = ps.prepareWrite(ctx, b) // write.go
	case *binder.Describe:
		ps.cols = []pgwire.ResultColumn{{Name: "column_name", Type: types.StringType}, {Name: "data_type", Type: types.StringType},
			{Name: "is_nullable", Type: types.StringType}, {Name: "key", Type: types.StringType}}
	case *binder.CreateTable:
		if b.Source != nil {
			ps.plan, err = lower.PlanIn(ctx, b.Source)
		}
	case *binder.Explain:
		err = ps.prepareExplain(ctx, b)
	}
	return err
}

// refold plans the bound statement again when a setting its folded
// constants may have read changed since it was planned (foldGen): a
// float's text folded under one extra_float_digits is not the text
// under another. It is not bound again: its literals keep the
// DateStyle they were read under, as PostgreSQL keeps a prepared
// statement's parse tree and plans it anew. (PostgreSQL reuses a
// generic plan, one with no parameters among them, whatever SET did
// since; sqlgate plans as a custom plan always would.)
func (ps *statement) refold(ctx context.Context) error {
	s := ps.sess
	if ps.with != nil {
		return ps.replan(ctx) // its WITH queries were planned with the binding
	}
	if err := ps.lowerBound(s.planContext(ctx), ps.bound); err != nil {
		return err
	}
	ps.foldGen = s.foldGen
	return nil
}

// tableOID is the OID a table shows to PostgreSQL clients.
func tableOID(id int64) uint32 {
	if id == 0 {
		return 0
	}
	return uint32(16384 + id)
}

// prepareQuery plans a query and describes its rows; a locking clause
// names the table whose rows it locks (rowlocks.go).
func (ps *statement) prepareQuery(ctx context.Context, b *binder.Query) (err error) {
	if ps.plan, err = lower.PlanWith(b.Plan, lower.Options{Ctx: ctx, Stats: ps.sess.eng.tables}); err != nil {
		return err
	}
	// a query has a row description even with no columns (SELECT FROM t)
	ps.cols = make([]pgwire.ResultColumn, 0, len(b.Plan.Columns()))
	for _, c := range b.Plan.Columns() {
		ps.cols = append(ps.cols, pgwire.ResultColumn{Name: c.Name, Type: c.T, TableOID: tableOID(c.TableID), ColumnNumber: int16(c.Ordinal)})
	}
	if info, ok := binder.LockedTable(b.Plan); ok {
		ps.locked = &info
	}
	return nil
}

// prepareExplain plans what EXPLAIN explains: a query, or a write's rows
// (explainwrite.go).
func (ps *statement) prepareExplain(ctx context.Context, b *binder.Explain) (err error) {
	switch inner := b.Statement.(type) {
	case *binder.Query:
		if ps.plan, err = lower.PlanWith(inner.Plan, lower.Options{Ctx: ctx, Stats: ps.sess.eng.tables}); err != nil {
			return err
		}
	case *binder.Insert, *binder.Update, *binder.Delete, *binder.Merge:
		if ps.writeCols, err = ps.prepareWrite(ctx, inner); err != nil {
			return err
		}
	default:
		return sqlerr.NotSupported("EXPLAIN of this statement")
	}
	ps.cols = []pgwire.ResultColumn{{Name: "QUERY PLAN", Type: types.StringType}}
	return nil
}
