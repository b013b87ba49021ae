package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// SubqueryTree is the query s carries, in sqlgate's tree: s.Tree where
// QueryToTree made it, else s.Query (a TiDB query) transformed now and
// kept in s.Tree, so that a binder reading a statement's query (CREATE
// VIEW's, CREATE TABLE AS's) needs no TiDB node. st is the statement s
// belongs to (see QueryToTree).
func (t *Transformer) SubqueryTree(s *pt.Subquery, st *Statement) (pt.Query, error) {
	if s == nil {
		return nil, sqlerr.New(sqlerr.InternalError, "no query")
	}
	if s.Tree != nil {
		return s.Tree, nil
	}
	q, ok := s.Query.(ast.Node)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "a query of type %T", s.Query)
	}
	tree, err := t.QueryToTree(q, st)
	if err != nil {
		return nil, err
	}
	s.Tree = tree
	return tree, nil
}
