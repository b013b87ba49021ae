package engine

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/tsearch"
)

// Session settings: SET, RESET, SET TRANSACTION and SHOW (the settings
// themselves and their defaults: settings.go).

func (s *session) execSet(st *sql.SetStmt) (pgwire.Result, error) {
	if st.ResetAll {
		for k, v := range s.defaults() { // logsettings.go
			if s.settings[k] != v {
				s.changeSetting(k, v, false) // settingstack.go
			}
		}
		return tagOnly("RESET"), nil
	}
	if st.Name == "" { // SET [SESSION CHARACTERISTICS AS] TRANSACTION ...
		if err := s.setTransaction(st); err != nil {
			return nil, err
		}
		if !st.SessionDefaults && s.settingLevel() == 0 {
			return warningResult("SET", outsideTransactionBlock("SET TRANSACTION")), nil
		}
		return tagOnly("SET"), nil
	}
	name := strings.ToLower(st.Name)
	var v string
	switch {
	case st.Reset || st.Default:
		v = s.defaults()[name]
	default:
		v = strings.Join(st.Values, ", ")
	}
	if name == "search_path" && !st.Raw && !st.Reset && !st.Default {
		v = functions.SearchPathSetting(st.Values) // each name quoted as PostgreSQL keeps the list
	}
	switch name {
	case "server_version", "server_encoding", "integer_datetimes", "is_superuser", "in_hot_standby", "server_version_num", "lc_collate", "lc_ctype":
		return nil, sqlerr.New(sqlerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed", name)
	case "max_prepared_transactions":
		return nil, sqlerr.New(sqlerr.CantChangeRuntimeParam, "parameter \"%s\" cannot be changed without restarting the server", name)
	case "client_encoding":
		if up := strings.ToUpper(strings.ReplaceAll(v, "-", "")); up != "UTF8" && up != "UNICODE" {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "client encoding %q is not supported; sqlgate speaks UTF8", v)
		}
		v = "UTF8"
	case backendSetting:
		b, err := exec.ParseBackend(v)
		if err != nil {
			return nil, err
		}
		v = b.String()
	case "transaction_isolation", "default_transaction_isolation":
		l, err := s.isolationLevel(v)
		if err != nil {
			return nil, err
		}
		if name == "transaction_isolation" && s.txStatus != 'I' {
			if err := s.isolationChangeable(l); err != nil {
				return nil, err
			}
		}
		v = l
	case LogMinDurationStatement: // logsettings.go
		var err error
		if v, err = s.setLogMinDuration(v); err != nil {
			return nil, err
		}
	case SynchronousCommit: // synccommit.go
		var err error
		if v, err = synchronousCommitValue(v); err != nil {
			return nil, err
		}
	case "transaction_read_only", "transaction_deferrable":
		// SET TRANSACTION's modes as settings: the open block's; outside
		// one they would end with the statement's own transaction.
		b, err := boolSetting(name, v)
		if err != nil {
			return nil, err
		}
		if s.tx == nil {
			return tagOnly("SET"), nil
		}
		if name == "transaction_read_only" {
			if !b {
				if err := s.readWriteChangeable(); err != nil { // rowlocks.go
					return nil, err
				}
			}
			s.tx.readOnly = b
		}
		v = onOff(b)
	case "datestyle", "intervalstyle": // datestyle.go
		var err error
		if v, err = dateStyleValue(name, st.Name, v, s.setting(name)); err != nil {
			return nil, err
		}
	case "default_text_search_config":
		// a configuration there is, kept schema-qualified as SHOW prints it
		c, err := tsearch.LookupConfig(v)
		if err != nil {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"default_text_search_config\": \"%s\"", v)
		}
		v = "pg_catalog." + c.Name
	case "extra_float_digits":
		// an integer in -15 .. 3 as parse_int reads it ('2.5', 0x2), kept
		// as SHOW prints it; else 22023
		n, err := types.ParseExtraFloatDigits(v)
		if err != nil {
			return nil, err
		}
		v = strconv.Itoa(n)
	case "timezone":
		if st.Interval != nil {
			// SET TIME ZONE INTERVAL: flatten_set_variable_args' text of
			// the interval, INTERVAL '...', which check_timezone reads
			t, err := types.IntervalTypeOf(st.Interval.Fields, st.Interval.Precision)
			if err != nil {
				return nil, err
			}
			iv, err := types.ParseIntervalAsStyle(v, t, s.style().Interval)
			if err != nil {
				return nil, err
			}
			v = "INTERVAL '" + string(types.AppendIntervalStyled(nil, iv.Months, iv.Days, iv.Nanoseconds/1000, s.style().Interval)) + "'"
		}
		// PostgreSQL's accepted forms, stored as SHOW spells them
		// ("europe/paris" -> "Europe/Paris", -5 -> "<-05>+05"); else 22023
		_, canon, err := types.LoadZone(v)
		if err != nil {
			return nil, err
		}
		v = canon
	}
	if boolSettings[name] && !st.Reset && !st.Default {
		b, err := boolSetting(name, v)
		if err != nil {
			return nil, err
		}
		v = onOff(b)
	}
	// Saved even when the value does not change: what the level did
	// decides what its end restores (settingstack.go).
	s.changeSetting(name, v, st.IsLocal)
	if st.Reset {
		return tagOnly("RESET"), nil
	}
	if st.IsLocal && s.settingLevel() == 0 {
		return warningResult("SET", outsideTransactionBlock("SET LOCAL")), nil
	}
	return tagOnly("SET"), nil
}

