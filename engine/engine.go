package engine

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/notify"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// Version is sqlgate's version, reported by `sqlgate version` and version().
const Version = "0.1.0"

// ServerVersion is the PostgreSQL version sqlgate speaks for.
const ServerVersion = "15.8"

// Options configure an Engine.
type Options struct {
	Logger *slog.Logger
	// Mem allocates Arrow buffers; nil = Go allocator.
	Mem memory.Allocator
	// QueryMemoryLimit bounds the bytes one query's operators hold before
	// they spill (or fail with 53200); 0 = 1 GiB.
	QueryMemoryLimit int64
	// TransactionMemoryLimit bounds the bytes of uncommitted writes a
	// transaction (or one write statement, or a COPY) holds in memory
	// until it commits (53200 beyond); 0 = 4 GiB.
	TransactionMemoryLimit int64
	// TransactionSpillBytes is the size of uncommitted writes from which
	// a transaction's plain writes to one table are staged on disk by the
	// store instead (txnstore/spill.go): 0 = 64 MiB, negative = never.
	TransactionSpillBytes int64
	// SpillDir is where operators spill; "" = the system's temporary directory.
	SpillDir string
	// Virtual serves pg_catalog and information_schema; nil: none.
	Virtual VirtualTables
	// Roles tells superusers from other roles; nil: AllSuperusers.
	Roles Roles
	// UDFs are the Go UDFs SQL may call; nil: none.
	UDFs *udf.Registry
	// Python runs the functions CREATE FUNCTION ... LANGUAGE python makes
	// (pyfunctions.go); nil: a pool with pyudf's defaults.
	Python *pyudf.Pool
	// Meta holds the views, table owners and grants (and the users, which
	// Roles may read from it); nil: kept in memory only.
	Meta Metadata
	// Locks bounds the row-lock manager (used when the store is
	// fluss.RowLockable).
	Locks rowlock.Options
	// Settings are the server's defaults of session settings, over the
	// built-in ones (log_min_duration_statement from the command line).
	Settings map[string]string
	// CopyProgress receives the progress of file COPYs
	// (pg_stat_progress_copy; copyprogress.go); nil: not reported.
	CopyProgress CopyProgress
	// FileDir is the directory server-side COPY and read_parquet /
	// read_csv may use (copyfile.go); nil: server-side files are off.
	FileDir *fileio.Dir
	// Types is the store's registry of user-defined types, shared with
	// the catalog that lists them (pgcatalog.Options.Types); nil: the
	// engine makes its own (Engine.Types).
	Types *types.Registry
}

// Engine runs SQL against a store. It is safe for concurrent sessions.
type Engine struct {
	// enumsPublished and domainsPublished are the versions of the
	// metadata's enum types and domains last published to types'
	// registries (enumtypes.go, domains.go).
	enumsPublished   atomic.Pointer[publication[*meta.Types]]
	domainsPublished atomic.Pointer[publication[*meta.Domains]]
	// compositesPublished is the version of the composite types
	// (compositetypes.go) last published to the store's registry.
	compositesPublished atomic.Pointer[publication[*meta.Types]]
	// typeReg is the store's registry of user-defined types (Options.Types,
	// else the engine's own): the engine publishes its enums, domains and
	// composites there, and the binder a table's row type.
	typeReg *types.Registry
	// domainValidators is the validator of each published domain's
	// current version by OID (domains.go: a domain over another reuses
	// the lowered CHECKs of the one underneath).
	domainValidators sync.Map // uint32 -> *domainValidator
	// matviewMu serialises the statements that create or sweep
	// materialized views' backing tables (matview.go), so that a sweep
	// never takes a table another statement is filling.
	matviewMu sync.Mutex

	store fluss.Store
	log   *slog.Logger
	mem   memory.Allocator
	opts  Options
	// tables resolves names for the binder and the executor.
	tables tables
	// runtime is tables as lower.Tables, boxed once: a statement outside a
	// transaction reads through it (session.runtimeTables).
	runtime lower.Tables
	// ddl serialises catalog changes against statements that read the
	// catalog twice (bind, then open).
	ddl   sync.RWMutex
	roles Roles
	meta  Metadata

	// catalog counts catalog changes (bumped under ddl's write lock): a
	// prepared statement bound at another count is bound and planned again
	// before it runs (statement.replan), as PostgreSQL's plan cache does.
	catalog atomic.Uint64
	// fkeys is the store's foreign keys, built once per catalog count and
	// shared by the sessions (fkindex.go).
	fkeys fkIndexCache
	// rewrites are the tables ALTER TABLE is rewriting, whose writers
	// wait for the new table (rewritegate.go).
	rewrites rewriteGates
	// rewriteCopied, when set (by the internal tests), runs after a
	// rewrite's copy, before its swap: a test holds a rewrite there to see
	// what other sessions do meanwhile.
	rewriteCopied func()
	// rewriteStep, when set (by the internal tests), runs after each step
	// of a rewrite's swap and follow-ups (rewritefollow.go): a test kills
	// the server there.
	rewriteStep func(step string)

	// locks is the row-lock manager of every session; nil when the store
	// cannot be locked by this server alone (then read-modify-write
	// statements are refused, see lockedWrites).
	locks *rowlock.Manager

	// pyReg is the registry of the Go UDFs and the stored functions, by
	// the functions' version (pyfunctions.go).
	pyReg atomic.Pointer[pyRegistry]

	// notifyHub delivers the sessions' NOTIFYs to their LISTENs
	// (notify.go).
	notifyHub *notify.Hub
}

