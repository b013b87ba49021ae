package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAdvisoryLocksDifferential runs random interleavings of two sessions'
// advisory lock calls (session- and transaction-level, share and
// exclusive, bigint and two-integer keys, the try forms, unlocks of locks
// held and not held, unlock_all, DISCARD ALL), transaction control
// (BEGIN, COMMIT, ROLLBACK, savepoints, a failing statement that aborts a
// block), Query strings of several statements (one implicit transaction)
// and the blocking forms under a short lock_timeout, on sqlgate and
// PostgreSQL 15, and compares after every step the outcome (rows or
// SQLSTATE and message, warnings, transaction status) and what pg_locks
// shows of each session's advisory locks: who gets which lock, how many
// times a lock must be unlocked, and when a transaction's locks end.
func TestAdvisoryLocksDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	type pair struct{ sg, pg *noticeSession }
	var sessions [2]pair
	for i := range sessions {
		sessions[i] = pair{noticeConn(t, ctx, r.SQLGate.(*Session).connString), noticeConn(t, ctx, r.Postgres.(*Session).connString)}
		for _, c := range []*noticeSession{sessions[i].sg, sessions[i].pg} {
			c.run(ctx, "SET lock_timeout = '40ms'")
		}
	}
	rng := seededRand(t, 47)
	const sequences, steps = 120, 16
	const held = "SELECT classid, objid, objsubid, mode, granted FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY 1, 2, 3, 4"
	differed := 0
	for n := 0; n < sequences; n++ {
		var done []string
		for k := 0; k < steps; k++ {
			who := rng.IntN(2)
			stmt := advisoryStep(rng)
			if rng.IntN(6) == 0 {
				stmt += "; " + advisoryStep(rng)
			}
			done = append(done, fmt.Sprintf("%c: %s", 'A'+who, stmt))
			s := sessions[who]
			a, b := s.sg.run(ctx, stmt), s.pg.run(ctx, stmt)
			if stmt == "DISCARD ALL" { // it reset lock_timeout: a blocked lock would wait for ever
				s.sg.run(ctx, "SET lock_timeout = '40ms'")
				s.pg.run(ctx, "SET lock_timeout = '40ms'")
			}
			if a == b {
				a, b = s.sg.run(ctx, held), s.pg.run(ctx, held)
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
			for _, c := range []*noticeSession{s.sg, s.pg} {
				c.run(ctx, "ROLLBACK")
				c.run(ctx, "SELECT pg_advisory_unlock_all()")
			}
		}
	}
	if differed > 0 {
		t.Errorf("%d of %d sequences differed", differed, sequences)
	}
}

// advisoryStep draws one statement of TestAdvisoryLocksDifferential.
func advisoryStep(rng *rand.Rand) string {
	key := []string{"1", "2", "-1", "4294967297", "1, 2", "2, 1"}[rng.IntN(6)]
	shared := []string{"", "_shared"}[rng.IntN(2)]
	switch rng.IntN(20) {
	case 0, 1:
		return fmt.Sprintf("SELECT pg_try_advisory_lock%s(%s)", shared, key)
	case 2, 3:
		return fmt.Sprintf("SELECT pg_try_advisory_xact_lock%s(%s)", shared, key)
	case 4, 5:
		return fmt.Sprintf("SELECT pg_advisory_lock%s(%s)", shared, key)
	case 6:
		return fmt.Sprintf("SELECT pg_advisory_xact_lock%s(%s)", shared, key)
	case 7, 8:
		return fmt.Sprintf("SELECT pg_advisory_unlock%s(%s)", shared, key)
	case 9:
		return "SELECT pg_advisory_unlock_all()"
	case 10, 11:
		return "BEGIN"
	case 12:
		return []string{"COMMIT", "ROLLBACK"}[rng.IntN(2)]
	case 13:
		return []string{"SAVEPOINT s", "ROLLBACK TO SAVEPOINT s", "RELEASE SAVEPOINT s"}[rng.IntN(3)]
	case 14:
		return "SELECT 1/0"
	case 15:
		return "DISCARD ALL"
	case 16:
		// two keys in one statement, over several rows
		return fmt.Sprintf("SELECT pg_try_advisory_lock%s(k) FROM (VALUES (1), (2), (1)) v(k)", shared)
	case 17:
		return "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
	case 18:
		return "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
	}
	return "SET lock_timeout = '40ms'"
}
