package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// pg_identify_object and pg_identify_object_as_address (PostgreSQL 15
// §9.27.5): an object named by (classid, objid, objsubid) as
// objectaddress.c's getObjectTypeDescription and getObjectIdentityParts
// name it, read from the catalog rows that show it (CatalogRows), for
// the catalogs whose objects sqlgate has: relations and their columns,
// types, functions, schemas, roles, databases and tablespaces. An object
// that does not exist keeps its type and has NULL for the rest, as in
// PostgreSQL; the other catalogs' objects are 0A000 (describeobj.go's
// objectClasses), an OID that is no catalog XX000.

// identifyRowType and addressRowType are the two functions' OUT
// parameters.
var (
	identifyRowType = types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{
		{Name: "type", Type: tText}, {Name: "schema", Type: tText}, {Name: "name", Type: tText}, {Name: "identity", Type: tText}}}
	addressRowType = types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{
		{Name: "type", Type: tText}, {Name: "object_names", Type: tTextArr}, {Name: "object_args", Type: tTextArr}}}
)

// objectIdentity is one object's identification: its type's words
// always; the rest only when found. schema and name are NULL ("") where
// PostgreSQL gives none (a schema has no schema, a function no name).
type objectIdentity struct {
	typ            string
	found          bool
	schema, name   string
	hasSchema      bool
	hasName        bool
	identity       string
	names, objArgs []string
}

func identifyFuncs() []*Func {
	args := []types.T{tOid, tOid, tInt4}
	return []*Func{
		{Name: "pg_identify_object", Args: args, Ret: identifyRowType, Strict: true,
			Kernel: withCatalog(identifyRowType, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				id, err := identifyObject(ctx, c, oidArg(a[0]), oidArg(a[1]), a[2].(int64))
				if err != nil {
					return nil, err
				}
				out := []any{id.typ, nil, nil, nil}
				if id.found {
					if id.hasSchema {
						out[1] = id.schema
					}
					if id.hasName {
						out[2] = id.name
					}
					out[3] = id.identity
				}
				return out, nil
			})},
		{Name: "pg_identify_object_as_address", Args: args, Ret: addressRowType, Strict: true,
			Kernel: withCatalog(addressRowType, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				id, err := identifyObject(ctx, c, oidArg(a[0]), oidArg(a[1]), a[2].(int64))
				if err != nil {
					return nil, err
				}
				if !id.found {
					return []any{id.typ, nil, nil}, nil
				}
				return []any{id.typ, stringsAny(id.names), stringsAny(id.objArgs)}, nil
			})},
	}
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// relationTypeWords are getRelationTypeDescription's words by relkind.
var relationTypeWords = map[string]string{
	"r": "table", "p": "table", "i": "index", "I": "index", "S": "sequence", "t": "toast table", "v": "view",
	"m": "materialized view", "c": "composite type", "f": "foreign table",
}

// hasSystemColumns reports whether relations of relkind kind have the
// system columns (ctid, xmin ...): all but views, composite types and
// indexes, whose rows are no heap tuples.
func hasSystemColumns(kind string) bool {
	switch kind {
	case "v", "c", "i", "I":
		return false
	}
	return true
}

// sqlNamedTypes are the types format_type names by their SQL names
// (integer, character varying ...), never schema-qualified.
var sqlNamedTypes = map[uint32]bool{1560: true, 16: true, 1042: true, 700: true, 701: true, 21: true, 23: true, 20: true,
	1700: true, 1186: true, 1083: true, 1266: true, 1114: true, 1184: true, 1562: true, 1043: true}

