package functions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// jsonb's btree ordering (PostgreSQL 15's compareJsonbContainers), which
// the binder's jsonb comparison operators call through pg__jsonb_cmp:
//   - values of different types order Null < String < Number < Boolean <
//     Array < Object;
//   - arrays order by element count, then element by element; objects by
//     pair count, then pair by pair in jsonb's storage order (keys by
//     length, then bytewise), key before value;
//   - strings compare bytewise (the C collation), numbers numerically
//     ('1.0' = '1'), false < true;
//   - a top-level scalar is stored as a one-element "raw scalar" array:
//     against an array it orders by element count first, and below an
//     array of the same count; against an object it is an array.

// CompareJSONB compares two jsonb texts: -1, 0 or +1.
func CompareJSONB(a, b string) (int, error) {
	x, y, err := decodeJSONPair(a, b)
	if err != nil {
		return 0, err
	}
	_, xa := x.([]any)
	_, ya := y.([]any)
	_, xo := x.(map[string]any)
	_, yo := y.(map[string]any)
	xs, ys := !xa && !xo, !ya && !yo
	switch {
	case xs && ys:
		return jsonbCmp(x, y), nil
	case xs && ya, xa && ys:
		nx, ny := 1, 1
		if xa {
			nx = len(x.([]any))
		}
		if ya {
			ny = len(y.([]any))
		}
		if nx != ny {
			return cmpArr(nx, ny), nil
		}
		if xs {
			return -1, nil
		}
		return 1, nil
	case xs && yo:
		return -1, nil
	case xo && ys:
		return 1, nil
	}
	return jsonbCmp(x, y), nil
}

// jsonbRank is the order of jsonb's value types (JsonbValue's jbv*).
func jsonbRank(v any) int {
	switch v.(type) {
	case nil:
		return 0
	case string:
		return 1
	case json.Number:
		return 2
	case bool:
		return 3
	case []any:
		return 4
	}
	return 5 // object
}

// jsonbCmp compares two decoded values below the top level.
func jsonbCmp(x, y any) int {
	if rx, ry := jsonbRank(x), jsonbRank(y); rx != ry {
		return cmpArr(rx, ry)
	}
	switch a := x.(type) {
	case string:
		return strings.Compare(a, y.(string))
	case json.Number:
		// jsonb's input already checked the numbers' syntax
		na, errA := numeric.Parse(string(a))
		nb, errB := numeric.Parse(string(y.(json.Number)))
		if errA != nil || errB != nil {
			return strings.Compare(string(a), string(y.(json.Number)))
		}
		return na.Cmp(nb)
	case bool:
		b := y.(bool)
		switch {
		case a == b:
			return 0
		case b:
			return -1
		}
		return 1
	case []any:
		b := y.([]any)
		if len(a) != len(b) {
			return cmpArr(len(a), len(b))
		}
		for i := range a {
			if c := jsonbCmp(a[i], b[i]); c != 0 {
				return c
			}
		}
	case map[string]any:
		b := y.(map[string]any)
		if len(a) != len(b) {
			return cmpArr(len(a), len(b))
		}
		ka, kb := types.JSONBStorageOrder(a), types.JSONBStorageOrder(b)
		for i := range ka {
			if c := strings.Compare(ka[i], kb[i]); c != 0 {
				return c
			}
			if c := jsonbCmp(a[ka[i]], b[kb[i]]); c != 0 {
				return c
			}
		}
	}
	return 0
}

// jsonbCmpFuncs is jsonb_cmp(jsonb, jsonb), jsonb's btree support function
// (callable in PostgreSQL too), which the binder's < <= = <> >= > on
// jsonb compare against 0.
func jsonbCmpFuncs() []*Func {
	return []*Func{{Name: "jsonb_cmp", Args: []types.T{tJSONB, tJSONB}, Ret: tInt4, Strict: true,
		Kernel: rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
			c, err := CompareJSONB(a[0].(string), a[1].(string))
			return int64(c), err
		})}}
}
