package engine

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
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
	eng *Engine
	// withPrep is the data-modifying WITH queries of the statement being
	// prepared, withSnap the snapshot of the one running
	// (modifyingwith.go); nil when there is none.
	withPrep *modifyingWith
	withSnap *withSnapshot
	// checks caches the CHECK constraints of the tables the session
	// writes (coldefs.go cachedChecks).
	checks map[int64]checksEntry
	// fkq is the foreign keys' queued events (fk.go).
	fkq fkQueue
	// Settings every statement or write reads, parsed once per value:
	// the backend setting (backend.go) and the lock timeouts
	// (rowlocks.go startLocking).
	backendSeen                  parsedBackend
	lockTimeout, deadlockTimeout pgwire.DurationSetting
	parser                       *sql.Parser
	info                         pgwire.SessionInfo
	// settings are the session's settings by lower-case name; every
	// change after NewSession goes through setSetting.
	settings map[string]string
	// memo holds the answers of setting for the names asked most (pgwire
	// asks for TimeZone and the timeouts at every message, the engine for
	// search_path, the backend and the isolation at every statement),
	// valid while settingsGen, which setSetting advances, is unchanged.
	memo        [settingMemos]settingMemo
	memoNext    int
	settingsGen uint64
	// foldGen advances when a setting that folded constants read changes
	// (foldSetting): a prepared statement planned before is planned
	// again (statement.refold).
	foldGen uint64
	// parsedStyle is style() of the settings, parsed again by setSetting
	// when DateStyle, IntervalStyle or extra_float_digits changes; the
	// functions read it through Session.Style instead of parsing the
	// settings per value.
	parsedStyle types.Style
	changed     map[string]string
	// savedSettings are the values SET and SET LOCAL replaced in the
	// open transaction, for its end or a savepoint's to restore
	// (settingstack.go).
	savedSettings settingStack
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
	// statusFn and setFn are s.status (Status without its memo, which only
	// the session goroutine may write) and s.setConfig as func values,
	// made once: every execution hands them to the session functions,
	// and a method value allocates each time it is taken.
	statusFn   func(string) (string, bool)
	setFn      func(name, value string, reset, local bool) (string, error)
	preparedFn func() []functions.PreparedStatement                      // s.preparedStatements
	cursorsFn  func() []functions.Cursor                                 // s.listCursors
	usableFn   func(schema string) bool                                  // s.schemaUsable
	queryFn    func(context.Context, string) ([]types.T, [][]any, error) // s.functionQuery
	// rowLocks owns the row locks of the session's transactions (nil
	// until the first write, or when the store takes no row locks), and
	// their advisory locks; advisory, the session's advisory locks
	// (advisory.go).
	rowLocks *rowlock.Txn
	advisory advisoryLocks
	// hidden is the tables and views the open transaction block dropped,
	// which it drops at COMMIT (tablestmts.go dropInBlock): gone for this
	// session only. nil: none.
	hidden map[fluss.TablePath]bool
	// blockDrops is the block's DROP TABLE statements left to its COMMIT.
	blockDrops []*blockDrop
	// notices are what functions raised while the statement ran, for
	// pgwire to send (warn, TakeNotices); warnFn is s.warn made once.
	noticeMu sync.Mutex
	notices  []*sqlerr.Error
	warnFn   func(*sqlerr.Error)
	// random is the session's random() generator, which setseed seeds.
	random functions.Random
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
	// tempFns are the session's temporary functions (tempfunctions.go).
	tempFns      tempFunctions
	tempSchemaFn func() string // s.sessionTempSchema
	// stmtText is the running statement's text, for lock reports.
	stmtText string
	// undoing: a ROLLBACK is undoing the block's DDL (txddl.go
	// undoChanges), whose inverse statements are no block's.
	undoing bool
	// undoBlock is the block whose ROLLBACK TO SAVEPOINT is undoing its
	// DDL (s.tx is nil meanwhile): a rename back moves its rows too
	// (followRename).
	undoBlock *txn
	// metaFresh: Prepare refreshed the metadata (metadata.go), so the
	// Execute that follows need not look again.
	metaFresh bool
	// seqs serves nextval, currval, setval and lastval (sequences.go).
	seqs sessionSequences
	// cursors are the open SQL cursors (cursors.go).
	cursors cursorSet
	// txControl are the transaction statements parsed lately (prepare.go).
	txControl txControlCache
	// ntf is the session's LISTEN / NOTIFY (notify.go).
	ntf sessionNotify
}

