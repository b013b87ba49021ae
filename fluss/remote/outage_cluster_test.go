//go:build fluss_cluster

package remote_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
)

// outageBound is how long a statement may take to fail while the whole
// cluster is down: the client's retries of a refused connection (8, backoff
// capped at 2s) take about 7s; a hang would take the test's timeout.
const outageBound = 30 * time.Second

// TestClusterWholeOutage (issue 26, acceptance 4, second half): sqlgate in
// front of a cluster of its own; the whole cluster is stopped (its data
// kept) while a client queries in a loop. Statements running when it stops
// and statements started while it is down fail within outageBound with a
// connection-failure SQLSTATE (class 08, or 57P01), never hang and never
// XX000; once the cluster is back on the same ports, the same sqlgate
// server (no restart) serves again and reads the rows written before.
func TestClusterWholeOutage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	bs, stop, err := remote.StartCluster(dir, "SQLGATE_FLUSS_TABLETS=1")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	script, _ := filepath.Abs("../../scripts/fluss-cluster.sh")
	cluster := func(cmd string) {
		t.Helper()
		c := exec.Command(script, cmd)
		c.Env, c.Stdout, c.Stderr = append(os.Environ(), "SQLGATE_FLUSS_DIR="+dir), os.Stderr, os.Stderr
		if err := c.Run(); err != nil {
			t.Fatalf("fluss-cluster.sh %s: %v", cmd, err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(bs, ",")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(context.Background())
	url := fmt.Sprintf("postgres://sqlgate@%s/sqlgate?sslmode=disable", srv.Addr())
	connect := func() *pgx.Conn {
		t.Helper()
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	conn := connect()
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE TABLE outage (id int PRIMARY KEY, s text)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO outage SELECT g, 'v' || g FROM generate_series(1, 200) g"); err != nil {
		t.Fatal(err)
	}
	const check = "SELECT count(*), sum(id), min(s), max(s) FROM outage"
	const want = "200 20100 v1 v99\n"
	read := func(c *pgx.Conn, sql string) (string, error) {
		var n, sum int64
		var lo, hi string
		err := c.QueryRow(ctx, sql).Scan(&n, &sum, &lo, &hi)
		return fmt.Sprintln(n, sum, lo, hi), err
	}
	if got, err := read(conn, check); err != nil || got != want {
		t.Fatalf("before the outage: %q, %v; want %q", got, err, want)
	}

	// A client queries in a loop (scans and point lookups) across the stop.
	var mu sync.Mutex
	type outcome struct {
		took time.Duration
		err  error
	}
	var during []outcome
	stopLoop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(context.Background())
		for i := 0; ; i++ {
			select {
			case <-stopLoop:
				return
			default:
			}
			start := time.Now()
			var err error
			if i%2 == 0 {
				_, err = read(c, check)
			} else {
				var s string
				err = c.QueryRow(ctx, "SELECT s FROM outage WHERE id = $1", i%200+1).Scan(&s)
			}
			mu.Lock()
			during = append(during, outcome{time.Since(start), err})
			mu.Unlock()
		}
	}()
	time.Sleep(300 * time.Millisecond)
	stopped := time.Now()
	cluster("stop-keep")
	t.Logf("cluster stopped in %v", time.Since(stopped))

	// New statements, on the open connection and on a new one, fail with a
	// clear SQLSTATE within the bound.
	fresh := connect()
	defer fresh.Close(context.Background())
	for _, q := range []struct {
		name string
		c    *pgx.Conn
		sql  string
	}{
		{"scan on the open connection", conn, check},
		{"scan on a new connection", fresh, check},
		{"point lookup", fresh, "SELECT count(*), sum(id), min(s), max(s) FROM outage WHERE id = 7"},
		{"insert", fresh, "INSERT INTO outage VALUES (1000, 'lost')"},
	} {
		start := time.Now()
		var err error
		if strings.HasPrefix(q.sql, "INSERT") {
			_, err = q.c.Exec(ctx, q.sql)
		} else {
			_, err = read(q.c, q.sql)
		}
		took := time.Since(start)
		t.Logf("%s while the cluster is down: %v after %v", q.name, err, took)
		if !outageErr(err) {
			t.Errorf("%s while the cluster is down: %v, want SQLSTATE class 08 or 57P01", q.name, err)
		}
		if took > outageBound {
			t.Errorf("%s took %v to fail (bound %v)", q.name, took, outageBound)
		}
	}
	close(stopLoop)
	wg.Wait()
	failed := 0
	for _, o := range during {
		if o.took > outageBound {
			t.Errorf("a statement running across the stop took %v (bound %v): %v", o.took, outageBound, o.err)
		}
		if o.err != nil {
			failed++
			if !outageErr(o.err) {
				t.Errorf("a statement running across the stop: %v, want SQLSTATE class 08 or 57P01", o.err)
			}
		}
	}
	if failed == 0 {
		t.Errorf("none of the %d statements running across the stop failed", len(during))
	}
	t.Logf("%d statements across the stop, %d failed", len(during), failed)

	// The cluster comes back: the same sqlgate server serves again, on the
	// connections opened before, with the rows written before the outage.
	restarted := time.Now()
	cluster("restart")
	t.Logf("cluster restarted in %v", time.Since(restarted))
	var got string
	for {
		got, err = read(fresh, check)
		if err == nil {
			break
		}
		if !outageErr(err) {
			t.Fatalf("after the restart: %v", err)
		}
		if time.Since(restarted) > 2*time.Minute {
			t.Fatalf("sqlgate did not serve within 2 minutes of the cluster's restart: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("serving again %v after the restart began", time.Since(restarted))
	if got != want {
		t.Fatalf("after the restart: %q, want %q", got, want)
	}
	if got, err := read(conn, check); err != nil || got != want {
		t.Fatalf("after the restart, on the connection opened before: %q, %v", got, err)
	}
	if _, err := fresh.Exec(ctx, "INSERT INTO outage VALUES (201, 'v201')"); err != nil {
		t.Fatalf("write after the restart: %v", err)
	}
	var s string
	if err := fresh.QueryRow(ctx, "SELECT s FROM outage WHERE id = 201").Scan(&s); err != nil || s != "v201" {
		t.Fatalf("read back after the restart: %q, %v", s, err)
	}
}

// outageErr tells whether err is what a client should see while the
// cluster is down: a connection failure (class 08) or 57P01.
func outageErr(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01")
}
