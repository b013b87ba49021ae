package functions

import (
	"context"
	"fmt"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

var (
	tOid      = types.T{Kind: types.Oid}
	tName     = types.T{Kind: types.Name}
	tTextArr  = types.ArrayOf(types.StringType)
	tNameArr  = types.ArrayOf(types.T{Kind: types.Name})
	tAnyArray = types.ArrayOf(types.StringType) // declared: any array (Resolve matches arrays by kind)
)

// catalogFuncs are the functions psql, drivers and BI tools call in their
// catalog queries. Those that need the catalog read it from the context
// (WithCatalog); the session functions read WithSession.
func catalogFuncs() []*Func {
	str := func(f func(ctx context.Context) (string, error)) Kernel {
		return rowFunc(tText, false, func(ctx context.Context, _ []any) (any, error) { return f(ctx) })
	}
	name := func(f func(s Session) string) Kernel {
		return rowFunc(tName, false, func(ctx context.Context, _ []any) (any, error) { return f(sessionOf(ctx)), nil })
	}
	user := name(func(s Session) string { return s.User })
	db := name(func(s Session) string { return s.Database })
	fs := []*Func{
		{Name: "version", Ret: tText, Kernel: str(func(ctx context.Context) (string, error) {
			c, err := catalogOf(ctx)
			if err != nil {
				return "PostgreSQL 15.8 (sqlgate)", nil
			}
			return c.Version(), nil
		})},
		{Name: "current_user", Ret: tName, Kernel: user},
		{Name: "session_user", Ret: tName, Kernel: user},
		{Name: "getpgusername", Ret: tName, Kernel: user}, // the deprecated name of current_user
		{Name: "current_role", Ret: tName, Kernel: user},
		{Name: "user", Ret: tName, Kernel: user},
		{Name: "current_database", Ret: tName, Kernel: db},
		{Name: "current_catalog", Ret: tName, Kernel: db},
		// the first schema of the search path that exists (searchpath.go)
		{Name: "current_schema", Ret: tName, Kernel: rowFunc(tName, false, func(ctx context.Context, _ []any) (any, error) {
			if p := effectivePath(ctx); len(p) > 0 {
				return p[0], nil
			}
			return nil, nil
		})},
		{Name: "current_schemas", Args: []types.T{tBool}, Ret: tNameArr, Strict: true,
			Kernel: rowFunc(tNameArr, true, func(ctx context.Context, a []any) (any, error) {
				var out []any
				if a[0].(bool) {
					// the implicit schemas: the session's temporary
					// schema once it has one, then pg_catalog
					if t := tempSchemaOf(ctx); t != "" {
						out = append(out, t)
					}
					out = append(out, "pg_catalog")
				}
				for _, s := range effectivePath(ctx) {
					out = append(out, s)
				}
				return out, nil
			})},
		{Name: "pg_backend_pid", Ret: tInt4, Volatile: true, Kernel: rowFunc(tInt4, false, func(ctx context.Context, _ []any) (any, error) {
			if pid := sessionOf(ctx).BackendPID; pid != 0 {
				return int64(pid), nil
			}
			return int64(os.Getpid()), nil
		})},
		{Name: "pg_is_in_recovery", Ret: tBool, Kernel: rowFunc(tBool, false, func(context.Context, []any) (any, error) { return false, nil })},
		{Name: "txid_current", Ret: tInt8, Volatile: true, Kernel: rowFunc(tInt8, false, func(context.Context, []any) (any, error) { return int64(1), nil })},
		{Name: "pg_postmaster_start_time", Ret: tstzT, Kernel: rowFunc(tstzT, false, func(ctx context.Context, _ []any) (any, error) {
			c, err := catalogOf(ctx)
			if err != nil {
				return nil, err
			}
			return c.StartTime().UTC(), nil
		})},
		{Name: "pg_encoding_to_char", Args: []types.T{tInt4}, Ret: tName, Strict: true, Kernel: rowFunc(tName, true, func(_ context.Context, a []any) (any, error) {
			return encodingName(a[0].(int64)), nil
		})},
		{Name: "pg_get_userbyid", Args: []types.T{tOid}, Ret: tName, Strict: true, Kernel: withCatalog(tName, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			if n, ok := c.RoleName(oidArg(a[0])); ok {
				return n, nil
			}
			return fmt.Sprintf("unknown (OID=%d)", oidArg(a[0])), nil
		})},
		{Name: "acldefault", Args: []types.T{types.QCharType, tOid}, Ret: types.ArrayOf(types.AclItemType), Strict: true,
			Kernel: withCatalog(types.ArrayOf(types.AclItemType), aclDefault)}, // acldefault.go
		{Name: "pg_table_is_visible", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			// an OID that names no relation is NULL, not false (as on
			// PostgreSQL, so that a concurrent DROP does not fail a scan)
			if _, ok, err := c.RelationName(ctx, oidArg(a[0])); err != nil || !ok {
				return nil, err
			}
			return c.RelationVisible(ctx, oidArg(a[0]))
		})},
		{Name: "pg_type_is_visible", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			if _, ok := c.TypeName(oidArg(a[0])); ok {
				return true, nil
			}
			if _, ok, err := rowTypeName(ctx, c, oidArg(a[0])); err != nil || ok {
				return ok, err
			}
			return nil, nil // no such type: NULL, as on PostgreSQL
		})},
		{Name: "pg_function_is_visible", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			if _, _, ok := c.FunctionSignature(ctx, oidArg(a[0])); !ok {
				return nil, nil // no such function: NULL, as on PostgreSQL
			}
			return true, nil // sqlgate's functions all live in pg_catalog
		})},
		// format_type is not strict: a NULL typmod means "no typmod given".
		{Name: "format_type", Args: []types.T{tOid, tInt4}, Ret: tText, Kernel: rowFunc(tText, false, func(ctx context.Context, a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			c, err := catalogOf(ctx)
			if err != nil {
				return nil, err
			}
			if _, ok := c.TypeName(oidArg(a[0])); !ok {
				if n, ok, err := rowTypeName(ctx, c, oidArg(a[0])); err != nil || ok {
					return n, err
				}
			}
			if oidArg(a[0]) == 0 {
				return "-", nil // InvalidOid, as PostgreSQL prints it
			}
			mod, has := a[1].(int64)
			if name, ok := UserTypeOutsidePath(ctx, c, oidArg(a[0])); ok {
				return name, nil
			}
			return c.FormatType(oidArg(a[0]), int32(mod), has), nil
		})},
		{Name: "pg_get_indexdef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: indexDefKernel},
		{Name: "pg_get_indexdef", Args: []types.T{tOid, tInt4, tBool}, Ret: tText, Strict: true, Kernel: indexDefKernel},
		{Name: "pg_get_constraintdef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: constraintDefKernel},
		{Name: "pg_get_constraintdef", Args: []types.T{tOid, tBool}, Ret: tText, Strict: true, Kernel: constraintDefKernel},
		// sqlgate stores no expression trees (no defaults, no check
		// constraints, no partition bounds): whatever text a catalog holds
		// is shown as is.
		{Name: "pg_get_expr", Args: []types.T{tText, tOid}, Ret: tText, Strict: true, Kernel: exprDefKernel},
		{Name: "pg_get_expr", Args: []types.T{tText, tOid, tBool}, Ret: tText, Strict: true, Kernel: exprDefKernel},
		{Name: "pg_get_viewdef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: viewDefKernel},
		{Name: "pg_get_viewdef", Args: []types.T{tOid, tBool}, Ret: tText, Strict: true, Kernel: viewDefKernel},
		{Name: "pg_get_viewdef", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: viewDefKernel},
		{Name: "pg_get_viewdef", Args: []types.T{tText, tBool}, Ret: tText, Strict: true, Kernel: viewDefKernel},
		{Name: "pg_get_viewdef", Args: []types.T{tOid, tInt4}, Ret: tText, Strict: true, Kernel: viewDefKernel},
		{Name: "pg_get_partkeydef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: partKeyDefKernel}, // partkeydef.go
		{Name: "pg_get_partition_constraintdef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: partConstraintDefKernel},
		{Name: "pg_get_statisticsobjdef_columns", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: nullText},
		{Name: "pg_get_triggerdef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: nullText},
		{Name: "pg_get_triggerdef", Args: []types.T{tOid, tBool}, Ret: tText, Strict: true, Kernel: nullText},
		// psql's \d+ of a view lists its rules other than _RETURN; sqlgate has none
		{Name: "pg_get_ruledef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: nullText},
		{Name: "pg_get_ruledef", Args: []types.T{tOid, tBool}, Ret: tText, Strict: true, Kernel: nullText},
		{Name: "pg_relation_is_publishable", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			_, ok, err := c.RelationName(ctx, oidArg(a[0]))
			return ok && oidArg(a[0]) >= 16384, err
		})},
		{Name: "obj_description", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: descriptionKernel},
		{Name: "obj_description", Args: []types.T{tOid, tName}, Ret: tText, Strict: true, Kernel: descriptionKernel},
		// a role's comment (pg_shdescription), through CatalogInfo.Description
		{Name: "shobj_description", Args: []types.T{tOid, tName}, Ret: tText, Strict: true, Kernel: descriptionKernel},
		{Name: "col_description", Args: []types.T{tOid, tInt4}, Ret: tText, Strict: true, Kernel: withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			return optional(c.ColumnDescription(ctx, oidArg(a[0]), int(a[1].(int64))))
		})},
		// sqlgate's functions have no SQL-standard body (BEGIN ATOMIC ...)
		{Name: "pg_get_function_sqlbody", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: withCatalog(tText, functionSQLBody)},
		// no function sqlgate has declares argument defaults
		// (pg_proc.pronargdefaults is 0): NULL for every argument, as
		// PostgreSQL answers for one without a default, and for an OID
		// that is no function
		{Name: "pg_get_function_arg_default", Args: []types.T{tOid, tInt4}, Ret: tText, Strict: true, Kernel: nullText},
		// pg_operator's operators (internal/pgoper) are pg_catalog's, on
		// every search path: visible; NULL, PostgreSQL's answer, for an
		// OID that is no operator
		{Name: "pg_operator_is_visible", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: rowFunc(tBool, true, func(_ context.Context, a []any) (any, error) {
			if _, ok := pgoper.ByOID(oidArg(a[0])); ok {
				return true, nil
			}
			return nil, nil
		})},
		{Name: "pg_get_function_result", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: signatureKernel(true)},
		{Name: "pg_get_functiondef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: withCatalog(tText, functionDef)},
		{Name: "pg_get_function_arguments", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: argumentsKernel},
		// PostgreSQL's identity arguments list OUT columns too
		// (pg_get_keywords' are "OUT word text, ...")
		{Name: "pg_get_function_identity_arguments", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: signatureKernel(false)},
		{Name: "pg_encoding_max_length", Args: []types.T{tInt4}, Ret: tInt4, Strict: true, Kernel: rowFunc(tInt4, true, func(context.Context, []any) (any, error) { return int64(4), nil })},
		// regclass, regtype, regnamespace and regrole input and output: the
		// binder turns 'x'::regclass into regclass_in('x') and
		// oid::regclass::text into regclass_out(oid).
		{Name: "regclass_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegClass), Strict: true, Kernel: regIn("relation", true, lookupRelation)},
		{Name: "to_regclass", Args: []types.T{tText}, Ret: types.RegOf(types.RegClass), Strict: true, Kernel: regIn("relation", false, lookupRelation)},
		{Name: "regclass_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegClass)},
		{Name: "regtype_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegType), Strict: true, Kernel: regIn("type", true, lookupType)},
		{Name: "to_regtype", Args: []types.T{tText}, Ret: types.RegOf(types.RegType), Strict: true, Kernel: regIn("type", false, lookupType)},
		{Name: "regtype_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegType)},
		{Name: "regnamespace_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegNamespace), Strict: true, Kernel: regIn("schema", true, lookupNamespace)},
		{Name: "to_regnamespace", Args: []types.T{tText}, Ret: types.RegOf(types.RegNamespace), Strict: true, Kernel: regIn("schema", false, lookupNamespace)},
		{Name: "regnamespace_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegNamespace)},
		{Name: "regrole_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegRole), Strict: true, Kernel: regIn("role", true, lookupRole)},
		{Name: "to_regrole", Args: []types.T{tText}, Ret: types.RegOf(types.RegRole), Strict: true, Kernel: regIn("role", false, lookupRole)},
		{Name: "regrole_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegRole)},
		{Name: "current_setting", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: settingKernel},
		{Name: "current_setting", Args: []types.T{tText, tBool}, Ret: tText, Strict: true, Kernel: settingKernel},
		// the size functions take regclass in PostgreSQL: a quoted name
		// resolves to the text overload, an oid column to the oid one
		{Name: "pg_size_pretty", Args: []types.T{tInt8}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
			return sizePretty(a[0].(int64)), nil
		})},
		{Name: "pg_size_pretty", Args: []types.T{tNumeric}, Ret: tText, Strict: true, specialize: sizePrettyNumericSpecialize},
		{Name: "quote_ident", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
			return QuoteIdent(a[0].(string)), nil
		})},
		{Name: "quote_literal", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
			return quoteLiteral(a[0].(string)), nil
		})},
		// quote_literal(anyelement) / quote_nullable(anyelement): the
		// value's text form, quoted (quote_literal(42) is '42')
		{Name: "quote_literal", Args: []types.T{tAny}, Ret: tText, Strict: true, specialize: quoteAnySpecialize(false)},
		{Name: "quote_nullable", Args: []types.T{tAny}, Ret: tText, specialize: quoteAnySpecialize(true)},
		{Name: "quote_nullable", Args: []types.T{tText}, Ret: tText, Kernel: rowFunc(tText, false, func(_ context.Context, a []any) (any, error) {
			if a[0] == nil {
				return "NULL", nil
			}
			return quoteLiteral(a[0].(string)), nil
		})},
		{Name: "parse_ident", Args: []types.T{tText}, Ret: tTextArr, Strict: true, Kernel: parseIdentKernel},
		{Name: "parse_ident", Args: []types.T{tText, tBool}, Ret: tTextArr, Strict: true, Kernel: parseIdentKernel},
		{Name: "string_to_array", Args: []types.T{tText, tText}, Ret: tTextArr, Kernel: stringToArrayKernel},
		{Name: "string_to_array", Args: []types.T{tText, tText, tText}, Ret: tTextArr, Kernel: stringToArrayKernel},
		{Name: "array_to_string", Args: []types.T{tAnyArray, tText}, Ret: tText, Strict: true, specialize: arrayToStringSpecialize},
		{Name: "array_to_string", Args: []types.T{tAnyArray, tText, tText}, Ret: tText, specialize: arrayToStringSpecialize},
		{Name: "array_upper", Args: []types.T{tAnyArray, tInt4}, Ret: tInt4, Strict: true, specialize: arrayBoundSpecialize(false)},
		{Name: "array_lower", Args: []types.T{tAnyArray, tInt4}, Ret: tInt4, Strict: true, specialize: arrayBoundSpecialize(true)},
		{Name: "array_length", Args: []types.T{tAnyArray, tInt4}, Ret: tInt4, Strict: true, specialize: arrayBoundSpecialize(false)},
		{Name: "cardinality", Args: []types.T{tAnyArray}, Ret: tInt4, Strict: true, specialize: cardinalitySpecialize}, // mdarray.go
		{Name: "format", Args: []types.T{tText}, Ret: tText, specialize: formatSpecialize},
		{Name: "format", Args: []types.T{tText, tAny}, Variadic: true, Ret: tText, specialize: formatSpecialize},
		// pg_get_serial_sequence: the sequence a SERIAL or identity column
		// owns (SerialSequences), NULL for none; an unknown table is 42P01
		// as on PostgreSQL
		{Name: "pg_get_serial_sequence", Args: []types.T{tText, tText}, Ret: tText, Strict: true, Kernel: withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			oid, ok, err := lookupRelation(ctx, c, a[0].(string))
			if err != nil || !ok {
				if err == nil {
					err = sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", a[0].(string))
				}
				return nil, err
			}
			if err := checkColumnExists(ctx, c, oid, a[1].(string)); err != nil {
				return nil, err
			}
			if ss, isSerial := c.(SerialSequences); isSerial {
				return optional(ss.SerialSequence(ctx, oid, a[1].(string)))
			}
			return nil, nil
		})},
		{Name: "pg_typeof", Args: []types.T{tAny}, Ret: types.RegOf(types.RegType), specialize: pgTypeofSpecialize},
		{Name: "json_build_object", Args: []types.T{tAny}, Variadic: true, Ret: tJSON, specialize: jsonBuildObjectSpecialize},
		{Name: "row_to_json", Args: []types.T{tAny}, Ret: tJSON, specialize: rowToJSONSpecialize},
		{Name: "row_to_json", Args: []types.T{tAny, tBool}, Ret: tJSON, specialize: rowToJSONSpecialize},
		{Name: "to_json", Args: []types.T{tAny}, Ret: tJSON, specialize: toJSONSpecialize},
		{Name: "json_build_object", Ret: tJSON, Kernel: rowFunc(tJSON, false, func(context.Context, []any) (any, error) { return "{}", nil })},
		{Name: "json_build_array", Args: []types.T{tAny}, Variadic: true, Ret: tJSON, specialize: jsonBuildArraySpecialize},
		{Name: "json_build_array", Ret: tJSON, Kernel: rowFunc(tJSON, false, func(context.Context, []any) (any, error) { return "[]", nil })},
	}
	fs = append(fs, privilegeFuncs()...)
	fs = append(fs, sysInfoFuncs()...)      // sysinfo.go
	fs = append(fs, sizeFuncs()...)         // sizes.go
	fs = append(fs, relFileFuncs()...)      // relfiles.go
	fs = append(fs, sequenceInfoFuncs()...) // sequences.go
	fs = append(fs, arrayCatFuncs()...)     // mdarray.go
	fs = append(fs, arrayFillFuncs()...)    // mdarray.go
	fs = append(fs, regprocFuncs()...)
	fs = append(fs, regoperFuncs()...)      // regoper.go
	fs = append(fs, regcollationFuncs()...) // regcollation.go
	// Functions that read the catalog or the session are never folded at
	// bind time: a prepared statement must see later DDL, and only the
	// execution context is sure to carry WithCatalog and WithSession.
	for _, f := range fs {
		if !pureCatalogFuncs[f.Name] {
			f.Volatile = true
		}
	}
	return fs
}

// pureCatalogFuncs depend on their arguments only.
var pureCatalogFuncs = map[string]bool{
	"pg_encoding_to_char": true, "pg_encoding_max_length": true, "pg_size_pretty": true, "quote_ident": true,
	"quote_literal": true, "quote_nullable": true, "parse_ident": true, "string_to_array": true,
	"array_to_string": true, "array_upper": true, "array_lower": true, "array_length": true,
	"cardinality": true, "format": true, "json_build_object": true, "json_build_array": true, "row_to_json": true, "to_json": true, "pg_get_expr": true,
	"pg_typeof": true, "array_cat": true, "array_fill": true,
}

// withCatalog is rowFunc (strict) for bodies that need the catalog.
func withCatalog(ret types.T, body func(ctx context.Context, c CatalogInfo, args []any) (any, error)) Kernel {
	return rowFunc(ret, true, func(ctx context.Context, args []any) (any, error) {
		c, err := catalogOf(ctx)
		if err != nil {
			return nil, err
		}
		return body(ctx, c, args)
	})
}

// optional turns a (value, found, error) answer into a nullable value.
func optional(s string, ok bool, err error) (any, error) {
	if err != nil || !ok {
		return nil, err
	}
	return s, nil
}

var (
	// viewDefKernel is pg_get_viewdef(oid [, pretty | wrap]) and
	// pg_get_viewdef(name [, pretty]).
	viewDefKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		vd, ok := c.(ViewDefs)
		if !ok {
			return nil, nil
		}
		var oid uint32
		if name, isName := a[0].(string); isName {
			o, err := relationByName(ctx, c, name)
			if err != nil {
				return nil, err
			}
			oid = o
		} else {
			oid = oidArg(a[0])
		}
		pretty := false
		if len(a) == 2 {
			// pg_get_viewdef(oid, wrap int) always pretty-prints
			pretty, _ = a[1].(bool)
			if wrap, isWrap := a[1].(int64); isWrap {
				if wd, ok := c.(WrappedViewDefs); ok {
					return optional(wd.WrappedViewDef(ctx, oid, int(wrap)))
				}
				pretty = true
			}
		}
		return optional(vd.ViewDef(ctx, oid, pretty))
	})
	indexDefKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		col, pretty := 0, false
		if len(a) == 3 {
			col, pretty = int(a[1].(int64)), a[2].(bool)
		}
		return optional(c.IndexDef(ctx, oidArg(a[0]), col, pretty))
	})
	constraintDefKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		pretty := len(a) == 2 && a[1].(bool)
		return optional(c.ConstraintDef(ctx, oidArg(a[0]), pretty))
	})
	descriptionKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		catalog := ""
		if len(a) == 2 {
			catalog = a[1].(string)
		}
		return optional(c.Description(ctx, oidArg(a[0]), catalog))
	})
	// settingKernel is current_setting(name [, missing_ok]): the session's
	// value, else the server default; 42704 for an unknown name unless
	// missing_ok. Names are case-insensitive.
	settingKernel = rowFunc(tText, true, func(ctx context.Context, a []any) (any, error) {
		name := strings.ToLower(a[0].(string))
		if s := sessionOf(ctx); s.Setting != nil {
			if v, ok := s.Setting(name); ok {
				return v, nil
			}
		}
		if c, err := catalogOf(ctx); err == nil {
			if v, ok := c.DefaultSetting(name); ok {
				return v, nil
			}
		}
		if len(a) == 2 && a[1].(bool) {
			return nil, nil
		}
		return nil, sqlerr.New(sqlerr.UndefinedObject, "unrecognized configuration parameter %q", a[0].(string))
	})
	// exprDefKernel is pg_get_expr(expr, rel [, pretty]): the catalog's
	// deparsed text where it keeps the relation's expressions (ExprDefs),
	// else the text as given (prettyExpr's when pretty).
	exprDefKernel = rowFunc(tText, true, func(ctx context.Context, a []any) (any, error) {
		pretty := len(a) == 3 && a[2] == true
		if c, err := catalogOf(ctx); err == nil {
			if ed, ok := c.(ExprDefs); ok {
				s, _ := a[0].(string)
				if def, ok, err := ed.ExprDef(ctx, s, oidArg(a[1]), pretty); err != nil || ok {
					return def, err
				}
			}
		}
		if len(a) == 3 {
			return prettyExpr(a)
		}
		return a[0], nil
	})
	nullText = rowFunc(tText, true, func(context.Context, []any) (any, error) { return nil, nil })
)

