package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestTransactionSettingsDifferential runs random sequences of transaction
// control (BEGIN, COMMIT and ROLLBACK with their spellings and AND CHAIN,
// savepoints, PREPARE TRANSACTION, COMMIT PREPARED), settings (SET, SET
// LOCAL, RESET, set_config, SET TRANSACTION, DISCARD) and failing
// statements, one statement at a time and as Query strings of several, on
// sqlgate and PostgreSQL 15, and compares after every step the outcome
// (the rows, or the SQLSTATE and message), the warnings and notices sent,
// and the session's transaction status: PostgreSQL's GUC stack (SET undone
// by ROLLBACK and ROLLBACK TO, SET LOCAL ending with its transaction) and
// its transaction-block warnings and refusals.
func TestTransactionSettingsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	sg := noticeConn(t, ctx, r.SQLGate.(*Session).connString)
	pg := noticeConn(t, ctx, r.Postgres.(*Session).connString)
	rng := seededRand(t, 31)
	const sequences, steps = 160, 14
	differed := 0
	for n := 0; n < sequences; n++ {
		var done []string
		for k := 0; k < steps; k++ {
			stmt := txSettingsStep(rng)
			if rng.IntN(5) == 0 { // a Query string of several statements
				stmt += "; " + txSettingsStep(rng)
			}
			done = append(done, stmt)
			a, b := sg.run(ctx, stmt), pg.run(ctx, stmt)
			if a != b {
				differed++
				if differed <= 8 {
					t.Errorf("sequence %d differs at %q\nsequence: %s\nsqlgate:    %s\npostgresql: %s", n, stmt, strings.Join(done, " | "), a, b)
				}
				break
			}
		}
		for _, c := range []*noticeSession{sg, pg} {
			c.run(ctx, "ROLLBACK")
			c.run(ctx, "RESET ALL")
		}
	}
	if differed > 0 {
		t.Errorf("%d of %d sequences differed", differed, sequences)
	}
}

// txSettingsStep draws one statement.
func txSettingsStep(rng *rand.Rand) string {
	paths := []string{"a", "b", "c", "\"$user\", public", "public"}
	zones := []string{"'UTC'", "'Europe/Paris'", "'America/New_York'", "'Asia/Kolkata'"}
	sp := fmt.Sprintf("s%d", rng.IntN(3))
	switch rng.IntN(24) {
	case 0, 1:
		return "BEGIN"
	case 2:
		return []string{"COMMIT", "END", "COMMIT AND CHAIN"}[rng.IntN(3)]
	case 3:
		return []string{"ROLLBACK", "ABORT", "ROLLBACK AND CHAIN"}[rng.IntN(3)]
	case 4:
		return "SAVEPOINT " + sp
	case 5:
		return "RELEASE SAVEPOINT " + sp
	case 6:
		return "ROLLBACK TO SAVEPOINT " + sp
	case 7, 8:
		return "SET search_path = " + paths[rng.IntN(len(paths))]
	case 9, 10:
		return "SET LOCAL search_path = " + paths[rng.IntN(len(paths))]
	case 11:
		return "SET TIME ZONE " + zones[rng.IntN(len(zones))]
	case 12:
		return "SET LOCAL TIME ZONE " + zones[rng.IntN(len(zones))]
	case 13:
		return []string{"RESET search_path", "RESET timezone", "RESET ALL", "SET search_path TO DEFAULT"}[rng.IntN(4)]
	case 14:
		return fmt.Sprintf("SELECT set_config('search_path', '%s', %t)", []string{"a", "b", "public"}[rng.IntN(3)], rng.IntN(2) == 0)
	case 15, 16, 17:
		return []string{"SHOW search_path", "SHOW timezone", "SELECT current_setting('search_path'), current_setting('TimeZone')"}[rng.IntN(3)]
	case 18:
		return "SELECT 1/0"
	case 19:
		return []string{"SET TRANSACTION READ ONLY", "SET TRANSACTION READ WRITE", "SET transaction_read_only = off",
			"SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "SHOW transaction_read_only", "BEGIN READ ONLY",
			"SELECT set_config('myapp.x', 'v', true)", "SELECT current_setting('myapp.x', true)"}[rng.IntN(8)]
	case 20:
		return []string{"DISCARD ALL", "DISCARD PLANS", "DISCARD SEQUENCES"}[rng.IntN(3)]
	case 21:
		return []string{"PREPARE TRANSACTION 'g1'", "COMMIT PREPARED 'g1'", "ROLLBACK PREPARED 'g2'"}[rng.IntN(3)]
	case 22:
		return "SET datestyle = " + []string{"'ISO, MDY'", "'DMY'", "'ISO, YMD'", "'Postgres, YMD'", "'SQL, DMY'", "German"}[rng.IntN(6)]
	}
	return "SELECT current_setting('datestyle')"
}

// noticeSession is one connection whose every step's outcome includes the
// notices and warnings the server sent and the transaction status after.
type noticeSession struct {
	t       *testing.T
	conn    *pgconn.PgConn
	notices []string
}

func noticeConn(t *testing.T, ctx context.Context, connString string) *noticeSession {
	t.Helper()
	cfg, err := pgconn.ParseConfig(connString)
	if err != nil {
		t.Fatal(err)
	}
	// Both start in one zone: the throwaway PostgreSQL's default is the
	// machine's, whose name need not be sqlgate's.
	cfg.RuntimeParams["TimeZone"] = "UTC"
	s := &noticeSession{t: t}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		s.notices = append(s.notices, n.Severity+" "+n.Code+" "+n.Message)
	}
	if s.conn, err = pgconn.ConnectConfig(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.conn.Close(context.Background()) })
	return s
}

// run sends stmt as one Query and describes what came back.
func (s *noticeSession) run(ctx context.Context, stmt string) string {
	s.notices = s.notices[:0]
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	results, err := s.conn.Exec(qctx, stmt).ReadAll()
	out := describeResults(s.t, stmt, results, err)
	out = append(out, s.notices...)
	out = append(out, "status "+string(s.conn.TxStatus()))
	return strings.Join(out, "; ")
}

// describeResults is what a Query or a pipeline brought back: each
// result's command tag with its rows, then the error's SQLSTATE and
// message; a result that failed is described by the error alone (sqlgate
// may raise a constant's error at Bind where PostgreSQL does at Execute).
// An error that is not the server's ends the test.
func describeResults(t *testing.T, sent string, results []*pgconn.Result, err error) []string {
	t.Helper()
	var out []string
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		tag := r.CommandTag.String()
		for _, row := range r.Rows {
			cells := make([]string, len(row))
			for i, c := range row {
				cells[i] = string(c)
			}
			tag += " [" + strings.Join(cells, ",") + "]"
		}
		out = append(out, tag)
	}
	if err != nil {
		if pe, ok := err.(*pgconn.PgError); ok {
			out = append(out, "ERROR "+pe.Code+" "+pe.Message)
		} else {
			t.Fatalf("%s: %v", sent, err)
		}
	}
	return out
}
