package exec

import (
	"github.com/sqlgate/sqlgate/types"
)

// castRegConfig is a cast between regconfig, which sqlgate keeps as the
// configuration's name, and oid or an integer, which read and give its
// OID (pg_cast's oid and int2/int4/int8 to regconfig, regconfig to oid,
// int4 and int8: binder's regconfigCastable). ok is false for the other
// casts.
func castRegConfig(v any, from, to types.T) (out any, ok bool, err error) {
	switch {
	case to.Variant == types.RegConfig && from.Variant != types.RegConfig && (from.Kind == types.Oid || from.IsInteger()):
		return types.RegConfigOfOID(uint32(v.(int64))), true, nil
	case from.Variant == types.RegConfig && to.Variant != types.RegConfig && (to.Kind == types.Oid || to.IsInteger()):
		oid, err := types.RegConfigOID(v.(string))
		if err != nil {
			return nil, true, err
		}
		if to.Kind == types.Oid {
			return int64(oid), true, nil
		}
		// an OID read as a signed integer, as PostgreSQL's oid to int4 is
		out, err := checkInt(int64(int32(oid)), to)
		if to.Kind == types.Int64 {
			out, err = int64(oid), nil
		}
		return out, true, err
	}
	return nil, false, nil
}