// functionDef is pg_get_functiondef: NULL for an OID no function has.
func functionDef(ctx context.Context, c CatalogInfo, a []any) (any, error) {
	if pk, ok := c.(ProcKinds); ok {
		if name, kind := pk.ProcKind(oidArg(a[0])); kind == 'a' {
			// ruleutils.c's pg_get_functiondef writes no CREATE AGGREGATE
			return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is an aggregate function", name)
		}
	}
	return functionText(ctx, c, a, FunctionDefs.FunctionDef)
}

// functionSQLBody is pg_get_function_sqlbody: NULL for a function whose
// body is text (AS '...') and for an OID no function has.
func functionSQLBody(ctx context.Context, c CatalogInfo, a []any) (any, error) {
	return functionText(ctx, c, a, FunctionDefs.FunctionSQLBody)
}

// functionText is what text of the function a[0] names, asked of c's
// FunctionDefs: NULL without them or when text has none.
func functionText(ctx context.Context, c CatalogInfo, a []any, text func(FunctionDefs, context.Context, uint32) (string, bool)) (any, error) {
	fd, ok := c.(FunctionDefs)
	if !ok {
		return nil, nil
	}
	s, ok := text(fd, ctx, oidArg(a[0]))
	if !ok {
		return nil, nil
	}
	return s, nil
}

