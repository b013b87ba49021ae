package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// pythonWithPyarrow is the interpreter scripts/install-test-deps.sh
// installs pyarrow into (SQLGATE_PYTHON overrides it).
func pythonWithPyarrow(t *testing.T) string {
	if p := os.Getenv("SQLGATE_PYTHON"); p != "" {
		return p
	}
	p := testbin.ToolPath("pyarrow-21.0.0", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("pyarrow is not installed (%v): run scripts/install-test-deps.sh or set SQLGATE_PYTHON", err)
	}
	return p
}

// startPythonServer starts a server whose users are admin (a superuser)
// and bob (not one), password "pw"; url gives a user's connection string.
func startPythonServer(t *testing.T, dir string) (srv *server.Server, url func(user string) string) {
	t.Helper()
	var users pgwire.Users
	for _, u := range []string{"admin", "bob"} {
		if err := users.SetPassword(u, "pw", false); err != nil {
			t.Fatal(err)
		}
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	srv = testbin.StartServerConfig(t, server.Config{Listen: "127.0.0.1:0", DataDir: dir,
		Auth:   pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: &users, FailureDelay: -1},
		Python: pyudf.Config{Python: pythonWithPyarrow(t), Workers: 2, MemoryLimit: 2 << 30}})
	return srv, func(user string) string {
		return "postgres://" + user + ":pw@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	}
}

// psqlScript runs a script through psql (stopping at the first error) and
// returns its output.
func psqlScript(t *testing.T, connString, script string) string {
	t.Helper()
	cmd := exec.Command("psql", "-X", "-A", "-F", "|", "-v", "ON_ERROR_STOP=1", "-d", connString)
	cmd.Stdin = strings.NewReader(script)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10", "PAGER=", "LC_ALL=C.UTF-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, out)
	}
	return string(out)
}

