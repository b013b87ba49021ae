package binder

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Returning is the RETURNING list of INSERT, UPDATE or DELETE: the rows
// the statement wrote, projected like a SELECT list.
type Returning struct {
	// Cols are the output columns, named as PostgreSQL names them.
	Cols []Column
	// Exprs (INSERT) compute Cols over each row as written (the table's
	// columns in table order: after ON CONFLICT DO UPDATE, the merged row).
	Exprs []Expr
	// At (UPDATE, DELETE) is the first column of Source (Keys) holding Cols:
	// those statements compute them in the same projection as their writes,
	// so they can also name the FROM (USING) tables' columns.
	At int
}

// bindReturning binds a RETURNING list over s with the SELECT-list rules
// (wildcards, output names); aggregates and window functions are not
// allowed there, as in PostgreSQL.
func (b *binder) bindReturning(s *scope, fields *ast.FieldList) (*Project, error) {
	if w := b.hoistedInsertWith(); w != nil {
		// WITH w AS (...) INSERT ... RETURNING (SELECT .. FROM w): the
		// WITH queries are the whole statement's in PostgreSQL, RETURNING
		// included; the rewrite moved them onto the inserted SELECT
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWith(w, b.stmt.AST); err != nil {
			return nil, err
		}
	}
	for _, f := range fields.Fields {
		switch {
		case f.Expr == nil:
		case b.containsAggregate(f.Expr):
			return nil, b.errAt(f.Expr, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in RETURNING"))
		case b.containsWindow(f.Expr):
			return nil, b.errAt(f.Expr, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in RETURNING"))
		}
	}
	return b.bindSelectList(s, fields, func(e ast.ExprNode) (Expr, error) { return b.bindExpr(s, e) }, false)
}

// hoistedInsertWith is the WITH clause written before an INSERT, which
// sql's rewrite hands over on the inserted SELECT (sql/withdml.go), or
// nil. A statement whose text starts with WITH and is an INSERT came that
// way: a WITH of the SELECT itself besides one before INSERT is left for
// TiDB to reject, so the SELECT's WITH is the hoisted one. (A WITH the
// user wrote on the inserted SELECT is that SELECT's only, as in
// PostgreSQL.)
func (b *binder) hoistedInsertWith() *ast.WithClause {
	if b.stmt == nil {
		return nil
	}
	ins, ok := b.stmt.AST.(*ast.InsertStmt)
	if !ok || !startsWithWord(b.stmt.Text, "with") {
		return nil
	}
	if sel, ok := ins.Select.(*ast.SelectStmt); ok {
		return sel.With
	}
	return nil
}

// startsWithWord reports whether text's first word, after blanks and
// comments, is word (lower case), in any case.
func startsWithWord(text, word string) bool {
	for {
		text = strings.TrimLeft(text, " \t\r\n\f")
		switch {
		case strings.HasPrefix(text, "--"):
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				return false
			}
			text = text[i+1:]
		case strings.HasPrefix(text, "/*"):
			i := strings.Index(text, "*/")
			if i < 0 {
				return false
			}
			text = text[i+2:]
		default:
			if len(text) < len(word) || !strings.EqualFold(text[:len(word)], word) {
				return false
			}
			rest := text[len(word):]
			return rest == "" || !(rest[0] == '_' || rest[0] >= '0' && rest[0] <= '9' || rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= 'A' && rest[0] <= 'Z')
		}
	}
}
