package engine_test

import "testing"

// TestStatusAnyCase: Session.Status finds a setting whatever the case of
// the name asked (pgwire asks "TimeZone" and lowercase timeouts), and
// reports a name it does not know as missing.
func TestStatusAnyCase(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "SET statement_timeout = '250ms'")
	mustRun(t, s, "SET TimeZone = 'Europe/Paris'")
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{"statement_timeout", "250ms", true},
		{"Statement_Timeout", "250ms", true},
		{"STATEMENT_TIMEOUT", "250ms", true},
		{"TimeZone", "Europe/Paris", true},
		{"timezone", "Europe/Paris", true},
		{"no_such_setting", "", false},
		{"No_Such_Setting", "", false},
	} {
		v, ok := s.Status(tc.name)
		if ok != tc.ok || v != tc.want {
			t.Errorf("Status(%q) = %q, %v; want %q, %v", tc.name, v, ok, tc.want, tc.ok)
		}
	}
}
