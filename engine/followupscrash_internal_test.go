package engine

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The rename crash test: a child process (this test binary) runs one
// rename that rewrites tables' texts (followups.go) and kills itself with
// SIGKILL at one step after the metadata commit that renames; the parent
// opens the data directory as the server does and checks that the tables
// name the new name (the next start carried the record out), that they
// can be written, and that no record is left. Before, the tables' texts
// were written after the commit with nothing recorded: a crash between
// left them naming a type that no longer existed.
const (
	followCrashDirEnv  = "SQLGATE_FOLLOW_CRASH_DIR"
	followCrashStmtEnv = "SQLGATE_FOLLOW_CRASH_STMT"
	followCrashStepEnv = "SQLGATE_FOLLOW_CRASH_STEP"
)

var followCrashSetup = []string{
	"CREATE TYPE fc_mood AS ENUM ('a', 'b', 'c')",
	"CREATE TABLE fc_t (id int PRIMARY KEY, m fc_mood DEFAULT 'a'::fc_mood CHECK (m <> 'c'::fc_mood))",
	"CREATE TABLE fc_t2 (id int PRIMARY KEY, m fc_mood DEFAULT 'b'::fc_mood)",
	"CREATE SEQUENCE fc_s",
	"CREATE TABLE fc_q (id int DEFAULT nextval('fc_s'), v int)",
	"CREATE TABLE fc_serial (id serial, v int)",
}

var followCrashCases = []struct {
	name, stmt string
	steps      []string
	// oldName must be named by no table's texts after the restart;
	// checks run then (a SQLSTATE, or the first value).
	oldName string
	checks  []rewriteCheck
}{
	{
		name: "type", stmt: "ALTER TYPE fc_mood RENAME TO fc_feeling", oldName: "fc_mood",
		steps: []string{stepFollowRecorded, stepFollowTable, stepFollowFinished},
		checks: []rewriteCheck{
			{sql: "INSERT INTO fc_t (id) VALUES (1) RETURNING m::text", value: "a"},
			{sql: "INSERT INTO fc_t VALUES (2, 'c')", code: "23514"},
			{sql: "INSERT INTO fc_t2 (id) VALUES (1) RETURNING m::text", value: "b"},
			{sql: "SELECT column_default FROM information_schema.columns WHERE table_name = 'fc_t2' AND column_name = 'm'", value: "'b'::fc_feeling"},
		},
	},
	{
		name: "sequence", stmt: "ALTER SEQUENCE fc_s RENAME TO fc_s2", oldName: "'fc_s'",
		steps: []string{stepFollowRecorded, stepFollowSequence, stepFollowTable, stepFollowFinished},
		checks: []rewriteCheck{
			{sql: "INSERT INTO fc_q (v) VALUES (1) RETURNING id", value: "1"},
			{sql: "SELECT column_default FROM information_schema.columns WHERE table_name = 'fc_q' AND column_name = 'id'", value: "nextval('fc_s2'::regclass)"},
			{sql: "SELECT nextval('fc_s')", code: "42P01"},
		},
	},
	{
		name: "serial", stmt: "ALTER SEQUENCE fc_serial_id_seq RENAME TO fc_ser", oldName: "fc_serial_id_seq",
		steps: []string{stepFollowRecorded, stepFollowSequence, stepFollowTable, stepFollowFinished},
		checks: []rewriteCheck{
			{sql: "INSERT INTO fc_serial (v) VALUES (1) RETURNING id", value: "1"},
			{sql: "SELECT pg_get_serial_sequence('fc_serial', 'id')", value: "public.fc_ser"},
		},
	},
}

func TestRenameCrashFollowUps(t *testing.T) {
	if dir := os.Getenv(followCrashDirEnv); dir != "" {
		step := os.Getenv(followCrashStepEnv)
		kill := func(at string) {
			if at == step {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal is on its way
			}
		}
		_, open, _ := openLikeServer(t, dir, func(e *Engine) { e.rewriteStep = kill })
		stmt := os.Getenv(followCrashStmtEnv)
		if _, err := first(open(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		os.Exit(0) // the step was not reached
	}
	if testing.Short() {
		t.Skip("starts a child process per step")
	}
	for _, c := range followCrashCases {
		for _, step := range c.steps {
			t.Run(c.name+"/"+step, func(t *testing.T) {
				dir := killedAfterSetup(t, followCrashSetup, "TestRenameCrashFollowUps", step, func(dir string) []string {
					return []string{followCrashDirEnv + "=" + dir, followCrashStmtEnv + "=" + c.stmt, followCrashStepEnv + "=" + step}
				})
				eng, open, closeAll := openLikeServer(t, dir, nil)
				defer closeAll()
				if fm, ok := eng.meta.(followUpsMeta); !ok || fm.FollowUps() != "" {
					t.Errorf("the rename's record is still in the metadata after the restart")
				}
				ts, err := eng.store.ListTables(t.Context(), fluss.DefaultDatabase)
				if err != nil {
					t.Fatal(err)
				}
				for _, ti := range ts {
					for k, v := range ti.Descriptor.CustomProperties {
						if strings.HasPrefix(k, fluss.MetaPrefix) && strings.Contains(v, c.oldName) {
							t.Errorf("table %s's %s still names %s: %q", ti.Path.Table, k, c.oldName, v)
						}
					}
				}
				s := open()
				for _, ch := range c.checks {
					v, err := first(s, ch.sql)
					if got := string(sqlerr.CodeOf(err)); err != nil && got != ch.code || err == nil && ch.code != "" {
						t.Errorf("%s: %v, want SQLSTATE %q", ch.sql, err, ch.code)
						continue
					}
					if ch.value != "" && v != ch.value {
						t.Errorf("%s: %q, want %q", ch.sql, v, ch.value)
					}
				}
			})
		}
	}
}
