package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/flightsql"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/metrics"
	"github.com/sqlgate/sqlgate/pgcatalog"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/server/activity"
	"github.com/sqlgate/sqlgate/server/stmtlog"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
	"github.com/sqlgate/sqlgate/views"
)

// Config configures a server.
type Config struct {
	// Listen is the address to listen on (HOST:PORT; port 0 picks a free one).
	Listen string
	// DataDir is the embedded store's directory (created if missing). With
	// Fluss set it holds only spill files (the metadata lives in the
	// cluster, see package meta).
	DataDir string
	// Fluss, when set, serves the tables of a Fluss cluster (fluss/remote)
	// instead of the embedded store.
	Fluss  *remote.Config
	Logger *slog.Logger
	// MaxConnections bounds concurrent sessions (0 = 100).
	MaxConnections int
	// MaxConnectionsPerUser bounds one user's concurrent sessions (0 = no limit).
	MaxConnectionsPerUser int
	// MaxRowSize bounds a result row's encoded size in bytes (0 = 1 GiB).
	MaxRowSize int
	// Auth is how clients authenticate (zero value: trust).
	Auth pgwire.AuthConfig
	// TLS, when set, lets clients use TLS; RequireTLS refuses plaintext.
	TLS        *tls.Config
	RequireTLS bool
	// UDFs are Go functions SQL may call by name (package udf); Start
	// takes a copy, so fill the registry before. nil: none.
	UDFs *udf.Registry
	// QueryMemoryLimit bounds the bytes one query's operators hold before
	// they spill (0 = 1 GiB). The process's Go soft memory limit should
	// follow it (relop.ApplyGoMemoryLimit; cmd/sqlgate sets it).
	QueryMemoryLimit int64
	// FlightListen, when set, also serves Arrow Flight SQL (package
	// flightsql) on this address, with the same users, TLS and limits.
	FlightListen string
	// MetricsListen, when set, serves Prometheus metrics (/metrics),
	// /healthz and /readyz over HTTP on this address (package metrics).
	MetricsListen string
	// LogMinDurationStatement is the default of the sessions'
	// log_min_duration_statement ("" = -1: no slow-query log; "0" logs
	// every statement; "250ms" ...), PostgreSQL's meaning (server/stmtlog).
	LogMinDurationStatement string
	// LogParameters logs the parameter values of logged statements.
	LogParameters bool
	// FileDir, when set, is the one directory superusers' server-side
	// COPY and read_parquet / read_csv may use (package fileio); unset,
	// server-side files are off.
	FileDir string
	// Python configures the worker processes that run CREATE FUNCTION
	// ... LANGUAGE python functions (package pyudf; zero value: python3
	// or $SQLGATE_PYTHON, 2 workers, 4 GiB each).
	Python pyudf.Config
	// ColumnarMinRows is the embedded store's table size from which full
	// scans of a primary-key table are served from its columnar image
	// (embedded.Options.ColumnarMinRows: 0 = 65536, negative = never; 1
	// puts every such table on the columnar path, as the sqllogictest
	// run with --columnar-min-rows 1 does).
	ColumnarMinRows int64
}

// Server is a running sqlgate.
type Server struct {
	store    fluss.Store
	wire     *pgwire.Server
	listener net.Listener
	flight   *flightsql.Server
	flightLn net.Listener
	// metrics is the --metrics-listen endpoint (nil without); stopping
	// makes /readyz answer 503 while the sessions end.
	metrics  *metrics.HTTPServer
	stopping atomic.Bool
	python   *pyudf.Pool
	done     chan error
	stopOnce sync.Once
	stopErr  error
}

