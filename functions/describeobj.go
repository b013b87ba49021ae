package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ColumnNames is implemented by a CatalogInfo that names its relations'
// columns: pg_describe_object reads them.
type ColumnNames interface {
	ColumnName(ctx context.Context, reloid uint32, attnum int) (name string, ok bool, err error)
}

// The system catalogs whose objects pg_describe_object describes, by
// their pg_class OIDs (the classid argument).
const (
	classRelation   = 1259
	classType       = 1247
	classProc       = 1255
	classNamespace  = 2615
	classDatabase   = 1262
	classRole       = 1260
	classTablespace = 1213
)

// objectClasses are the other catalogs PostgreSQL 15's getObjectClass
// knows: pg_describe_object of their objects is 0A000 in sqlgate (an OID
// that is no object class at all is PostgreSQL's XX000).
var objectClasses = map[uint32]bool{
	2606: true, 2604: true, 3456: true, 2607: true, 2618: true, 2620: true, 2605: true, 2612: true, 2601: true,
	2616: true, 2617: true, 2753: true, 2602: true, 2603: true, 3466: true, 3600: true, 3601: true, 3602: true,
	3764: true, 2328: true, 1417: true, 1418: true, 826: true, 3079: true, 6104: true, 6106: true, 6237: true,
	6100: true, 3576: true, 3256: true, 3381: true, 6243: true, 2613: true,
}

// systemColumns are the names of a table's system columns by attnum.
var systemColumns = map[int64]string{-1: "ctid", -2: "xmin", -3: "cmin", -4: "xmax", -5: "cmax", -6: "tableoid"}

// relationKindWords are getRelationDescription's words by relkind.
var relationKindWords = map[string]string{
	"r": "table", "p": "table", "i": "index", "S": "sequence", "v": "view", "m": "materialized view",
	"c": "composite type", "f": "foreign table", "I": "index",
}

func describeObjectFuncs() []*Func {
	return append([]*Func{{Name: "pg_describe_object", Args: []types.T{tOid, tOid, tInt4}, Ret: tText, Strict: true, Volatile: true,
		Kernel: withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			d, ok, err := describeObject(ctx, c, oidArg(a[0]), oidArg(a[1]), a[2].(int64))
			if err != nil || !ok {
				return nil, err
			}
			return d, nil
		})}}, append(identifyFuncs(), objectAddressFuncs()...)...) // identify.go, objaddress.go
}

// describeObject is pg_describe_object(classid, objid, objsubid): the
// object's description as PostgreSQL's getObjectDescription words it
// (relations named as regclass prints them, functions as regprocedure),
// false for an object that does not exist.
func describeObject(ctx context.Context, c CatalogInfo, class, oid uint32, sub int64) (string, bool, error) {
	switch class {
	case classRelation:
		p, err := privilegeCatalog(c)
		if err != nil {
			return "", false, err
		}
		kind, _, ok, err := p.RelationKind(ctx, oid)
		if err != nil || !ok {
			return "", false, err
		}
		name, ok, err := c.RelationName(ctx, oid)
		if err != nil || !ok {
			return "", false, err
		}
		rel := relationKindWords[kind] + " " + name
		if sub == 0 {
			return rel, true, nil
		}
		if sub < 0 {
			col, ok := systemColumns[sub]
			return "column " + col + " of " + rel, ok && hasSystemColumns(kind), nil // identify.go
		}
		cn, isNamer := c.(ColumnNames)
		if !isNamer {
			return "", false, nil
		}
		col, ok, err := cn.ColumnName(ctx, oid, int(sub))
		if err != nil || !ok {
			return "", false, err
		}
		return "column " + col + " of " + rel, true, nil
	case classType:
		if _, ok := c.TypeName(oid); ok {
			return "type " + c.FormatType(oid, -1, false), true, nil
		}
		n, ok, err := rowTypeName(ctx, c, oid)
		return "type " + n, ok, err
	case classProc:
		if _, _, ok := procsOf(c).FunctionProc(oid); !ok {
			return "", false, nil
		}
		return "function " + regprocText(c, oid, true), true, nil
	case classNamespace:
		n, ok := c.NamespaceName(oid)
		return "schema " + n, ok, nil
	case classRole:
		n, ok := c.RoleName(oid)
		return "role " + n, ok, nil
	case classTablespace:
		switch oid {
		case defaultTablespaceOID:
			return "tablespace pg_default", true, nil
		case globalTablespaceOID:
			return "tablespace pg_global", true, nil
		}
		return "", false, nil
	case classDatabase:
		d, ok := c.(Databases)
		if !ok {
			return "", false, nil
		}
		names, err := d.DatabaseNames(ctx)
		if err != nil {
			return "", false, err
		}
		n, ok := names[oid]
		return "database " + n, ok, nil
	}
	if objectClasses[class] {
		return "", false, sqlerr.New(sqlerr.FeatureNotSupported, "pg_describe_object of an object of class %d is not supported", class)
	}
	return "", false, sqlerr.New(sqlerr.InternalError, "unrecognized object class: %d", class)
}
