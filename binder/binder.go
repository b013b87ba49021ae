package binder

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Catalog is what the binder needs to know about tables.
type Catalog interface {
	// GetTable returns a table's info or a 42P01 error.
	GetTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error)
}

// binder holds the state of binding one statement.
type binder struct {
	ctx    context.Context
	cat    Catalog
	stmt   *sql.Statement
	params []types.T
}

// Bind binds one parsed statement. declared holds the parameter types the
// client declared (Kind Unknown where it declared none); the bound statement's
// Params() extends it with inferred types.
func Bind(ctx context.Context, cat Catalog, stmt *sql.Statement, declared []types.T) (Statement, error) {
	n := stmt.NumParams
	if len(declared) > n {
		n = len(declared)
	}
	b := &binder{ctx: ctx, cat: cat, stmt: stmt, params: make([]types.T, n)}
	copy(b.params, declared)
	switch node := stmt.AST.(type) {
	case *ast.SelectStmt:
		plan, err := b.bindSelect(node)
		if err != nil {
			return nil, err
		}
		return &Query{Plan: b.finishParams(plan), params: b.params}, nil
	case *ast.InsertStmt:
		return b.bindInsert(node)
	case *ast.CreateTableStmt:
		return b.bindCreateTable(node)
	case *ast.DropTableStmt:
		return b.bindDropTable(node)
	case *ast.ExplainStmt:
		inner, ok := node.Stmt.(*ast.SelectStmt)
		if !ok {
			return nil, sqlerr.NotSupported("EXPLAIN of this statement")
		}
		plan, err := b.bindSelect(inner)
		if err != nil {
			return nil, err
		}
		return &Explain{Statement: &Query{Plan: b.finishParams(plan), params: b.params}, Analyze: node.Analyze}, nil
	case nil:
		return nil, sqlerr.New(sqlerr.InternalError, "statement has no syntax tree")
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "statement %q is not supported", firstWords(stmt.Text))
}

// finishParams stamps the final parameter types into every Param node, since
// a parameter's type may have been inferred after its first use.
func (b *binder) finishParams(n Node) Node {
	visitExprs(n, func(e Expr) {
		Walk(e, func(x Expr) {
			if p, ok := x.(*Param); ok {
				p.T = b.params[p.Index]
			}
		})
	})
	return n
}

// visitExprs calls fn on every expression held by n and its inputs.
func visitExprs(n Node, fn func(Expr)) {
	switch x := n.(type) {
	case *Values:
		for _, r := range x.Rows {
			for _, e := range r {
				fn(e)
			}
		}
	case *Filter:
		fn(x.Cond)
	case *Project:
		for _, e := range x.Exprs {
			fn(e)
		}
	case *Sort:
		for _, k := range x.Keys {
			fn(k.Expr)
		}
	case *Limit:
		if x.Count != nil {
			fn(x.Count)
		}
		if x.Offset != nil {
			fn(x.Offset)
		}
	}
	for _, c := range n.Children() {
		visitExprs(c, fn)
	}
}

// errAt returns err with the position of node in the original text.
func (b *binder) errAt(node ast.Node, err *sqlerr.Error) *sqlerr.Error {
	if node == nil || b.stmt == nil {
		return err
	}
	return err.WithPosition(b.stmt.Position(node.OriginTextPosition()))
}

// tablePath resolves a possibly schema-qualified table name. Unqualified
// names and "public" live in the default database.
func tablePath(tn *ast.TableName) fluss.TablePath {
	db := ident(tn.Schema)
	if db == "" {
		db = fluss.DefaultDatabase
	}
	return fluss.TablePath{Database: db, Table: ident(tn.Name)}
}

// ident is the one place that decides how an identifier is folded.
// PostgreSQL folds unquoted identifiers to lower case and keeps quoted ones;
// the TiDB AST no longer tells the two apart, so every identifier is folded
// (a quoted mixed-case name is the known casualty until sql/ marks quoting).
func ident(s ast.CIStr) string { return s.L }

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.Join(f, " ")
}