// Start opens the store and starts serving. It returns once the listener is
// bound, so a client may connect immediately.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	udfs, err := checkUDFs(cfg.UDFs)
	if err != nil {
		return nil, err
	}
	settings, err := serverSettings(cfg)
	if err != nil {
		return nil, err
	}
	var mx *metrics.Metrics
	if cfg.MetricsListen != "" {
		mx = metrics.New(metrics.Options{SpillDir: filepath.Join(cfg.DataDir, "tmp")})
	}
	var fileDir *fileio.Dir
	if cfg.FileDir != "" {
		if fileDir, err = fileio.OpenDir(cfg.FileDir); err != nil {
			return nil, fmt.Errorf("file directory: %w", err)
		}
	}
	store, err := openStore(ctx, cfg, log, mx)
	if err != nil {
		return nil, err
	}
	spill := filepath.Join(cfg.DataDir, "tmp")
	if err := os.MkdirAll(spill, 0o700); err != nil {
		store.Close()
		return nil, fmt.Errorf("create spill directory: %w", err)
	}
	md, err := openMeta(ctx, cfg, store)
	if err != nil {
		store.Close()
		return nil, err
	}
	roles := rolesOf(cfg.Auth, md, log)
	if cfg.Auth.RequiresPassword() {
		cfg.Auth.Users = md // users are looked up where CREATE ROLE keeps them
	}
	locks := &engineLocks{}
	sessions := activity.New(roles, locks) // pg_stat_activity, pg_cancel_backend (server/activity)
	observer := observers{sessions, stmtlog.New(stmtlog.Options{Logger: log, LogParameters: cfg.LogParameters})}
	if mx != nil {
		observer = append(observer, mx)
	}
	var eng *engine.Engine
	// the store's user-defined types: the engine publishes them, the
	// catalog lists them
	typeReg := types.NewRegistry()
	catalog := pgcatalog.New(store, pgcatalog.Options{Types: typeReg, ServerVersion: engine.ServerVersion, Version: engine.Version,
		Roles: catalogRoles{md: md}, Views: md, ViewUpdatability: func(ctx context.Context, v views.View) (bool, []bool) { return eng.ViewUpdatability(ctx, v) },
		Locks: locks, Activity: sessions, UDFs: func() *udf.Registry { return eng.UDFs() },
		EnumTypes: func() []*types.EnumType { return eng.EnumTypeDefs() }, Domains: func() []*types.Domain { return eng.DomainDefs() },
		CompositeTypes: func() []*types.CompositeType { return eng.CompositeTypeDefs() }})
	python := pyudf.NewPool(cfg.Python)
	eng = engine.New(store, engine.Options{Logger: log, SpillDir: spill, QueryMemoryLimit: cfg.QueryMemoryLimit, Roles: roles, Meta: md, Virtual: catalog, UDFs: udfs,
		Settings: settings, CopyProgress: sessions, FileDir: fileDir, Python: python, Types: typeReg})
	locks.eng = eng
	wire := pgwire.NewServer(pgwire.Config{
		Backend:               eng,
		Logger:                log,
		MaxConnections:        cfg.MaxConnections,
		MaxConnectionsPerUser: cfg.MaxConnectionsPerUser,
		MaxRowSize:            cfg.MaxRowSize,
		ServerVersion:         engine.ServerVersion,
		Auth:                  cfg.Auth,
		TLS:                   cfg.TLS,
		RequireTLS:            cfg.RequireTLS,
		Observer:              observer,
	})
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	s := &Server{store: store, wire: wire, listener: ln, python: python, done: make(chan error, 1)}
	if mx != nil {
		if err := s.startMetrics(cfg.MetricsListen, mx); err != nil {
			ln.Close()
			store.Close()
			return nil, err
		}
	}
	if cfg.FlightListen != "" {
		if err := s.startFlight(cfg, eng, log, observers{sessions}); err != nil { // in pg_stat_activity too
			ln.Close()
			store.Close()
			return nil, err
		}
	}
	go func() { s.done <- wire.Serve(context.WithoutCancel(ctx), ln) }()
	return s, nil
}

