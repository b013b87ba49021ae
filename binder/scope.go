package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// scope resolves column names against the columns of one input node.
type scope struct {
	// parent is the enclosing query's scope (for subqueries).
	parent *scope
	cols   []Column
	// tables are the aliases visible in this scope, for "missing FROM-clause
	// entry" errors.
	tables map[string]bool
}

func newScope(n Node) *scope {
	s := &scope{cols: n.Columns(), tables: map[string]bool{}}
	for _, c := range s.cols {
		if c.Table != "" {
			s.tables[c.Table] = true
		}
	}
	return s
}

// resolve finds the column a (possibly qualified) name refers to.
func (b *binder) resolve(s *scope, cn *ast.ColumnNameExpr) (*ColumnRef, error) {
	name := ident(cn.Name.Name)
	table := ident(cn.Name.Table)
	if table != "" && !s.tables[table] {
		if b.outer != nil && b.outer.has(table, name) {
			return nil, b.errAt(cn, sqlerr.New(sqlerr.FeatureNotSupported, "correlated subqueries are not supported yet (column %s.%s belongs to an outer query)", table, name).
				WithHint("Rewrite the subquery as a join."))
		}
		return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedTable, "missing FROM-clause entry for table %q", table))
	}
	found := -1
	for i, c := range s.cols {
		if c.Name != name || (table != "" && c.Table != table) {
			continue
		}
		if table == "" && c.Table == "excluded" && s == b.excludedScope {
			continue // unqualified names in DO UPDATE mean the existing row
		}
		if found >= 0 {
			return nil, b.errAt(cn, sqlerr.New(sqlerr.AmbiguousColumn, "column reference %q is ambiguous", name))
		}
		found = i
	}
	if found < 0 && b.outer != nil && b.outer.has(table, name) {
		return nil, b.errAt(cn, sqlerr.New(sqlerr.FeatureNotSupported, "correlated subqueries are not supported yet (column %q belongs to an outer query)", name).
			WithHint("Rewrite the subquery as a join."))
	}
	if found < 0 {
		if table != "" {
			return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %s.%s does not exist", table, name))
		}
		return nil, b.errAt(cn, sqlerr.New(sqlerr.UndefinedColumn, "column %q does not exist", name))
	}
	c := s.cols[found]
	return &ColumnRef{Index: found, Name: c.Name, T: c.T}, nil
}

// has reports whether a (possibly qualified) name resolves in s or in the
// scopes enclosing it.
func (s *scope) has(table, name string) bool {
	for x := s; x != nil; x = x.parent {
		for _, c := range x.cols {
			if c.Name == name && (table == "" || c.Table == table) {
				return true
			}
		}
	}
	return false
}
