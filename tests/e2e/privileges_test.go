package e2e

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestPrivilegesOverTheWire sets up users with the CLI (the first user of a
// file is its superuser), then checks over SCRAM logins that a user without
// grants is refused with 42501, that GRANT and REVOKE work, and that both
// the grants and the users' roles survive a restart.
func TestPrivilegesOverTheWire(t *testing.T) {
	dir := t.TempDir()
	for _, u := range []string{"admin", "bob"} {
		cmd := exec.Command(bins.Sqlgate(t), "user", "add", "--data", dir, u)
		cmd.Stdin = strings.NewReader(u + "-secret\n")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("user add %s: %v\n%s", u, err, out)
		}
		super := strings.Contains(string(out), "superuser")
		if super != (u == "admin") {
			t.Errorf("user add %s: %q (only the first user is a superuser)", u, out)
		}
	}
	url := func(p *process, user string) string {
		return "postgres://" + user + ":" + user + "-secret@127.0.0.1:" + strconv.Itoa(p.port) + "/sqlgate?sslmode=disable"
	}
	p := startProcess(t, dir)
	admin := connect(t, url(p, "admin"))
	bob := connect(t, url(p, "bob"))
	ctx := context.Background()

	var super string
	if err := bob.QueryRow(ctx, "SHOW is_superuser").Scan(&super); err != nil || super != "off" {
		t.Errorf("bob is_superuser = %q %v", super, err)
	}
	mustExec(t, admin, "CREATE TABLE notes (id INT PRIMARY KEY, body TEXT)")
	mustExec(t, admin, "INSERT INTO notes VALUES (1, 'hello')")
	for _, sql := range []string{"SELECT * FROM notes", "INSERT INTO notes VALUES (2, 'x')", "CREATE TABLE b (a INT)", "DROP TABLE notes"} {
		_, err := bob.Exec(ctx, sql)
		if e := pgError(t, err); e.Code != "42501" {
			t.Errorf("bob: %s: %v, want 42501", sql, err)
		}
	}
	mustExec(t, admin, "GRANT SELECT, INSERT ON notes TO bob")
	mustExec(t, bob, "INSERT INTO notes VALUES (2, 'from bob')")
	var n int
	if err := bob.QueryRow(ctx, "SELECT count(*) FROM notes").Scan(&n); err != nil || n != 2 {
		t.Errorf("bob reads %d rows: %v", n, err)
	}
	// Transactions check privileges statement by statement.
	mustExec(t, bob, "BEGIN")
	mustExec(t, bob, "INSERT INTO notes VALUES (3, 'in a transaction')")
	if _, err := bob.Exec(ctx, "DELETE FROM notes WHERE id = 1"); pgError(t, err).Code != "42501" {
		t.Errorf("DELETE without the privilege: %v", err)
	}
	mustExec(t, bob, "ROLLBACK")

	// Restart: the grant is still there, and bob still is no superuser.
	admin.Close(ctx)
	bob.Close(ctx)
	p.cmd.Process.Kill()
	p.cmd.Wait()
	p = startProcess(t, dir)
	bob = connect(t, url(p, "bob"))
	if err := bob.QueryRow(ctx, "SELECT count(*) FROM notes").Scan(&n); err != nil || n != 2 {
		t.Errorf("after restart bob reads %d rows: %v", n, err)
	}
	if _, err := bob.Exec(ctx, "UPDATE notes SET body = 'x'"); pgError(t, err).Code != "42501" {
		t.Errorf("after restart UPDATE: %v", err)
	}
	admin = connect(t, url(p, "admin"))
	mustExec(t, admin, "REVOKE ALL ON notes FROM bob")
	if _, err := bob.Exec(ctx, "SELECT 1 FROM notes"); pgError(t, err).Code != "42501" {
		t.Errorf("after REVOKE: %v", err)
	}
}