// openStore opens the embedded store in the data directory, or connects to
// the Fluss cluster cfg.Fluss names (creating the data directory for what
// sqlgate keeps beside it).
func openStore(ctx context.Context, cfg Config, log *slog.Logger, mx *metrics.Metrics) (fluss.Store, error) {
	if cfg.Fluss == nil {
		opts := embedded.Options{Logger: log, ColumnarMinRows: cfg.ColumnarMinRows}
		if mx != nil {
			opts.Syncer = mx.Syncer(nil) // every fsync timed (sqlgate_store_sync_duration_seconds)
		}
		store, err := embedded.Open(cfg.DataDir, opts)
		if err != nil {
			return nil, fmt.Errorf("open data directory %s: %w", cfg.DataDir, err)
		}
		return store, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	store, err := remote.OpenStore(cctx, *cfg.Fluss)
	if err != nil {
		return nil, fmt.Errorf("connect to the Fluss cluster at %s: %w", strings.Join(cfg.Fluss.Bootstrap, ","), err)
	}
	return store, nil
}

// checkUDFs copies the registry, refusing a UDF named like a built-in
// function: a call must mean one thing.
func checkUDFs(r *udf.Registry) (*udf.Registry, error) {
	r = r.Clone()
	if err := binder.CheckUDFNames(r); err != nil {
		return nil, err
	}
	return r, nil
}

// openMeta opens the metadata store (package meta): a file in the data
// directory beside the embedded store, a table in the cluster beside a
// cluster's tables, so that every server pointed at the cluster shares
// it. It imports the users file (when authentication uses one) and
// reconciles the metadata with the store's tables.
func openMeta(ctx context.Context, cfg Config, store fluss.Store) (*meta.Store, error) {
	var md *meta.Store
	var err error
	if _, ok := store.(*remote.Store); ok {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		md, err = meta.OpenTable(cctx, store)
		if err == nil {
			// The views and privileges files of a version that kept them
			// beside the cluster, once.
			err = meta.MigrateFiles(cctx, md, cfg.DataDir)
		}
	} else {
		md, err = meta.OpenFile(ctx, cfg.DataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("open the metadata: %w", err)
	}
	if cfg.Auth.RequiresPassword() {
		if u, ok := cfg.Auth.Users.(*pgwire.Users); ok {
			if err := md.ImportUsers(ctx, u); err != nil {
				return nil, fmt.Errorf("import the users file: %w", err)
			}
		}
	}
	if err := md.Reconcile(ctx, store); err != nil {
		return nil, fmt.Errorf("reconcile the metadata with the tables: %w", err)
	}
	return md, nil
}

// rolesOf tells superusers apart by the users in the metadata store.
// Without authentication (trust) nobody can be told apart, so every
// session is a superuser.
func rolesOf(auth pgwire.AuthConfig, md *meta.Store, log *slog.Logger) engine.Roles {
	if !auth.RequiresPassword() {
		return engine.AllSuperusers{}
	}
	if !md.HasSuperuser() {
		log.Warn("no user is a superuser: nobody can create tables or grant privileges; add one with `sqlgate user add NAME --superuser`")
	}
	return md
}

// catalogRoles shows the roles and the privileges in pg_catalog.
type catalogRoles struct{ md *meta.Store }

// RoleList lists the roles of the metadata store (those CREATE ROLE and
// the users file made), also without authentication, as PostgreSQL's
// pg_roles lists every role whatever pg_hba.conf says.
func (c catalogRoles) RoleList() []pgcatalog.RoleInfo {
	var out []pgcatalog.RoleInfo
	for _, n := range c.md.UserNames() {
		_, super := c.md.Role(n)
		out = append(out, pgcatalog.RoleInfo{Name: n, Superuser: super, NoLogin: !c.md.CanLogin(n)})
	}
	return out
}

func (c catalogRoles) TableOwner(id int64) string { return c.md.Access().Owner(id) }

func (c catalogRoles) TableACL(id int64) []string {
	return c.md.Access().Items(id, access.BootstrapRole)
}

// SchemaOwner is a schema's recorded owner (pgcatalog.SchemaOwners).
func (c catalogRoles) SchemaOwner(name string) string { return c.md.SchemaOwner(name) }

// Comments are COMMENT ON's texts by meta.CommentKey
// (pgcatalog.CommentSource).
func (c catalogRoles) Comments() map[string]string { return c.md.Comments() }

// Schema and DefaultACLs are the schemas' grants and ALTER DEFAULT
// PRIVILEGES' lists (pgcatalog.SchemaPrivileges).
func (c catalogRoles) Schema(name string) (meta.Schema, bool) { return c.md.Schema(name) }

func (c catalogRoles) DefaultACLs() map[string]meta.DefaultACL { return c.md.DefaultACLs() }

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.listener.Addr() }

// ConnString is a libpq connection string for the server.
func (s *Server) ConnString() string {
	host, port, _ := net.SplitHostPort(s.Addr().String())
	return fmt.Sprintf("postgres://sqlgate@%s/sqlgate?sslmode=disable", net.JoinHostPort(host, port))
}

// Done yields the Serve error if serving stops on its own.
func (s *Server) Done() <-chan error { return s.done }

// Stop stops accepting connections, cancels running statements, closes the
// sessions and the store. Everything acknowledged is already on disk.
func (s *Server) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() {
		s.stopping.Store(true)
		if s.flight != nil {
			_ = s.flight.Shutdown(ctx)
		}
		err := s.wire.Shutdown(ctx)
		s.python.Close()
		if cerr := s.store.Close(); cerr != nil && err == nil {
			err = cerr
		}
		if s.metrics != nil {
			_ = s.metrics.Close(ctx)
		}
		if err != nil && !errors.Is(err, net.ErrClosed) {
			s.stopErr = err
		}
	})
	return s.stopErr
}

