package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"golang.org/x/text/unicode/norm"
)

// normalize(text [, form]) and is_normalized(text [, form]), and the
// grammar's x IS [NOT] [form] NORMALIZED, which sql's rewrite turns into
// is_normalized: Unicode normalization of UTF-8 text (the only server
// encoding sqlgate has, as PostgreSQL requires), NFC by default. The
// tables are golang.org/x/text's, of a later Unicode version than
// PostgreSQL 15's: characters assigned since then may normalize where
// PostgreSQL leaves them.

func normalForm(s string) (norm.Form, error) {
	switch strings.ToUpper(s) {
	case "NFC":
		return norm.NFC, nil
	case "NFD":
		return norm.NFD, nil
	case "NFKC":
		return norm.NFKC, nil
	case "NFKD":
		return norm.NFKD, nil
	}
	return 0, sqlerr.New(sqlerr.InvalidParameterValue, "invalid normalization form: %s", s)
}

func normalizeFuncs() []*Func {
	form := func(v []any) (norm.Form, error) {
		if len(v) < 2 {
			return norm.NFC, nil
		}
		return normalForm(v[1].(string))
	}
	normalize := rowFunc(tText, true, func(_ context.Context, v []any) (any, error) {
		f, err := form(v)
		if err != nil {
			return nil, err
		}
		return f.String(v[0].(string)), nil
	})
	isNormalized := rowFunc(tBool, true, func(_ context.Context, v []any) (any, error) {
		f, err := form(v)
		if err != nil {
			return nil, err
		}
		return f.IsNormalString(v[0].(string)), nil
	})
	return []*Func{
		{Name: "normalize", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: normalize},
		{Name: "normalize", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: normalize},
		{Name: "is_normalized", Args: []types.T{tText}, Ret: tBool, Strict: true, Kernel: isNormalized},
		{Name: "is_normalized", Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: isNormalized},
	}
}
