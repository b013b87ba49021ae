package isolation

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestNotify checks LISTEN / NOTIFY between two sessions on the wire,
// against sqlgate and PostgreSQL 15 with the same assertions: delivery at
// commit only (none after a rollback), in commit order, duplicates of a
// transaction once, the sender's process id, the sender receiving its own
// when it listens, a listener in a transaction block receiving only after
// it, an idle listener receiving without sending anything, UNLISTEN *.
func TestNotify(t *testing.T) {
	for _, tg := range targets(t) {
		t.Run(tg.name, func(t *testing.T) {
			l, s := connect(t, tg.conn), connect(t, tg.conn)
			// Enough lone round trips that sqlgate's listener blocks its
			// thread in read(2) (blockwait_linux.go) before it listens:
			// the notification must still reach it.
			for i := 0; i < 40; i++ {
				mustExec(t, l, "SELECT 1")
			}
			mustExec(t, l, "LISTEN jobs")
			sender := s.PgConn().PID()

			// Nothing before the sender commits, then its notification,
			// pushed to the idle listener, which sends nothing meanwhile.
			mustExec(t, s, "BEGIN")
			mustExec(t, s, "NOTIFY jobs, 'first'")
			expectNone(t, l)
			mustExec(t, s, "COMMIT")
			expectNotes(t, l, note{sender, "jobs", "first"})

			// A rolled-back transaction's notification never comes; the
			// next committed one does.
			mustExec(t, s, "BEGIN")
			mustExec(t, s, "NOTIFY jobs, 'rolled back'")
			mustExec(t, s, "ROLLBACK")
			// A statement that fails after pg_notify ran for some of its
			// rows (in both protocols) is rolled back with them.
			for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
				_, err := s.Exec(context.Background(), "SELECT pg_notify('jobs', x::text), 1/(x-150000) FROM generate_series(1, 200000) x WHERE x % 50000 = 0", mode)
				if sqlState(err) != "22012" {
					t.Fatalf("failing statement (mode %v): %v", mode, err)
				}
			}
			mustExec(t, s, "SELECT pg_notify('jobs', 'after')")
			expectNotes(t, l, note{sender, "jobs", "after"})

			// Order of commits, duplicates within a transaction once.
			mustExec(t, s, "BEGIN")
			mustExec(t, s, "NOTIFY jobs, 'a'")
			mustExec(t, s, "NOTIFY jobs, 'b'")
			mustExec(t, s, "NOTIFY jobs, 'a'")
			mustExec(t, s, "NOTIFY other, 'not listened'")
			mustExec(t, s, "COMMIT")
			mustExec(t, s, "NOTIFY jobs, 'c'")
			mustExec(t, s, "NOTIFY jobs, 'c'") // another transaction: sent again
			expectNotes(t, l, note{sender, "jobs", "a"}, note{sender, "jobs", "b"}, note{sender, "jobs", "c"}, note{sender, "jobs", "c"})

			// The extended protocol: a statement's implicit transaction
			// commits at Sync; a pipeline that fails rolls back the
			// notifications of its statements before the error too.
			if _, err := s.Exec(context.Background(), "SELECT pg_notify($1, $2)", "jobs", "extended"); err != nil {
				t.Fatal(err)
			}
			expectNotes(t, l, note{sender, "jobs", "extended"})
			b := &pgx.Batch{}
			b.Queue("SELECT pg_notify('jobs', 'pipeline rolled back')")
			b.Queue("SELECT 1/0")
			if err := s.SendBatch(context.Background(), b).Close(); sqlState(err) != "22012" {
				t.Fatalf("failing pipeline: %v", err)
			}
			b = &pgx.Batch{}
			b.Queue("SELECT pg_notify('jobs', 'pipeline 1')")
			b.Queue("SELECT pg_notify('jobs', 'pipeline 2')")
			if err := s.SendBatch(context.Background(), b).Close(); err != nil {
				t.Fatal(err)
			}
			expectNotes(t, l, note{sender, "jobs", "pipeline 1"}, note{sender, "jobs", "pipeline 2"})

			// A sender that listens receives its own, as everyone does.
			mustExec(t, s, "LISTEN jobs")
			mustExec(t, s, "NOTIFY jobs, 'self'")
			expectNotes(t, s, note{sender, "jobs", "self"})
			expectNotes(t, l, note{sender, "jobs", "self"})
			mustExec(t, s, "UNLISTEN jobs")

			// A listener inside a transaction block receives after it
			// ends, not before.
			mustExec(t, l, "BEGIN")
			mustExec(t, s, "NOTIFY jobs, 'during block'")
			expectNone(t, l)
			mustExec(t, l, "COMMIT")
			expectNotes(t, l, note{sender, "jobs", "during block"})

			// A first LISTEN counts from its commit: what was committed
			// before is not received.
			f := connect(t, tg.conn)
			mustExec(t, f, "BEGIN")
			mustExec(t, f, "LISTEN later")
			mustExec(t, s, "NOTIFY later, 'before the listen committed'")
			mustExec(t, f, "COMMIT")
			mustExec(t, s, "NOTIFY later, 'after'")
			expectNotes(t, f, note{sender, "later", "after"})
			// A session that listens already reads what waited unread
			// with the channels it listens to when it reads: a LISTEN
			// committed in between makes it received, as PostgreSQL's
			// queue does. First l reads what is queued now (as an idle
			// PostgreSQL backend does when NOTIFY's signal comes, which
			// a loaded machine may let sqlgate's push trail): nothing on
			// channels it listens to.
			mustExec(t, l, "SELECT 1")
			expectNone(t, l)
			mustExec(t, l, "BEGIN")
			mustExec(t, l, "LISTEN later")
			mustExec(t, s, "NOTIFY later, 'while the listener was in a block'")
			mustExec(t, l, "COMMIT")
			mustExec(t, s, "NOTIFY later, 'then'")
			expectNotes(t, l, note{sender, "later", "while the listener was in a block"}, note{sender, "later", "then"})

			// UNLISTEN * ends it all.
			mustExec(t, l, "UNLISTEN *")
			var n int
			if err := l.QueryRow(context.Background(), "SELECT count(*) FROM pg_listening_channels()").Scan(&n); err != nil || n != 0 {
				t.Fatalf("pg_listening_channels after UNLISTEN *: %d, %v", n, err)
			}
			mustExec(t, s, "NOTIFY jobs, 'nobody'")
			expectNone(t, l)

			// The limits, with PostgreSQL's SQLSTATE.
			_, err := s.Exec(context.Background(), "SELECT pg_notify('jobs', repeat('x', 8000))")
			if sqlState(err) != "22023" {
				t.Errorf("payload of 8000 bytes: %v, want 22023", err)
			}
		})
	}
}

type note struct {
	pid              uint32
	channel, payload string
}

// expectNotes waits for want, in order, on c.
func expectNotes(t *testing.T, c *pgx.Conn, want ...note) {
	t.Helper()
	for _, w := range want {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n, err := c.WaitForNotification(ctx)
		cancel()
		if err != nil {
			t.Fatalf("waiting for %+v: %v", w, err)
		}
		if got := (note{n.PID, n.Channel, n.Payload}); got != w {
			t.Fatalf("notification %+v, want %+v", got, w)
		}
	}
}

// expectNone checks that no notification reaches c for a while.
func expectNone(t *testing.T, c *pgx.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	n, err := c.WaitForNotification(ctx)
	if err == nil {
		t.Fatalf("unexpected notification %+v", *n)
	}
	if !errors.Is(err, context.DeadlineExceeded) && !pgconn.Timeout(err) {
		t.Fatalf("waiting for no notification: %v", err)
	}
}
