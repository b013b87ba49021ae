package functions

import (
	"context"

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
	value, _ := args[1].(string) // NULL resets to the default, as in PostgreSQL
	local, _ := args[2].(bool)
	return s.SetSetting(args[0].(string), value, args[1] == nil, local)
}