// setConfig is set_config(name, value, is_local): SET or SET LOCAL
// through the same rules, returning the value now in force. Outside a
// transaction a local value lasts only for its own statement, whose
// result it still is.
func (s *session) setConfig(name, value string, reset, local bool) (string, error) {
	st := &sql.SetStmt{Name: name, Values: []string{value}, Default: reset, IsLocal: local, Raw: true}
	if local && s.settingLevel() == 0 {
		key := strings.ToLower(name)
		prior := s.settings[key]
		st.IsLocal = false
		if _, err := s.execSet(st); err != nil {
			return "", err
		}
		v, _ := s.Status(name)
		// What it replaced comes back; a setting it made (a custom
		// one) stays, empty, as PostgreSQL's placeholder does.
		s.putSetting(key, prior) // settingstack.go
		return v, nil
	}
	if _, err := s.execSet(st); err != nil {
		return "", err
	}
	v, _ := s.Status(name)
	return v, nil
}

func (s *session) execShow(st *sql.ShowStmt) (pgwire.Result, error) {
	name := strings.ToLower(st.Name)
	if name == "tables" { // SHOW TABLES: the tables of the default database
		infos, err := s.eng.store.ListTables(context.Background(), fluss.DefaultDatabase)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(infos))
		for i, t := range infos {
			names[i] = t.Path.Table
		}
		return stringsResult(s.eng, "table_name", names), nil
	}
	if name == "all" {
		names := make([]string, 0, len(s.settings))
		for k := range s.settings {
			names = append(names, k)
		}
		sort.Strings(names)
		rows := make([]string, len(names))
		for i, k := range names {
			rows[i] = displayName(k) + " = " + s.settings[k]
		}
		return stringsResult(s.eng, "setting", rows), nil
	}
	v, ok := s.settings[name]
	if !ok {
		return nil, sqlerr.New(sqlerr.UndefinedObject, "unrecognized configuration parameter %q", st.Name)
	}
	return stringsResult(s.eng, showColumnName(name), []string{v}), nil
}

func showColumnName(name string) string {
	switch name {
	case "transaction_isolation":
		return "transaction_isolation"
	case "all":
		return "name"
	}
	return displayName(name)
}
