package clients

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestPsqlCancelAndTerminate is issue 31's acceptance 1 as psql users see
// it: a psql session's statement (an UPDATE waiting for a row lock)
// cancelled from another psql with pg_cancel_backend prints 57014 and the
// same psql session runs its next command; a non-superuser's
// pg_cancel_backend of another user's session prints 42501; and
// pg_terminate_backend ends the target's connection with 57P01.
func TestPsqlCancelAndTerminate(t *testing.T) {
	psqlPath, err := exec.LookPath("psql")
	if err != nil {
		t.Fatalf("psql is not installed (.ci/run installs postgresql-client): %v", err)
	}
	var users pgwire.Users
	for _, u := range []string{"admin", "alice", "bob"} {
		if err := users.SetPassword(u, u+"-pw", false); err != nil {
			t.Fatal(err)
		}
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	srv := testbin.StartServerConfig(t, server.Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(t.TempDir(), "data"),
		Auth: pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: &users, FailureDelay: -1}})
	url := func(user string) string {
		return fmt.Sprintf("postgres://%s:%s-pw@%s/sqlgate?sslmode=disable&application_name=psql_%s", user, user, srv.Addr(), user)
	}
	run := func(user string, commands ...string) string {
		t.Helper()
		args := []string{"-X", "-A", "-t", "-v", "VERBOSITY=verbose", "-d", url(user)}
		for _, c := range commands {
			args = append(args, "-c", c)
		}
		out, _ := exec.Command(psqlPath, args...).CombinedOutput()
		return string(out)
	}
	ctx := context.Background()
	holder := connectPgx(t, url("admin"))
	mustExec(t, holder, "CREATE TABLE locked (id INT PRIMARY KEY, n INT)")
	mustExec(t, holder, "INSERT INTO locked VALUES (1, 0)")
	mustExec(t, holder, "GRANT ALL ON locked TO PUBLIC")
	// waitingPID waits until alice's psql waits for the lock and returns
	// its process id.
	waitingPID := func() int32 {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			var pid int32
			err := holder.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE application_name = 'psql_alice' AND wait_event_type = 'Lock'").Scan(&pid)
			if err == nil {
				return pid
			}
			if time.Now().After(deadline) {
				t.Fatalf("alice's psql never waited for the lock: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for _, end := range []string{"cancel", "terminate"} {
		t.Run(end, func(t *testing.T) {
			mustExec(t, holder, "BEGIN")
			mustExec(t, holder, "SELECT n FROM locked WHERE id = 1 FOR UPDATE")
			out := make(chan string, 1)
			go func() { out <- run("alice", "UPDATE locked SET n = n + 1 WHERE id = 1", "SELECT 'still here'") }()
			pid := waitingPID()
			if end == "cancel" {
				denied := run("bob", fmt.Sprintf("SELECT pg_cancel_backend(%d)", pid))
				if !strings.Contains(denied, "ERROR:  42501: must be a member of the role whose query is being canceled or member of pg_signal_backend") {
					t.Errorf("bob's pg_cancel_backend of alice's session printed:\n%s", denied)
				}
				if got := run("admin", fmt.Sprintf("SELECT pg_cancel_backend(%d)", pid)); strings.TrimSpace(got) != "t" {
					t.Errorf("admin's pg_cancel_backend printed:\n%s", got)
				}
			} else if got := run("admin", fmt.Sprintf("SELECT pg_terminate_backend(%d)", pid)); strings.TrimSpace(got) != "t" {
				t.Errorf("admin's pg_terminate_backend printed:\n%s", got)
			}
			var got string
			select {
			case got = <-out:
			case <-time.After(15 * time.Second):
				t.Fatal("alice's psql did not end")
			}
			mustExec(t, holder, "ROLLBACK")
			if end == "cancel" {
				if !strings.Contains(got, "ERROR:  57014: canceling statement due to user request") || !strings.Contains(got, "still here") {
					t.Errorf("alice's psql after the cancel printed:\n%s", got)
				}
				return
			}
			if !strings.Contains(got, "FATAL:  57P01: terminating connection due to administrator command") || strings.Contains(got, "still here") {
				t.Errorf("alice's psql after the terminate printed:\n%s", got)
			}
		})
	}
}
