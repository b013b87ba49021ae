package engine

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestMillisSetting: log_min_duration_statement's values as PostgreSQL 15
// reads and shows them (SET x; SHOW x on PostgreSQL 15.18).
func TestMillisSetting(t *testing.T) {
	for _, c := range []struct {
		in, show string
		code     sqlerr.Code
	}{
		{"250", "250ms", ""}, {"1s", "1s", ""}, {"60000", "1min", ""}, {"1.5s", "1500ms", ""},
		{"0", "0", ""}, {"-1", "-1", ""}, {"10 min", "10min", ""}, {"5000us", "5ms", ""}, {"1500us", "2ms", ""},
		{"2h", "2h", ""}, {"1d", "1d", ""}, {"86400001", "86400001ms", ""},
		{"abc", "", sqlerr.InvalidParameterValue}, {"-5", "", sqlerr.InvalidParameterValue},
		{"5 parsecs", "", sqlerr.InvalidParameterValue}, {"3000000000", "", sqlerr.InvalidParameterValue},
	} {
		ms, err := ParseMillisSetting(LogMinDurationStatement, c.in)
		if c.code != "" {
			if e := sqlerr.As(err); e == nil || e.Code != c.code {
				t.Errorf("%q: %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := FormatMillisSetting(ms); got != c.show {
			t.Errorf("%q shows as %q, want %q", c.in, got, c.show)
		}
	}
}
