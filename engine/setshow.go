package engine

import (
	"context"
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Session settings: SET, RESET, SET TRANSACTION and SHOW (the settings
// themselves and their defaults: settings.go).

func (s *session) execSet(st *sql.SetStmt) (pgwire.Result, error) {
	if st.ResetAll {
		for k, v := range s.defaults() { // logsettings.go
			if s.settings[k] != v {
				s.setSetting(k, v)
				if reported[k] {
					s.changed[displayName(k)] = v
				}
			}
		}
		return tagOnly("RESET"), nil
	}
	if st.Name == "" { // SET [SESSION CHARACTERISTICS AS] TRANSACTION ...
		if err := s.setTransaction(st); err != nil {
			return nil, err
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
	switch name {
	case "server_version", "server_encoding", "integer_datetimes", "is_superuser", "in_hot_standby", "server_version_num":
		return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "parameter %q cannot be changed", name)
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
	case "datestyle", "intervalstyle": // datestyle.go
		var err error
		if v, err = dateStyleValue(name, st.Name, v, s.setting(name)); err != nil {
			return nil, err
		}
	case "timezone":
		// PostgreSQL's accepted forms, stored as SHOW spells them
		// ("europe/paris" -> "Europe/Paris", -5 -> "<-05>+05"); else 22023
		_, canon, err := types.LoadZone(v)
		if err != nil {
			return nil, err
		}
		v = canon
	}
	if s.settings[name] != v {
		s.setSetting(name, v)
		if reported[name] {
			s.changed[displayName(name)] = v
		}
	}
	if st.Reset {
		return tagOnly("RESET"), nil
	}
	return tagOnly("SET"), nil
}

// setConfig is set_config(name, value, is_local): SET through the same
// rules, returning the value now in force. (SET LOCAL is taken as a
// session-level SET, as sqlgate's SET LOCAL is.)
func (s *session) setConfig(name, value string, reset, local bool) (string, error) {
	st := &sql.SetStmt{Name: name, Values: []string{value}, Default: reset}
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