func (s *session) TxStatus() byte { return s.txStatus }

// Close ends the session; an open transaction is rolled back, and so is
// an implicit one a pipeline left without its Sync.
func (s *session) Close() {
	s.cursors.closeAll()
	s.endTxn()
	s.dropImplicit()
	s.advisory.UnlockAllAdvisory()
	if s.rowLocks != nil {
		// whatever the session held, however its last statement ended
		// (a pipeline cut off before its Sync leaves s.held set)
		s.rowLocks.Release(false)
	}
	s.dropTempSchema()
	s.closeNotifications() // notify.go
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
	if v, ok, hit := s.memoized(name); hit {
		return v, ok
	}
	v, ok := s.status(name)
	s.memoize(name, v, ok)
	return v, ok
}

// settingMemos is how many names setting remembers answers for.
const settingMemos = 16

// settingMemo is a remembered answer of Status for name, made when the
// settings' generation was gen.
type settingMemo struct {
	name string
	gen  uint64
	v    string
	ok   bool
}

// memoized is Status's remembered answer for name, if any, which holds
// only while no setting changed since. The few names asked for again and
// again are told apart by their lengths mostly: cheaper than hashing name
// for a map index (and lowering it) each time.
func (s *session) memoized(name string) (v string, ok, hit bool) {
	for i := range s.memo {
		m := &s.memo[i]
		if len(m.name) == len(name) && m.gen == s.settingsGen && m.name == name && m.name != "" {
			return m.v, m.ok, true
		}
	}
	return "", false, false
}

// memoize remembers Status's answer for name (round robin over the
// slots), under a copy of name: a caller's string may alias memory that
// is written again (a reused record's).
func (s *session) memoize(name, v string, ok bool) {
	if name == "" {
		return
	}
	for i := range s.memo {
		// a name remembered under an older generation takes its new
		// answer in its own slot: no second copy of the name, no stale one
		if m := &s.memo[i]; m.name == name {
			m.gen, m.v, m.ok = s.settingsGen, v, ok
			return
		}
	}
	s.memo[s.memoNext] = settingMemo{name: strings.Clone(name), gen: s.settingsGen, v: v, ok: ok}
	s.memoNext = (s.memoNext + 1) % settingMemos
}

// setting is the value of the setting with lower-case name ("" when
// unset), remembered as Status's answers are.
func (s *session) setting(name string) string {
	v, _ := s.Status(name)
	return v
}

// setSetting changes one setting, forgetting Status's remembered answers
// when it changes.
func (s *session) setSetting(name, v string) {
	if old, ok := s.settings[name]; ok && old == v {
		return
	}
	s.settings[name] = v
	s.settingsGen++
	if foldSetting(name) {
		s.foldGen++
		if name != "timezone" {
			s.parsedStyle = s.parseStyle()
		}
	}
}

// foldSetting reports whether the planner's folded constants may read the
// setting: what the text of a value and a date read from text depend on
// (functions.StyleOf and LocationOf).
func foldSetting(name string) bool {
	switch name {
	case "datestyle", "intervalstyle", "extra_float_digits", "timezone":
		return true
	}
	return false
}

