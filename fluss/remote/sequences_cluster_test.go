//go:build fluss_cluster

package remote_test

// Sequences on a cluster (sequences.go): two sqlgate servers draw from one
// sequence at once, and a server that dies with values reserved, or one
// that restarts, never hands out a value twice.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
)

func TestClusterSequencesTwoServersNeverRepeat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	a, b := startTrustServer(t, ctx, 0), startTrustServer(t, ctx, 0)
	sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
	seq, tab := "seq_"+sfx, "ser_"+sfx
	ca := connectTrust(t, ctx, a)
	if _, err := ca.Exec(ctx, "CREATE SEQUENCE "+seq); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ca.Exec(context.Background(), "DROP SEQUENCE IF EXISTS "+seq) })
	if _, err := ca.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id SERIAL PRIMARY KEY, v TEXT)", tab)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ca.Exec(context.Background(), "DROP TABLE IF EXISTS "+tab) })

	// Four connections per server, each drawing values one statement at a
	// time (a reservation of 100 values every 100 calls per server) and
	// inserting rows that take their id from the SERIAL column.
	const perConn = 130
	var mu sync.Mutex
	seen := map[int64]string{}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for si, srv := range []*server.Server{a, b} {
		for c := 0; c < 4; c++ {
			conn := connectTrust(t, ctx, srv)
			who := fmt.Sprintf("%c/%d", 'A'+si, c)
			wg.Add(1)
			go func() {
				defer wg.Done()
				prev := int64(0)
				for i := 0; i < perConn; i++ {
					var v int64
					if err := conn.QueryRow(ctx, "SELECT nextval('"+seq+"')").Scan(&v); err != nil {
						errs <- fmt.Errorf("%s: nextval: %w", who, err)
						return
					}
					if v <= prev {
						errs <- fmt.Errorf("%s: nextval gave %d after %d", who, v, prev)
						return
					}
					prev = v
					mu.Lock()
					if o, dup := seen[v]; dup {
						mu.Unlock()
						errs <- fmt.Errorf("value %d handed out twice (%s and %s)", v, o, who)
						return
					}
					seen[v] = who
					mu.Unlock()
					if i%10 == 0 {
						if _, err := conn.Exec(ctx, fmt.Sprintf("INSERT INTO %s (v) VALUES ('%s'), ('%s')", tab, who, who)); err != nil {
							errs <- fmt.Errorf("%s: insert: %w", who, err)
							return
						}
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(seen) != 8*perConn {
		t.Fatalf("%d values, want %d", len(seen), 8*perConn)
	}
	var n, distinct int64
	if err := ca.QueryRow(ctx, fmt.Sprintf("SELECT count(*), count(DISTINCT id) FROM %s", tab)).Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n != 8*(perConn/10)*2 || distinct != n {
		t.Fatalf("SERIAL rows: %d, %d distinct ids; want %d, all distinct", n, distinct, 8*(perConn/10)*2)
	}

	// A server that dies holding a block (no release: its connections are
	// dropped) and one that restarts: the values they held are skipped,
	// not handed out again.
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: seq}
	boot := strings.Split(remote.ClusterBootstrap(), ",")
	for _, crash := range []bool{true, false} {
		st, err := remote.OpenStore(ctx, remote.Config{Bootstrap: boot})
		if err != nil {
			t.Fatal(err)
		}
		v, err := st.NextValue(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := seen[v]; dup {
			t.Fatalf("a new server's nextval gave %d, handed out before", v)
		}
		seen[v] = "store"
		if crash {
			st.Client().Close()
		} else {
			st.Close()
		}
	}
	for _, conn := range []*pgx.Conn{ca, connectTrust(t, ctx, b)} {
		for i := 0; i < 150; i++ {
			var v int64
			if err := conn.QueryRow(ctx, "SELECT nextval('"+seq+"')").Scan(&v); err != nil {
				t.Fatal(err)
			}
			if o, dup := seen[v]; dup {
				t.Fatalf("value %d handed out twice (%s and after the restarts)", v, o)
			}
			seen[v] = "after"
		}
	}
}
