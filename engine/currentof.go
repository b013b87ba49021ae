package engine

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// UPDATE / DELETE ... WHERE CURRENT OF cursor, as PostgreSQL 15's
// execCurrentOf decides it: the cursor must exist (34000), be a SELECT of
// this transaction (24000 "is held from a previous transaction" for a WITH
// HOLD cursor after its COMMIT), scan the target table simply (24000
// otherwise: no join, sort, aggregate ... between the scan and the
// cursor; or, for a cursor whose query locks rows, a FOR UPDATE / SHARE of
// that table) and be on a row (24000). PostgreSQL finds the row by its
// ctid; a Fluss primary-key table's row is found by its key, so the
// statement runs with WHERE key = the key of the cursor's row (a row the
// transaction has deleted or re-keyed since is then not found, as
// PostgreSQL finds no live tuple at the old ctid). The key columns must be
// among the cursor's output columns (0A000 otherwise); log tables have
// neither key nor ctid, and UPDATE / DELETE refuse them before this.

// execCurrentOf runs ps, an UPDATE or DELETE bound with WHERE false in
// place of its WHERE CURRENT OF, on the row its cursor is on.
func (s *session) execCurrentOf(ctx context.Context, ps *statement, params []any) (pgwire.Result, error) {
	co := ps.parsed.CurrentOf
	var table fluss.TableInfo
	switch b := ps.bound.(type) {
	case *binder.Update:
		table = b.Table
	case *binder.Delete:
		table = b.Table
	default:
		return nil, sqlerr.NotSupported("WHERE CURRENT OF in this statement")
	}
	cur := s.cursors.get(co.Cursor)
	if cur == nil {
		return nil, undefinedCursor(co.Cursor)
	}
	cond, err := s.currentRowCond(cur, table)
	if err != nil {
		return nil, err
	}
	stmts, err := s.parser.Parse(co.Text(cond))
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 || stmts[0].CurrentOf != nil {
		return nil, sqlerr.New(sqlerr.InternalError, "WHERE CURRENT OF: the statement's rewrite does not parse as one statement")
	}
	qps, err := s.prepareOne(ctx, stmts[0], ps.params)
	if err != nil {
		return nil, err
	}
	return qps.execute(ctx, params)
}

// currentRowCond checks that cur can name a row of table and returns the
// condition on table's primary key that selects the row it is on.
func (s *session) currentRowCond(cur *cursor, table fluss.TableInfo) (string, error) {
	name, tname := cur.name, table.Path.Table
	if cur.hold && !cur.inTxn {
		return "", sqlerr.New(codeInvalidCursorState, "cursor \"%s\" is held from a previous transaction", name)
	}
	if cur.plan == nil {
		return "", notSimplyUpdatable(name, tname)
	}
	if locked, ok := binder.LockedTable(cur.plan); ok {
		if locked.Path != table.Path {
			return "", sqlerr.New(codeInvalidCursorState, "cursor \"%s\" does not have a FOR UPDATE/SHARE reference to table \"%s\"", name, tname)
		}
	} else if !simpleScanOf(cur.plan, table) {
		return "", notSimplyUpdatable(name, tname)
	}
	if cur.atStart || cur.atEnd || cur.cur < cur.first || cur.cur >= cur.first+cur.stored {
		return "", sqlerr.New(codeInvalidCursorState, "cursor \"%s\" is not positioned on a row", name)
	}
	b, i, err := cur.rowAt(cur.cur)
	if err != nil {
		return "", err
	}
	var cond strings.Builder
	for n, key := range table.Descriptor.Schema.PrimaryKey {
		ord := table.ColumnIndex(key) + 1
		at := -1
		for j, c := range cur.cols {
			if c.TableOID == tableOID(table.TableID) && int(c.ColumnNumber) == ord || scanColumn(cur.plan, j, table) == ord-1 {
				at = j
				break
			}
		}
		if at < 0 {
			return "", sqlerr.New(sqlerr.FeatureNotSupported, "WHERE CURRENT OF needs cursor \"%s\" to return the primary key of table \"%s\": column \"%s\" is not in its select list", name, tname, key).
				WithHint("sqlgate finds the cursor's row by its primary key (a Fluss table has no ctid).")
		}
		v := types.ValueAt(b.Column(at), i)
		if v == nil {
			return "", sqlerr.New(codeInvalidCursorState, "cursor \"%s\" is not positioned on a row", name)
		}
		if n > 0 {
			cond.WriteString(" AND ")
		}
		cond.WriteString(quoteIdent(key) + " = " + quoteLiteral(types.FormatTextIn(v, cur.cols[at].Type, s.location())))
	}
	return cond.String(), nil
}

