package functions

import (
	"context"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// textArgsKernel renders every argument with its type's output function
// (nil for NULL) and hands the row to body.
func textArgsKernel(argTypes []types.T, body func(vals []*string) (any, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		if len(args) != len(argTypes) {
			return nil, sqlerr.New(sqlerr.InternalError, "%d arguments for %d types", len(args), len(argTypes))
		}
		loc := LocationOf(ctx)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		vals := make([]*string, len(args))
		for i := 0; i < n; i++ {
			for k, a := range args {
				if a.IsNull(i) {
					vals[k] = nil
					continue
				}
				s, err := outputText(ctx, a, i, argTypes[k], loc)
				if err != nil {
					return nil, err
				}
				vals[k] = &s
			}
			v, err := body(vals)
			if err != nil {
				return nil, err
			}
			if err := appendValue(b, v); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// formatSpecialize is format(fmt, args...): %s, %I, %L and %%, with
// optional n$ positions and widths ("-" left-aligns).
func formatSpecialize(argTypes []types.T, _ []any) (types.T, Kernel) {
	return tText, textArgsKernel(argTypes, func(vals []*string) (any, error) {
		if vals[0] == nil {
			return nil, nil
		}
		return pgFormat(*vals[0], vals[1:])
	})
}

func pgFormat(f string, args []*string) (any, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unterminated format() type specifier")
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		// [n$][-][width]type
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		argIdx := -1
		if j < len(f) && f[j] == '$' && j > i {
			n, _ := strconv.Atoi(f[i:j])
			if n < 1 {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1")
			}
			argIdx = n - 1
			i = j + 1
		}
		left := false
		if i < len(f) && f[i] == '-' {
			left = true
			i++
		}
		j = i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		width, _ := strconv.Atoi(f[i:j])
		i = j
		if i >= len(f) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unterminated format() type specifier")
		}
		if argIdx < 0 {
			argIdx = next
		}
		next = argIdx + 1
		if argIdx >= len(args) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "too few arguments for format()")
		}
		v := args[argIdx]
		var s string
		switch f[i] {
		case 's':
			if v != nil {
				s = *v
			}
		case 'I':
			if v == nil {
				return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
			}
			s = quoteIdent(*v)
		case 'L':
			if v == nil {
				s = "NULL"
			} else {
				s = quoteLiteral(*v)
			}
		default:
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized format() type specifier %q", string(f[i])).
				WithHint("%s", `For a single "%" use "%%".`)
		}
		if pad := width - len([]rune(s)); pad > 0 {
			if left {
				s += strings.Repeat(" ", pad)
			} else {
				s = strings.Repeat(" ", pad) + s
			}
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// jsonBuildObjectSpecialize is json_build_object(k1, v1, ...); the result
// is json.
func jsonBuildObjectSpecialize(argTypes []types.T, _ []any) (types.T, Kernel) {
	return tJSON, rowFunc(tJSON, false, func(ctx context.Context, vals []any) (any, error) {
		if len(vals)%2 != 0 {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "argument list must have even number of elements").
				WithHint("The arguments of json_build_object() must consist of alternating keys and values.")
		}
		loc := LocationOf(ctx)
		var b strings.Builder
		b.WriteByte('{')
		for k := 0; k < len(vals); k += 2 {
			if vals[k] == nil {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "null value not allowed for object key")
			}
			if k > 0 {
				b.WriteString(", ")
			}
			key, err := CastText(ctx, vals[k], argTypes[k], loc)
			if err != nil {
				return nil, err
			}
			b.WriteString(jsonQuote(key))
			b.WriteString(" : ")
			writeJSONValue(ctx, &b, vals[k+1], argTypes[k+1], loc)
		}
		b.WriteByte('}')
		return b.String(), nil
	})
}

// jsonQuote quotes s as a JSON string the way PostgreSQL's escape_json
// does.
func jsonQuote(s string) string { return types.QuoteJSON(s) }

// isOwnDatabase reports whether name is the one database: the catalog's
// name, or the name the session connected with (sqlgate accepts any
// database name at startup and current_database() returns it, so that a
// tool connecting to "postgres" works).
func isOwnDatabase(ctx context.Context, c CatalogInfo, name string) bool {
	return name == c.Database() || name == sessionOf(ctx).Database
}

// DatabaseOID is the OID of the database named name, in pg_database and
// wherever a database's OID appears: a hash of the name in [2^30, 2^31),
// so that every session computes the same OID for a name (sqlgate accepts
// any database name at startup), it is above the system range like a
// database PostgreSQL users create (pgAdmin lists the databases with an
// OID above 16383, and "postgres"), far from the tables' OIDs, and it
// still fits the signed 32-bit integers some clients read OIDs into.
func DatabaseOID(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte("database:" + name))
	return 1<<30 | h.Sum32()>>2
}

// isOwnDatabaseOID reports whether oid is the one database's (by either
// of its names, see isOwnDatabase).
func isOwnDatabaseOID(ctx context.Context, c CatalogInfo, oid uint32) bool {
	return oid == DatabaseOID(c.Database()) || oid == DatabaseOID(sessionOf(ctx).Database)
}
