package binder

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// tableOIDColumn is PostgreSQL's tableoid system column: every table's
// rows carry the OID of the relation they are stored in. sqlgate's tables
// and catalog relations have no system columns in their schemas (SELECT *
// must not show them), so a name that is no column of the scope is read
// as tableoid here: the OID of the scanned relation, looked up by its
// name as 'schema.table'::regclass looks it up (a table's OID, a catalog
// relation's PostgreSQL OID). pg_dump reads x.tableoid from every catalog
// it lists objects of, and matches it against pg_depend.classid and
// pg_description.classoid.
const tableOIDColumn = "tableoid"

// systemColumn binds name, which no column of s has, as the tableoid of
// the FROM item it names (table, or the only table scan of s when
// unqualified); ok is false when name is no system column or s has no
// such scan. Where an outer join made the item's row up (its row marker is
// NULL, wholerow.go) the value is NULL, as PostgreSQL's system column of a
// null-extended relation is.
func (b *binder) systemColumn(s *scope, cn sourceNode, table, name string) (Expr, bool, error) {
	if name != tableOIDColumn {
		return nil, false, nil
	}
	var scan *Scan
	for i := range s.cols {
		c := &s.cols[i]
		if c.Table == "" || table != "" && c.Table != table || c.Hidden {
			continue
		}
		sc := b.scanOf(c.Table)
		if sc == nil || scan == sc {
			continue
		}
		if scan != nil {
			return nil, true, b.errAt(cn, sqlerr.New(sqlerr.AmbiguousColumn, "column reference %q is ambiguous", name))
		}
		scan = sc
	}
	if scan == nil {
		return nil, false, nil
	}
	path := quoteIdentIfNeeded(scan.Table.Path.Database) + "." + quoteIdentIfNeeded(scan.Table.Path.Table)
	reg, err := b.callFunction(cn, "regclass_in", []Expr{b.newConst(path, types.StringType)})
	if err != nil {
		return nil, true, err
	}
	oidT := types.T{Kind: types.Oid}
	v := b.castTo(reg, oidT)
	for i := range s.cols {
		if c := &s.cols[i]; c.Table == "" && c.Name == rowMarkerName(scan.Alias) {
			marker := &ColumnRef{Index: i, Name: c.Name, T: c.T}
			return &Case{Whens: []When{{Cond: marker, Result: v}}, T: oidT}, true, nil
		}
	}
	return v, true, nil
}

// scanOf is the table scan a FROM clause bound under alias (the latest:
// an inner query's scan of the same alias is bound after the outer one's
// only when it is in a subquery, whose scope does not reach here).
func (b *binder) scanOf(alias string) *Scan {
	for i := len(b.scans) - 1; i >= 0; i-- {
		if sc := b.scans[i]; sc.Alias == alias && !sc.Changelog {
			return sc
		}
	}
	return nil
}
