package reliability

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestCrashBlockCreatedTables kills sqlgate with SIGKILL while a
// transaction block holds tables it created (plain, with a SERIAL
// column's sequence, CREATE TABLE AS with the block's rows, one renamed
// in the block) and one it committed, and checks after the restart that
// the uncommitted ones are gone, their names free again, and the
// committed one is there with its rows: a crash forgets an uncommitted
// CREATE TABLE, as PostgreSQL's recovery does (engine/txddl.go
// createdProperty). SQLGATE_DDLTX_CRASH_ROUNDS sets the rounds.
func TestCrashBlockCreatedTables(t *testing.T) {
	rounds := envInt(t, "SQLGATE_DDLTX_CRASH_ROUNDS", 2)
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	ctx := context.Background()
	for round := 1; round <= rounds; round++ {
		proc := startProcess(t, bin, dir)
		conn := connect(t, proc.connString())
		kept := fmt.Sprintf("kept%d", round)
		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "CREATE TABLE "+kept+" (id INT PRIMARY KEY)")
		mustExec(t, conn, "INSERT INTO "+kept+" VALUES (1)")
		mustExec(t, conn, "COMMIT")
		mustExec(t, conn, "BEGIN")
		mustExec(t, conn, "CREATE TABLE gone_plain (id INT PRIMARY KEY, v TEXT)")
		mustExec(t, conn, "CREATE TABLE gone_serial (id SERIAL PRIMARY KEY)")
		mustExec(t, conn, "CREATE TABLE gone_as AS SELECT 1 AS a")
		mustExec(t, conn, "CREATE TABLE gone_renamed_from (id INT)")
		mustExec(t, conn, "ALTER TABLE gone_renamed_from RENAME TO gone_renamed")
		mustExec(t, conn, "INSERT INTO gone_plain VALUES (1, 'x')")
		// the block is open, its tables in the store: kill
		proc.kill()
		conn.Close(ctx)

		proc = startProcess(t, bin, dir)
		conn = connect(t, proc.connString())
		for _, name := range []string{"gone_plain", "gone_serial", "gone_as", "gone_renamed_from", "gone_renamed"} {
			var n int
			err := conn.QueryRow(ctx, "SELECT count(*) FROM "+name).Scan(&n)
			if sqlState(err) != "42P01" {
				t.Errorf("round %d: %s after the restart: %v, want 42P01 (the block never committed)", round, name, err)
			}
		}
		var seqs int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM information_schema.sequences WHERE sequence_name LIKE 'gone%'").Scan(&seqs); err != nil || seqs != 0 {
			t.Errorf("round %d: the SERIAL's sequence after the restart: %d %v", round, seqs, err)
		}
		var rows int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+kept).Scan(&rows); err != nil || rows != 1 {
			t.Errorf("round %d: the committed table after the restart: %d rows, %v", round, rows, err)
		}
		// the names are free: the same block runs again
		mustExec(t, conn, "CREATE TABLE gone_plain (id INT PRIMARY KEY, v TEXT); CREATE TABLE gone_serial (id SERIAL PRIMARY KEY); DROP TABLE gone_plain, gone_serial")
		conn.Close(ctx)
		proc.kill()
	}
}
