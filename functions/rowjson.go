package functions

import (
	"context"
	"github.com/sqlgate/sqlgate/types/numeric"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// WholeRowKernel builds the composite value of a whole-row reference (a
// table alias used as a value, row_to_json(t)): its arguments are the
// table's columns in order, its result a ROW of type t with one field per
// column.
func WholeRowKernel(t types.T) Kernel {
	return rowFunc(t, false, func(_ context.Context, a []any) (any, error) {
		return append([]any(nil), a...), nil
	})
}

// MarkedWholeRowKernel is WholeRowKernel for a FROM item an outer join
// may null-extend: its last argument is the item's row marker, NULL where
// the join made the row up, and the whole row is then NULL (PostgreSQL's
// whole-row Var of a nullable relation), not a row of NULL fields.
func MarkedWholeRowKernel(t types.T) Kernel {
	return rowFunc(t, false, func(_ context.Context, a []any) (any, error) {
		if a[len(a)-1] == nil {
			return nil, nil
		}
		return append([]any(nil), a[:len(a)-1]...), nil
	})
}

// rowToJSONSpecialize is row_to_json(record [, pretty]): the composite as
// a JSON object, {"a":1,"b":"x"}, each field in PostgreSQL's JSON form of
// its type (pretty puts one field per line, as PostgreSQL does).
func rowToJSONSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	rt := args[0]
	return tJSON, rowFunc(tJSON, false, func(ctx context.Context, a []any) (any, error) {
		if a[0] == nil {
			return nil, nil
		}
		if rt.Kind != types.Row {
			return nil, sqlerr.New(sqlerr.UndefinedFunction, "function row_to_json(%s) does not exist", rt.PGName())
		}
		pretty := len(a) == 2 && a[1] == true
		var b strings.Builder
		writeJSONRow(ctx, &b, a[0].([]any), rt, pretty, LocationOf(ctx))
		return b.String(), nil
	})
}

// tJSON is PostgreSQL's json, the result of the json functions.
var tJSON = types.JSONType

// jsonBuildArraySpecialize is json_build_array(v1, ...): a JSON array of
// the values' JSON forms, "[1, "x", null]" with PostgreSQL's spacing.
func jsonBuildArraySpecialize(argTypes []types.T, _ []any) (types.T, Kernel) {
	return tJSON, rowFunc(tJSON, false, func(ctx context.Context, vals []any) (any, error) {
		loc := LocationOf(ctx)
		var b strings.Builder
		b.WriteByte('[')
		for i, v := range vals {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONValue(ctx, &b, v, argTypes[i], loc)
		}
		b.WriteByte(']')
		return b.String(), nil
	})
}

// toJSONSpecialize is to_json(anyelement): the value's JSON form.
func toJSONSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	t := args[0]
	return tJSON, rowFunc(tJSON, true, func(ctx context.Context, a []any) (any, error) {
		var b strings.Builder
		writeJSONValue(ctx, &b, a[0], t, LocationOf(ctx))
		return b.String(), nil
	})
}

func writeJSONRow(ctx context.Context, b *strings.Builder, vals []any, t types.T, pretty bool, loc *time.Location) {
	b.WriteByte('{')
	for i, f := range t.Fields {
		if i > 0 {
			b.WriteByte(',')
			if pretty {
				b.WriteString("\n ")
			}
		}
		b.WriteString(jsonQuote(f.Name))
		b.WriteByte(':')
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		writeJSONValue(ctx, b, v, f.Type, loc)
	}
	b.WriteByte('}')
}

