package pgtest

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestFreePortIsBindable(t *testing.T) {
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	if port <= 0 || port > 65535 {
		t.Fatalf("port %d out of range", port)
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("port %d from FreePort is not bindable: %v", port, err)
	}
	l.Close()
}

func TestStartServesQueriesAndStopShutsDown(t *testing.T) {
	srv := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatalf("connect %s: %v", srv.ConnString(), err)
	}
	var version string
	if err := conn.QueryRow(ctx, "SHOW server_version_num").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if len(version) != 6 || version[:2] != "15" {
		t.Fatalf("server_version_num = %q, want 15xxxx", version)
	}
	var fsync string
	if err := conn.QueryRow(ctx, "SHOW fsync").Scan(&fsync); err != nil {
		t.Fatal(err)
	}
	if fsync != "off" {
		t.Fatalf("fsync = %q, want off", fsync)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE t (a int); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatalf("write: %v", err)
	}
	conn.Close(ctx)

	if err := srv.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatalf("second stop: %v", err)
	}
	if c, err := pgx.Connect(ctx, srv.ConnString()); err == nil {
		c.Close(ctx)
		t.Fatal("server still accepts connections after Stop")
	}
}

func TestTwoClustersRunSideBySide(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	a, err := StartCluster(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Stop()
	b, err := StartCluster(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	if a.Port() == b.Port() || a.Dir() == b.Dir() {
		t.Fatalf("clusters share port or directory: %d/%s and %d/%s", a.Port(), a.Dir(), b.Port(), b.Dir())
	}
	for _, srv := range []*Server{a, b} {
		conn, err := pgx.Connect(ctx, srv.ConnString())
		if err != nil {
			t.Fatalf("connect %s: %v", srv.ConnString(), err)
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT 40 + 2").Scan(&n); err != nil || n != 42 {
			t.Fatalf("SELECT 40 + 2 = %d, %v", n, err)
		}
		conn.Close(ctx)
	}
	if err := a.Stop(); err != nil {
		t.Fatal(err)
	}
	// Stopping one cluster must leave the other serving.
	conn, err := pgx.Connect(ctx, b.ConnString())
	if err != nil {
		t.Fatalf("second cluster died with the first: %v", err)
	}
	conn.Close(ctx)
}

func TestStopRemovesDirectoriesItCreatedOutsideCallerDir(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := StartCluster(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	owned := append([]string(nil), srv.removeOnStop...)
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, d := range owned {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Stop (err=%v)", d, err)
		}
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"0123456789", 4, "...6789"},
	}
	for _, tc := range tests {
		if got := tail(tc.in, tc.n); got != tc.want {
			t.Errorf("tail(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// TestClustersFromTheTemplateAreFresh: clusters copied from the one
// template (template.go) share nothing: a table made in one is neither in
// the next cluster started nor in the template.
func TestClustersFromTheTemplateAreFresh(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a := Start(t)
	ca, err := pgx.Connect(ctx, a.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	ca.Close(ctx)
	cred, err := unprivilegedCredential()
	if err != nil {
		t.Fatal(err)
	}
	tmpl, ok := templateData(ctx, DefaultBinDir, cred)
	if !ok {
		t.Fatal("no template data directory")
	}
	if _, err := os.Stat(filepath.Join(tmpl, "postmaster.pid")); !os.IsNotExist(err) {
		t.Fatalf("the template has a postmaster.pid (err=%v): a cluster ran in it", err)
	}
	b := Start(t)
	cb, err := pgx.Connect(ctx, b.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_class WHERE relname = 'only_in_a'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("a table made in another cluster: count %d, %v", n, err)
	}
	var lc string
	if err := cb.QueryRow(ctx, "SHOW lc_ctype").Scan(&lc); err != nil || lc != "C.UTF-8" {
		t.Fatalf("lc_ctype = %q, %v: want initdb's options", lc, err)
	}
}