// FunctionArguments is the optional part of a CatalogInfo that writes
// pg_get_function_arguments with the arguments' defaults; without it,
// the identity arguments stand for them.
type FunctionArguments interface {
	FunctionArguments(ctx context.Context, oid uint32) (string, bool)
}

var argumentsKernel = withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
	if fa, ok := c.(FunctionArguments); ok {
		if args, ok := fa.FunctionArguments(ctx, oidArg(a[0])); ok {
			return args, nil
		}
		return nil, nil
	}
	_, args, ok := c.FunctionSignature(ctx, oidArg(a[0]))
	if !ok {
		return nil, nil
	}
	return args, nil
})

func signatureKernel(result bool) Kernel {
	return withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		res, args, ok := c.FunctionSignature(ctx, oidArg(a[0]))
		switch {
		case !ok:
			return nil, nil
		case result:
			return res, nil
		}
		return args, nil
	})
}

func lookupRelation(ctx context.Context, c CatalogInfo, s string) (uint32, bool, error) {
	if _, err := qualifiedNameParts(s); err != nil {
		return 0, false, err
	}
	return c.LookupRelation(ctx, s)
}

// lookupType is regtype input: a type name, with PostgreSQL's 42601 for
// text that is no type name at all (empty, or words no multi-word type
// name such as "double precision" has).
func lookupType(ctx context.Context, c CatalogInfo, s string) (uint32, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, sqlerr.New(sqlerr.SyntaxError, "invalid type name %q", s)
	}
	o, ok := c.LookupType(s)
	if ok && !strings.ContainsRune(s, '.') && typeSchemaName(c, o) != "" && !slices.Contains(effectivePath(ctx), typeSchemaName(c, o)) {
		ok = false // a user type off the search path is not found by its bare name
	}
	if !ok {
		if o, ok, err := tableRowTypeNamed(ctx, c, s); ok || err != nil {
			return o, ok, err
		}
	}
	if !ok {
		if f := strings.Fields(s); len(f) > 1 && !strings.ContainsAny(s, `"(`) {
			return 0, false, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %q", f[1])
		}
	}
	return o, ok, nil
}

