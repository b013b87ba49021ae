package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestNotifyDifferential runs random sequences of two sessions' LISTEN,
// UNLISTEN, NOTIFY and pg_notify among transaction control (BEGIN,
// COMMIT, ROLLBACK, savepoints, a failing statement that aborts a block or
// a Query string, Query strings of several statements, DISCARD ALL) on
// sqlgate and PostgreSQL 15, and compares after every step the step's
// outcome and the notifications each session received (channel, payload,
// and whether it was its own), once both sessions went idle: which
// transactions' notifications are delivered, to whom, in which order,
// deduplicated how, and which LISTENs are in force.
func TestNotifyDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	type pair struct{ sg, pg *notifySession }
	var sessions [2]pair
	for i := range sessions {
		sessions[i] = pair{newNotifySession(t, ctx, r.SQLGate.(*Session).connString), newNotifySession(t, ctx, r.Postgres.(*Session).connString)}
	}
	rng := seededRand(t, 131)
	const sequences, steps = 150, 16
	differed := 0
	for n := 0; n < sequences; n++ {
		// Each sequence starts with both sessions listening to a, so
		// that most notifications have somebody to reach.
		for _, s := range sessions {
			s.sg.run(ctx, "LISTEN a")
			s.pg.run(ctx, "LISTEN a")
		}
		var done []string
		for k := 0; k < steps; k++ {
			who := rng.IntN(2)
			stmt := notifyStep(rng)
			switch rng.IntN(6) {
			case 0:
				stmt += "; " + notifyStep(rng)
			case 1:
				stmt += "; " + stmt // a duplicate in one transaction
			}
			run := (*notifySession).run
			if rng.IntN(5) == 0 && !strings.Contains(stmt, "DISCARD") {
				// the extended protocol: the statements as one pipeline
				// (not DISCARD ALL, which sqlgate refuses as the first
				// statement of a pipeline where PostgreSQL runs it: a
				// difference of its own, reported)
				run = (*notifySession).pipeline
				stmt = "pipeline " + stmt
			}
			done = append(done, fmt.Sprintf("%c: %s", 'A'+who, stmt))
			a, b := run(sessions[who].sg, ctx, stmt), run(sessions[who].pg, ctx, stmt)
			if a == b {
				// Both sessions idle again (an empty Query): what each
				// was sent by now, pushed or before its ReadyForQuery.
				for i := range sessions {
					sessions[i].sg.run(ctx, "")
					sessions[i].pg.run(ctx, "")
				}
				a = sessions[0].sg.received(sessions[1].sg) + " / " + sessions[1].sg.received(sessions[0].sg)
				b = sessions[0].pg.received(sessions[1].pg) + " / " + sessions[1].pg.received(sessions[0].pg)
			}
			if a != b {
				differed++
				if differed <= 6 {
					t.Errorf("sequence %d differs after %q\nsequence: %s\nsqlgate:    %s\npostgresql: %s", n, stmt, strings.Join(done, " | "), a, b)
				}
				break
			}
		}
		for _, s := range sessions {
			for _, c := range []*notifySession{s.sg, s.pg} {
				c.run(ctx, "ROLLBACK")
				c.run(ctx, "UNLISTEN *")
				c.notes = c.notes[:0]
			}
		}
	}
	if differed > 0 {
		t.Errorf("%d of %d sequences differed", differed, sequences)
	}
}

// notifyStep draws one statement of TestNotifyDifferential.
func notifyStep(rng *rand.Rand) string {
	channel := []string{"a", "a", `"B"`}[rng.IntN(3)]
	payload := []string{"", "x"}[rng.IntN(2)]
	switch rng.IntN(20) {
	case 0, 1, 2, 17, 18:
		if payload == "" {
			return "NOTIFY " + channel
		}
		return "NOTIFY " + channel + ", '" + payload + "'"
	case 3:
		return "SELECT pg_notify('" + strings.Trim(channel, `"`) + "', '" + payload + "')"
	case 4, 5:
		return "LISTEN " + channel
	case 6:
		return "UNLISTEN " + channel
	case 7:
		return "UNLISTEN *"
	case 8, 9:
		return "BEGIN"
	case 10:
		return "COMMIT"
	case 11:
		return "ROLLBACK"
	case 12:
		return "SAVEPOINT s"
	case 13:
		return "ROLLBACK TO SAVEPOINT s"
	case 14:
		return "RELEASE SAVEPOINT s"
	case 15:
		return "SELECT 1/0"
	case 16:
		return "DISCARD ALL"
	}
	return "SELECT * FROM pg_listening_channels()"
}

// notifySession is one connection that records the notifications it
// receives.
type notifySession struct {
	t     *testing.T
	conn  *pgconn.PgConn
	notes []*pgconn.Notification
}

func newNotifySession(t *testing.T, ctx context.Context, connString string) *notifySession {
	t.Helper()
	cfg, err := pgconn.ParseConfig(connString)
	if err != nil {
		t.Fatal(err)
	}
	s := &notifySession{t: t}
	cfg.OnNotification = func(_ *pgconn.PgConn, n *pgconn.Notification) { s.notes = append(s.notes, n) }
	if s.conn, err = pgconn.ConnectConfig(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.conn.Close(context.Background()) })
	return s
}

// run sends stmt as one Query and describes what came back.
func (s *notifySession) run(ctx context.Context, stmt string) string {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	results, err := s.conn.Exec(qctx, stmt).ReadAll()
	out := describeResults(s.t, stmt, results, err)
	out = append(out, "status "+string(s.conn.TxStatus()))
	return strings.Join(out, "; ")
}

// pipeline sends the statements of "pipeline s1; s2" as one
// extended-protocol pipeline (Parse, Bind, Execute each, one Sync) and
// describes what came back.
func (s *notifySession) pipeline(ctx context.Context, stmts string) string {
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	b := &pgconn.Batch{}
	for _, st := range strings.Split(strings.TrimPrefix(stmts, "pipeline "), "; ") {
		b.ExecParams(st, nil, nil, nil, nil)
	}
	results, err := s.conn.ExecBatch(qctx, b).ReadAll()
	out := describeResults(s.t, stmts, results, err)
	out = append(out, "status "+string(s.conn.TxStatus()))
	return strings.Join(out, "; ")
}

// received describes and forgets the notifications s got, naming their
// sender self or other (process ids differ between the servers).
func (s *notifySession) received(other *notifySession) string {
	var out []string
	for _, n := range s.notes {
		from := "?"
		switch n.PID {
		case s.conn.PID():
			from = "self"
		case other.conn.PID():
			from = "other"
		}
		out = append(out, n.Channel+"/"+n.Payload+"/"+from)
	}
	s.notes = s.notes[:0]
	return "[" + strings.Join(out, " ") + "]"
}
