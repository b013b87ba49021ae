package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// UDFBatch is a batch Go UDF (udf.Batch) used as a FROM item over an input
// relation: fn(TABLE t) or fn((SELECT ...), args...). Input's columns are
// already cast to the declared input types; Args are evaluated once per
// execution; the columns are the declared output columns.
type UDFBatch struct {
	UDF   *udf.Batch
	Input Node
	Args  []Expr
	cols  []Column
}

func (n *UDFBatch) Columns() []Column { return n.cols }
func (n *UDFBatch) Children() []Node  { return []Node{n.Input} }

// bindUDFBatch binds a batch Go UDF called in FROM (ok false: no batch UDF
// has that name). The first argument is the relation (sql's rewrite turns
// TABLE t into (SELECT * FROM t)); it is bound as a derived table, which
// sees no other FROM item. s is the scope of the constant arguments.
func (b *binder) bindUDFBatch(s *scope, f *pt.FuncCall, name, alias string, ord bool, colNames []string) (Node, bool, error) {
	fs := b.udfs().Batches(name)
	if len(fs) == 0 {
		return nil, false, nil
	}
	if ord {
		return nil, true, b.errAt(f, sqlerr.NotSupported("WITH ORDINALITY on a Go UDF"))
	}
	var sq *pt.Subquery
	if len(f.Args) > 0 {
		sq, _ = f.Args[0].(*pt.Subquery)
	}
	if sq == nil {
		return nil, true, b.errAt(f, sqlerr.New(sqlerr.DatatypeMismatch,
			"batch UDF %s takes a relation as its first argument", name).
			WithHint("Call it as %s(TABLE t) or %s((SELECT ...)).", name, name))
	}
	input, _, err := b.bindSubqueryPlan(nil, sq.Query)
	if err != nil {
		return nil, true, err
	}
	args, err := b.bindTreeList(s, f.Args[1:])
	if err != nil {
		return nil, true, err
	}
	decls := make([][]types.T, len(fs))
	for i, t := range fs {
		decls[i] = t.Args
	}
	k, err := b.resolveUDFArgs(f, func(i int) sourceNode { return f.Args[1+i] }, name, decls, args)
	if err != nil {
		return nil, true, err
	}
	fn := fs[k]
	if input, err = b.castBatchInput(sq, fn, input); err != nil {
		return nil, true, err
	}
	if len(colNames) > len(fn.Columns) {
		return nil, true, b.errAt(f, sqlerr.New(sqlerr.InvalidColumnReference, "too many column aliases specified for function %s", name))
	}
	n := &UDFBatch{UDF: fn, Input: input, Args: args}
	for i, c := range fn.Columns {
		cn := c.Name
		if i < len(colNames) {
			cn = colNames[i]
		}
		n.cols = append(n.cols, Column{Name: cn, T: c.Type, Table: alias})
	}
	return n, true, nil
}

// castBatchInput checks the input relation against the declared input
// schema (column count, and each column's type equal to or implicitly
// castable to the declared one, as a function argument is) and projects it
// to the declared types.
func (b *binder) castBatchInput(at sourceNode, fn *udf.Batch, input Node) (Node, error) {
	cols := input.Columns()
	if len(cols) != len(fn.Input) {
		return nil, b.errAt(at, sqlerr.New(sqlerr.DatatypeMismatch,
			"batch UDF %s takes a relation of %d columns (%s), got %d", fn.Name, len(fn.Input), columnList(fn.Input), len(cols)))
	}
	p := &Project{Input: input}
	for i, c := range cols {
		want := fn.Input[i].Type
		var e Expr = &ColumnRef{Index: i, Name: c.Name, T: c.T}
		if !c.T.Same(&want) {
			if isUnknown(c.T) {
				var err error
				if e, err = b.coerceUnknown(at, e, want); err != nil {
					return nil, err
				}
			} else if _, _, err := functions.ResolveDeclared(fn.Name, [][]types.T{{want}}, []types.T{c.T}); err != nil {
				return nil, b.errAt(at, sqlerr.New(sqlerr.DatatypeMismatch,
					"batch UDF %s: input column %d (%s) is of type %s, declared %s (%s)", fn.Name, i+1, c.Name, c.T.PGName(), want.PGName(), fn.Input[i].Name).
					WithHint("Add an explicit cast in the input query."))
			} else {
				e = b.castTo(e, want)
			}
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, Column{Name: fn.Input[i].Name, T: want.Nullable()})
	}
	return p, nil
}

// columnList is "name type, ..." of declared columns, for messages.
func columnList(cs []udf.Column) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + " " + c.Type.PGName()
	}
	return strings.Join(parts, ", ")
}
