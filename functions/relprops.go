package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// relPropFuncs are the system information functions that describe a
// relation or an expression rather than a value: pg_collation_for,
// pg_relation_is_updatable, pg_column_is_updatable,
// pg_index_has_property and pg_index_column_has_property.
func relPropFuncs() []*Func {
	regclass := types.RegOf(types.RegClass)
	return []*Func{
		{Name: "pg_collation_for", Args: []types.T{tAny}, Ret: tText, specialize: collationForSpecialize},
		{Name: "pg_relation_is_updatable", Args: []types.T{regclass, tBool}, Ret: tInt4, Strict: true, Volatile: true,
			Kernel: withCatalog(tInt4, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				return relationEvents(ctx, c, oidArg(a[0]), 0)
			})},
		{Name: "pg_column_is_updatable", Args: []types.T{regclass, types.Int16Type, tBool}, Ret: tBool, Strict: true, Volatile: true,
			Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				attnum := a[1].(int64)
				if attnum <= 0 {
					return false, nil // system columns are never updatable
				}
				if int16(attnum+firstLowInvalidAttnum) < 0 {
					// PostgreSQL offsets the column number in an int16
					// (AttrNumber), which wraps past 32760
					return nil, sqlerr.New(sqlerr.InternalError, "negative bitmapset member not allowed")
				}
				ev, err := relationEvents(ctx, c, oidArg(a[0]), int(attnum))
				if err != nil {
					return nil, err
				}
				return ev&(cmdUpdate|cmdDelete) == cmdUpdate|cmdDelete, nil
			})},
		{Name: "pg_index_has_property", Args: []types.T{regclass, tText}, Ret: tBool, Strict: true, Volatile: true,
			Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				if ok, err := isIndex(ctx, c, oidArg(a[0])); !ok || err != nil {
					return nil, err
				}
				switch strings.ToLower(a[1].(string)) {
				case "clusterable", "index_scan", "bitmap_scan", "backward_scan":
					return true, nil // btree's answers
				}
				return nil, nil
			})},
		{Name: "pg_index_column_has_property", Args: []types.T{regclass, tInt4, tText}, Ret: tBool, Strict: true, Volatile: true,
			Kernel: withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				oid := oidArg(a[0])
				if ok, err := isIndex(ctx, c, oid); !ok || err != nil {
					return nil, err
				}
				col := a[1].(int64)
				if col <= 0 || col > 1600 {
					return nil, nil
				}
				if ok, err := c.(PrivilegeCatalog).HasColumn(ctx, oid, int(col)); !ok || err != nil {
					return nil, err
				}
				v, ok := btreeColumnProperties[strings.ToLower(a[2].(string))]
				if !ok {
					return nil, nil
				}
				return v, nil
			})},
	}
}

// btreeColumnProperties are pg_index_column_has_property's answers for a
// btree key column in ascending order with NULLs last: the only kind of
// index column sqlgate makes (primary keys and UNIQUE constraints; pg_index.
// indoption is 0 for each).
var btreeColumnProperties = map[string]bool{
	"asc": true, "desc": false, "nulls_first": false, "nulls_last": true, "orderable": true,
	"distance_orderable": false, "returnable": true, "search_array": true, "search_nulls": true,
}

// firstLowInvalidAttnum is minus PostgreSQL's
// FirstLowInvalidHeapAttributeNumber (-7): the offset of a column number
// in a set of columns.
const firstLowInvalidAttnum = 7

// The events of PostgreSQL's relation_is_updatable: 1 << CmdType.
const (
	cmdUpdate = 1 << 2
	cmdInsert = 1 << 3
	cmdDelete = 1 << 4
)

// relationEvents is pg_relation_is_updatable (for column attnum when
// positive, pg_column_is_updatable's question): the commands a relation
// takes. A table takes INSERT, UPDATE and DELETE (28), a log table INSERT
// alone (8); an automatically updatable view INSERT, UPDATE and DELETE
// (28, DELETE alone without an updatable column), and sequences and indexes take none, nor does an OID
// that names no relation (0, as PostgreSQL answers for it).
func relationEvents(ctx context.Context, c CatalogInfo, oid uint32, attnum int) (int64, error) {
	p, err := privilegeCatalog(c)
	if err != nil {
		return 0, err
	}
	kind, _, ok, err := p.RelationKind(ctx, oid)
	if err != nil || !ok {
		return 0, err
	}
	if kind == "v" {
		if u, ok := c.(UpdatableViews); ok {
			if events, ok := u.ViewEvents(ctx, oid, attnum); ok {
				return events, nil
			}
		}
		return 0, nil
	}
	if kind != "r" && kind != "p" {
		return 0, nil
	}
	if a, ok := c.(AppendOnlyTables); ok {
		appendOnly, err := a.AppendOnly(ctx, oid)
		if err != nil || appendOnly {
			return cmdInsert, err
		}
	}
	return cmdUpdate | cmdInsert | cmdDelete, nil
}

// UpdatableViews is implemented by a CatalogInfo whose views may be
// automatically updatable: ViewEvents is pg_relation_is_updatable's
// answer for the view oid, restricted to its column attnum when attnum
// is positive (pg_column_is_updatable); ok false when oid names no view.
type UpdatableViews interface {
	ViewEvents(ctx context.Context, oid uint32, attnum int) (events int64, ok bool)
}

// AppendOnlyTables is implemented by a CatalogInfo whose tables may take
// INSERT alone (a Fluss log table: no primary key, so no UPDATE or
// DELETE): pg_relation_is_updatable says so.
type AppendOnlyTables interface {
	AppendOnly(ctx context.Context, oid uint32) (bool, error)
}

// isIndex reports whether oid names an index (the index property
// functions answer NULL for anything else).
func isIndex(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
	p, err := privilegeCatalog(c)
	if err != nil {
		return false, err
	}
	kind, _, ok, err := p.RelationKind(ctx, oid)
	return ok && kind == "i", err
}

// collationForSpecialize is pg_collation_for("any"): the collation of
// its argument's type, as generate_collation_name prints it. sqlgate has
// the default and C collations only, and its COLLATE clauses are read and
// dropped by the parser (every string compares bytewise), so a string
// type's expression is "default" (PostgreSQL would name an explicit
// COLLATE "C" or a column's declared collation), name's is "C", an
// untyped literal's NULL; a type without collations is 42804, raised when
// a row is evaluated, as PostgreSQL raises it.
func collationForSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	oid, _, _ := pgtypes.OIDOf(args[0])
	elem := oid
	if args[0].Kind == types.Array && args[0].Elem != nil {
		elem, _, _ = pgtypes.OIDOf(*args[0].Elem)
	}
	var result any
	var fail error
	switch {
	case args[0].Kind == types.Unknown || args[0].Kind == types.Null:
	case elem == pgtypes.OIDName:
		result = `"C"`
	case elem == pgtypes.OIDText || elem == pgtypes.OIDVarchar || elem == pgtypes.OIDBPChar:
		result = `"default"`
	default:
		fail = types.CollationsNotSupported(args[0].PGName())
	}
	return tText, rowFunc(tText, false, func(context.Context, []any) (any, error) { return result, fail })
}
