package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultBinDir is where Debian's postgresql-15 package puts initdb and
// postgres. The PGTEST_BIN_DIR environment variable overrides it.
const DefaultBinDir = "/usr/lib/postgresql/15/bin"

// startAttempts bounds the retries when another process grabs the free port
// between FreePort and the postmaster's bind.
const startAttempts = 3

// readyTimeout bounds how long a fresh cluster may take to accept
// connections when the caller's context has no earlier deadline.
const readyTimeout = 60 * time.Second

// stopTimeout is how long a fast shutdown may take before the whole process
// group is killed.
const stopTimeout = 15 * time.Second

// maxSocketPath keeps the Unix socket path under the kernel's 108-byte limit
// for sun_path (with room for the terminating NUL).
const maxSocketPath = 100

// Server is one running throwaway PostgreSQL cluster.
type Server struct {
	port      int
	root      string // the cluster's own directory: data/, postgres.log
	socketDir string
	// removeOnStop lists directories this package created outside the
	// caller's directory; Stop deletes them.
	removeOnStop []string
	logPath      string
	// durable: fsync, synchronous_commit and full_page_writes on.
	durable bool

	cmd     *exec.Cmd
	exited  chan struct{} // closed when the postmaster has been reaped
	waitErr error         // set before exited is closed

	stopOnce sync.Once
	stopErr  error
}

// Start runs a throwaway cluster for the duration of a test or benchmark and
// stops it in t.Cleanup. It fails the test if the cluster cannot start.
func Start(t testing.TB) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	srv, err := StartCluster(ctx, t.TempDir())
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("pgtest: stop: %v", err)
		}
	})
	return srv
}

// StartCluster creates a new cluster in a fresh subdirectory of dir, starts
// it on a free loopback port and waits until it accepts connections. The
// caller must call Stop. When running as root and dir is not reachable by
// the unprivileged account, the cluster lives in a fresh directory under
// os.TempDir() instead, which Stop removes.
func StartCluster(ctx context.Context, dir string) (*Server, error) {
	return startCluster(ctx, dir, false)
}

// StartDurableCluster is StartCluster with PostgreSQL's own durability
// settings (fsync, synchronous_commit and full_page_writes on) instead of
// the tests' fast ones: for benchmarks that compare the cost of commits.
func StartDurableCluster(ctx context.Context, dir string) (*Server, error) {
	return startCluster(ctx, dir, true)
}

func startCluster(ctx context.Context, dir string, durable bool) (*Server, error) {
	binDir := os.Getenv("PGTEST_BIN_DIR")
	if binDir == "" {
		binDir = DefaultBinDir
	}
	for _, tool := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(binDir, tool)); err != nil {
			return nil, fmt.Errorf("postgresql binaries not found (set PGTEST_BIN_DIR): %w", err)
		}
	}
	cred, err := unprivilegedCredential()
	if err != nil {
		return nil, err
	}
	srv := &Server{durable: durable}
	if err := srv.makeDirs(dir, cred); err != nil {
		srv.removeDirs()
		return nil, err
	}
	if err := srv.createData(ctx, binDir, cred); err != nil {
		srv.removeDirs()
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < startAttempts; attempt++ {
		port, err := FreePort()
		if err != nil {
			srv.removeDirs()
			return nil, err
		}
		retry, err := srv.launch(ctx, binDir, cred, port)
		if err == nil {
			return srv, nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	srv.removeDirs()
	return nil, lastErr
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ConnString is a pgx/libpq URL for the cluster's postgres database as the
// superuser postgres, over TCP on loopback.
func (s *Server) ConnString() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

// Port is the TCP port the postmaster listens on.
func (s *Server) Port() int { return s.port }

// PID is the postmaster's process id (benchmarks count its children's CPU).
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Dir is the cluster's directory (data/ and postgres.log live there).
func (s *Server) Dir() string { return s.root }

// LogPath is the postmaster's log file, useful in failure messages.
func (s *Server) LogPath() string { return s.logPath }

// Stop shuts the cluster down (fast shutdown, then SIGKILL of the process
// group if it takes too long) and removes directories that StartCluster
// created outside the caller's directory. Calling it again returns the first
// result.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		s.stopErr = s.shutdown()
		s.removeDirs()
	})
	return s.stopErr
}

