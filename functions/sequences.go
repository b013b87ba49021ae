package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Sequences is what the sequence functions (nextval, currval, setval,
// lastval) ask of the session: a sequence is named by its relation OID
// (regclass), and currval and lastval are the session's own state, as in
// PostgreSQL.
type Sequences interface {
	NextVal(ctx context.Context, oid uint32) (int64, error)
	CurrVal(ctx context.Context, oid uint32) (int64, error)
	SetVal(ctx context.Context, oid uint32, v int64, called bool) (int64, error)
	LastVal(ctx context.Context) (int64, error)
}

func sequenceFuncs() []*Func {
	reg := types.RegOf(types.RegClass)
	return []*Func{
		{Name: "nextval", Args: []types.T{reg}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.NextVal(ctx, oidArg(a[0]))
			})},
		{Name: "currval", Args: []types.T{reg}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.CurrVal(ctx, oidArg(a[0]))
			})},
		{Name: "lastval", Ret: tInt8, Volatile: true,
			Kernel: rowFunc(tInt8, false, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.LastVal(ctx)
			})},
		{Name: "setval", Args: []types.T{reg, tInt8}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.SetVal(ctx, oidArg(a[0]), a[1].(int64), true)
			})},
		{Name: "setval", Args: []types.T{reg, tInt8, tBool}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.SetVal(ctx, oidArg(a[0]), a[1].(int64), a[2].(bool))
			})},
	}
}

func sequencesOf(ctx context.Context) (Sequences, error) {
	if s := sessionOf(ctx).Sequences; s != nil {
		return s, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "sequences are not available here")
}
