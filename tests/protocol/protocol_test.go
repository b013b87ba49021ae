package protocol

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/server"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected output of testdata/*.txt from PostgreSQL's answers (keeping lines that still match)")

// The role both servers know with a password, for the SCRAM scripts.
const (
	scramUser     = "scram_user"
	scramPassword = "pencil"
)

// TestProtocol runs every testdata/*.txt script against PostgreSQL 15 and
// then, unchanged, against sqlgate.
func TestProtocol(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scripts in testdata")
	}
	targets := []target{startPostgres(t)}
	if !*rewrite {
		targets = append(targets, startSqlgate(t))
	}
	for _, tgt := range targets {
		t.Run(tgt.name, func(t *testing.T) {
			for _, f := range files {
				t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
					runScript(t, tgt, f)
				})
			}
		})
	}
}

func runScript(t *testing.T, tgt target, path string) {
	s, err := parseScript(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{tgt: tgt, conns: map[string]*client{}, timeout: 60 * time.Second}
	defer r.close()
	outputs := map[*directive][]string{}
	for _, d := range s.dirs {
		got, err := r.run(d)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", path, d.line, d.cmd, err)
		}
		if *rewrite {
			outputs[d] = keepMatching(d.expected, got)
			continue
		}
		if !linesMatch(d.expected, got) {
			t.Fatalf("%s:%d: %s %v\nwant:\n%s\ngot:\n%s", path, d.line, d.cmd, d.input,
				strings.Join(d.expected, "\n"), strings.Join(got, "\n"))
		}
	}
	if *rewrite {
		if err := s.rewrite(outputs); err != nil {
			t.Fatal(err)
		}
	}
}

func linesMatch(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if !matchLine(want[i], got[i]) {
			return false
		}
	}
	return true
}

// keepMatching is the rewritten expectation: got, except that a line whose
// old expectation (with its wildcards) still matches keeps that
// expectation.
func keepMatching(old, got []string) []string {
	out := make([]string, len(got))
	for i, g := range got {
		out[i] = g
		if i < len(old) && matchLine(old[i], g) {
			out[i] = old[i]
		}
	}
	return out
}

// startPostgres starts a throwaway PostgreSQL 15 with scramUser, who must
// authenticate with SCRAM-SHA-256 (everyone else is trusted, as in the
// cluster pgtest creates).
func startPostgres(t *testing.T) target {
	pg := pgtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgconn.Connect(ctx, pg.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	exec := func(sql string) string {
		res, err := conn.Exec(ctx, sql).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if len(res) > 0 && len(res[0].Rows) > 0 {
			return string(res[0].Rows[0][0])
		}
		return ""
	}
	// Not a superuser: is_superuser reads "off", as for a sqlgate user of
	// the users file.
	exec(fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", scramUser, scramPassword))
	hba := exec("SHOW hba_file")
	old, err := os.ReadFile(hba)
	if err != nil {
		t.Fatal(err)
	}
	rule := fmt.Sprintf("host all %s 127.0.0.1/32 scram-sha-256\n", scramUser)
	if err := os.WriteFile(hba, append([]byte(rule), old...), 0o600); err != nil {
		t.Fatal(err)
	}
	exec("SELECT pg_reload_conf()")
	// The postmaster reloads asynchronously: wait until a password-less
	// login of scramUser is refused.
	noPassword := strings.Replace(pg.ConnString(), "postgres@", scramUser+"@", 1)
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := pgconn.Connect(ctx, noPassword)
		if err != nil {
			break
		}
		c.Close(ctx)
		if time.Now().After(deadline) {
			t.Fatal("pg_hba.conf reload did not take effect")
		}
		time.Sleep(20 * time.Millisecond)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", pg.Port())
	return target{name: "postgres", addrs: map[string]string{"": addr, "scram": addr}}
}

// startSqlgate starts two in-process sqlgate servers on fresh data
// directories: one under trust (the default on loopback) and one with
// SCRAM-SHA-256 against a users file holding scramUser, as `sqlgate user
// add` writes it.
func startSqlgate(t *testing.T) target {
	start := func(cfg server.Config) string {
		srv, err := server.Start(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = srv.Stop(ctx)
		})
		return srv.Addr().String()
	}
	trust := start(server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir()})

	dir := t.TempDir()
	usersPath := filepath.Join(dir, "users.json")
	var users pgwire.Users
	if err := users.SetPassword(scramUser, scramPassword, false); err != nil {
		t.Fatal(err)
	}
	if err := users.Save(usersPath); err != nil {
		t.Fatal(err)
	}
	loaded, err := pgwire.LoadUsers(usersPath)
	if err != nil {
		t.Fatal(err)
	}
	scram := start(server.Config{
		Listen:  "127.0.0.1:0",
		DataDir: filepath.Join(dir, "data"),
		// PostgreSQL answers a wrong password at once (no auth_delay).
		Auth: pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: loaded, FailureDelay: -1},
	})
	return target{name: "sqlgate", addrs: map[string]string{"": trust, "scram": scram}}
}