// status is Status without the memo.
func (s *session) status(name string) (string, bool) {
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

// statement is a prepared statement.
type statement struct {
	sess   *session
	parsed *sql.Statement
	bound  binder.Statement
	plan   lower.Node
	merge  []exec.Expr // ON CONFLICT DO UPDATE
	// mergeWhere is DO UPDATE's WHERE (nil when none).
	mergeWhere exec.Expr
	// locked is the table a SELECT ... FOR UPDATE (or FOR SHARE ...) locks.
	locked *fluss.TableInfo
	ret    []exec.Expr // INSERT ... RETURNING
	// viewChecks are the check options of the views an INSERT or UPDATE
	// writes through (binder/viewcheck.go).
	viewChecks []exec.ViewCheck
	params     []types.T
	cols       []pgwire.ResultColumn
	// reads are the stored tables the statement resolved (privileges.go).
	reads []tableRef
	// What the bound plan depends on besides the text (replan): the
	// catalog count and search_path it was bound at, the declared
	// parameter types.
	catalog    uint64
	searchPath string
	declared   []types.T
	// foldGen is the session's foldGen when the statement was planned:
	// its folded constants read the settings then (refold).
	foldGen uint64
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
	// generate computes a COPY FROM's generated columns (generated.go).
	generate func(cols []arrow.Array, rows int64) error
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
	// with is the statement's data-modifying WITH queries
	// (modifyingwith.go).
	with *modifyingWith
	// mergePlans are a MERGE's actions (merge.go).
	mergePlans *mergePlans
	// recheckPlan is a joined UPDATE's or DELETE's recheck
	// (binder.Recheck, rowlocks.go).
	recheckPlan lower.Node
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
	switch {
	case ps.sub != nil:
		return s.execSubscribe(ctx, ps) // subscribe.go
	case ps.parsed.DDL != nil:
		res, err := s.execDDL(ctx, ps, params) // ddlstmts.go
		return res, s.relationsAsWritten(ctx, err, ps.parsed.DDL)
	case ps.parsed.CurrentOf != nil:
		return s.execCurrentOf(ctx, ps, params) // currentof.go
	case ps.file != nil:
		return s.execCopyFile(ctx, ps, params) // copyfile.go
	}
	// The statements that never reach the binder. In a failed block only
	// those that end it run (PostgreSQL's IsTransactionExitStmt: COMMIT,
	// ROLLBACK, ROLLBACK TO, PREPARE TRANSACTION); the others fail 25P02.
	switch ps.parsed.Kind {
	case sql.Set, sql.Reset, sql.Show, sql.Discard, sql.Deallocate, sql.Begin, sql.Savepoint, sql.ReleaseSavepoint:
		if s.txStatus == 'E' {
			return nil, sqlerr.TransactionAborted()
		}
	}
	switch ps.parsed.Kind {
	case sql.Set, sql.Reset:
		if c := ps.parsed.Set.Constraints; c != nil {
			return s.setConstraints(ctx, c) // fk.go
		}
		return s.execSet(ps.parsed.Set) // setshow.go
	case sql.Show:
		return s.execShow(ps.parsed.Show) // setshow.go
	case sql.Begin:
		return s.execBegin(ps.parsed.Tx) // txcontrol.go
	case sql.Commit:
		return s.execCommit(ctx, ps.parsed.Tx) // txcontrol.go
	case sql.Rollback:
		return s.execRollback(ctx, ps.parsed.Tx) // txcontrol.go
	case sql.Discard:
		return s.execDiscard(ps.parsed.Discard) // txcontrol.go
	case sql.Savepoint, sql.ReleaseSavepoint, sql.RollbackToSavepoint:
		return s.execSavepoint(ctx, ps.parsed.Kind, ps.parsed.Tx) // txcontrol.go
	case sql.PrepareTransaction:
		return s.execPrepareTransaction(ctx) // txcontrol.go
	case sql.CommitPrepared, sql.RollbackPrepared:
		return s.execFinishPrepared(ps.parsed.Kind, ps.parsed.Tx.GID) // txcontrol.go
	case sql.Deallocate:
		return s.deallocate(ps.parsed.Deallocate) // sqlprepare.go
	case sql.Grant, sql.Revoke:
		if s.txStatus == 'E' {
			return nil, sqlerr.TransactionAborted()
		}
		return s.execGrant(ctx, ps.parsed.Grant) // privileges.go
	case sql.Role:
		if s.txStatus == 'E' {
			return nil, sqlerr.TransactionAborted()
		}
		return s.execRole(ctx, ps.parsed.Role) // roles.go
	}
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	if ps.parsed.Sequence != nil {
		return s.execSequence(ctx, ps.parsed.Sequence) // sequences.go
	}
	if ps.parsed.Function != nil {
		return s.execFunction(ctx, ps.parsed) // pyfunctions.go
	}
	if ps.parsed.Type != nil {
		return s.execType(ctx, ps.parsed.Type) // enumtypes.go
	}
	if ps.parsed.Domain != nil {
		return s.execDomain(ctx, ps.parsed.Domain) // domains.go
	}
	if ps.parsed.Owner != nil {
		return s.execOwner(ctx, ps.parsed.Owner) // owners.go
	}
	if ps.parsed.Notify != nil {
		return s.execNotify(ps.parsed.Kind, ps.parsed.Notify) // notify.go
	}
	if ps.parsed.Lock != nil {
		return s.execLock(ctx, ps.parsed.Lock) // locktable.go
	}
	return s.execBound(ctx, ps, params)
}

// execBound runs a statement the binder bound: it rebinds it if the
// catalog or search_path changed, checks privileges, builds the
// execution's state (parameters, the statement's clock and session
// functions, the backend request, the runtime) and routes it to the
// handler of its kind.
func (s *session) execBound(ctx context.Context, ps *statement, params []any) (_ pgwire.Result, err error) {
	if err := s.firstQuery(ctx); err != nil {
		return nil, err
	}
	// One allocation for the execution's state: a prepared point lookup
	// runs this per Execute.
	st := &execState{}
	var res pgwire.Result
	defer func() {
		// Outside a transaction the statement's table locks end with it:
		// with its result, when it streams one (queryResult.Close).
		if s.rowLocks == nil || s.locksOutlastStatement() {
			return
		}
		if err == nil && res == pgwire.Result(&st.res) {
			st.res.unlock = s
			return
		}
		s.releaseStatementLocks()
	}()
	if s.eng.rewrites.n.Load() > 0 {
		if path, ok := writtenTable(ps.bound); ok {
			if err := s.eng.rewrites.wait(ctx, path); err != nil { // rewritegate.go
				return nil, err
			}
		}
	}
	if err := s.lockStatement(ctx, ps); err != nil { // ddllock.go: a statement holds its tables before it runs
		return nil, err
	}
	if ps.bound != nil && (ps.catalog != s.eng.catalog.Load() || ps.searchPath != s.setting("search_path")) {
		if err := ps.replan(ctx); err != nil {
			return nil, err
		}
	} else if ps.bound != nil && ps.foldGen != s.foldGen {
		if err := ps.refold(ctx); err != nil { // prepare.go
			return nil, err
		}
	}
	if err := s.authorize(ps); err != nil {
		return nil, err
	}
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
	ctx = st.fctx.Init(ctx, functions.Clock{TransactionStart: s.txStart, StatementStart: now}, ci,
		functions.Session{User: s.info.User, SchemaUsable: s.usableFn, Database: s.info.Database, BackendPID: int32(s.info.ProcessID), Setting: s.statusFn, Style: &s.parsedStyle, Location: loc, SetSetting: s.setFn,
			SSL: functions.SSLStatusOf(s.info.TLS), Sequences: &s.seqs, Prepared: s.preparedFn, Cursors: s.cursorsFn,
			Advisory: &s.advisory, Warn: s.warnFn, Random: &s.random, Notifications: s,
			ClientAddr: s.info.RemoteAddr, ServerAddr: s.info.LocalAddr, Query: s.queryFn, TempSchema: s.tempSchemaFn})
	backend, err := ps.backend(&st.req)
	if err != nil {
		return nil, err
	}
	ec, rt := &st.ec, &st.rt
	*ec = exec.EvalContext{Ctx: ctx, Mem: s.eng.mem, Params: values, Backend: backend.Default, Families: backend.Families}
	st.mem.Init(s.eng.opts.QueryMemoryLimit)
	*rt = lower.Runtime{Ctx: ctx, Tables: s.runtimeTables(), EC: ec, Backends: backend,
		Mem: &st.mem, SpillDir: s.eng.opts.SpillDir,
		Untransacted: s.tx == nil && s.implicit == nil}
	rt.CTEs, rt.Scratch = &st.ctes, &st.scratch
	ec.Env = rt
	// The execution's WITH query rows last until it ends: here, unless
	// its rows are streamed (a query's result, &st.res), when the result
	// frees them once closed.
	defer func() {
		if res != pgwire.Result(&st.res) {
			rt.Close()
		}
	}()
	res, err = s.runBound(ctx, ps, st, backend)
	if err == nil {
		err = s.fkEndStatement(ctx) // fk.go
	}
	if err != nil {
		s.fkDropStatement()
	}
	return res, err
}

// runBound routes a bound statement to the handler of its kind.
func (s *session) runBound(ctx context.Context, ps *statement, st *execState, backend *exec.BackendRequest) (pgwire.Result, error) {
	if ps.with != nil && s.withSnap == nil {
		return s.runModifyingWith(ctx, ps, st, backend) // modifyingwith.go
	}
	switch b := ps.bound.(type) {
	case *binder.Query:
		return s.execQuery(ctx, ps, st) // query.go
	case *binder.Describe:
		return describeResult(s.eng, b.Table), nil // ddl.go
	case *binder.Explain:
		return s.execExplain(ctx, ps, b, &st.rt, backend) // query.go
	case *binder.Insert, *binder.Update, *binder.Delete, *binder.Merge:
		res, _, err := s.runWrite(ctx, ps, b, &st.rt, &st.ec, ps.returned(), &st.recheck) // write.go
		return res, err
	case *binder.CreateTable:
		return s.execCreateTable(ctx, ps, b, &st.rt, &st.ec) // tablestmts.go
	case *binder.CreateView:
		return s.createView(ctx, b) // views.go
	case *binder.DropView:
		return s.dropView(ctx, b, sql.DropCascade(ps.parsed)) // views.go
	case *binder.DropTable:
		return s.execDropTable(ctx, ps, b) // tablestmts.go
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
		return cachedPlanChanged()
	}
	ps.bound, ps.plan, ps.merge, ps.ret, ps.reads, ps.locked = fresh.bound, fresh.plan, fresh.merge, fresh.ret, fresh.reads, fresh.locked
	ps.mergeWhere, ps.viewChecks = fresh.mergeWhere, fresh.viewChecks
	ps.catalog, ps.searchPath, ps.with, ps.mergePlans = fresh.catalog, fresh.searchPath, fresh.with, fresh.mergePlans
	ps.recheckPlan = fresh.recheckPlan
	ps.foldGen, ps.writeCols = fresh.foldGen, fresh.writeCols
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

// convertParams converts the wire's decoded parameters to the physical
// values of the parameters' types, appended to dst (the execution's
// buffer, used when the parameters fit).
func (s *session) convertParams(ctx context.Context, dst, in []any, ts []types.T, loc *time.Location) ([]any, error) {
	out := slices.Grow(dst[:0], len(ts))[:len(ts)]
	st := s.style()
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
		v, err := paramValue(in[i], ts[i], loc, st)
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
