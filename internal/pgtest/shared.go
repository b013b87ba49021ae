package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Shared is one cluster for the tests of a package that need only a
// database of their own, not a cluster: Database gives each test a fresh
// database (CREATE DATABASE from template0, about a tenth of a cluster's
// start and stop: a copy of the ~40 MB template, a postmaster's start-up,
// a shutdown checkpoint). The cluster starts at the first Database and
// lives until Stop, which the package's TestMain calls after m.Run.
//
// A test whose SQL reaches beyond its database (roles, ALTER SYSTEM,
// tablespaces, the cluster-wide OID counter's values, settings of the
// postgres role) must keep a cluster of its own (Start).
//
// The zero value is ready to use; a Shared must not be copied.
type Shared struct {
	mu      sync.Mutex
	srv     *Server
	dir     string
	err     error
	started bool
	next    int
}

// Database is a database of its own on a Shared cluster.
type Database struct {
	srv  *Server
	name string
}

// ConnString is a pgx/libpq URL for the database as the superuser
// postgres, over TCP on loopback.
func (d *Database) ConnString() string {
	u, err := url.Parse(d.srv.ConnString())
	if err != nil {
		// ConnString is built by this package from a port; it parses.
		panic(err)
	}
	u.Path = "/" + d.name
	return u.String()
}

// Name is the database's name.
func (d *Database) Name() string { return d.name }

// Port is the shared cluster's TCP port.
func (d *Database) Port() int { return d.srv.Port() }

// LogPath is the shared cluster's log file.
func (d *Database) LogPath() string { return d.srv.LogPath() }

// Database creates a fresh database on the shared cluster (starting the
// cluster first if this is the first call) and drops it in t.Cleanup,
// after the cleanups the test registers later (its connections' closes).
// It fails the test if the cluster cannot start or the database cannot be
// created.
func (s *Shared) Database(t testing.TB) *Database {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	srv, name, err := s.create(ctx)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		defer cancel()
		// FORCE: a session the test left open (a server under test that
		// still holds a pooled connection) must not keep the database.
		if err := execAdmin(ctx, srv, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	return &Database{srv: srv, name: name}
}

// create starts the cluster at the first call and creates the next
// database on it.
func (s *Shared) create(ctx context.Context) (*Server, string, error) {
	s.mu.Lock()
	if !s.started {
		s.started = true
		s.srv, s.dir, s.err = startShared(ctx)
	}
	srv, err := s.srv, s.err
	s.next++
	name := fmt.Sprintf("pgtest_%d", s.next)
	s.mu.Unlock()
	if err != nil {
		return nil, "", err
	}
	// STRATEGY FILE_COPY copies template0's files (fsync is off) instead
	// of writing every block to the WAL: about half the time of the
	// default WAL_LOG for a database this small.
	if err := execAdmin(ctx, srv, "CREATE DATABASE "+name+" TEMPLATE template0 STRATEGY FILE_COPY"); err != nil {
		return nil, "", fmt.Errorf("create database %s: %w", name, err)
	}
	return srv, name, nil
}

// startShared starts the cluster in a directory of its own, which Stop
// removes.
func startShared(ctx context.Context) (*Server, string, error) {
	dir, err := os.MkdirTemp("", "pgtest-shared-")
	if err != nil {
		return nil, "", fmt.Errorf("create shared cluster directory: %w", err)
	}
	srv, err := StartCluster(ctx, dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, "", err
	}
	return srv, dir, nil
}

// execAdmin runs sql on srv's postgres database in a connection of its
// own (CREATE and DROP DATABASE cannot run in a transaction block, and
// tests create databases from several goroutines at once).
func execAdmin(ctx context.Context, srv *Server, sql string) error {
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// Stop stops the shared cluster if it was started and removes its
// directory. The package's TestMain calls it after m.Run.
func (s *Shared) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return nil
	}
	err := s.srv.Stop()
	if rmErr := os.RemoveAll(s.dir); err == nil {
		err = rmErr
	}
	s.srv = nil
	return err
}

// RunShared runs m's tests and then stops s: a test package's TestMain is
// os.Exit(pgtest.RunShared(m, &shared)).
func RunShared(m *testing.M, s *Shared) int {
	code := m.Run()
	if err := s.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: stop shared cluster: %v\n", strings.TrimSpace(err.Error()))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Conn is a connection to a fresh database on the shared cluster
// (Database), closed in t.Cleanup before the database is dropped.
func (s *Shared) Conn(t testing.TB) *pgx.Conn {
	t.Helper()
	return connect(t, s.Database(t).ConnString())
}

// Conn starts a cluster of the test's own (Start) and returns a connection
// to its postgres database, closed in t.Cleanup before the cluster stops.
// A test that reads only what every database has (the catalogs, functions'
// answers) takes a Shared's Conn instead.
func Conn(t testing.TB) *pgx.Conn {
	t.Helper()
	return connect(t, Start(t).ConnString())
}

// connect connects to url and closes the connection in t.Cleanup (which
// runs before the cleanups registered earlier: the database's drop, the
// cluster's stop).
func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// ScanRows runs q on conn with args and hands each row to scan; any
// error fails the test (the generated-catalog tests read PostgreSQL's
// rows so).
func ScanRows(ctx context.Context, t testing.TB, conn *pgx.Conn, q string, scan func(pgx.Rows) error, args ...any) {
	t.Helper()
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