// TestPythonUDFs creates Python functions through psql and calls them: a
// scalar one mapping batches with pyarrow.compute over 1M rows, a RETURNS
// TABLE one changing the row count and schema; then the failures, each
// failing only its statement: a non-superuser (42501), an exception
// (38000 with the traceback), a wrong output schema (39000 naming the
// field), a worker killed with SIGKILL mid-statement (38000), a worker in
// an endless loop (57014 by statement_timeout and by a cancel request);
// then DROP FUNCTION, and the functions surviving a restart.
func TestPythonUDFs(t *testing.T) {
	dir := t.TempDir()
	srv, url := startPythonServer(t, dir)
	pidFile := filepath.Join(t.TempDir(), "worker.pid")
	out := psqlScript(t, url("admin"), `
CREATE FUNCTION times(x bigint, f double precision) RETURNS double precision LANGUAGE python AS $$
    return pc.multiply(pc.cast(x, pa.float64()), f)
$$;
CREATE FUNCTION tokens(id bigint, body text) RETURNS TABLE (id bigint, pos integer, token text)
LANGUAGE python AS $$
    ids, pos, toks = [], [], []
    for i, b in zip(id.to_pylist(), body.to_pylist()):
        for k, w in enumerate((b or '').split()):
            ids.append(i); pos.append(k + 1); toks.append(w)
    return pa.record_batch([pa.array(ids, pa.int64()), pa.array(pos, pa.int32()), pa.array(toks, pa.string())],
                           names=['id', 'pos', 'token'])
$$;
CREATE FUNCTION fails(x bigint) RETURNS bigint LANGUAGE python AS $$
    raise ValueError('no good: %d' % len(x))
$$;
CREATE FUNCTION bad_schema(x bigint) RETURNS TABLE (x bigint) LANGUAGE python AS $$
    return pa.record_batch([x], names=['y'])
$$;
CREATE FUNCTION sleeper(x bigint) RETURNS bigint LANGUAGE python AS $$
    import os, time
    open(`+"'"+pidFile+"'"+`, 'w').write(str(os.getpid()))
    time.sleep(120)
    return x
$$;
CREATE FUNCTION spin(x bigint) RETURNS bigint LANGUAGE python AS $$
    while True:
        pass
$$;
CREATE TABLE docs (id BIGINT PRIMARY KEY, body TEXT);
INSERT INTO docs VALUES (1, 'to be or not'), (2, NULL), (3, 'hello world');
SELECT count(*), sum(times(g, 0.5)) FROM generate_series(1, 1000000) g;
SELECT * FROM tokens(TABLE docs) ORDER BY id, pos;
SELECT t.token FROM tokens((SELECT id, upper(body) FROM docs WHERE id = 3)) t;
\df
`)
	for _, want := range []string{
		"count|sum\n1000000|250000250000\n(1 row)",
		"id|pos|token\n1|1|to\n1|2|be\n1|3|or\n1|4|not\n3|1|hello\n3|2|world\n(6 rows)",
		"token\nHELLO\nWORLD\n(2 rows)",
		"public|times|double precision|x bigint, f double precision|func",
		"public|tokens|TABLE(id bigint, pos integer, token text)|TABLE(id bigint, body text)|func",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("psql output lacks %q:\n%s", want, out)
		}
	}

	ctx := context.Background()
	conn := connect(t, url("admin"))
	var lang, src string
	if err := conn.QueryRow(ctx, "SELECT l.lanname, p.prosrc FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE proname = 'times'").Scan(&lang, &src); err != nil ||
		lang != "python" || !strings.Contains(src, "pc.multiply") {
		t.Errorf("pg_proc of times: %q %q %v", lang, src, err)
	}

	// a role that is not a superuser may not create Python functions
	bob := connect(t, url("bob"))
	_, err := bob.Exec(ctx, "CREATE FUNCTION f(x bigint) RETURNS bigint LANGUAGE python AS $$ return x $$")
	if pe := pgError(t, err); pe.Code != "42501" || !strings.Contains(pe.Message, "permission denied for language python") {
		t.Errorf("non-superuser CREATE FUNCTION: %s %s", pe.Code, pe.Message)
	}

	errs := []struct{ q, code, msg, detail string }{
		{"SELECT fails(id) FROM docs", "38000", "Python UDF fails failed: ValueError: no good: 3", "Traceback"},
		{"SELECT * FROM bad_schema((SELECT id FROM docs))", "39000", `Python UDF bad_schema emitted column 1 (x) named "y", declared "x"`, ""},
		{"SELECT * FROM tokens((SELECT body, id FROM docs))", "42804", "input column 1 (body) is of type text, declared bigint (id)", ""},
		{"SELECT times('x', 1)", "22P02", "", ""},
		{"CREATE FUNCTION scale(x numeric) RETURNS numeric LANGUAGE python AS $$ return x $$", "42723", "a built-in function has that name", ""},
		{"CREATE FUNCTION g(x int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN x; END $$", "0A000", "LANGUAGE plpgsql", ""},
		{"CREATE FUNCTION g(x int) RETURNS int LANGUAGE cobol AS $$ x $$", "42704", `language "cobol" does not exist`, ""},
	}
	for _, e := range errs {
		_, err := conn.Exec(ctx, e.q)
		pe := pgError(t, err)
		if pe.Code != e.code || !strings.Contains(pe.Message, e.msg) || !strings.Contains(pe.Detail, e.detail) {
			t.Errorf("%s: %s %q (%q), want %s %q", e.q, pe.Code, pe.Message, pe.Detail, e.code, e.msg)
		}
	}

	// SIGKILL of the worker mid-statement: that statement fails with
	// 38000, another session's statement and the next one go on
	go func() {
		for i := 0; i < 400; i++ {
			time.Sleep(50 * time.Millisecond)
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				pid, _ := strconv.Atoi(string(b))
				syscall.Kill(pid, syscall.SIGKILL)
				return
			}
		}
	}()
	other := connect(t, url("admin"))
	otherDone := make(chan error, 1)
	go func() {
		var n int64
		otherDone <- other.QueryRow(ctx, "SELECT count(*) FROM generate_series(1, 200000) g WHERE times(g, 1) > 10").Scan(&n)
	}()
	_, err = conn.Exec(ctx, "SELECT sleeper(id) FROM docs")
	if pe := pgError(t, err); pe.Code != "38000" || !strings.Contains(pe.Message, "worker process died") || !strings.Contains(pe.Message, "killed") {
		t.Errorf("killed worker: %s %q", pe.Code, pe.Message)
	}
	if err := <-otherDone; err != nil {
		t.Errorf("the other session's statement: %v", err)
	}

	// an endless loop: statement_timeout and a cancel request end it
	mustExec(t, conn, "SET statement_timeout = '500ms'")
	start := time.Now()
	_, err = conn.Exec(ctx, "SELECT spin(id) FROM docs")
	if pe := pgError(t, err); pe.Code != "57014" || time.Since(start) > 20*time.Second {
		t.Errorf("timeout: %s %q after %v", pe.Code, pe.Message, time.Since(start))
	}
	mustExec(t, conn, "RESET statement_timeout")
	cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	_, err = conn.Exec(cctx, "SELECT spin(id) FROM docs")
	cancel()
	if err == nil {
		t.Error("a cancelled endless loop returned")
	}
	conn = connect(t, url("admin")) // pgx closes a connection whose context ended
	var total float64
	if err := conn.QueryRow(ctx, "SELECT sum(times(id, 2)) FROM docs").Scan(&total); err != nil || total != 12 {
		t.Errorf("after the failures: %v %v", total, err)
	}

	// DROP FUNCTION
	mustExec(t, conn, "DROP FUNCTION fails")
	mustExec(t, conn, "DROP FUNCTION IF EXISTS fails(bigint)")
	_, err = conn.Exec(ctx, "SELECT fails(1)")
	if pe := pgError(t, err); pe.Code != "42883" {
		t.Errorf("a dropped function: %s %q", pe.Code, pe.Message)
	}
	_, err = conn.Exec(ctx, "DROP FUNCTION fails(bigint)")
	if pe := pgError(t, err); pe.Code != "42883" || pe.Message != "function fails(bigint) does not exist" {
		t.Errorf("DROP of a dropped function: %s %q", pe.Code, pe.Message)
	}
	_, err = conn.Exec(ctx, "CREATE FUNCTION times(x bigint, f double precision) RETURNS double precision LANGUAGE python AS $$ return x $$")
	if pe := pgError(t, err); pe.Code != "42723" {
		t.Errorf("CREATE of an existing function: %s %q", pe.Code, pe.Message)
	}
	mustExec(t, conn, "CREATE OR REPLACE FUNCTION times(x bigint, f double precision) RETURNS double precision LANGUAGE python AS $$ return pc.multiply(pc.cast(x, pa.float64()), pc.multiply(f, 10)) $$")

	// the functions survive a restart
	sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
	srv.Stop(sctx)
	scancel()
	srv, url = startPythonServer(t, dir)
	conn = connect(t, url("admin"))
	if err := conn.QueryRow(ctx, "SELECT sum(times(id, 2)) FROM docs").Scan(&total); err != nil || total != 120 {
		t.Errorf("after a restart: %v %v", total, err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM tokens(TABLE docs)").Scan(&n); err != nil || n != 6 {
		t.Errorf("a table function after a restart: %v %v", n, err)
	}
}
