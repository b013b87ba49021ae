package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/pgwire"
)

// logBuffer collects a server's JSON log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines are the log records whose message is msg (all for "").
func (b *logBuffer) lines(t *testing.T, msg string) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %s", l)
		}
		if msg == "" || m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// logServer starts a server logging JSON into a buffer, with alice (not
// a superuser) and admin (a superuser).
func logServer(t *testing.T, minDuration string, params bool) (*logBuffer, func(user string) *pgx.Conn) {
	t.Helper()
	lb := &logBuffer{}
	var users pgwire.Users
	for _, u := range []string{"admin", "alice"} {
		if err := users.SetPassword(u, u+"-pw", false); err != nil {
			t.Fatal(err)
		}
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	srv, err := Start(context.Background(), Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(t.TempDir(), "d"),
		Logger: slog.New(slog.NewJSONHandler(lb, nil)), LogMinDurationStatement: minDuration, LogParameters: params,
		Auth: pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: &users, FailureDelay: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	})
	return lb, func(user string) *pgx.Conn {
		c, err := pgx.Connect(context.Background(), "postgres://"+user+":"+user+"-pw@"+srv.Addr().String()+"/sqlgate?sslmode=disable")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
}

// TestSlowQueryLog: with log_min_duration_statement 0 every statement is
// logged with its text, duration, rows and plan; parameter values only
// with LogParameters; every error once, with its SQLSTATE.
func TestSlowQueryLog(t *testing.T) {
	for _, params := range []bool{false, true} {
		lb, connect := logServer(t, "0", params)
		ctx := context.Background()
		admin := connect("admin")
		for _, s := range []string{"CREATE TABLE sl (id INT PRIMARY KEY, secret TEXT)", "INSERT INTO sl VALUES (1, 'a'), (2, 'b')"} {
			if _, err := admin.Exec(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		var got string
		if err := admin.QueryRow(ctx, "SELECT secret FROM sl WHERE id = $1", 2).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if _, err := admin.Exec(ctx, "SELECT missing FROM sl"); err == nil {
			t.Fatal("bad column accepted")
		}
		var sel map[string]any
		for _, l := range lb.lines(t, "duration") {
			if l["statement"] == "SELECT secret FROM sl WHERE id = $1" {
				sel = l
			}
		}
		if sel == nil {
			t.Fatalf("the SELECT is not logged: %v", lb.lines(t, ""))
		}
		if sel["rows"] != 1.0 || sel["tag"] != "SELECT 1" || sel["duration_ms"] == nil || sel["pid"] == nil || sel["user"] != "admin" {
			t.Errorf("slow-query line: %v", sel)
		}
		if p, _ := sel["plan"].(string); !strings.Contains(p, "sl") {
			t.Errorf("plan summary %q does not name the table", sel["plan"])
		}
		switch {
		case params && sel["parameters"] != "$1 = '2'":
			t.Errorf("with LogParameters: parameters %v", sel["parameters"])
		case !params && (sel["parameters"] != nil || sel["parameters_redacted"] != 1.0):
			t.Errorf("without LogParameters: %v", sel)
		}
		var errs int
		for _, l := range lb.lines(t, "") {
			if l["sqlstate"] == "42703" && l["level"] == "ERROR" {
				errs++
				if l["statement"] != "SELECT missing FROM sl" || l["msg"] != `column "missing" does not exist` {
					t.Errorf("error line: %v", l)
				}
			}
		}
		if errs != 1 {
			t.Errorf("the 42703 is logged %d times, want once", errs)
		}
	}
}

// TestLogMinDurationSetting: SHOW and SET of log_min_duration_statement as
// in PostgreSQL (superusers only, units, range), and the threshold holds.
func TestLogMinDurationSetting(t *testing.T) {
	lb, connect := logServer(t, "1min", false)
	ctx := context.Background()
	admin, alice := connect("admin"), connect("alice")
	show := func(c *pgx.Conn) string {
		var v string
		if err := c.QueryRow(ctx, "SHOW log_min_duration_statement").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := show(alice); v != "1min" {
		t.Errorf("server default: %q", v)
	}
	if _, err := alice.Exec(ctx, "SET log_min_duration_statement = 0"); pgCode(err) != "42501" {
		t.Errorf("non-superuser SET: %v", err)
	}
	for _, c := range []struct{ in, show, code string }{
		{"250", "250ms", ""}, {"'1s'", "1s", ""}, {"60000", "1min", ""}, {"'1.5s'", "1500ms", ""},
		{"-1", "-1", ""}, {"'abc'", "", "22023"}, {"-5", "", "22023"},
	} {
		_, err := admin.Exec(ctx, "SET log_min_duration_statement = "+c.in)
		if pgCode(err) != c.code {
			t.Errorf("SET %s: %v, want %q", c.in, err, c.code)
			continue
		}
		if c.code == "" {
			if v := show(admin); v != c.show {
				t.Errorf("SET %s: SHOW %q, want %q", c.in, v, c.show)
			}
		}
	}
	if _, err := admin.Exec(ctx, "RESET log_min_duration_statement"); err != nil || show(admin) != "1min" {
		t.Errorf("RESET: %v %q", err, show(admin))
	}
	// Under the threshold nothing is logged; at 0 the session logs all.
	if _, err := alice.Exec(ctx, "SELECT 1 AS fast"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "SET log_min_duration_statement = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "SELECT 2 AS logged"); err != nil {
		t.Fatal(err)
	}
	var fast, logged int
	for _, l := range lb.lines(t, "duration") {
		switch l["statement"] {
		case "SELECT 1 AS fast":
			fast++
		case "SELECT 2 AS logged":
			logged++
		}
	}
	if fast != 0 || logged != 1 {
		t.Errorf("fast statement logged %d times, the one at 0 %d times", fast, logged)
	}
}
