package engine

import (
	"math"
	"strconv"
	"time"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// paramValue converts a parameter as the wire decoded it (nil, bool, int64,
// float64, string, []byte, time.Time) to the physical value of t; text
// is read in the session's zone loc and styles st (DateStyle's order, IntervalStyle).
func paramValue(v any, t types.T, loc *time.Location, st types.Style) (any, error) {
	switch x := v.(type) {
	case string:
		if t.Kind == types.Unknown {
			return x, nil
		}
		if t.Kind == types.Array { // '{1,2}' array text
			return arrayParam(x, t, loc, st)
		}
		return types.ParseTextStyle(x, t, loc, time.Now(), st)
	case int64:
		if t.Kind == types.Int64 {
			return v, nil // the common bigint key: no cast, no boxing again
		}
		return exec.CastValue(x, types.Int64Type, t)
	case float64:
		if t.Kind == types.Float64 {
			return v, nil
		}
		return exec.CastValue(x, types.Float64Type, t)
	case bool:
		if t.Kind == types.Bool {
			return x, nil
		}
		return exec.CastValue(x, types.BoolType, t)
	case []byte:
		switch t.Kind {
		case types.Bytes, types.Binary:
			return x, types.CheckBinaryLength(x, t)
		case types.Array:
			return arrayParam(string(x), t, loc, st)
		}
		return types.ParseTextStyle(string(x), t, loc, time.Now(), st)
	case time.Time:
		switch t.Kind {
		case types.Date, types.Timestamp, types.TimestampTZ:
			return types.TimeToValue(x, t)
		case types.Unknown, types.String:
			return x.UTC().Format("2006-01-02 15:04:05.999999Z07:00"), nil
		}
	}
	return nil, sqlerr.New(sqlerr.DatatypeMismatch, "parameter of Go type %T does not fit type %s", v, t.PGName())
}

// arrayParam reads a parameter's array text as t, date elements in the
// DateStyle order, intervals in the IntervalStyle.
func arrayParam(x string, t types.T, loc *time.Location, st types.Style) (any, error) {
	if !t.Variant.IsVector() && exec.CastNeedsSession(types.StringType, t) {
		return functions.ParseArrayTextStyle(x, t, loc, st)
	}
	return exec.CastValueIn(x, types.StringType, t, loc)
}

// typeOfOID maps a parameter type the client declared in Parse.
func typeOfOID(oid uint32) (types.T, error) {
	switch oid {
	case 0, 705, 1700:
		// unspecified, unknown — and numeric, whose scale sqlgate takes from
		// the parameter's context (the wire passes numeric as its text)
		return types.UnknownType, nil
	case 16:
		return types.BoolType, nil
	case 21:
		return types.Int16Type, nil
	case 23:
		return types.Int32Type, nil
	case 20:
		return types.Int64Type, nil
	case 700:
		return types.Float32Type, nil
	case 701:
		return types.Float64Type, nil
	case 25, 1043, 19:
		return types.StringType, nil
	case 1042:
		return types.T{Kind: types.Char}, nil // bpchar without a typmod: no limit
	case 17:
		return types.BytesType, nil
	case 1082:
		return types.DateType, nil
	case 1083:
		return types.T{Kind: types.Time, Precision: 6}, nil
	case 1266:
		return types.TimeTZType(6), nil
	case 1114:
		return types.TimestampType(6), nil
	case 1184:
		return types.TimestampTZType(6), nil
	case 26:
		return types.T{Kind: types.Oid}, nil
	case 114:
		return types.JSONType, nil
	case 3802:
		return types.JSONBType, nil
	case 2950:
		return types.UUIDType, nil
	case 1560:
		return types.BitType(0), nil
	case 1562:
		return types.VarBitType(0), nil
	case 869:
		return types.InetType, nil
	case 650:
		return types.CidrType, nil
	case 790:
		return types.MoneyType, nil
	case 829:
		return types.MacAddrType, nil
	case 774:
		return types.MacAddr8Type, nil
	case 3614:
		return types.TSVectorType, nil
	case 3615:
		return types.TSQueryType, nil
	case 3734:
		return types.RegConfigType, nil
	case 3220:
		return types.PgLsnType, nil
	case 28:
		return types.XidType, nil
	case 1000, 1005, 1007, 1016, 1009, 1015, 1021, 1022, 1028, 1001, 1182, 1115, 1185, 1270, 1561, 1563:
		// arrays of the types above, passed as '{...}' text
		e, _ := pgtypes.ElemOIDOf(oid)
		elem, err := typeOfOID(e)
		if err != nil {
			return types.T{}, err
		}
		return types.ArrayOf(elem), nil
	}
	if t, ok := pgtypes.RangeTypeOfOID(oid); ok { // int4range ... tstzrange and their arrays
		return t, nil
	}
	if t, ok := pgtypes.GeoTypeOfOID(oid); ok { // point ... circle and their arrays
		return t, nil
	}
	return types.T{}, sqlerr.NotSupported("parameter type OID " + strconv.FormatUint(uint64(oid), 10))
}

var _ = math.MaxInt