func notSimplyUpdatable(cursor, table string) error {
	return sqlerr.New(codeInvalidCursorState, "cursor \"%s\" is not a simply updatable scan of table \"%s\"", cursor, table)
}

// simpleScanOf is PostgreSQL's search_plan_tree: the plan is a scan of
// table under nodes that pass its rows through one for one (a projection,
// a filter, a limit), or an ORDER BY PostgreSQL reads from the primary
// key's index instead of sorting.
func simpleScanOf(n binder.Node, table fluss.TableInfo) bool {
	for {
		switch x := n.(type) {
		case *binder.Scan:
			return !x.Changelog && x.Table.Path == table.Path
		case *binder.Project:
			n = x.Input
		case *binder.Filter:
			n = x.Input
		case *binder.Limit:
			n = x.Input
		case *binder.Sort:
			if !keyOrder(x, table) {
				return false
			}
			n = x.Input
		default:
			return false
		}
	}
}

// keyOrder reports whether s orders by a prefix of table's primary key,
// all ascending (NULLS LAST) or all descending (NULLS FIRST): PostgreSQL
// plans that as a scan of the key's B-tree index, forward or backward,
// for a cursor (whose plans favour the first rows), and no Sort.
func keyOrder(s *binder.Sort, table fluss.TableInfo) bool {
	pk := table.Descriptor.Schema.PrimaryKey
	if len(s.Keys) == 0 || len(s.Keys) > len(pk) {
		return false
	}
	for i, k := range s.Keys {
		ref, ok := k.Expr.(*binder.ColumnRef)
		if !ok || k.Desc != s.Keys[0].Desc || k.NullsFirst != k.Desc ||
			scanColumn(s.Input, ref.Index, table) != table.ColumnIndex(pk[i]) {
			return false
		}
	}
	return true
}

// scanColumn follows output column j of n down to a scan of table
// through nodes that pass rows through (a derived table's projection
// drops the column's table OID) and returns the table column it is, or
// -1 when it is computed or comes from elsewhere.
func scanColumn(n binder.Node, j int, table fluss.TableInfo) int {
	for {
		switch x := n.(type) {
		case *binder.Scan:
			if x.Changelog || x.Table.Path != table.Path {
				return -1
			}
			return j
		case *binder.Project:
			ref, ok := x.Exprs[j].(*binder.ColumnRef)
			if !ok {
				return -1
			}
			n, j = x.Input, ref.Index
		case *binder.Filter:
			n = x.Input
		case *binder.Limit:
			n = x.Input
		case *binder.Sort:
			n = x.Input
		case *binder.LockRows:
			n = x.Input
		default:
			return -1
		}
	}
}

// rowAt returns the stored batch holding row k and k's index in it.
func (c *cursor) rowAt(k int64) (arrow.RecordBatch, int, error) {
	at := c.first
	for j, p := range c.store.parts {
		if k < at+p.rows {
			b, err := c.store.part(j)
			return b, int(k - at), err
		}
		at += p.rows
	}
	return nil, 0, sqlerr.New(sqlerr.InternalError, "cursor row %d is not stored", k)
}
