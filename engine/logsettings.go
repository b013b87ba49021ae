package engine

import (
	"math"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// LogMinDurationStatement is the setting of the slow-query log (PostgreSQL's
// log_min_duration_statement): statements running at least this many
// milliseconds are logged, 0 logs all, -1 none. Only a superuser may SET
// it, as in PostgreSQL (context superuser); the server's default comes
// from `sqlgate serve --log-min-duration-statement` (Options.Settings).
const LogMinDurationStatement = "log_min_duration_statement"

// msUnits are PostgreSQL's units of a millisecond setting, largest first
// (for display) with their size in milliseconds.
var msUnits = []struct {
	name string
	ms   float64
}{{"d", 86400000}, {"h", 3600000}, {"min", 60000}, {"s", 1000}, {"ms", 1}, {"us", 0.001}}

// ParseMillisSetting reads a millisecond setting as PostgreSQL does: an
// integer (milliseconds) or a number with a unit ("250ms", "1.5s", "10
// min"), rounded to whole milliseconds, within -1 .. 2147483647.
func ParseMillisSetting(name, v string) (int64, error) {
	s := strings.TrimSpace(v)
	num, unit := s, ""
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			num, unit = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, invalidParameterValue(name, v)
	}
	scale := 1.0
	if unit != "" {
		found := false
		for _, u := range msUnits {
			if u.name == unit {
				scale, found = u.ms, true
			}
		}
		if !found {
			return 0, invalidParameterValue(name, v).
				WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
		}
	}
	ms := math.Round(f * scale)
	if ms < -1 || ms > math.MaxInt32 {
		return 0, sqlerr.New(sqlerr.InvalidParameterValue, "%s ms is outside the valid range for parameter \"%s\" (-1 .. 2147483647)",
			strconv.FormatFloat(ms, 'f', -1, 64), name)
	}
	return int64(ms), nil
}

// FormatMillisSetting shows a millisecond setting as SHOW does: in the
// largest unit that divides it ("1min", "1500ms"), bare when 0 or -1.
func FormatMillisSetting(ms int64) string {
	if ms <= 0 {
		return strconv.FormatInt(ms, 10)
	}
	for _, u := range msUnits[:5] {
		if int64(u.ms) > 0 && ms%int64(u.ms) == 0 {
			return strconv.FormatInt(ms/int64(u.ms), 10) + u.name
		}
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// setLogMinDuration checks SET log_min_duration_statement: a superuser's
// only, a valid duration, stored as SHOW prints it.
func (s *session) setLogMinDuration(v string) (string, error) {
	if !s.superuser {
		return "", sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", LogMinDurationStatement)
	}
	ms, err := ParseMillisSetting(LogMinDurationStatement, v)
	if err != nil {
		return "", err
	}
	return FormatMillisSetting(ms), nil
}

// defaults are the session's settings at start and after RESET: the
// built-in defaults with the server's own (Options.Settings) over them.
func (s *session) defaults() map[string]string {
	d := defaultSettings(s.info)
	for k, v := range s.eng.opts.Settings {
		if _, given := s.info.Params[k]; !given {
			d[k] = v
		}
	}
	if _, ok := d[LogMinDurationStatement]; !ok {
		d[LogMinDurationStatement] = "-1"
	}
	return d
}
