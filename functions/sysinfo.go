package functions

import (
	"context"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// System information functions (PostgreSQL 15 §9.26, §9.27.7) whose
// answer follows from what sqlgate is: one UTF8 encoding, no JIT, no
// temporary schemas, no triggers, no row security, no extended statistics
// objects, only the two default tablespaces, and catalogs without
// conversions, operator classes or families, or text search objects (so
// their *_is_visible is NULL, PostgreSQL's answer for an OID that names
// nothing).

// CollationCatalog is implemented by a CatalogInfo that lists collations
// (pg_collation): pg_collation_is_visible asks it.
type CollationCatalog interface {
	CollationExists(oid uint32) bool
}

func sysInfoFuncs() []*Func {
	constant := func(name string, ret types.T, v any) *Func {
		return &Func{Name: name, Ret: ret, Kernel: rowFunc(ret, false, func(context.Context, []any) (any, error) { return v, nil })}
	}
	nullVisible := func(name string) *Func {
		return &Func{Name: name, Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: rowFunc(tBool, true, func(context.Context, []any) (any, error) { return nil, nil })}
	}
	fs := []*Func{
		constant("pg_client_encoding", tName, "UTF8"),
		constant("pg_jit_available", tBool, false),
		constant("pg_trigger_depth", tInt4, int64(0)),
		// the session's temporary schema, 0 before it made one
		{Name: "pg_my_temp_schema", Ret: tOid, Kernel: withCatalogNoArgs(tOid, func(ctx context.Context, c CatalogInfo) (any, error) {
			if oid, ok := c.LookupNamespace(tempSchemaOf(ctx)); ok {
				return int64(oid), nil
			}
			return int64(0), nil
		})},
		// another session's temporary schema (PostgreSQL's
		// isOtherTempNamespace): a pg_temp_ schema that is not the
		// session's own
		{Name: "pg_is_other_temp_schema", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			name, ok := c.NamespaceName(oidArg(a[0]))
			return ok && strings.HasPrefix(name, "pg_temp_") && name != tempSchemaOf(ctx), nil
		})},
		// the configuration is read once, at start-up
		{Name: "pg_conf_load_time", Ret: tstzT, Kernel: withCatalogNoArgs(tstzT, func(_ context.Context, c CatalogInfo) (any, error) { return c.StartTime().UTC(), nil })},
		{Name: "row_security_active", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: rowFunc(tBool, true, func(context.Context, []any) (any, error) { return false, nil })},
		{Name: "row_security_active", Args: []types.T{tText}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			_, err := relationByName(ctx, c, a[0].(string))
			return false, err
		})},
		{Name: "pg_get_statisticsobjdef", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: nullText},
		{Name: "pg_size_bytes", Args: []types.T{tText}, Ret: tInt8, Strict: true, Kernel: rowFunc(tInt8, true, func(_ context.Context, a []any) (any, error) {
			return sizeBytes(a[0].(string))
		})},
		{Name: "pg_tablespace_location", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: rowFunc(tText, true, func(_ context.Context, a []any) (any, error) {
			oid := oidArg(a[0])
			if oid == 0 || oid == 1663 || oid == 1664 { // pg_default, pg_global: the data directory
				return "", nil
			}
			// PostgreSQL looks for the tablespace's link, which no other OID has
			return nil, sqlerr.New(sqlerr.Code("58P01"), "could not stat file \"pg_tblspc/%d\": No such file or directory", oid)
		})},
		{Name: "pg_collation_is_visible", Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: withCatalog(tBool, func(_ context.Context, c CatalogInfo, a []any) (any, error) {
			if cc, ok := c.(CollationCatalog); ok && cc.CollationExists(oidArg(a[0])) {
				return true, nil // sqlgate's collations live in pg_catalog
			}
			return nil, nil
		})},
		{Name: "timeofday", Ret: tText, Volatile: true, Kernel: rowFunc(tText, false, func(ctx context.Context, _ []any) (any, error) {
			return time.Now().In(LocationOf(ctx)).Format("Mon Jan 02 15:04:05.000000 2006 MST"), nil
		})},
	}
	// the operator classes and families and the text search parsers,
	// templates, configurations and dictionaries sqlgate has
	// (internal/pgoper's) live in pg_catalog, on every search path
	fs = append(fs, visibleIn("pg_opclass_is_visible", func(oid uint32) bool { return pgoper.OpClassByOID(oid) }),
		visibleIn("pg_opfamily_is_visible", func(oid uint32) bool { return pgoper.OpFamilyByOID(oid) }),
		visibleIn("pg_ts_dict_is_visible", func(oid uint32) bool { return pgoper.TSObjectByOID(oid) == 'd' }),
		visibleIn("pg_ts_config_is_visible", func(oid uint32) bool { return pgoper.TSObjectByOID(oid) == 'c' }),
		visibleIn("pg_ts_parser_is_visible", func(oid uint32) bool { return pgoper.TSObjectByOID(oid) == 'p' }),
		visibleIn("pg_ts_template_is_visible", func(oid uint32) bool { return pgoper.TSObjectByOID(oid) == 't' }))
	for _, name := range []string{"pg_conversion_is_visible", "pg_statistics_obj_is_visible"} {
		fs = append(fs, nullVisible(name))
	}
	return fs
}