func (s *Server) shutdown() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	select {
	case <-s.exited:
		return nil // already gone; nothing to stop
	default:
	}
	// SIGINT is PostgreSQL's "fast" shutdown: abort sessions, checkpoint, exit.
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
		return nil
	case <-time.After(stopTimeout):
	}
	// The postmaster runs in its own process group (Setpgid), so this reaches
	// its backends too.
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.exited
	return fmt.Errorf("postgres on port %d did not stop within %s; killed", s.port, stopTimeout)
}

func (s *Server) removeDirs() {
	for _, d := range s.removeOnStop {
		_ = os.RemoveAll(d)
	}
	s.removeOnStop = nil
}

// makeDirs creates the cluster directory and the socket directory, owned by
// the account that will run postgres.
func (s *Server) makeDirs(dir string, cred *syscall.Credential) error {
	parent := dir
	if cred != nil && !reachableBy(dir, cred) {
		parent = os.TempDir()
		if !reachableBy(parent, cred) {
			return fmt.Errorf("neither %s nor %s is searchable by uid %d; set TMPDIR to a world-searchable directory", dir, parent, cred.Uid)
		}
	}
	root, err := os.MkdirTemp(parent, "pgtest-")
	if err != nil {
		return fmt.Errorf("create cluster directory: %w", err)
	}
	if parent != dir {
		s.removeOnStop = append(s.removeOnStop, root)
	}
	s.root = root
	s.logPath = filepath.Join(root, "postgres.log")
	s.socketDir = root
	if len(root)+len("/.s.PGSQL.65535") > maxSocketPath {
		short, err := os.MkdirTemp("", "pgs")
		if err != nil {
			return fmt.Errorf("create socket directory: %w", err)
		}
		s.removeOnStop = append(s.removeOnStop, short)
		s.socketDir = short
	}
	for _, d := range []string{s.root, s.socketDir} {
		// PostgreSQL insists the data directory's parent chain is usable and
		// the data directory itself is private; 0700 on our own directory
		// satisfies both once it belongs to the right account.
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("chmod %s: %w", d, err)
		}
		if cred != nil {
			if err := os.Chown(d, int(cred.Uid), int(cred.Gid)); err != nil {
				return fmt.Errorf("chown %s: %w", d, err)
			}
		}
	}
	return nil
}

// initdbArgs are initdb's options after -D.
var initdbArgs = []string{
	"-A", "trust", "-U", "postgres", "--no-sync",
	// LC_CTYPE C.UTF-8, as a normal install's UTF-8 locale has it:
	// upper/lower/initcap, ILIKE and case-insensitive regular
	// expressions then map non-ASCII letters (upper('é') = 'É'), which
	// is what users meet and what sqlgate does; collation stays C
	// (byte order) so that ORDER BY of text is the same everywhere.
	"-E", "UTF8", "--locale=C", "--lc-ctype=C.UTF-8",
}

// createData makes the cluster's data directory: a copy of the template
// (template.go) when there is one or it can be made, else its own initdb.
func (s *Server) createData(ctx context.Context, binDir string, cred *syscall.Credential) error {
	data := filepath.Join(s.root, "data")
	if tmpl, ok := templateData(ctx, binDir, cred); ok {
		return copyTree(tmpl, data, cred)
	}
	return initdb(ctx, binDir, cred, s.root, data)
}

// initdb creates the data directory data, running in dir.
func initdb(ctx context.Context, binDir string, cred *syscall.Credential, dir, data string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"), append([]string{"-D", data}, initdbArgs...)...)
	prepare(cmd, cred, dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, tail(string(out), 2000))
	}
	return nil
}