// InProcess starts a fresh sqlgate on a free loopback port with a temporary
// data directory and returns its connection string and a cleanup function
// that stops it and removes the directory (one per sqllogictest file).
func InProcess(ctx context.Context, _ string) (string, func(), error) {
	return inProcess(ctx, Config{})
}

// InProcessColumnar is InProcess with the embedded store's
// ColumnarMinRows set (1: every primary-key table's full scans go to its
// columnar image once built, merging the writes made since).
func InProcessColumnar(minRows int64) func(ctx context.Context, file string) (string, func(), error) {
	return func(ctx context.Context, _ string) (string, func(), error) {
		return inProcess(ctx, Config{ColumnarMinRows: minRows})
	}
}

// inProcess is InProcess with base's settings, serving the cluster
// base.Fluss names when it is set.
func inProcess(ctx context.Context, base Config) (string, func(), error) {
	t, err := startTarget(ctx, base)
	if err != nil {
		return "", nil, err
	}
	return t.connString(), t.stop, nil
}

// InProcessRestartable is InProcessColumnar(minRows) (InProcess when 0)
// whose targets can also be restarted: restart stops the server of
// connString and starts one again on its data directory (what a server
// stored must open again), returning the new connection string; the
// file's cleanup stops whichever runs and removes the directory. For
// `sqlgate slt --restart-check`.
func InProcessRestartable(minRows int64) (connect func(ctx context.Context, file string) (string, func(), error), restart func(ctx context.Context, connString string) (string, error)) {
	var (
		mu      sync.Mutex
		targets = map[string]*inProcessTarget{}
	)
	connect = func(ctx context.Context, _ string) (string, func(), error) {
		t, err := startTarget(ctx, Config{ColumnarMinRows: minRows})
		if err != nil {
			return "", nil, err
		}
		cs := t.connString()
		mu.Lock()
		targets[cs] = t
		mu.Unlock()
		return cs, func() {
			mu.Lock()
			delete(targets, t.connString())
			mu.Unlock()
			t.stop()
		}, nil
	}
	restart = func(ctx context.Context, connString string) (string, error) {
		mu.Lock()
		t := targets[connString]
		delete(targets, connString)
		mu.Unlock()
		if t == nil {
			return "", fmt.Errorf("no in-process server at %s", connString)
		}
		if err := t.restart(ctx); err != nil {
			return "", err
		}
		cs := t.connString()
		mu.Lock()
		targets[cs] = t
		mu.Unlock()
		return cs, nil
	}
	return connect, restart
}

// inProcessTarget is one in-process server on a temporary directory.
type inProcessTarget struct {
	cfg Config
	mu  sync.Mutex
	srv *Server // nil after a restart that failed to start
}

func startTarget(ctx context.Context, base Config) (*inProcessTarget, error) {
	dir, err := os.MkdirTemp("", "sqlgate-slt-*")
	if err != nil {
		return nil, err
	}
	cfg := base
	cfg.Listen, cfg.DataDir = "127.0.0.1:0", dir
	srv, err := Start(ctx, cfg)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &inProcessTarget{cfg: cfg, srv: srv}, nil
}

func (t *inProcessTarget) connString() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.srv == nil {
		return ""
	}
	return t.srv.ConnString()
}

// restart stops the server and starts one on the same directory.
func (t *inProcessTarget) restart(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	err := t.srv.Stop(sctx)
	cancel()
	t.srv = nil
	if err != nil {
		return fmt.Errorf("stopping: %w", err)
	}
	srv, err := Start(ctx, t.cfg)
	if err != nil {
		return err
	}
	t.srv = srv
	return nil
}

// stop stops the server and removes its directory.
func (t *inProcessTarget) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.srv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		t.srv.Stop(sctx)
		cancel()
	}
	os.RemoveAll(t.cfg.DataDir)
}

// engineLocks shows the engine's row locks in pg_locks; the catalog is
// made before the engine (which serves it), so eng is set after both.
type engineLocks struct{ eng *engine.Engine }

func (l *engineLocks) Locks() []rowlock.LockInfo { return l.eng.Locks() }

// LockWaits implements activity.Waits: the sessions waiting for a row lock
// show wait_event_type Lock in pg_stat_activity.
func (l *engineLocks) LockWaits() map[int32]string {
	var w map[int32]string
	for _, li := range l.eng.Locks() {
		if !li.Granted {
			if w == nil {
				w = map[int32]string{}
			}
			w[li.PID] = li.Kind
		}
	}
	return w
}