// tempSchemaOf is the temporary schema of the session in ctx, "" when it
// has none.
func tempSchemaOf(ctx context.Context) string {
	if f := sessionOf(ctx).TempSchema; f != nil {
		return f()
	}
	return ""
}

// withCatalogNoArgs is withCatalog for a function without arguments.
func withCatalogNoArgs(ret types.T, body func(ctx context.Context, c CatalogInfo) (any, error)) Kernel {
	return rowFunc(ret, false, func(ctx context.Context, _ []any) (any, error) {
		c, err := catalogOf(ctx)
		if err != nil {
			return nil, err
		}
		return body(ctx, c)
	})
}

// sizeUnits are pg_size_bytes' units and their powers of two.
var sizeUnits = []struct {
	name string
	bits uint
}{{"bytes", 0}, {"kB", 10}, {"MB", 20}, {"GB", 30}, {"TB", 40}, {"PB", 50}}

// sizeBytes is pg_size_bytes: a number (sign, digits, fraction,
// exponent) and an optional unit, case-insensitive, rounded to a bigint
// as numeric_int8 rounds.
func sizeBytes(arg string) (any, error) {
	invalid := func() error { return sqlerr.New(sqlerr.InvalidParameterValue, "invalid size: %q", arg) }
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	s := arg
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start, e := i, i
	if e < len(s) && (s[e] == '-' || s[e] == '+') {
		e++
	}
	digits := false
	for e < len(s) && isDigit(s[e]) {
		e, digits = e+1, true
	}
	if e < len(s) && s[e] == '.' {
		e++
		for e < len(s) && isDigit(s[e]) {
			e, digits = e+1, true
		}
	}
	if !digits {
		return nil, invalid()
	}
	if e < len(s) && (s[e] == 'e' || s[e] == 'E') {
		c := e + 1
		if c < len(s) && (s[c] == '+' || s[c] == '-') {
			c++
		}
		if c < len(s) && isDigit(s[c]) {
			for c < len(s) && isDigit(s[c]) {
				c++
			}
			e = c
		}
	}
	num, err := numeric.Parse(s[start:e])
	if err != nil {
		return nil, invalid()
	}
	unit := strings.TrimRightFunc(strings.TrimLeftFunc(s[e:], func(r rune) bool { return r < 128 && isSpace(byte(r)) }), func(r rune) bool { return r < 128 && isSpace(byte(r)) })
	if unit != "" {
		found := false
		for _, u := range sizeUnits {
			if strings.EqualFold(unit, u.name) {
				num, err = numeric.Mul(num, numeric.FromInt64(int64(1)<<u.bits))
				if err != nil {
					return nil, err
				}
				found = true
				break
			}
		}
		if !found {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid size: %q", arg).
				WithDetail("Invalid size unit: %q.", unit).
				WithHint("%s", `Valid units are "bytes", "kB", "MB", "GB", "TB", and "PB".`)
		}
	}
	r, err := numeric.Round(num, 0)
	if err != nil {
		return nil, err
	}
	v, ok, err := numeric.ToInt64(r, "bigint")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, types.IntOutOfRange(types.Int64Type)
	}
	return v, nil
}

// visibleIn is a pg_*_is_visible function of pg_catalog objects: true for
// an OID exists reports, NULL (no such object) for another.
func visibleIn(name string, exists func(uint32) bool) *Func {
	return &Func{Name: name, Args: []types.T{tOid}, Ret: tBool, Strict: true, Kernel: rowFunc(tBool, true, func(_ context.Context, a []any) (any, error) {
		if exists(oidArg(a[0])) {
			return true, nil
		}
		return nil, nil
	})}
}
