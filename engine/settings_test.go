package engine

import (
	"testing"

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
