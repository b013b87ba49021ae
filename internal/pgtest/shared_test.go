package pgtest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestSharedDatabasesAreSeparate: two databases of one Shared cluster are
// one cluster (one port) but separate databases (a table made in one is
// not in the other), Conn connects to a third, and each is dropped by its
// test's cleanup.
func TestSharedDatabasesAreSeparate(t *testing.T) {
	var shared Shared
	defer func() {
		if err := shared.Stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var names []string
	var port int
	t.Run("first", func(t *testing.T) {
		db := shared.Database(t)
		names = append(names, db.Name())
		port = db.Port()
		c, err := pgx.Connect(ctx, db.ConnString())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "CREATE TABLE t (a int)"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("second", func(t *testing.T) {
		db := shared.Database(t)
		names = append(names, db.Name())
		if db.Port() != port {
			t.Errorf("second database on port %d, the first on %d: want one cluster", db.Port(), port)
		}
		c, err := pgx.Connect(ctx, db.ConnString())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		var current string
		var tables int
		if err := c.QueryRow(ctx, "SELECT current_database(), (SELECT count(*) FROM pg_class WHERE relname = 't')").Scan(&current, &tables); err != nil {
			t.Fatal(err)
		}
		if current != db.Name() || tables != 0 {
			t.Errorf("connected to %s with %d tables t, want %s with none", current, tables, db.Name())
		}
	})
	// Conn: a connection to a third database of its own on the cluster.
	t.Run("conn", func(t *testing.T) {
		c := shared.Conn(t)
		var current string
		var tables int
		if err := c.QueryRow(ctx, "SELECT current_database(), (SELECT count(*) FROM pg_class WHERE relname = 't')").Scan(&current, &tables); err != nil {
			t.Fatal(err)
		}
		if c.PgConn().Conn().RemoteAddr().String() != "127.0.0.1:"+strconv.Itoa(port) || current == "postgres" || tables != 0 {
			t.Errorf("Conn: %s, database %s with %d tables t; want the cluster on port %d, a database of its own, none", c.PgConn().Conn().RemoteAddr(), current, tables, port)
		}
		names = append(names, current)
	})
	if len(names) != 3 || names[0] == names[1] || names[1] == names[2] || names[0] == names[2] {
		t.Fatalf("database names %v, want three different", names)
	}
	c, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:"+strconv.Itoa(port)+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var left int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = ANY($1)", names).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d of the tests' databases left after their cleanups, want none", left)
	}
}

// BenchmarkClusterStartStop and BenchmarkSharedDatabase are the two ways a
// test gets an empty PostgreSQL database: a cluster of its own (Start) or
// a database on a Shared cluster.
func BenchmarkClusterStartStop(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		s, err := StartCluster(ctx, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		c, err := pgx.Connect(ctx, s.ConnString())
		if err != nil {
			b.Fatal(err)
		}
		c.Close(ctx)
		if err := s.Stop(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSharedDatabase(b *testing.B) {
	var shared Shared
	defer shared.Stop()
	ctx := context.Background()
	if _, _, err := shared.create(ctx); err != nil { // the cluster's start is not timed
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		srv, name, err := shared.create(ctx)
		if err != nil {
			b.Fatal(err)
		}
		db := &Database{srv: srv, name: name}
		c, err := pgx.Connect(ctx, db.ConnString())
		if err != nil {
			b.Fatal(err)
		}
		c.Close(ctx)
		if err := execAdmin(ctx, srv, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			b.Fatal(err)
		}
	}
}