func lookupNamespace(_ context.Context, c CatalogInfo, s string) (uint32, bool, error) {
	if err := checkSingleName(s); err != nil {
		return 0, false, err
	}
	o, ok := c.LookupNamespace(strings.Trim(s, `"`))
	return o, ok, nil
}

func lookupRole(_ context.Context, c CatalogInfo, s string) (uint32, bool, error) {
	if err := checkSingleName(s); err != nil {
		return 0, false, err
	}
	if n, ok := c.RoleName(10); ok && n == strings.Trim(s, `"`) {
		return 10, true, nil
	}
	return 0, false, nil
}

// regOutKernel is the reg* type v's output function (regclass_out ...).
func regOutKernel(v types.Variant) Kernel {
	return withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		return regOutput(ctx, c, v, oidArg(a[0]))
	})
}

// RegName is the text PostgreSQL's output function of the reg* type v
// prints for oid (a relation's name, qualified when its schema is not on
// the search path; a type as format_type spells it ...), the OID's digits
// when no object has it. ctx must carry the catalog (WithCatalog) and the
// session (for search_path).
func RegName(ctx context.Context, v types.Variant, oid uint32) (string, error) {
	c, err := catalogOf(ctx)
	if err != nil {
		return "", err
	}
	return regOutput(ctx, c, v, oid)
}

