package functions

import (
	"context"
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
				s := outputText(a, i, argTypes[k], loc)
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
			key := types.FormatTextIn(vals[k], argTypes[k], loc)
			if argTypes[k].Kind == types.Array {
				key = FormatArray(vals[k].([]any), *argTypes[k].Elem, loc)
			}
			b.WriteString(jsonQuote(key))
			b.WriteString(" : ")
			writeJSONValue(&b, vals[k+1], argTypes[k+1], loc)
		}
		b.WriteByte('}')
		return b.String(), nil
	})
}

// jsonQuote quotes s as a JSON string the way PostgreSQL's escape_json
// does.
func jsonQuote(s string) string { return types.QuoteJSON(s) }

// privilegeFuncs: sqlgate has one user, a superuser, so every privilege
// check on an existing object is true. The object must exist (42P01 /
// 3F000 / 3D000 for a name, NULL for an unknown OID) and the privilege
// name must be valid (22023), as in PostgreSQL.
func privilegeFuncs() []*Func {
	tablePrivs := []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"}
	columnPrivs := []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"}
	schemaPrivs := []string{"USAGE", "CREATE"}
	dbPrivs := []string{"CREATE", "CONNECT", "TEMPORARY", "TEMP"}
	var fs []*Func
	add := func(name string, privs []string, byName func(ctx context.Context, c CatalogInfo, s string) (bool, error),
		byOID func(ctx context.Context, c CatalogInfo, oid uint32) (bool, error)) {
		k := func(objIdx int, isOID bool) Kernel {
			return withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				if objIdx == 1 {
					if u, ok := a[0].(string); ok && u != c.User() && u != sessionOf(ctx).User {
						return nil, sqlerr.New(sqlerr.UndefinedObject, "role %q does not exist", u)
					}
				}
				if err := checkPrivilege(a[len(a)-1].(string), privs); err != nil {
					return nil, err
				}
				var ok bool
				var err error
				if isOID {
					ok, err = byOID(ctx, c, oidArg(a[objIdx]))
					if err == nil && !ok {
						return nil, nil
					}
				} else {
					ok, err = byName(ctx, c, a[objIdx].(string))
				}
				if err != nil {
					return nil, err
				}
				return ok, nil
			})
		}
		fs = append(fs,
			&Func{Name: name, Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: k(0, false)},
			&Func{Name: name, Args: []types.T{tOid, tText}, Ret: tBool, Strict: true, Kernel: k(0, true)},
			&Func{Name: name, Args: []types.T{tName, tText, tText}, Ret: tBool, Strict: true, Kernel: k(1, false)},
			&Func{Name: name, Args: []types.T{tName, tOid, tText}, Ret: tBool, Strict: true, Kernel: k(1, true)},
		)
	}
	relByName := func(ctx context.Context, c CatalogInfo, s string) (bool, error) {
		_, ok, err := c.LookupRelation(ctx, s)
		if err == nil && !ok {
			return false, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", s)
		}
		return ok, err
	}
	relByOID := func(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
		_, ok, err := c.RelationName(ctx, oid)
		return ok, err
	}
	add("has_table_privilege", tablePrivs, relByName, relByOID)
	add("has_any_column_privilege", columnPrivs, relByName, relByOID)
	add("has_schema_privilege", schemaPrivs, func(_ context.Context, c CatalogInfo, s string) (bool, error) {
		if _, ok := c.LookupNamespace(s); !ok {
			return false, sqlerr.New(sqlerr.Code("3F000"), "schema %q does not exist", s)
		}
		return true, nil
	}, func(_ context.Context, c CatalogInfo, oid uint32) (bool, error) {
		_, ok := c.NamespaceName(oid)
		return ok, nil
	})
	add("has_database_privilege", dbPrivs, func(ctx context.Context, c CatalogInfo, s string) (bool, error) {
		if !isOwnDatabase(ctx, c, s) {
			return false, sqlerr.New(sqlerr.Code("3D000"), "database %q does not exist", s)
		}
		return true, nil
	}, func(_ context.Context, c CatalogInfo, oid uint32) (bool, error) {
		return oid == databaseOID, nil
	})
	return fs
}

// isOwnDatabase reports whether name is the one database: the catalog's
// name, or the name the session connected with (sqlgate accepts any
// database name at startup and current_database() returns it, so that a
// tool connecting to "postgres" works).
func isOwnDatabase(ctx context.Context, c CatalogInfo, name string) bool {
	return name == c.Database() || name == sessionOf(ctx).Database
}

// databaseOID is the one database's OID (pgcatalog reports the same).
const databaseOID = 5

// checkPrivilege validates a privilege list such as "SELECT, INSERT WITH
// GRANT OPTION".
func checkPrivilege(s string, valid []string) error {
	for _, raw := range strings.Split(s, ",") {
		p := strings.ToUpper(strings.Join(strings.Fields(raw), " "))
		p = strings.TrimSuffix(p, " WITH GRANT OPTION")
		found := false
		for _, v := range valid {
			if p == v {
				found = true
				break
			}
		}
		if !found {
			return sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized privilege type: %q", strings.TrimSpace(raw)) // as written, like PostgreSQL
		}
	}
	return nil
}
