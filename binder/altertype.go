package binder

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ColumnConversion binds ALTER TABLE ... ALTER COLUMN ... TYPE's
// conversion of column i of info's table to t, an expression over the
// table's columns that the engine evaluates over every stored row
// (engine/rewrite.go): using (USING's text, "" without one) or the column
// itself, assigned to t as PostgreSQL's ATPrepAlterColumnType coerces it
// (the assignment cast: varchar(n)'s length is checked, numbers convert,
// text does not become a number). Where no assignment cast exists, its
// 42804: "column ... cannot be cast automatically to type ..." with the
// USING hint, or for USING's result "result of USING clause ...".
func ColumnConversion(ctx context.Context, cat Catalog, info fluss.TableInfo, i int, using string, t types.T) (Expr, error) {
	cols := info.Descriptor.Schema.Columns
	name := cols[i].Name
	text := using
	if text == "" {
		text = quoteIdentIfNeeded(name)
	}
	x, err := parseExprText(text) // exprbind.go
	if err != nil {
		return nil, err
	}
	v := &exprRefusal{what: "transform", allowCol: true}
	pt.Walk(x.tree, v.visit)
	if v.err != nil {
		if se := sqlerr.As(v.err); se != nil && strings.HasSuffix(se.Message, "check constraints") {
			return nil, sqlerr.New(se.Code, "%s", strings.TrimSuffix(se.Message, "check constraints")+"transform expressions")
		}
		return nil, v.err
	}
	b := &binder{ctx: ctx, cat: cat, stmt: x.st}
	e, err := b.bindTree(b.tableScope(info.Path.Table, cols), x.tree)
	if err != nil {
		return nil, withoutPosition(err)
	}
	out, err := b.assign(nil, e, name, t.Nullable(), info.Path.Table)
	if err != nil {
		if sqlerr.CodeOf(err) != sqlerr.DatatypeMismatch {
			return nil, withoutPosition(err)
		}
		target := typeNameOf(t)
		if using != "" {
			return nil, sqlerr.New(sqlerr.DatatypeMismatch, "result of USING clause for column \"%s\" cannot be cast automatically to type %s", name, target).
				WithHint("You might need to add an explicit cast.")
		}
		return nil, sqlerr.New(sqlerr.DatatypeMismatch, "column \"%s\" cannot be cast automatically to type %s", name, target).
			WithHint("You might need to specify \"USING %s::%s\".", quoteIdentIfNeeded(name), target)
	}
	return out, nil
}

// typeNameOf is PostgreSQL's format_type_be of t: its name without its
// typmod (character varying, numeric), as ALTER COLUMN TYPE's errors
// name the target.
func typeNameOf(t types.T) string {
	n := t.Nullable().PGName()
	if i := strings.IndexByte(n, '('); i > 0 && !strings.HasSuffix(n, "[]") {
		return n[:i]
	}
	return n
}

// ColumnReadsOf binds text (a CHECK's, a generated column's or a
// default's expression) over info's columns and returns the names of
// the columns it reads; ok is false when it does not bind (the engine
// then counts it as reading every column).
func ColumnReadsOf(ctx context.Context, cat Catalog, info fluss.TableInfo, text string) (names []string, ok bool) {
	x, err := parseExprText(text)
	if err != nil {
		return nil, false
	}
	b := &binder{ctx: ctx, cat: cat, stmt: x.st}
	e, err := b.bindTree(b.tableScope(info.Path.Table, info.Descriptor.Schema.Columns), x.tree)
	if err != nil {
		return nil, false
	}
	return columnsReferenced(e), true
}
