package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
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
//
// A partition of a PostgreSQL-partitioned table (a view here) has the
// tableoid of the table PostgreSQL has for it, and a row read through the
// partitioned table has its partition's: the partition whose value its
// partition key holds (partitionTableOID).
func (b *binder) systemColumn(s *scope, cn sourceNode, table, name string) (Expr, bool, error) {
	if name != tableOIDColumn {
		return nil, false, nil
	}
	var scan *Scan
	var part *partitionItem
	item := ""
	for i := range s.cols {
		c := &s.cols[i]
		if c.Table == "" || table != "" && c.Table != table || c.Hidden || c.Table == item {
			continue
		}
		sc, pi := b.scanOf(c.Table), b.partitionOf(c.Table)
		if sc == nil && pi == nil {
			continue
		}
		if item != "" {
			return nil, true, b.errAt(cn, sqlerr.New(sqlerr.AmbiguousColumn, "column reference %q is ambiguous", name))
		}
		item, scan, part = c.Table, sc, pi
	}
	var v Expr
	var err error
	oidT := types.T{Kind: types.Oid}
	switch {
	case part != nil:
		v, err = b.relationOID(cn, part.path)
	case scan != nil && scan.Table.PartitionStrategy() != "":
		v, err = b.partitionTableOID(s, cn, scan)
	case scan != nil:
		v, err = b.relationOID(cn, scan.Table.Path)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	for i := range s.cols {
		if c := &s.cols[i]; c.Table == "" && c.Name == rowMarkerName(item) {
			marker := &ColumnRef{Index: i, Name: c.Name, T: c.T}
			return &Case{Whens: []When{{Cond: marker, Result: v}}, T: oidT}, true, nil
		}
	}
	return v, true, nil
}

// relationOID is the OID of the relation at path, as
// 'schema.name'::regclass::oid finds it.
func (b *binder) relationOID(cn sourceNode, path fluss.TablePath) (Expr, error) {
	text := quoteIdentIfNeeded(path.Database) + "." + quoteIdentIfNeeded(path.Table)
	reg, err := b.callFunction(cn, "regclass_in", []Expr{b.newConst(text, types.StringType)})
	if err != nil {
		return nil, err
	}
	return b.castTo(reg, types.T{Kind: types.Oid}), nil
}

// partitionTableOID is the tableoid of a row of scan, a PostgreSQL-
// partitioned table: CASE key WHEN v1 THEN oid(p1) ... [ELSE oid(default)]
// END over its partitions (every row has one: a row without is refused
// when written).
func (b *binder) partitionTableOID(s *scope, cn sourceNode, scan *Scan) (Expr, error) {
	pc, ok := b.cat.(PartitionCatalog)
	keys := scan.Table.Descriptor.PartitionKeys
	if !ok || len(keys) != 1 {
		return b.relationOID(cn, scan.Table.Path)
	}
	var key Expr
	for i := range s.cols {
		if c := &s.cols[i]; c.Table == scan.Alias && c.Name == keys[0] {
			key = b.newColumnRef(i, c.Name, c.T)
			break
		}
	}
	oidT := types.T{Kind: types.Oid}
	out := &Case{T: oidT}
	if key == nil {
		return b.newConst(nil, oidT), nil
	}
	for _, p := range pc.Partitions(b.ctx, scan.Table.TableID) {
		if p.Default { // the rows of every other value
			oid, err := b.relationOID(cn, p.Path)
			if err != nil {
				return nil, err
			}
			out.Else = oid
			continue
		}
		value := p.Value
		if len(value) >= 2 && value[0] == '\'' {
			value = strings.ReplaceAll(value[1:len(value)-1], "''", "'")
		}
		cond, err := b.makeBinary(cn, OpEq, key, b.castTo(b.newConst(value, types.StringType), key.Type()))
		if err != nil {
			return nil, err
		}
		oid, err := b.relationOID(cn, p.Path)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, When{Cond: cond, Result: oid})
	}
	if len(out.Whens) == 0 {
		if out.Else != nil {
			return out.Else, nil
		}
		return b.newConst(nil, oidT), nil
	}
	return out, nil
}

// partitionItem is a FROM item that names a partition (binder.partitions).
type partitionItem struct {
	alias string
	path  fluss.TablePath
}

// partitionOf is the partition a FROM item bound under alias names, nil
// when it names none.
func (b *binder) partitionOf(alias string) *partitionItem {
	for i := len(b.partitions) - 1; i >= 0; i-- {
		if b.partitions[i].alias == alias {
			return &b.partitions[i]
		}
	}
	return nil
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