// New returns an engine over store.
func New(store fluss.Store, opts Options) *Engine {
	if opts.QueryMemoryLimit <= 0 {
		opts.QueryMemoryLimit = 1 << 30
	}
	if opts.TransactionMemoryLimit <= 0 {
		opts.TransactionMemoryLimit = 4 << 30
	}
	if opts.SpillDir == "" {
		opts.SpillDir = os.TempDir()
	}
	e := &Engine{store: store, log: opts.Logger, mem: opts.Mem, opts: opts, tables: tables{store: store, virtual: opts.Virtual}, typeReg: opts.Types}
	if e.typeReg == nil {
		e.typeReg = types.NewRegistry()
	}
	e.tables.engineTypes = engineTypes{e}
	e.tables.schemas = &schemaCache{counter: &e.catalog}
	e.runtime = e.tables
	e.notifyHub = notify.NewHub()
	if rl, ok := store.(fluss.RowLockable); ok && rl.RowLocksSerializeWriters() {
		e.locks = rowlock.New(opts.Locks)
	}
	if e.log == nil {
		e.log = slog.Default()
	}
	if e.mem == nil {
		// kernel outputs released after a batch are recycled for the next
		// one instead of being allocated and zeroed again (exec.PoolAllocator)
		e.mem = exec.NewPoolAllocator(64 << 20)
	}
	if e.opts.Python == nil {
		e.opts.Python = pyudf.NewPool(pyudf.Config{}) // starts no process until a call
	}
	e.roles = opts.Roles
	if e.roles == nil {
		e.roles = AllSuperusers{}
	}
	e.meta = opts.Meta
	if e.meta == nil {
		e.meta = meta.Memory()
	}
	e.dropStaleTempSchemas()
	e.finishRewrites()        // rewritefollow.go: before the sweep, which they leave nothing to
	e.finishFollowUps()       // followups.go: a rename's tables' texts
	e.dropUncommittedTables() // txddl.go: a crashed block's tables
	e.dropOrphanIndexTables() // uniqueddl.go
	return e
}

// NewSession implements pgwire.Backend.
func (e *Engine) NewSession(ctx context.Context, info pgwire.SessionInfo) (pgwire.Session, error) {
	s := &session{
		eng:      e,
		parser:   sql.NewParser(),
		info:     info,
		txStatus: 'I',
		changed:  map[string]string{},
	}
	s.settings = s.defaults()
	s.parsedStyle = s.parseStyle()
	// the executor reads settings from its workers too (a parallel
	// aggregation's current_setting): the memo's writes are the session
	// goroutine's alone, so the executor's lookup does without it
	s.statusFn, s.setFn, s.preparedFn = s.status, s.setConfig, s.preparedStatements
	s.cursorsFn, s.usableFn, s.queryFn = s.listCursors, s.schemaUsable, s.functionQuery
	s.tempSchemaFn = s.sessionTempSchema
	s.warnFn = s.warn
	s.advisory.s = s
	s.parser.SetDatabase(info.Database) // db.schema.table names (sql/catalogs.go)
	if err := e.loginRole(ctx, info.User); err != nil {
		return nil, err
	}
	_, s.superuser = e.roles.Role(info.User)
	if !s.superuser {
		s.settings["is_superuser"] = "off"
	}
	return s, nil
}
