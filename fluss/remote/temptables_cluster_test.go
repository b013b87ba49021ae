//go:build fluss_cluster

package remote_test

// CREATE TEMP TABLE on a cluster: each session's temporary tables are its
// own (two servers' sessions, whose process ids may be equal, included),
// and they are dropped when the session ends.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlgate/sqlgate/fluss/remote"
)

func TestClusterTempTablesPerSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := remote.OpenStore(ctx, remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tempDBs := func() []string {
		t.Helper()
		dbs, err := st.ListDatabases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(dbs, func(d string) bool { return !strings.HasPrefix(d, "pg_temp_") })
	}
	before := tempDBs()
	a, b := startTrustServer(t, ctx, 0), startTrustServer(t, ctx, 0)
	ca, cb := connectTrust(t, ctx, a), connectTrust(t, ctx, b)
	for i, conn := range []*pgx.Conn{ca, cb} {
		for _, sql := range []string{"CREATE TEMP TABLE tt (a INT)", fmt.Sprintf("INSERT INTO tt VALUES (%d)", i)} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	}
	for i, conn := range []*pgx.Conn{ca, cb} {
		var got []int32
		rows, err := conn.Query(ctx, "SELECT a FROM tt")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v int32
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		}
		if err := rows.Err(); err != nil || len(got) != 1 || got[0] != int32(i) {
			t.Fatalf("session %d reads %v, %v from its temporary table; want [%d]", i, got, err, i)
		}
	}
	if n := len(tempDBs()) - len(before); n != 2 {
		t.Fatalf("%d temporary schemas made, want 2 (one per session)", n)
	}
	ca.Close(ctx)
	cb.Close(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for {
		after := tempDBs()
		if slices.Equal(after, before) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("temporary schemas after the sessions ended: %v, before they began: %v", after, before)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