// writeJSONValue writes one physical value of type t as PostgreSQL's
// to_json does: numbers bare (NaN and infinities quoted), booleans
// true/false, NULL null, arrays [a,b], composites {"f":v}, date and time
// types in ISO 8601 ("2024-01-02T03:04:05"), everything else as its text
// form in a JSON string (ctx names reg* values: jsonText).
func writeJSONValue(ctx context.Context, b *strings.Builder, v any, t types.T, loc *time.Location) {
	if v == nil {
		b.WriteString("null")
		return
	}
	if t.Variant.IsJSON() {
		b.WriteString(v.(string)) // json is embedded as it is
		return
	}
	switch t.Kind {
	case types.Bool:
		if v.(bool) {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		return
	case types.Array:
		b.WriteByte('[')
		for i, e := range v.([]any) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONValue(ctx, b, e, *t.Elem, loc)
		}
		b.WriteByte(']')
		return
	case types.Row:
		if vals, ok := v.([]any); ok {
			writeJSONRow(ctx, b, vals, t, false, loc)
			return
		}
	case types.Timestamp, types.TimestampTZ, types.Date:
		s := types.FormatTextIn(v, t, loc)
		if t.Kind != types.Date && len(s) > 10 && s[10] == ' ' {
			s = s[:10] + "T" + s[11:]
		}
		if t.Kind == types.TimestampTZ {
			s = jsonZone(s)
		}
		b.WriteString(jsonQuote(s))
		return
	}
	s := jsonText(ctx, v, t, loc)
	if t.IsNumeric() && s != "NaN" && s != "Infinity" && s != "-Infinity" {
		b.WriteString(s)
		return
	}
	b.WriteString(jsonQuote(s))
}

// jsonText is a scalar's text form for JSON, its cast to text (a reg*
// value's name; an OID no longer in the catalog is its number).
func jsonText(ctx context.Context, v any, t types.T, loc *time.Location) string {
	if s, err := CastText(ctx, v, t, loc); err == nil {
		return s
	}
	return types.FormatTextIn(v, t, loc)
}

// jsonZone writes a timestamptz's offset as PostgreSQL's JSON does:
// +00:00 rather than +00 (hours and minutes always).
func jsonZone(s string) string {
	if date, ok := strings.CutSuffix(s, " BC"); ok {
		return jsonZone(date) + " BC" // the offset before the era
	}
	i := strings.LastIndexAny(s, "+-")
	if i < 11 {
		return s
	}
	off := s[i+1:]
	if len(off) == 2 {
		if _, err := strconv.Atoi(off); err == nil {
			return s + ":00"
		}
	}
	return s
}

// quoteAnySpecialize is quote_literal(anyelement) and (nullable)
// quote_nullable(anyelement): the value's text form as a literal.
func quoteAnySpecialize(nullable bool) func(args []types.T, _ []any) (types.T, Kernel) {
	return func(args []types.T, _ []any) (types.T, Kernel) {
		t := args[0]
		return tText, rowFunc(tText, false, func(ctx context.Context, a []any) (any, error) {
			if a[0] == nil {
				if nullable {
					return "NULL", nil
				}
				return nil, nil
			}
			s, err := CastText(ctx, a[0], t, LocationOf(ctx))
			if err != nil {
				return nil, err
			}
			return quoteLiteral(s), nil
		})
	}
}

// sizePrettyNumericSpecialize is pg_size_pretty(numeric) (the type of
// sum(bigint)): NaN and ±Infinity in PB, below 10240 the value as it prints followed by "bytes",
// else the bigint algorithm over the truncated value, with PostgreSQL's
// truncating division so that values beyond bigint work too.
func sizePrettyNumericSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	at := args[0]
	return tText, rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
		d := types.DecimalToNumeric(a[0], at)
		if numeric.IsSpecial(d) {
			// NaN and ±Infinity are above every limit (NaN sorts last,
			// and abs(-Infinity) is Infinity) and survive the divisions
			return numeric.String(d) + " PB", nil
		}
		t, err := numeric.Trunc(d, 0)
		if err != nil {
			return nil, err
		}
		n := numeric.Unscaled(t)
		if new(big.Int).Abs(n).Cmp(big.NewInt(10*1024)) < 0 {
			return numeric.String(d) + " bytes", nil
		}
		n.Quo(n, big.NewInt(512)) // one extra bit for rounding
		limit := big.NewInt(20*1024 - 1)
		units := []string{"kB", "MB", "GB", "TB", "PB"}
		for i, u := range units {
			if new(big.Int).Abs(n).Cmp(limit) < 0 || i == len(units)-1 {
				if n.Sign() < 0 {
					n.Sub(n, big.NewInt(1))
				} else {
					n.Add(n, big.NewInt(1))
				}
				return n.Quo(n, big.NewInt(2)).String() + " " + u, nil
			}
			n.Quo(n, big.NewInt(1024))
		}
		return nil, nil
	})
}
