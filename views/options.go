package views

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// A view's options, as PostgreSQL 15 keeps them in pg_class.reloptions:
// "name=value" texts in the order they were set (CREATE VIEW's WITH (..)
// list, its WITH CHECK OPTION appended as check_option; ALTER VIEW ...
// SET replaces those it names and appends them, RESET removes them).
// A view takes check_option (local | cascaded), security_barrier and
// security_invoker (booleans); the value is kept as written, checked as
// PostgreSQL's parse_one_reloption checks it.

// Option is one option as a statement gives it: Value "" with HasValue
// false for a bare name (a boolean's true; RESET's names).
type Option struct {
	Name, Value string
	HasValue    bool
}

// ApplyOptions is old (reloptions texts) with opts set (reset false) or
// reset, validated as PostgreSQL's transformRelOptions and
// heap_reloptions(RELKIND_VIEW) validate them (22023).
func ApplyOptions(old []string, opts []Option, reset bool) ([]string, error) {
	named := map[string]bool{}
	for _, o := range opts {
		if ns, _, ok := strings.Cut(o.Name, "."); ok {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized parameter namespace \"%s\"", ns)
		}
		named[o.Name] = true
	}
	var out []string
	for _, o := range old {
		if name, _, _ := strings.Cut(o, "="); !named[name] {
			out = append(out, o)
		}
	}
	if !reset {
		for _, o := range opts {
			v := o.Value
			if !o.HasValue {
				v = "true"
			}
			out = append(out, o.Name+"="+v)
		}
	}
	seen := map[string]bool{}
	for _, o := range out {
		name, v, _ := strings.Cut(o, "=")
		if seen[name] {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "parameter \"%s\" specified more than once", name)
		}
		seen[name] = true
		switch name {
		case "check_option":
			if _, ok := checkOptionLevel(v); !ok {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for enum option \"check_option\": %s", v).
					WithDetail("Valid values are \"local\" and \"cascaded\".")
			}
		case "security_barrier", "security_invoker":
			if _, ok := parseBool(v); !ok {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for boolean option \"%s\": %s", name, v)
			}
		default:
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized parameter \"%s\"", name)
		}
	}
	return out, nil
}

// checkOptionLevel is check_option's value as "local" or "cascaded"
// (compared without case, as PostgreSQL's enum options are).
func checkOptionLevel(v string) (string, bool) {
	switch l := strings.ToLower(v); l {
	case "local", "cascaded":
		return l, true
	}
	return "", false
}

// parseBool is PostgreSQL's parse_bool: true, false, yes, no, on, off, 1,
// 0 and their unique prefixes (on and off at least two letters), without
// case.
func parseBool(v string) (bool, bool) {
	l := strings.ToLower(strings.TrimSpace(v))
	if l == "" {
		return false, false
	}
	switch {
	case strings.HasPrefix("true", l), strings.HasPrefix("yes", l), l == "1":
		return true, true
	case strings.HasPrefix("false", l), strings.HasPrefix("no", l), l == "0":
		return false, true
	case len(l) >= 2 && strings.HasPrefix("on", l):
		return true, true
	case len(l) >= 2 && strings.HasPrefix("off", l):
		return false, true
	}
	return false, false
}

// CheckOption is the view's check option: "local", "cascaded" or "".
func (v View) CheckOption() string {
	for _, o := range v.Options {
		if name, val, _ := strings.Cut(o, "="); name == "check_option" {
			l, _ := checkOptionLevel(val)
			return l
		}
	}
	return ""
}

// BoolOption is a boolean option's value (false when not set).
func (v View) BoolOption(name string) bool {
	for _, o := range v.Options {
		if n, val, _ := strings.Cut(o, "="); n == name {
			b, _ := parseBool(val)
			return b
		}
	}
	return false
}