func regOutput(ctx context.Context, c CatalogInfo, v types.Variant, oid uint32) (string, error) {
	number := strconv.FormatUint(uint64(oid), 10)
	if v == types.RegOper || v == types.RegOperator {
		return regoperText(c, oid, v == types.RegOperator), nil // regoper.go: 0 prints as 0
	}
	if oid == 0 {
		return "-", nil // InvalidOid, in every reg* type's output
	}
	if v == types.RegCollation || v == types.RegDictionary {
		return collationOrDictionaryText(v, oid), nil // regcollation.go
	}
	switch v {
	case types.RegClass:
		n, ok, err := c.RelationName(ctx, oid)
		if err != nil || !ok {
			return number, err
		}
		return n, nil
	case types.RegType:
		if _, ok := c.TypeName(oid); ok {
			return visibleTypeName(ctx, c, oid), nil
		}
		if n, ok, err := rowTypeName(ctx, c, oid); err != nil || ok {
			return n, err
		}
	case types.RegNamespace:
		if n, ok := c.NamespaceName(oid); ok {
			return QuoteIdent(n), nil
		}
	case types.RegRole:
		if n, ok := c.RoleName(oid); ok {
			return QuoteIdent(n), nil
		}
	case types.RegProc, types.RegProcedure:
		return regprocText(c, oid, v == types.RegProcedure), nil
	}
	return number, nil
}

