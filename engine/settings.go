package engine

import (
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// reported are the settings sent as ParameterStatus (PostgreSQL 15's set).
var reported = map[string]bool{
	"application_name": true, "client_encoding": true, "datestyle": true,
	"default_transaction_read_only": true, "in_hot_standby": true, "integer_datetimes": true,
	"intervalstyle": true, "is_superuser": true, "server_encoding": true, "server_version": true,
	"session_authorization": true, "standard_conforming_strings": true, "timezone": true,
}

// canonicalName is how PostgreSQL spells a reported setting's name.
var canonicalName = map[string]string{
	"datestyle": "DateStyle", "intervalstyle": "IntervalStyle", "timezone": "TimeZone",
}

func defaultSettings(info pgwire.SessionInfo) map[string]string {
	s := map[string]string{
		"application_name":              "",
		"client_encoding":               "UTF8",
		"datestyle":                     "ISO, MDY",
		"default_transaction_read_only": "off",
		"in_hot_standby":                "off",
		"integer_datetimes":             "on",
		"intervalstyle":                 "postgres",
		"is_superuser":                  "on",
		"server_encoding":               "UTF8",
		// strings compare bytewise, which is code point order in UTF-8:
		// PostgreSQL's C.UTF-8 collation (pg_database, pg_settings)
		"lc_collate":                          "C.UTF-8",
		"lc_ctype":                            "C.UTF-8",
		"server_version":                      ServerVersion,
		"server_version_num":                  "150008",
		"session_authorization":               info.User,
		"standard_conforming_strings":         "on",
		"timezone":                            "UTC",
		"search_path":                         `"$user", public`,
		"extra_float_digits":                  "1",
		"transaction_isolation":               "read committed",
		"transaction_read_only":               "off",
		"transaction_deferrable":              "off",
		"default_transaction_deferrable":      "off",
		"max_prepared_transactions":           "0", // no two-phase commit (txcontrol.go)
		"default_transaction_isolation":       "read committed",
		"statement_timeout":                   "0",
		"lock_timeout":                        "0",
		"deadlock_timeout":                    "1s",
		"idle_in_transaction_session_timeout": "0",
		"client_min_messages":                 "notice",
		"bytea_output":                        "hex", // the one form sqlgate prints
		// a stock install's (initdb picks english for an English locale)
		"default_text_search_config": "pg_catalog.english",
		SynchronousCommit:            "on",
		"max_identifier_length":      "63",
		// off: CREATE FUNCTION ... LANGUAGE sql AS 'text' does not check
		// its body (pg_dump's output sets it; sqlfunctions.go)
		"check_function_bodies": "on",
		backendSetting:          "auto",
	}
	// the options' -c settings first, then the packet's own parameters,
	// which win (PostgreSQL's process_startup_options)
	for _, kv := range startupOptions(info.Params["options"]) {
		applyStartupSetting(s, kv[0], kv[1])
	}
	for k, v := range info.Params {
		applyStartupSetting(s, k, v)
	}
	return s
}

// startupOptions reads the -c name=value and --name=value switches of a
// startup packet's options (PGOPTIONS, libpq's options) as PostgreSQL's
// pg_split_opts and process_postgres_switches do: words split at white
// space, a backslash taking the next character as it is, a dash in a
// name read as an underscore. Other switches, and a setting without a
// value, are passed over (PostgreSQL refuses the connection).
func startupOptions(opts string) [][2]string {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(opts); i++ {
		c := opts[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		case c == '\\' && i+1 < len(opts):
			i++
			c = opts[i]
		}
		w.WriteByte(c)
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	var out [][2]string
	for i := 0; i < len(words); i++ {
		var arg string
		switch word := words[i]; {
		case word == "-c" && i+1 < len(words):
			i++
			arg = words[i]
		case strings.HasPrefix(word, "-c") && len(word) > 2:
			arg = word[2:]
		case strings.HasPrefix(word, "--") && len(word) > 2:
			arg = word[2:]
		default:
			continue
		}
		name, value, ok := strings.Cut(arg, "=")
		if !ok {
			continue
		}
		out = append(out, [2]string{strings.ReplaceAll(name, "-", "_"), value})
	}
	return out
}

// applyStartupSetting stores a setting the startup packet gives (as a
// parameter or in its options) in the new session's settings s, as SHOW
// spells it.
func applyStartupSetting(s map[string]string, k, v string) {
	k = strings.ToLower(k)
	switch k {
	case "user", "database", "options", "replication":
		return
	}
	if k == "timezone" {
		// pgJDBC sends the JVM's zone ("Europe/Berlin"): keep it as SHOW
		// spells it. A value PostgreSQL would refuse leaves UTC (the
		// connection is not refused, unlike PostgreSQL's FATAL 22023).
		_, canon, err := types.LoadZone(v)
		if err != nil {
			return
		}
		v = canon
	}
	if k == "datestyle" || k == "intervalstyle" {
		// pgJDBC sends DateStyle=ISO: stored as SHOW spells it
		// ("ISO, MDY"); a value PostgreSQL would refuse leaves the
		// default (as for the zone above).
		canon, err := dateStyleValue(k, k, v, s[k])
		if err != nil {
			return
		}
		v = canon
	}
	if k == "extra_float_digits" {
		// pgJDBC sends 3; a value PostgreSQL would refuse leaves
		// the default (as for the zone above)
		n, err := types.ParseExtraFloatDigits(v)
		if err != nil {
			return
		}
		v = strconv.Itoa(n)
	}
	if k == SynchronousCommit {
		// A value PostgreSQL would refuse leaves the default (as
		// for the zone above).
		canon, err := synchronousCommitValue(v)
		if err != nil {
			return
		}
		v = canon
	}
	s[k] = v
}

// location is the session's TimeZone as a zone (UTC if it does not load,
// which SET and defaultSettings prevent).
func (s *session) location() *time.Location {
	v := s.setting("timezone")
	// Every statement asks: the zone is loaded again only when the setting
	// changed.
	if s.zoneLoc != nil && v == s.zoneSetting {
		return s.zoneLoc
	}
	loc, _, err := types.LoadZone(v)
	if err != nil {
		loc = time.UTC
	}
	s.zoneSetting, s.zoneLoc = v, loc
	return loc
}

func displayName(name string) string {
	if c, ok := canonicalName[name]; ok {
		return c
	}
	return name
}

// boolSettings are the settings whose values are booleans, which SET
// takes in any of PostgreSQL's spellings (parse_bool) and SHOW prints as
// on or off.
var boolSettings = map[string]bool{
	"default_transaction_read_only": true, "transaction_read_only": true,
	"default_transaction_deferrable": true, "transaction_deferrable": true,
	"standard_conforming_strings": true, "check_function_bodies": true,
}

// boolSetting is PostgreSQL's parse_bool of a boolean setting's value,
// boolean input's own rule (on, off, true, false, yes, no, 1, 0 and their
// unique prefixes, any case); 22023 otherwise.
func boolSetting(name, v string) (bool, error) {
	b, err := types.ParseText(v, types.BoolType)
	if err != nil {
		return false, sqlerr.New(sqlerr.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", name)
	}
	return b.(bool), nil
}

// onOff is a boolean setting's value as SHOW prints it.
func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