func identifyObject(ctx context.Context, c CatalogInfo, class, oid uint32, sub int64) (objectIdentity, error) {
	cr, err := catalogRowsOf(c)
	if err != nil {
		return objectIdentity{}, err
	}
	row := func(catalog string) (map[string]any, bool, error) { return cr.CatalogRow(ctx, catalog, oid) }
	nsName := func(ns uint32) string { n, _ := c.NamespaceName(ns); return n }
	switch class {
	case classRelation:
		id := objectIdentity{typ: "relation"}
		r, ok, err := row("pg_class")
		if err != nil || !ok {
			return id, err
		}
		id.typ = relationTypeWords[rowString(r, "relkind")]
		if sub != 0 {
			id.typ += " column"
		}
		rel := rowString(r, "relname")
		id.schema, id.hasSchema = nsName(rowUint32(r, "relnamespace")), true
		id.name, id.hasName = QuoteIdent(rel), true
		id.identity = QuoteIdent(id.schema) + "." + QuoteIdent(rel)
		id.names = []string{id.schema, rel}
		if sub != 0 {
			col, ok := systemColumns[sub]
			ok = ok && hasSystemColumns(rowString(r, "relkind"))
			if sub > 0 {
				cn, isNamer := c.(ColumnNames)
				if !isNamer {
					return id, nil
				}
				if col, ok, err = cn.ColumnName(ctx, oid, int(sub)); err != nil {
					return id, err
				}
			}
			if !ok {
				return id, nil
			}
			id.identity += "." + QuoteIdent(col)
			id.names = append(id.names, col)
		}
		id.found = true
		return id, nil
	case classType:
		id := objectIdentity{typ: "type"}
		r, ok, err := row("pg_type")
		if err != nil || !ok {
			return id, err
		}
		id.schema, id.hasSchema = nsName(rowUint32(r, "typnamespace")), true
		id.name, id.hasName = QuoteIdent(rowString(r, "typname")), true
		q, err := qualifiedTypeName(ctx, c, cr, oid)
		if err != nil {
			return id, err
		}
		id.identity, id.names, id.found = q, []string{q}, true
		return id, nil
	case classProc:
		id := objectIdentity{typ: "routine"}
		r, ok, err := row("pg_proc")
		if err != nil || !ok {
			return id, err
		}
		switch rowString(r, "prokind") {
		case "a":
			id.typ = "aggregate"
		case "p":
			id.typ = "procedure"
		default:
			id.typ = "function"
		}
		id.schema, id.hasSchema = nsName(rowUint32(r, "pronamespace")), true
		argOIDs, _ := r["proargtypes"].([]any)
		for _, a := range argOIDs {
			t, _ := a.(uint32)
			q, err := qualifiedTypeName(ctx, c, cr, t)
			if err != nil {
				return id, err
			}
			id.objArgs = append(id.objArgs, q)
		}
		name := rowString(r, "proname")
		id.identity = QuoteIdent(id.schema) + "." + QuoteIdent(name) + "(" + strings.Join(id.objArgs, ",") + ")"
		id.names, id.found = []string{id.schema, name}, true
		if id.objArgs == nil {
			id.objArgs = []string{}
		}
		return id, nil
	case classNamespace, classRole, classDatabase, classTablespace:
		catalog, col, typ := "pg_namespace", "nspname", "schema"
		switch class {
		case classRole:
			catalog, col, typ = "pg_authid", "rolname", "role"
		case classDatabase:
			catalog, col, typ = "pg_database", "datname", "database"
		case classTablespace:
			catalog, col, typ = "pg_tablespace", "spcname", "tablespace"
		}
		id := objectIdentity{typ: typ}
		r, ok, err := row(catalog)
		if err != nil || !ok {
			return id, err
		}
		n := rowString(r, col)
		id.name, id.hasName, id.identity, id.names, id.found = QuoteIdent(n), true, QuoteIdent(n), []string{n}, true
		return id, nil
	}
	if objectClasses[class] {
		return objectIdentity{}, sqlerr.New(sqlerr.FeatureNotSupported, "identifying an object of class %d is not supported", class)
	}
	return objectIdentity{}, sqlerr.New(sqlerr.InternalError, "unrecognized object class: %d", class)
}

// qualifiedTypeName is format_type_be_qualified: a type's SQL name when
// it has one (integer, character varying), else schema.name, both
// quoted as needed, with [] for an array; "???" for an OID that is no
// type.
func qualifiedTypeName(ctx context.Context, c CatalogInfo, cr CatalogRows, oid uint32) (string, error) {
	r, ok, err := cr.CatalogRow(ctx, "pg_type", oid)
	if err != nil || !ok {
		return "???", err
	}
	name := rowString(r, "typname")
	if elem := rowUint32(r, "typelem"); elem != 0 && strings.HasPrefix(name, "_") { // not int2vector, oidvector
		q, err := qualifiedTypeName(ctx, c, cr, elem)
		return q + "[]", err
	}
	if sqlNamedTypes[oid] {
		return c.FormatType(oid, -1, false), nil
	}
	ns, _ := c.NamespaceName(rowUint32(r, "typnamespace"))
	return QuoteIdent(ns) + "." + QuoteIdent(name), nil
}
