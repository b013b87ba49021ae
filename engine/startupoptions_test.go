package engine

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
)

// TestStartupOptions: the settings of a startup packet's options
// (PGOPTIONS) reach the session as PostgreSQL applies them, the packet's
// own parameters winning, DateStyle and IntervalStyle stored as SHOW
// spells them.
func TestStartupOptions(t *testing.T) {
	for _, c := range []struct {
		opts string
		want [][2]string
	}{
		{"-c datestyle=SQL,DMY", [][2]string{{"datestyle", "SQL,DMY"}}},
		{"-cintervalstyle=iso_8601 --search-path=a", [][2]string{{"intervalstyle", "iso_8601"}, {"search_path", "a"}}},
		{`-c datestyle=German,\ YMD  -c x`, [][2]string{{"datestyle", "German, YMD"}}},
		{"-d 3 -c", nil},
	} {
		if got := startupOptions(c.opts); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.opts, got, c.want)
		}
	}
	s := defaultSettings(pgwire.SessionInfo{User: "u", Params: map[string]string{
		"options":  "-c datestyle=SQL,DMY -c intervalstyle=sql_standard -c TimeZone=Asia/Kolkata",
		"TimeZone": "UTC",
	}})
	for k, want := range map[string]string{"datestyle": "SQL, DMY", "intervalstyle": "sql_standard", "timezone": "UTC"} {
		if s[k] != want {
			t.Errorf("%s = %q, want %q", k, s[k], want)
		}
	}
}