// typeSchemaName is the schema of the user type oid as format_type
// qualifies it (a plain "schema.name", maybe an array's "[]"), "" when
// format_type prints it bare (a built-in, or a type of public).
func typeSchemaName(c CatalogInfo, oid uint32) string {
	sc, _, ok := strings.Cut(c.FormatType(oid, -1, false), ".")
	if !ok || strings.ContainsAny(sc, `"( `) {
		return ""
	}
	return sc
}

// visibleTypeName is regtype output: format_type's name, without its
// schema when the search path finds the type by its bare name first
// (PostgreSQL's TypeIsVisible).
func visibleTypeName(ctx context.Context, c CatalogInfo, oid uint32) string {
	name := c.FormatType(oid, -1, false)
	sc := typeSchemaName(c, oid)
	if sc == "" {
		return name
	}
	bare := strings.TrimPrefix(name, sc+".")
	base := strings.TrimSuffix(bare, "[]")
	for _, p := range effectivePath(ctx) {
		if p == sc {
			return bare
		}
		if _, found := c.LookupType(QuoteIdent(p) + "." + base); found {
			return name // an earlier schema's type of that name hides it
		}
	}
	return name
}

// regIn builds the text -> oid input of a reg* type. A number is taken as
// the OID itself, as PostgreSQL does. With must, a missing object is an
// error (42P01 for relations, 42704 otherwise); without (to_regclass ...)
// it is NULL.
func regIn(what string, must bool, lookup func(context.Context, CatalogInfo, string) (uint32, bool, error)) Kernel {
	return withCatalog(tOid, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		oid, ok, err := regInput(ctx, c, what, must, lookup, a[0].(string))
		if err != nil || !ok {
			return nil, err
		}
		return int64(oid), nil
	})
}

func regInput(ctx context.Context, c CatalogInfo, what string, must bool, lookup func(context.Context, CatalogInfo, string) (uint32, bool, error), text string) (uint32, bool, error) {
	s := strings.TrimSpace(text)
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return uint32(n), true, nil
	}
	oid, ok, err := lookup(ctx, c, s)
	if err != nil || ok || !must {
		return oid, ok, err
	}
	// the message names the name as parsed ('"Ab"' is "Ab", 'Ab' is "ab")
	name := displayName(s)
	if what == "relation" || what == "type" {
		// a schema-qualified name whose schema does not exist is that
		// schema's error, as RangeVarGetRelid's and LookupTypeName's
		// lookups report it
		if names, ok := types.SplitIdentifierString(s, '.'); ok && len(names) == 2 {
			if _, found := c.LookupNamespace(names[0]); !found {
				return 0, false, sqlerr.UndefinedSchema(names[0])
			}
		}
	}
	switch what {
	case "relation":
		return 0, false, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", name)
	case "schema":
		// PostgreSQL's regnamespacein reports invalid_schema_name
		return 0, false, sqlerr.New(sqlerr.InvalidSchemaName, "schema %q does not exist", name)
	}
	return 0, false, sqlerr.New(sqlerr.UndefinedObject, "%s %q does not exist", what, name)
}

