package exec

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// castJSONBScalar is a cast from jsonb to numeric, an integer, a float or
// boolean (PostgreSQL's jsonb_numeric, jsonb_int2, jsonb_int4, jsonb_int8,
// jsonb_float4, jsonb_float8 and jsonb_bool): the document must be a
// scalar of the target's kind, a number read as numeric and then cast as
// numeric is (rounded, range-checked), else 22023 naming what it holds.
// ok is false for a cast it leaves to castValue's other rules (json has
// no such casts, jsonb to text is its output).
func castJSONBScalar(v any, from, to types.T, env castEnv) (out any, ok bool, err error) {
	target, isScalar := types.JSONBScalarCast(from, to)
	if !isScalar {
		return nil, false, nil
	}
	s := strings.TrimSpace(v.(string))
	kind := jsonbKind(s)
	want := "numeric"
	if to.Kind == types.Bool {
		want = "boolean"
	}
	if kind != want {
		return nil, true, sqlerr.New(sqlerr.InvalidParameterValue, "cannot cast jsonb %s to type %s", kind, target)
	}
	if to.Kind == types.Bool {
		return s == "true", true, nil
	}
	d, err := numeric.Parse(s)
	if err != nil {
		return nil, true, err
	}
	out, err = castValue(d, types.NumericType, to, env)
	return out, true, err
}

// jsonbKind is what a jsonb document's normalised text holds, in the
// words of PostgreSQL's cast errors: json_typeof's, with "numeric" for a
// number.
func jsonbKind(s string) string {
	if k := functions.JSONKind(s); k != "number" {
		return k
	}
	return "numeric"
}
