package main

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// System names, as they appear in the table and the JSON.
const (
	sysPostgres = "postgres"
	sysSqlgate  = "sqlgate"
	sysDuckDB   = "duckdb"
)

// The DDL is the same text for all three systems.
const (
	createEvents = `CREATE TABLE %s (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))`
	createUsers  = `CREATE TABLE users (user_id INT PRIMARY KEY, country VARCHAR, tier INT)`
)

var eventColumns = []string{"id", "user_id", "amount", "qty", "name", "ts"}

// sqlgateProcess is sqlgate's server running as a child process (the
// benchserver command), so that its RSS is its own.
type sqlgateProcess struct {
	cmd  *exec.Cmd
	addr string
	// flightAddr is where it serves Arrow Flight SQL ("" = not served).
	flightAddr string
	dataDir    string
	exited     chan struct{}
	waitErr    error
}

// buildServer builds cmd/benchserver of this module into dir. The harness
// runs from the bench directory (make bench does cd bench).
func buildServer(ctx context.Context, dir string) (string, error) {
	if _, err := os.Stat(filepath.Join("cmd", "benchserver", "main.go")); err != nil {
		return "", fmt.Errorf("run from the bench directory or pass --server-bin: %w", err)
	}
	bin := filepath.Join(dir, "benchserver")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/benchserver")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build benchserver: %w", err)
	}
	return bin, nil
}

// profiles are the files sqlgate's side is profiled into ("" = off).
type profiles struct{ CPU, Mem, Mutex, Block string }

func (p profiles) any() bool { return p.CPU != "" || p.Mem != "" || p.Mutex != "" || p.Block != "" }

// startSqlgate runs bin with a fresh data directory under dir and waits for
// its "listening" line.
func startSqlgate(ctx context.Context, bin, dir string, prof profiles, logOut io.Writer) (*sqlgateProcess, error) {
	dataDir := filepath.Join(dir, "sqlgate-data")
	args := []string{"--data", dataDir}
	for flagName, path := range map[string]string{"--cpuprofile": prof.CPU, "--memprofile": prof.Mem, "--mutexprofile": prof.Mutex, "--blockprofile": prof.Block} {
		if path != "" {
			args = append(args, flagName, path)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Stderr = logOut
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start sqlgate: %w", err)
	}
	p := &sqlgateProcess{cmd: cmd, dataDir: dataDir, exited: make(chan struct{})}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	select {
	case line := <-lines:
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "listening" {
			p.kill()
			return nil, fmt.Errorf("sqlgate said %q, want \"listening ADDR\"", line)
		}
		p.addr = fields[1]
		if len(fields) == 4 && fields[2] == "flight" {
			p.flightAddr = fields[3]
		}
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("sqlgate exited during start-up: %v", p.waitErr)
	case <-time.After(60 * time.Second):
		p.kill()
		return nil, errors.New("sqlgate did not start within 60s")
	case <-ctx.Done():
		p.kill()
		return nil, ctx.Err()
	}
}

func (p *sqlgateProcess) connString() string {
	return fmt.Sprintf("postgres://sqlgate@%s/sqlgate?sslmode=disable", p.addr)
}

func (p *sqlgateProcess) pid() int { return p.cmd.Process.Pid }

// startProfile asks the child to start its CPU profile (after the load).
func (p *sqlgateProcess) startProfile() error { return p.cmd.Process.Signal(syscall.SIGUSR1) }

// stop asks for a clean shutdown (which writes the profiles) and waits.
func (p *sqlgateProcess) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return p.waitErr
	case <-time.After(60 * time.Second):
		p.kill()
		return errors.New("sqlgate did not stop within 60s; killed")
	}
}