// RegIn is the input function of the reg* type v (regclassin ...) applied
// to text, for a parameter a client sends as a name: nextval($1) with $1 =
// 'myseq'. ctx must carry the catalog (WithCatalog) and the session.
func RegIn(ctx context.Context, v types.Variant, text string) (uint32, error) {
	c, err := catalogOf(ctx)
	if err != nil {
		return 0, err
	}
	var oid uint32
	switch v {
	case types.RegClass:
		oid, _, err = regInput(ctx, c, "relation", true, lookupRelation, text)
	case types.RegType:
		oid, _, err = regInput(ctx, c, "type", true, lookupType, text)
	case types.RegNamespace:
		oid, _, err = regInput(ctx, c, "schema", true, lookupNamespace, text)
	case types.RegRole:
		oid, _, err = regInput(ctx, c, "role", true, lookupRole, text)
	default:
		n, perr := strconv.ParseUint(strings.TrimSpace(text), 10, 32)
		if perr != nil {
			return 0, sqlerr.New(sqlerr.FeatureNotSupported, "a %s parameter given by name is not supported; send its OID", v.Name())
		}
		oid = uint32(n)
	}
	return oid, err
}

func encodingName(n int64) string {
	switch n {
	case 0:
		return "SQL_ASCII"
	case 6:
		return "UTF8"
	case 8:
		return "LATIN1"
	}
	return ""
}

// sizePretty is pg_size_pretty(bigint) with PostgreSQL 15's units and
// rounding: bytes below 10240, then kB/MB/GB/TB/PB, each used below 20480
// of itself, rounded half away from zero.
func sizePretty(n int64) string {
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	if abs(n) < 10*1024 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	half := func(x int64) int64 {
		if x < 0 {
			return (x - 1) / 2
		}
		return (x + 1) / 2
	}
	n >>= 9 // one extra bit for rounding
	units := []string{"kB", "MB", "GB", "TB", "PB"}
	for i, u := range units {
		if abs(n) < 20*1024-1 || i == len(units)-1 {
			return strconv.FormatInt(half(n), 10) + " " + u
		}
		n >>= 10
	}
	return ""
}

// QuoteIdent is quote_ident: s quoted unless it is a lower-case
// identifier that needs no quotes and no keyword (PostgreSQL quotes every
// keyword but the unreserved ones). The deparser prints names with it.
func QuoteIdent(s string) string {
	safe := s != ""
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && (r >= '0' && r <= '9')) {
			safe = false
			break
		}
	}
	if safe && !reservedKeywords[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		return "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}

var parseIdentKernel = rowFunc(tTextArr, true, func(_ context.Context, a []any) (any, error) {
	strict := true
	if len(a) == 2 {
		strict = a[1].(bool)
	}
	parts, err := parseIdent(a[0].(string), strict)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
})

func identStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// parseIdent splits a qualified identifier as PostgreSQL's parse_ident:
// unquoted parts are lower-cased, quoted parts keep their text.
func parseIdent(s string, strict bool) ([]string, error) {
	bad := func() error {
		return sqlerr.New(sqlerr.InvalidParameterValue, "string is not a valid identifier: %q", s)
	}
	var parts []string
	i := 0
	for {
		for i < len(s) && unicode.IsSpace(rune(s[i])) {
			i++
		}
		if i >= len(s) {
			return nil, bad()
		}
		if s[i] == '"' {
			var b strings.Builder
			i++
			for {
				if i >= len(s) {
					return nil, bad()
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			if b.Len() == 0 {
				return nil, bad()
			}
			parts = append(parts, b.String())
		} else {
			// an unquoted part is an identifier as the SQL lexer reads
			// one: a letter, _ or non-ASCII byte, then those, digits or $
			start := i
			for i < len(s) && (identStart(s[i]) || i > start && (s[i] >= '0' && s[i] <= '9' || s[i] == '$')) {
				i++
			}
			if i == start {
				return nil, bad()
			}
			parts = append(parts, strings.Map(func(r rune) rune {
				if r >= 'A' && r <= 'Z' {
					return r + 'a' - 'A' // only ASCII, as PostgreSQL's downcase_identifier in UTF-8
				}
				return r
			}, s[start:i]))
		}
		for i < len(s) && unicode.IsSpace(rune(s[i])) {
			i++
		}
		if i >= len(s) {
			return parts, nil
		}
		if s[i] != '.' {
			if strict {
				return nil, bad()
			}
			return parts, nil
		}
		i++
	}
}

var stringToArrayKernel = rowFunc(tTextArr, false, func(_ context.Context, a []any) (any, error) { return stringToArray(a) })

// stringToArray splits a[0] at delimiter a[1] (one element per character
// for a NULL delimiter, the whole string for an empty one), elements
// equal to a[2] becoming NULL; NULL for a NULL string.
func stringToArray(a []any) (any, error) {
	s, ok := a[0].(string)
	if !ok {
		return nil, nil
	}
	var null any
	if len(a) == 3 {
		null = a[2]
	}
	conv := func(p string) any {
		if n, ok := null.(string); ok && p == n {
			return nil
		}
		return p
	}
	if s == "" {
		return []any{}, nil
	}
	var parts []string
	switch d := a[1].(type) {
	case nil: // NULL delimiter: one element per character
		for _, r := range s {
			parts = append(parts, string(r))
		}
	case string:
		if d == "" {
			parts = []string{s}
		} else {
			parts = strings.Split(s, d)
		}
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = conv(p)
	}
	return out, nil
}

// arrayToStringSpecialize renders elements with their type's output
// function; NULL elements are skipped unless a replacement is given.
func arrayToStringSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	elem, depth := types.StringType, 1
	if len(args) > 0 && args[0].Elem != nil {
		// the elements of every dimension (mdarray.go)
		elem, depth = arrayLeaf(args[0]), arrayDepth(args[0])
	}
	return tText, rowFunc(tText, false, func(ctx context.Context, a []any) (any, error) {
		arr, ok := a[0].([]any)
		arr = types.ArrayElements(arr, depth)
		sep, ok2 := a[1].(string)
		if !ok || !ok2 {
			return nil, nil
		}
		var repl *string
		if len(a) == 3 {
			if r, ok := a[2].(string); ok {
				repl = &r
			}
		}
		var parts []string
		// each element as array_out writes it, under the session's
		// settings (a timestamptz in its zone, a date in its DateStyle, a
		// float with its digits)
		loc, st := LocationOf(ctx), StyleOf(ctx)
		for _, e := range arr {
			if e == nil {
				if repl != nil {
					parts = append(parts, *repl)
				}
				continue
			}
			parts = append(parts, ElemTextStyle(e, elem, loc, st))
		}
		return strings.Join(parts, sep), nil
	})
}

// pgTypeofSpecialize answers pg_typeof(x) from x's type alone (a NULL of a
// type has that type): the name format_type gives its OID, without typmod.
func pgTypeofSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	oid, _, _ := pgtypes.OIDOf(args[0])
	rt := types.RegOf(types.RegType)
	return rt, rowFunc(rt, false, func(context.Context, []any) (any, error) { return int64(oid), nil })
}

// outerBracketed reports whether s is one bracketed expression, "( ... )"
// whose first bracket closes at its end (outside string literals).
func outerBracketed(s string) bool {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return false
	}
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && i != len(s)-1 {
				return false
			}
		}
	}
	return depth == 0
}

