package engine

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
)

// The StartupMessage's TimeZone (pgJDBC sends the JVM's zone) becomes the
// session's, spelled as SHOW TimeZone spells it; one that does not load
// leaves UTC.
func TestStartupTimeZone(t *testing.T) {
	for _, c := range []struct{ sent, want string }{
		{"", "UTC"},
		{"Europe/Berlin", "Europe/Berlin"},
		{"america/new_york", "America/New_York"},
		{"-5", "<-05>+05"},
		{"Not/AZone", "UTC"},
	} {
		params := map[string]string{}
		if c.sent != "" {
			params["TimeZone"] = c.sent
		}
		s := &session{settings: defaultSettings(pgwire.SessionInfo{User: "u", Params: params})}
		if got := s.settings["timezone"]; got != c.want {
			t.Errorf("startup TimeZone %q: %q, want %q", c.sent, got, c.want)
		}
		if got := s.location().String(); c.want != "UTC" && got == "UTC" {
			t.Errorf("startup TimeZone %q: location %s", c.sent, got)
		}
	}
}

// synchronous_commit: on by default; the startup parameter and SET take
// PostgreSQL's spellings (a startup value PostgreSQL refuses leaves the
// default), and a commit's context asks the store not to wait for the sync
// exactly when the value in force is off.
func TestSynchronousCommitSetting(t *testing.T) {
	for _, c := range []struct {
		sent, want string
		async      bool
	}{
		{"", "on", false},
		{"off", "off", true},
		{"FALSE", "off", true},
		{"0", "off", true},
		{"no", "off", true},
		{"yes", "on", false},
		{"local", "local", false},
		{"Remote_Write", "remote_write", false},
		{"remote_apply", "remote_apply", false},
		{"of", "on", false},
		{"maybe", "on", false},
	} {
		params := map[string]string{}
		if c.sent != "" {
			params[SynchronousCommit] = c.sent
		}
		s := &session{settings: defaultSettings(pgwire.SessionInfo{User: "u", Params: params})}
		if got := s.settings[SynchronousCommit]; got != c.want {
			t.Errorf("startup synchronous_commit %q: %q, want %q", c.sent, got, c.want)
		}
		if got := fluss.SkipsSyncWait(s.commitContext(context.Background())); got != c.async {
			t.Errorf("startup synchronous_commit %q: commit without waiting %v, want %v", c.sent, got, c.async)
		}
	}
}
