package functions

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// regcollation and regdictionary name pg_collation's and pg_ts_dict's
// rows: the collations sqlgate has (the COLLATE clauses sql/collations.go
// accepts) and its text search dictionaries (types/tsearch's), with
// PostgreSQL 15's OIDs, which pgcatalog lists as those catalogs' rows.
// Their input functions read a possibly qualified name as PostgreSQL's
// regcollationin and regdictionaryin do; output quotes the name as
// quote_identifier does, qualified by pg_catalog never (it is on every
// search path).

// Collation is one pg_collation row of sqlgate's collations.
type Collation struct {
	OID      uint32
	Name     string
	Provider byte   // collprovider: 'd' the database's default, 'c' libc
	Collate  string // collcollate and collctype ("" NULL, the default's)
	Encoding int32  // collencoding: -1 any, 6 UTF8 only
	Comment  string // obj_description(oid, 'pg_collation')
}

// Collations are PostgreSQL 15's pg_collation rows of "default", "C",
// "POSIX" and ucs_basic, which every initdb makes with these OIDs, and
// C.utf8, which initdb imports from the C.UTF-8 locale (the first OID
// after ucs_basic's); sql.KnownCollation names the same ones.
func Collations() []Collation {
	return []Collation{
		{100, "default", 'd', "", -1, "database's default collation"},
		{950, "C", 'c', "C", -1, "standard C collation"},
		{951, "POSIX", 'c', "POSIX", -1, "standard POSIX collation"},
		{12340, "ucs_basic", 'c', "C", 6, ""},
		{12341, "C.utf8", 'c', "C.utf8", 6, ""},
	}
}

// Dictionary is one pg_ts_dict row of sqlgate's dictionaries.
type Dictionary = pgoper.TSDict

// Dictionaries are PostgreSQL 15's pg_ts_dict rows of simple and
// english_stem, the dictionaries types/tsearch's configurations map
// tokens to (internal/pgoper's tscatalog.go).
func Dictionaries() []Dictionary { return pgoper.TSDicts() }

func regcollationFuncs() []*Func {
	return []*Func{
		{Name: "regcollation_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegCollation), Strict: true, Kernel: regNameIn(regcollationLookup, true)},
		{Name: "to_regcollation", Args: []types.T{tText}, Ret: types.RegOf(types.RegCollation), Strict: true, Kernel: regNameIn(regcollationLookup, false)},
		{Name: "regcollation_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegCollation)},
		{Name: "regdictionary_in", Args: []types.T{tText}, Ret: types.RegOf(types.RegDictionary), Strict: true, Kernel: regNameIn(regdictionaryLookup, true)},
		{Name: "regdictionary_out", Args: []types.T{tOid}, Ret: tText, Strict: true, Kernel: regOutKernel(types.RegDictionary)},
	}
}

// regNameIn is the input function (must) or to_reg* function of a reg*
// type over pg_catalog objects found by lookup: a number is the OID
// itself (input only); to_reg* is NULL where the input function reports
// the object missing, and fails alike on a malformed name.
func regNameIn(lookup func(ctx context.Context, c CatalogInfo, name string) (uint32, error), must bool) Kernel {
	return withCatalog(tOid, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		s := strings.TrimSpace(a[0].(string))
		if n, err := strconv.ParseUint(s, 10, 32); err == nil && must {
			return int64(n), nil
		}
		oid, err := lookup(ctx, c, s)
		if err != nil {
			if c := sqlerr.CodeOf(err); !must && (c == sqlerr.UndefinedObject || c == sqlerr.InvalidSchemaName) {
				return nil, nil
			}
			return nil, err
		}
		return int64(oid), nil
	})
}

// catalogObjectName splits a possibly qualified name of a pg_catalog
// object as PostgreSQL's stringToQualifiedNameList and
// DeconstructQualifiedName do: the object's name, whether a schema other
// than pg_catalog qualifies it (then nothing is found), and the name as
// messages print it. A database part must be the session's; a schema part
// must exist.
func catalogObjectName(ctx context.Context, c CatalogInfo, s string) (name string, elsewhere bool, shown string, err error) {
	names, ok := types.SplitIdentifierString(s, '.')
	if !ok || len(names) == 0 {
		return "", false, "", sqlerr.New(sqlerr.Code("42602"), "invalid name syntax")
	}
	shown = strings.Join(names, ".")
	switch len(names) {
	case 1:
		return names[0], false, shown, nil
	case 3:
		db := c.Database()
		if s := CurrentSession(ctx); s.Database != "" {
			db = s.Database
		}
		if names[0] != db {
			return "", false, "", sqlerr.New(sqlerr.FeatureNotSupported, "cross-database references are not implemented: %s", shown)
		}
		names = names[1:]
		fallthrough
	case 2:
		if _, ok := c.LookupNamespace(names[0]); !ok {
			return "", false, "", sqlerr.UndefinedSchema(names[0])
		}
		return names[1], names[0] != "pg_catalog", shown, nil
	}
	return "", false, "", sqlerr.New(sqlerr.SyntaxError, "improper qualified name (too many dotted names): %s", shown)
}

// regcollationLookup is regcollationin's lookup of a collation's name
// (sqlgate's are all usable under UTF8, the one server encoding).
func regcollationLookup(ctx context.Context, c CatalogInfo, s string) (uint32, error) {
	name, elsewhere, shown, err := catalogObjectName(ctx, c, s)
	if err != nil {
		return 0, err
	}
	for _, coll := range Collations() {
		if coll.Name == name && !elsewhere {
			return coll.OID, nil
		}
	}
	return 0, sqlerr.New(sqlerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", shown)
}

// regdictionaryLookup is regdictionaryin's lookup of a dictionary's name.
func regdictionaryLookup(ctx context.Context, c CatalogInfo, s string) (uint32, error) {
	name, elsewhere, shown, err := catalogObjectName(ctx, c, s)
	if err != nil {
		return 0, err
	}
	for _, d := range Dictionaries() {
		if d.Name == name && !elsewhere {
			return d.OID, nil
		}
	}
	return 0, sqlerr.New(sqlerr.UndefinedObject, "text search dictionary \"%s\" does not exist", shown)
}

// collationOrDictionaryText is regcollation's or regdictionary's output:
// the name as quote_identifier writes it; an OID that names no row
// prints as its number.
func collationOrDictionaryText(v types.Variant, oid uint32) string {
	if v == types.RegCollation {
		for _, coll := range Collations() {
			if coll.OID == oid {
				return QuoteIdent(coll.Name)
			}
		}
	} else {
		for _, d := range Dictionaries() {
			if d.OID == oid {
				return QuoteIdent(d.Name)
			}
		}
	}
	return strconv.FormatUint(uint64(oid), 10)
}
