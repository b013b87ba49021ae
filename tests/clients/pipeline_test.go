package clients

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// pipelineTargets are sqlgate and a throwaway PostgreSQL 15, the oracle
// every pipeline test below also runs against: each asserts what
// PostgreSQL does, so the same assertions must hold on both.
func pipelineTargets(t *testing.T) map[string]string {
	t.Helper()
	pg := pgtest.Start(t)
	return map[string]string{"sqlgate": startServer(t).ConnString(), "postgres": pg.ConnString()}
}

// TestPgxBatchIsOneImplicitTransaction: a pgx Batch is one pipeline ended
// by one Sync, which PostgreSQL runs as one implicit transaction. When its
// third statement fails, the rows the first two inserted are rolled back,
// the statements after it are skipped, and the connection is idle again;
// until the Sync commits, another session sees nothing of a batch.
func TestPgxBatchIsOneImplicitTransaction(t *testing.T) {
	for name, url := range pipelineTargets(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			// exec mode: the batch is one pipeline, no prepare round trip.
			conn := connectPgx(t, url+sep(url)+"default_query_exec_mode=exec")
			mustExec(t, conn, "CREATE TABLE batch_tx (a int)")
			b := &pgx.Batch{}
			b.Queue("INSERT INTO batch_tx VALUES (1)")
			b.Queue("INSERT INTO batch_tx VALUES ($1)", 2)
			b.Queue("SELECT 10 / (a - a) FROM batch_tx")
			b.Queue("INSERT INTO batch_tx VALUES (3)")
			br := conn.SendBatch(ctx, b)
			for i := 0; i < 2; i++ {
				if tag, err := br.Exec(); err != nil || tag.String() != "INSERT 0 1" {
					t.Fatalf("insert %d before the error: %v %v", i+1, tag, err)
				}
			}
			var pgErr *pgconn.PgError
			if _, err := br.Exec(); !errors.As(err, &pgErr) || pgErr.Code != "22012" {
				t.Fatalf("third statement: want 22012, got %v", err)
			}
			if _, err := br.Exec(); err == nil {
				t.Fatal("the statement after the error ran")
			}
			br.Close()
			if tx := conn.PgConn().TxStatus(); tx != 'I' {
				t.Fatalf("ReadyForQuery after the failed batch: %q, want I", tx)
			}
			if n := countRows(t, conn, "batch_tx"); n != 0 {
				t.Fatalf("after the failed batch %d rows are left, want 0", n)
			}

			// A batch that succeeds commits at its Sync, all of it.
			b = &pgx.Batch{}
			b.Queue("INSERT INTO batch_tx VALUES (4)")
			b.Queue("INSERT INTO batch_tx VALUES (5)")
			if err := conn.SendBatch(ctx, b).Close(); err != nil {
				t.Fatal(err)
			}
			other := connectPgx(t, url)
			if n := countRows(t, other, "batch_tx"); n != 2 {
				t.Fatalf("another session sees %d rows after the batch, want 2", n)
			}

			// Inside BEGIN the batch's error fails the block instead.
			mustExec(t, conn, "BEGIN")
			b = &pgx.Batch{}
			b.Queue("INSERT INTO batch_tx VALUES (6)")
			b.Queue("SELECT 10 / (a - a) FROM batch_tx")
			if err := conn.SendBatch(ctx, b).Close(); err == nil {
				t.Fatal("the failing batch in a block succeeded")
			}
			if tx := conn.PgConn().TxStatus(); tx != 'E' {
				t.Fatalf("ReadyForQuery in the failed block: %q, want E", tx)
			}
			mustExec(t, conn, "ROLLBACK")
			if n := countRows(t, conn, "batch_tx"); n != 2 {
				t.Fatalf("after ROLLBACK %d rows, want 2", n)
			}

			// A simple Query string of several statements is one implicit
			// transaction too.
			_, err := conn.Exec(ctx, "INSERT INTO batch_tx VALUES (7); INSERT INTO batch_tx VALUES (8); SELECT 10 / (a - a) FROM batch_tx", pgx.QueryExecModeSimpleProtocol)
			if !errors.As(err, &pgErr) || pgErr.Code != "22012" {
				t.Fatalf("multi-statement query: want 22012, got %v", err)
			}
			if n := countRows(t, conn, "batch_tx"); n != 2 {
				t.Fatalf("after the failed multi-statement query %d rows, want 2", n)
			}
			mustExec(t, conn, "DROP TABLE batch_tx")
		})
	}
}

// TestPgJDBCExecuteBatchRollsBack: pgJDBC's executeBatch in autocommit
// sends the whole batch as one pipeline with one Sync; a failing row fails
// the batch (BatchUpdateException) and, as in PostgreSQL, none of its rows
// is kept. Run against sqlgate and PostgreSQL.
func TestPgJDBCExecuteBatchRollsBack(t *testing.T) {
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (.ci/run installs default-jdk-headless): %v", tool, err)
		}
	}
	if _, err := os.Stat(jdbcJar); err != nil {
		t.Fatalf("pgJDBC is not installed (.ci/run installs libpostgresql-jdbc-java): %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("javac", "-encoding", "UTF-8", "-d", dir, "-cp", jdbcJar, filepath.Join("java", "BatchRollback.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	for name, url := range pipelineTargets(t) {
		t.Run(name, func(t *testing.T) {
			cfg, err := pgconn.ParseConfig(url)
			if err != nil {
				t.Fatal(err)
			}
			jdbc := "jdbc:postgresql://" + cfg.Host + ":" + strconv.Itoa(int(cfg.Port)) + "/" + cfg.Database + "?user=" + cfg.User + "&sslmode=disable"
			out, err := exec.Command("java", "-cp", jdbcJar+string(os.PathListSeparator)+dir, "BatchRollback", jdbc).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "OK" {
				t.Fatalf("pgJDBC executeBatch: %v\n%s", err, out)
			}
		})
	}
}

func sep(url string) string {
	if strings.Contains(url, "?") {
		return "&"
	}
	return "?"
}

func countRows(t *testing.T, conn *pgx.Conn, table string) int64 {
	t.Helper()
	var n int64
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