// tableRowTypeNamed is the row type of the table s names (or its array
// type, for "t[]" and for its pg_type name "_t"): every table has one,
// named as the table (types.TableRowTypeOID).
func tableRowTypeNamed(ctx context.Context, c CatalogInfo, s string) (uint32, bool, error) {
	name, array := strings.CutSuffix(s, "[]")
	if strings.ContainsAny(name, " ()[]") {
		return 0, false, nil
	}
	rel, ok, err := c.LookupRelation(ctx, name)
	if err == nil && !ok && !array {
		// "_t" (or "schema._t") is the array type of t's row type, as
		// PostgreSQL names an array type, unless a table is named "_t"
		dot := strings.LastIndexByte(name, '.') + 1
		if elem, isArray := strings.CutPrefix(name[dot:], "_"); isArray && elem != "" {
			array = true
			rel, ok, err = c.LookupRelation(ctx, name[:dot]+elem)
		}
	}
	if err != nil || !ok {
		return 0, false, nil // no relation: the type's own "does not exist"
	}
	row, ok := types.TableRowTypeOfRelation(rel)
	if !ok {
		return 0, false, nil
	}
	if array {
		return types.TableRowArrayOID(int64(rel) - types.FirstUserOID), true, nil
	}
	return row, true, nil
}

// prettyExpr is pg_get_expr(text, rel, pretty) of a text the catalog does
// not deparse: pretty output drops the brackets the deparser puts around
// a top-level operator ("(a * 2)" is "a * 2"), as psql's \d shows a
// default.
func prettyExpr(a []any) (any, error) {
	s, _ := a[0].(string)
	if p, _ := a[2].(bool); p && outerBracketed(s) {
		return s[1 : len(s)-1], nil
	}
	return a[0], nil
}

// UserTypeOutsidePath is format_type's name of a user-defined type (an
// enum, domain or composite type, or an array of one) whose visibility
// differs from the catalog's rule (public unqualified, other schemas
// qualified) under the session's search path: qualified outside the path
// (public too, under pg_dump's empty search_path), bare on it. ok is
// false for every other type.
func UserTypeOutsidePath(ctx context.Context, c CatalogInfo, oid uint32) (string, bool) {
	path, has := SearchPathOf(ctx)
	if !has {
		return "", false
	}
	schema, name, array, ok := userTypeOf(typesOf(c), oid)
	if !ok {
		return "", false
	}
	if schema == "" {
		schema = "public"
	}
	visible := false
	for _, s := range path {
		visible = visible || s == schema
	}
	if visible == (schema == "public") {
		return "", false // the catalog's own rule gives it
	}
	out := QuoteIdent(name)
	if !visible {
		out = QuoteIdent(schema) + "." + out
	}
	if array {
		out += "[]"
	}
	return out, true
}

// userTypeOf is the schema and name of the user-defined type oid, or of
// the element of the array type oid (array true), in reg.
func userTypeOf(reg *types.Registry, oid uint32) (schema, name string, array, ok bool) {
	for _, o := range []uint32{oid, oid - 1} {
		if e := reg.Enum(o); e != nil && (o == oid || e.ArrayOID == oid) {
			return e.Schema, e.Name, o != oid, true
		}
		if d := reg.Domain(o); d != nil && (o == oid || d.ArrayOID == oid) {
			return d.Schema, d.Name, o != oid, true
		}
		if c := reg.Composite(o); c != nil && (o == oid || c.ArrayOID == oid) {
			return c.Schema, c.Name, o != oid, true
		}
	}
	return "", "", false, false
}
