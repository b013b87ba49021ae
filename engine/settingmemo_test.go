package engine_test

import "testing"

// TestStatusAfterChanges: Status remembers its answers for the names asked
// again and again (pgwire's TimeZone and timeouts), and a remembered answer
// never outlives a change of the setting by SET, RESET, RESET ALL,
// SET SESSION CHARACTERISTICS, BEGIN's isolation level or the block's end.
func TestStatusAfterChanges(t *testing.T) {
	s := newSession(t) // engine_test.go
	steps := []struct {
		sql        string // "" asks only
		name, want string // "": not set
	}{
		{"", "TimeZone", "UTC"},
		{"SET TIME ZONE 'Europe/Paris'", "TimeZone", "Europe/Paris"},
		{"", "timezone", "Europe/Paris"},
		{"SET statement_timeout = '5s'", "statement_timeout", "5s"},
		{"", "TimeZone", "Europe/Paris"},
		{"RESET statement_timeout", "statement_timeout", "0"},
		{"RESET ALL", "TimeZone", "UTC"},
		{"BEGIN ISOLATION LEVEL REPEATABLE READ", "transaction_isolation", "repeatable read"},
		{"COMMIT", "transaction_isolation", "read committed"},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ", "default_transaction_isolation", "repeatable read"},
		{"", "transaction_isolation", "repeatable read"},
		{"BEGIN ISOLATION LEVEL READ COMMITTED", "transaction_isolation", "read committed"},
		{"ROLLBACK", "transaction_isolation", "repeatable read"},
		{"", "idle_session_timeout", ""}, {"SET idle_session_timeout = '7s'", "idle_session_timeout", "7s"},
	}
	for _, st := range steps {
		for range 2 { // the second answer is the remembered one
			if st.sql != "" {
				if _, err := execB(s, st.sql); err != nil {
					t.Fatalf("%s: %v", st.sql, err)
				}
			}
			if got, ok := s.Status(st.name); ok != (st.want != "") || got != st.want {
				t.Fatalf("after %q: Status(%q) = %q, %v; want %q", st.sql, st.name, got, ok, st.want)
			}
		}
	}
}
