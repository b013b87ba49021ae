package sql

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// StatementToTree transforms one of TiDB's statements, as Parse leaves it,
// into sqlgate's parsed tree. The DDL-side statements have moved (CREATE
// TABLE, DROP TABLE | VIEW, CREATE VIEW); a query inside one stays TiDB's,
// carried by a Subquery (the queries are issue 32's next stage). Another
// statement is 0A000.
func StatementToTree(s ast.StmtNode) (pt.Statement, error) {
	var t Transformer
	return t.StatementToTree(s)
}

// StatementToTree is the package's StatementToTree.
func (t *Transformer) StatementToTree(s ast.StmtNode) (pt.Statement, error) {
	if st, ok := t.StatementTree(s); ok {
		return st, nil
	}
	return nil, refusal(s, sqlerr.New(sqlerr.FeatureNotSupported, "statement %s is not supported here", strings.TrimPrefix(fmt.Sprintf("%T", s), "*ast.")))
}

// StatementTree is StatementToTree for a caller that binds the statements
// not moved yet from TiDB's nodes (the binder's Bind): ok is false for
// such a statement (and for nil), without the refusal StatementToTree
// builds, which would cost every query an allocation.
func (t *Transformer) StatementTree(s ast.StmtNode) (st pt.Statement, ok bool) {
	switch n := s.(type) {
	case *ast.CreateTableStmt:
		return t.createTable(n), true
	case *ast.DropTableStmt:
		d := &pt.DropTable{At: at(n), IfExists: n.IfExists, View: n.IsView, Names: make([]*pt.TableName, len(n.Tables))}
		for i, tn := range n.Tables {
			d.Names[i] = tableName(tn)
		}
		return d, true
	case *ast.CreateViewStmt:
		v := &pt.CreateView{At: at(n), Name: tableName(n.ViewName), OrReplace: n.OrReplace, Query: statementQuery(n.Select)}
		for _, c := range n.Cols {
			v.Columns = append(v.Columns, c.O)
		}
		return v, true
	}
	return nil, false
}

func tableName(n *ast.TableName) *pt.TableName {
	if n == nil {
		return nil
	}
	return &pt.TableName{At: at(n), Schema: n.Schema.O, Name: n.Name.O}
}

// statementQuery carries a statement's query (a TiDB statement until the
// queries move into the tree) with its text as written in the rewritten
// text: OriginalText, not Text, which writes a string literal with a
// control character (E'a\tb') as a hex literal.
func statementQuery(q ast.Node) *pt.Subquery {
	if q == nil {
		return nil
	}
	return &pt.Subquery{At: at(q), Query: q, Text: q.OriginalText()}
}

var columnOptionKinds = map[ast.ColumnOptionType]pt.ColumnOptionKind{
	ast.ColumnOptionNotNull: pt.ColNotNull, ast.ColumnOptionNull: pt.ColNull,
	ast.ColumnOptionPrimaryKey: pt.ColPrimaryKey, ast.ColumnOptionComment: pt.ColComment,
	ast.ColumnOptionDefaultValue: pt.ColDefault, ast.ColumnOptionUniqKey: pt.ColUnique,
	ast.ColumnOptionAutoIncrement: pt.ColAutoIncrement, ast.ColumnOptionCheck: pt.ColCheck,
	ast.ColumnOptionReference: pt.ColReferences, ast.ColumnOptionGenerated: pt.ColGenerated,
	ast.ColumnOptionCollate: pt.ColCollate,
}

var constraintKinds = map[ast.ConstraintType]pt.ConstraintKind{
	ast.ConstraintPrimaryKey: pt.ConPrimaryKey, ast.ConstraintUniq: pt.ConUnique,
	ast.ConstraintUniqKey: pt.ConUnique, ast.ConstraintUniqIndex: pt.ConUnique,
	ast.ConstraintForeignKey: pt.ConForeignKey,
}

func (t *Transformer) createTable(n *ast.CreateTableStmt) *pt.CreateTable {
	c := &pt.CreateTable{
		At: at(n), Name: tableName(n.Table), IfNotExists: n.IfNotExists,
		Temporary: n.TemporaryKeyword != ast.TemporaryNone, Like: tableName(n.ReferTable),
		Partitioned: n.Partition != nil, Columns: make([]*pt.ColumnDef, len(n.Cols)),
	}
	if n.Select != nil {
		c.Query = statementQuery(n.Select)
	}
	for i, cd := range n.Cols {
		d := &pt.ColumnDef{At: at(cd), Name: cd.Name.Name.O}
		if len(cd.Options) > 0 {
			d.Options = make([]pt.ColumnOption, len(cd.Options))
		}
		for j, opt := range cd.Options {
			o := pt.ColumnOption{At: at(opt), Kind: columnOptionKinds[opt.Tp]}
			if o.Kind == 0 {
				o.Kind = pt.ColOther
			}
			if v, ok := opt.Expr.(ast.ValueExpr); ok && o.Kind == pt.ColComment {
				o.Comment = v.GetString()
			}
			d.Options[j] = o
		}
		c.Columns[i] = d
	}
	for _, con := range n.Constraints {
		k := &pt.Constraint{At: at(con), Kind: constraintKinds[con.Tp]}
		if k.Kind == 0 {
			k.Kind = pt.ConOther
		}
		for _, part := range con.Keys {
			if part.Column == nil {
				k.Keys, k.KeyExpr = append(k.Keys, ""), true
				continue
			}
			k.Keys = append(k.Keys, part.Column.Name.O)
		}
		c.Constraints = append(c.Constraints, k)
	}
	for _, opt := range n.Options {
		if opt.Tp == ast.TableOptionComment {
			c.Comment, c.HasComment = opt.StrValue, true
		}
	}
	return c
}
