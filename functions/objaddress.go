package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// pg_get_object_address(type, object_names, object_args) (PostgreSQL 15
// §9.27.5): the (classid, objid, objsubid) an object's address names, the
// inverse of pg_identify_object_as_address, for the objects sqlgate has
// that it identifies: relations (by kind) and their columns, types,
// functions, and schemas. The other object types are 0A000; an object
// that does not exist is PostgreSQL's error for it.

var objectAddressRowType = types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{
	{Name: "classid", Type: tOid}, {Name: "objid", Type: tOid}, {Name: "objsubid", Type: tInt4}}}

// relationKindsOf are the relkinds each relation object type takes, and
// the words of the error for another ("is not an index").
var relationKindsOf = map[string]struct{ kinds, noun string }{
	"table": {"rp", "a table"}, "index": {"iI", "an index"}, "sequence": {"S", "a sequence"},
	"view": {"v", "a view"}, "materialized view": {"m", "a materialized view"}, "foreign table": {"f", "a foreign table"},
}

func objectAddressFuncs() []*Func {
	return []*Func{{Name: "pg_get_object_address", Args: []types.T{tText, tTextArr, tTextArr}, Ret: objectAddressRowType, Strict: true,
		Kernel: withCatalog(objectAddressRowType, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			class, oid, sub, err := objectAddress(ctx, c, a[0].(string), textList(a[1]), textList(a[2]))
			if err != nil {
				return nil, err
			}
			return []any{int64(class), int64(oid), sub}, nil
		})}}
}

// textList is a text[] argument's elements (a NULL element as "").
func textList(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i], _ = x.(string)
	}
	return out
}

// quotedName is names joined as a qualified name the catalog's lookups
// read, each part quoted as needed.
func quotedName(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdent(n)
	}
	return strings.Join(q, ".")
}

func objectAddress(ctx context.Context, c CatalogInfo, typ string, names, args []string) (class, oid uint32, sub int64, err error) {
	one := func() error {
		if len(names) != 1 {
			return sqlerr.New(sqlerr.InvalidParameterValue, "name list length must be exactly 1")
		}
		return nil
	}
	relation := func(names []string) (uint32, error) {
		if len(names) > 3 {
			return 0, sqlerr.New(sqlerr.SyntaxError, "improper relation name (too many dotted names): %s", strings.Join(names, "."))
		}
		if len(names) == 0 {
			return 0, sqlerr.New(sqlerr.InvalidParameterValue, "name list length must be at least %d", 1)
		}
		rel, ok, err := c.LookupRelation(ctx, quotedName(names))
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, sqlerr.UndefinedRelation(strings.Join(names, "."))
		}
		return rel, nil
	}
	if rk, isRel := relationKindsOf[typ]; isRel {
		rel, err := relation(names)
		if err != nil {
			return 0, 0, 0, err
		}
		cr, err := catalogRowsOf(c)
		if err != nil {
			return 0, 0, 0, err
		}
		r, _, err := cr.CatalogRow(ctx, "pg_class", rel)
		if err != nil {
			return 0, 0, 0, err
		}
		if !strings.Contains(rk.kinds, rowString(r, "relkind")) {
			return 0, 0, 0, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not %s", names[len(names)-1], rk.noun)
		}
		return classRelation, rel, 0, nil
	}
	switch typ {
	case "table column", "foreign table column":
		if len(names) < 2 {
			return 0, 0, 0, sqlerr.New(sqlerr.InvalidParameterValue, "column name must be qualified")
		}
		rel, err := relation(names[:len(names)-1])
		if err != nil {
			return 0, 0, 0, err
		}
		col := names[len(names)-1]
		p, ok := c.(PrivilegeCatalog)
		if !ok {
			return 0, 0, 0, sqlerr.New(sqlerr.FeatureNotSupported, "this catalog cannot name columns")
		}
		num, found, err := p.ColumnNumber(ctx, rel, col)
		if err != nil {
			return 0, 0, 0, err
		}
		if !found {
			return 0, 0, 0, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, names[len(names)-2])
		}
		return classRelation, rel, int64(num), nil
	case "type":
		if err := one(); err != nil {
			return 0, 0, 0, err
		}
		o, ok, err := lookupType(ctx, c, names[0])
		if err != nil {
			return 0, 0, 0, err
		}
		if !ok {
			return 0, 0, 0, sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", names[0])
		}
		return classType, o, 0, nil
	case "function", "aggregate", "procedure", "routine":
		v, err := regprocLookup(c, quotedName(names)+"("+strings.Join(args, ",")+")", true, true)
		if err != nil {
			if sqlerr.CodeOf(err) == sqlerr.UndefinedFunction {
				return 0, 0, 0, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", strings.Join(names, "."), strings.Join(args, ","))
			}
			return 0, 0, 0, err
		}
		o, _ := v.(int64)
		return classProc, uint32(o), 0, nil
	case "schema":
		if err := one(); err != nil {
			return 0, 0, 0, err
		}
		o, ok := c.LookupNamespace(names[0])
		if !ok {
			return 0, 0, 0, sqlerr.UndefinedSchema(names[0])
		}
		return classNamespace, o, 0, nil
	}
	if unsupportedObjectTypes[typ] {
		return 0, 0, 0, sqlerr.New(sqlerr.InvalidParameterValue, "unsupported object type \"%s\"", typ)
	}
	if knownObjectTypes[typ] {
		return 0, 0, 0, sqlerr.New(sqlerr.FeatureNotSupported, "pg_get_object_address of a %s is not supported", typ)
	}
	return 0, 0, 0, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized object type \"%s\"", typ)
}

// unsupportedObjectTypes are the types pg_identify_object_as_address
// names that PostgreSQL's pg_get_object_address refuses.
var unsupportedObjectTypes = map[string]bool{
	"index column": true, "sequence column": true, "view column": true, "composite type column": true,
	"materialized view column": true, "composite type": true, "toast table": true, "toast table column": true,
}

// knownObjectTypes are the other object types PostgreSQL's
// pg_get_object_address takes.
var knownObjectTypes = map[string]bool{
	"role": true, "database": true, "tablespace": true, "collation": true, "conversion": true, "default value": true,
	"language": true, "large object": true, "operator": true, "operator class": true, "operator family": true,
	"cast": true, "transform": true, "table constraint": true, "domain constraint": true, "rule": true,
	"trigger": true, "policy": true, "foreign-data wrapper": true, "server": true, "user mapping": true,
	"default acl": true, "extension": true, "event trigger": true, "access method": true, "publication": true,
	"publication relation": true, "publication namespace": true, "subscription": true, "statistics object": true,
	"text search parser": true, "text search dictionary": true, "text search template": true,
	"text search configuration": true, "operator of access method": true, "function of access method": true,
	"parameter ACL": true,
}
