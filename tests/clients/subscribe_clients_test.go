package clients

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// SUBSCRIBE through psql (COPY form), psycopg2 (named cursor) and pgJDBC
// (DECLARE/FETCH and fetchSize): issue 28, acceptance 1.

// TestSubscribePsqlCopy runs COPY (SUBSCRIBE ...) TO STDOUT in psql and
// reads its output line by line while another session inserts: each
// insert's line arrives before the next insert is made. psql buffers its
// standard output when it is a pipe, so it runs under stdbuf -oL (what a
// script piping psql into another program does too).
func TestSubscribePsqlCopy(t *testing.T) { subscribePsqlCopy(t, embeddedBackend) }

func subscribePsqlCopy(t *testing.T, be subscribeBackend) {
	psqlPath, err := exec.LookPath("psql")
	if err != nil {
		t.Fatalf("psql is not installed (.ci/run installs postgresql-client): %v", err)
	}
	stdbuf, err := exec.LookPath("stdbuf")
	if err != nil {
		t.Fatalf("stdbuf (coreutils) is missing: %v", err)
	}
	srv := be.start(t)
	w := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE ps_sub (id INT PRIMARY KEY, v TEXT)")
	mustExec(t, w, "INSERT INTO ps_sub VALUES (0, 'before')")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, stdbuf, "-oL", psqlPath, "-X", "-v", "ON_ERROR_STOP=1", "-d", srv.ConnString(),
		"-c", "COPY (SUBSCRIBE ps_sub WITH (PROGRESS = false)) TO STDOUT")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	expect := func(want string) {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("psql ended before %q", want)
			}
			f := strings.Split(l, "\t")
			if len(f) != 6 {
				t.Fatalf("line %q has %d fields", l, len(f))
			}
			// change type, key and value; bucket, offset and time vary.
			if got := f[0] + " " + f[4] + " " + f[5]; got != want {
				t.Fatalf("line %q: got %q, want %q", l, got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no line for %q within 10s", want)
		}
	}
	expect("+I 0 before") // the snapshot
	for i := 1; i <= 5; i++ {
		mustExec(t, w, fmt.Sprintf("INSERT INTO ps_sub VALUES (%d, 'v%d')", i, i))
		expect(fmt.Sprintf("+I %d v%d", i, i))
	}
	mustExec(t, w, be.change("ps_sub", "v = 'new'", "id = 3", "(3, 'new')"))
	expect("-U 3 v3")
	expect("+U 3 new")
	mustExec(t, w, "BEGIN; DELETE FROM ps_sub WHERE id = 4; ROLLBACK")
	mustExec(t, w, "DELETE FROM ps_sub WHERE id = 5")
	expect("-D 5 v5")
}

func TestSubscribePsycopg2(t *testing.T) { subscribePsycopg2(t, embeddedBackend) }

func subscribePsycopg2(t *testing.T, be subscribeBackend) {
	if out, err := exec.Command(debianPython, "-c", "import psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("psycopg2 is not installed (.ci/run installs python3-psycopg2): %v\n%s", err, out)
	}
	srv := be.start(t)
	host, port := hostPort(t, srv.Addr().String())
	args := []string{filepath.Join("python", "subscribe_cursor.py"), "host=" + host + " port=" + port + " dbname=sqlgate user=sqlgate sslmode=disable"}
	if be.upsertOnly {
		args = append(args, "upsert")
	}
	out, err := exec.Command(debianPython, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("subscribe_cursor.py: %v\n%s", err, out)
	}
	want := "+I 0 0 1 one True\n+I 0 1 2 two True\n-U 0 2 1 one True\n+U 0 3 1 uno True\n-D 0 4 2 two True\n"
	if string(out) != want {
		t.Fatalf("psycopg2 named cursor over SUBSCRIBE:\n%s\nwant:\n%s", out, want)
	}
}

func TestSubscribePgJDBC(t *testing.T) { subscribePgJDBC(t, embeddedBackend) }

func subscribePgJDBC(t *testing.T, be subscribeBackend) {
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (.ci/run installs default-jdk-headless): %v", tool, err)
		}
	}
	if _, err := os.Stat(jdbcJar); err != nil {
		t.Fatalf("pgJDBC is not installed (.ci/run installs libpostgresql-jdbc-java): %v", err)
	}
	srv := be.start(t)
	dir := t.TempDir()
	if out, err := exec.Command("javac", "-encoding", "UTF-8", "-d", dir, "-cp", jdbcJar, filepath.Join("java", "Subscribe.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	host, port := hostPort(t, srv.Addr().String())
	url := "jdbc:postgresql://" + host + ":" + port + "/sqlgate?user=sqlgate&sslmode=disable"
	out, err := exec.Command("java", "-cp", jdbcJar+string(os.PathListSeparator)+dir, "Subscribe", url).CombinedOutput()
	if err != nil {
		t.Fatalf("pgJDBC subscribe: %v\n%s", err, out)
	}
	want := "cursor +A 0 1 a\ncursor +A 1 2 b\ncursor +A 2 3 c\n" +
		"fetchsize +A 3 4 d\nfetchsize +A 4 5 e\nfetchsize +A 5 6 f\nfetchsize +A 6 7 g\n"
	if string(out) != want {
		t.Fatalf("pgJDBC over SUBSCRIBE:\n%s\nwant:\n%s", out, want)
	}
}