// prepare sets the environment, working directory (dir) and credentials
// shared by initdb and postgres.
func prepare(cmd *exec.Cmd, cred *syscall.Credential, dir string) {
	// A minimal environment: inherited PG* variables (PGDATA, PGPORT...) must
	// not steer the throwaway cluster, and C locale keeps messages stable.
	env := []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "LANG=C"}
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	cmd.Env = env
	// The caller's working directory may be unreadable by the unprivileged
	// account (e.g. under /root); postgres calls getcwd.
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Credential: cred,
		Setpgid:    true,
		// If the test binary dies without calling Stop, the postmaster gets
		// an immediate-shutdown request instead of lingering.
		Pdeathsig: syscall.SIGQUIT,
	}
}

// launch starts the postmaster on port and waits until it accepts
// connections. retry reports whether a new port might help.
func (s *Server) launch(ctx context.Context, binDir string, cred *syscall.Credential, port int) (retry bool, err error) {
	logFile, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return false, fmt.Errorf("open postgres log: %w", err)
	}
	defer logFile.Close() // the child holds its own descriptor
	// Not CommandContext: the server outlives the start-up context.
	sync := "off"
	if s.durable {
		sync = "on"
	}
	cmd := exec.Command(filepath.Join(binDir, "postgres"),
		"-D", filepath.Join(s.root, "data"),
		"-k", s.socketDir,
		"-h", "127.0.0.1",
		"-p", strconv.Itoa(port),
		"-c", "fsync="+sync,
		"-c", "synchronous_commit="+sync,
		"-c", "full_page_writes="+sync,
		"-c", "max_connections=100",
	)
	prepare(cmd, cred, s.root)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		return false, fmt.Errorf("start postgres: %w", err)
	}
	s.cmd = cmd
	s.port = port
	s.exited = make(chan struct{})
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()

	readyCtx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		pingCtx, pingCancel := context.WithTimeout(readyCtx, time.Second)
		conn, err := pgconn.Connect(pingCtx, s.ConnString())
		pingCancel()
		if err == nil {
			_ = conn.Close(context.Background())
			return false, nil
		}
		select {
		case <-s.exited:
			log := s.readLog()
			// Another process may have taken the port since FreePort.
			retry := strings.Contains(log, "could not bind") || strings.Contains(log, "already in use")
			return retry, fmt.Errorf("postgres exited during start-up (%v):\n%s", s.waitErr, tail(log, 2000))
		case <-readyCtx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
			return false, fmt.Errorf("postgres on port %d not ready: %w (last error: %v)\n%s",
				port, readyCtx.Err(), err, tail(s.readLog(), 2000))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (s *Server) readLog() string {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return string(b)
}

// unprivilegedCredential returns nil when the process is not root, else the
// credential of the account postgres should run as.
func unprivilegedCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	var lookupErrs []error
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			lookupErrs = append(lookupErrs, err)
			continue
		}
		uid, errU := strconv.ParseUint(u.Uid, 10, 32)
		gid, errG := strconv.ParseUint(u.Gid, 10, 32)
		if errU != nil || errG != nil || uid == 0 {
			continue
		}
		// Groups is empty (not nil) so the child drops root's supplementary
		// groups.
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
	}
	return nil, fmt.Errorf("running as root and no unprivileged account (postgres, nobody) to run PostgreSQL: %w", errors.Join(lookupErrs...))
}

// reachableBy reports whether every directory from / down to dir is
// searchable by cred's account, judged from the permission bits.
func reachableBy(dir string, cred *syscall.Credential) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return false
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return false
		}
		mode := fi.Mode().Perm()
		var searchable bool
		switch {
		case st.Uid == cred.Uid:
			searchable = mode&0o100 != 0
		case st.Gid == cred.Gid:
			searchable = mode&0o010 != 0
		default:
			searchable = mode&0o001 != 0
		}
		if !searchable {
			return false
		}
		if p == filepath.Dir(p) {
			return true
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