func (p *sqlgateProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// startPostgres starts a throwaway PostgreSQL 15 cluster under dir; durable
// keeps PostgreSQL's fsync and synchronous_commit on.
func startPostgres(ctx context.Context, dir string, durable bool) (*pgtest.Server, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if durable {
		return pgtest.StartDurableCluster(ctx, dir)
	}
	return pgtest.StartCluster(ctx, dir)
}

// eventSource feeds rows [from, to] of the data set to pgx's CopyFrom.
type eventSource struct {
	next, to int64
	row      []any
}

func newEventSource(from, to int64) *eventSource { return &eventSource{next: from, to: to} }

func (s *eventSource) Next() bool {
	if s.next > s.to {
		return false
	}
	s.row = makeEvent(s.next).values()
	s.next++
	return true
}
func (s *eventSource) Values() ([]any, error) { return s.row, nil }
func (s *eventSource) Err() error             { return nil }

// copyEvents loads rows [from, to] into table with COPY FROM STDIN (binary).
func copyEvents(ctx context.Context, conn *pgx.Conn, table string, from, to int64) error {
	n, err := conn.CopyFrom(ctx, pgx.Identifier{table}, eventColumns, newEventSource(from, to))
	if err != nil {
		return err
	}
	if n != to-from+1 {
		return fmt.Errorf("COPY reported %d rows, sent %d", n, to-from+1)
	}
	return nil
}

// insertBatchSQL is a multi-row INSERT of rows [from, to] with literal
// values: the same text is sent to every system.
func insertBatchSQL(table string, from, to int64) string {
	var b strings.Builder
	b.Grow(int(to-from+1) * 72)
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteString(" (id, user_id, amount, qty, name, ts) VALUES ")
	for id := from; id <= to; id++ {
		r := makeEvent(id)
		if id > from {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		b.WriteString(strconv.FormatInt(r.ID, 10))
		b.WriteString(", ")
		b.WriteString(strconv.FormatInt(int64(r.UserID), 10))
		b.WriteString(", ")
		if r.AmountValid {
			b.WriteString(strconv.FormatFloat(r.Amount, 'f', -1, 64))
		} else {
			b.WriteString("NULL")
		}
		b.WriteString(", ")
		b.WriteString(strconv.FormatInt(int64(r.Qty), 10))
		b.WriteString(", '")
		b.WriteString(r.Name) // base-36 digits only: no quoting needed
		b.WriteString("', '")
		b.WriteString(r.TS.Format("2006-01-02 15:04:05.999999"))
		b.WriteString("')")
	}
	return b.String()
}

// insertEvents loads rows [from, to] with multi-row INSERTs of batch rows
// over conns parallel connections.
func insertEvents(ctx context.Context, connString, table string, from, to int64, batch int64, conns int) error {
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		nextFrom = from
	)
	take := func() (int64, int64, bool) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil || nextFrom > to {
			return 0, 0, false
		}
		lo := nextFrom
		hi := min(lo+batch-1, to)
		nextFrom = hi + 1
		return lo, hi, true
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := pgx.Connect(ctx, connString)
			if err != nil {
				fail(err)
				return
			}
			defer conn.Close(context.Background())
			for {
				lo, hi, ok := take()
				if !ok {
					return
				}
				if _, err := conn.Exec(ctx, insertBatchSQL(table, lo, hi), pgx.QueryExecModeSimpleProtocol); err != nil {
					fail(fmt.Errorf("INSERT rows %d-%d: %w", lo, hi, err))
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// insertUsers loads the users table (100k rows) with multi-row INSERTs,
// which every system supports.
func insertUsers(ctx context.Context, conn *pgx.Conn) error {
	for lo := int32(1); lo <= usersCount; lo += 1000 {
		var b strings.Builder
		b.WriteString("INSERT INTO users (user_id, country, tier) VALUES ")
		for id := lo; id < lo+1000 && id <= usersCount; id++ {
			u := makeUser(id)
			if id > lo {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, '%s', %d)", u.UserID, u.Country, u.Tier)
		}
		if _, err := conn.Exec(ctx, b.String(), pgx.QueryExecModeSimpleProtocol); err != nil {
			return fmt.Errorf("INSERT users: %w", err)
		}
	}
	return nil
}

// loadResult says how a system was loaded.
type loadResult struct {
	Method  string  `json:"method"`
	Seconds float64 `json:"seconds"`
	Note    string  `json:"note,omitempty"`
}

// loadCopyChunk bounds one COPY of the load: sqlgate writes a COPY all or
// nothing and holds it in memory until then (over 6 GiB for 10M rows), and
// the load is not a measured figure (W8 is).
const loadCopyChunk = 1_000_000

// loadPG loads events and users into a PostgreSQL-protocol system. COPY is
// used when the system supports it; when COPY fails (sqlgate before COPY
// existed), the table is recreated and loaded with multi-row INSERTs.
func loadPG(ctx context.Context, connString string, n int64, insertConns int) (loadResult, error) {
	start := time.Now()
	conn, err := pgx.Connect(ctx, connString)
	if err != nil {
		return loadResult{}, err
	}
	defer conn.Close(context.Background())
	for _, ddl := range []string{fmt.Sprintf(createEvents, "events"), createUsers} {
		if _, err := conn.Exec(ctx, ddl); err != nil {
			return loadResult{}, fmt.Errorf("%s: %w", ddl, err)
		}
	}
	if err := insertUsers(ctx, conn); err != nil {
		return loadResult{}, err
	}
	res := loadResult{Method: fmt.Sprintf("COPY FROM STDIN (binary), %d rows per COPY", loadCopyChunk)}
	var copyErr error
	for lo := int64(1); lo <= n && copyErr == nil; lo += loadCopyChunk {
		copyErr = copyEvents(ctx, conn, "events", lo, min(lo+loadCopyChunk-1, n))
	}
	if copyErr != nil {
		res.Method = "multi-row INSERT (1000 rows)"
		res.Note = "COPY failed: " + firstLine(copyErr.Error())
		// The connection may be mid-COPY; start from a clean one and table.
		conn.Close(context.Background())
		if conn, err = pgx.Connect(ctx, connString); err != nil {
			return loadResult{}, err
		}
		if _, err := conn.Exec(ctx, "DROP TABLE events"); err != nil {
			return loadResult{}, fmt.Errorf("drop events after failed COPY: %w", err)
		}
		if _, err := conn.Exec(ctx, fmt.Sprintf(createEvents, "events")); err != nil {
			return loadResult{}, err
		}
		if err := insertEvents(ctx, connString, "events", 1, n, 1000, insertConns); err != nil {
			return loadResult{}, err
		}
	}
	var count int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM events").Scan(&count); err != nil {
		return loadResult{}, fmt.Errorf("count after load: %w", err)
	}
	if count != n {
		return loadResult{}, fmt.Errorf("loaded %d rows, want %d", count, n)
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// duckDB is the in-process DuckDB database.
type duckDB struct {
	connector *duckdb.Connector
	db        *sql.DB
}

func openDuckDB() (*duckDB, error) {
	connector, err := duckdb.NewConnector("", func(execer driver.ExecerContext) error {
		// PostgreSQL sorts NULL as larger than every value (first under
		// DESC); DuckDB's default is NULLS LAST. Same query text, same
		// semantics.
		_, err := execer.ExecContext(context.Background(), "SET default_null_order = 'nulls_last_on_asc_first_on_desc'", nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &duckDB{connector: connector, db: sql.OpenDB(connector)}, nil
}

func (d *duckDB) close() { d.db.Close() }

// load appends the data set with DuckDB's Appender, its fastest bulk path.
func (d *duckDB) load(ctx context.Context, n int64) (loadResult, error) {
	start := time.Now()
	for _, ddl := range []string{fmt.Sprintf(createEvents, "events"), createUsers} {
		if _, err := d.db.ExecContext(ctx, ddl); err != nil {
			return loadResult{}, fmt.Errorf("%s: %w", ddl, err)
		}
	}
	conn, err := d.connector.Connect(ctx)
	if err != nil {
		return loadResult{}, err
	}
	defer conn.Close()
	app, err := duckdb.NewAppenderFromConn(conn, "", "events")
	if err != nil {
		return loadResult{}, err
	}
	for id := int64(1); id <= n; id++ {
		r := makeEvent(id)
		var amount driver.Value
		if r.AmountValid {
			amount = r.Amount
		}
		if err := app.AppendRow(r.ID, r.UserID, amount, r.Qty, r.Name, r.TS); err != nil {
			app.Close()
			return loadResult{}, fmt.Errorf("append row %d: %w", id, err)
		}
	}
	if err := app.Close(); err != nil {
		return loadResult{}, err
	}
	users, err := duckdb.NewAppenderFromConn(conn, "", "users")
	if err != nil {
		return loadResult{}, err
	}
	for id := int32(1); id <= usersCount; id++ {
		u := makeUser(id)
		if err := users.AppendRow(u.UserID, u.Country, u.Tier); err != nil {
			users.Close()
			return loadResult{}, err
		}
	}
	if err := users.Close(); err != nil {
		return loadResult{}, err
	}
	return loadResult{Method: "Appender", Seconds: time.Since(start).Seconds()}, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
