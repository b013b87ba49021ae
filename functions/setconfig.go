package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// set_config(name, value, is_local) is SET name = value run from inside a
// query, as PostgreSQL's; it returns the setting's new value. The session
// supplies the setter (Session.SetSetting), so the engine's own rules apply:
// read-only parameters, TimeZone names, ParameterStatus to the client for
// the parameters PostgreSQL reports.
func settingFuncs() []*Func {
	return []*Func{
		{Name: "set_config", Args: []types.T{tText, tText, tBool}, Ret: tText, Volatile: true,
			Kernel: rowFunc(tText, false, setConfig)},
	}
}

func setConfig(ctx context.Context, args []any) (any, error) {
	if args[0] == nil {
		// PostgreSQL: set_config's first argument must not be NULL
		return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "SET requires parameter name")
	}
	s := sessionOf(ctx)
	if s.SetSetting == nil {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "set_config needs a session")
	}
	if err := checkSettingName(ctx, args[0].(string)); err != nil {
		return nil, err
	}
	value, _ := args[1].(string) // NULL resets to the default, as in PostgreSQL
	local, _ := args[2].(bool)
	return s.SetSetting(args[0].(string), value, args[1] == nil, local)
}

// checkSettingName applies PostgreSQL's rule for a name set_config may
// set: a parameter the server knows, or a custom one ("two or more simple
// identifiers separated by dots", which PostgreSQL creates on the fly); a
// name without a dot that is not a parameter is 42704.
func checkSettingName(ctx context.Context, name string) error {
	lname := strings.ToLower(name)
	if s := sessionOf(ctx); s.Setting != nil {
		if _, ok := s.Setting(lname); ok {
			return nil
		}
	}
	if c, err := catalogOf(ctx); err == nil {
		if _, ok := c.DefaultSetting(lname); ok {
			return nil
		}
	}
	if !strings.Contains(name, ".") {
		return sqlerr.New(sqlerr.UndefinedObject, "unrecognized configuration parameter %q", name)
	}
	for _, part := range strings.Split(name, ".") {
		if !isSimpleIdentifier(part) {
			return sqlerr.New(sqlerr.Code("42602"), "invalid configuration parameter name %q", name).
				WithDetail("Custom parameter names must be two or more simple identifiers separated by dots.")
		}
	}
	return nil
}

// isSimpleIdentifier is guc.c's valid_custom_variable_name test of one
// part: a letter, underscore or non-ASCII byte, then those, digits or $.
func isSimpleIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= 0x80:
		case i > 0 && (c >= '0' && c <= '9' || c == '$'):
		default:
			return false
		}
	}
	return true
}
