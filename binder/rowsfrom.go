package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// RowsFrom is ROWS FROM (f(..), g(..)) [WITH ORDINALITY] in FROM, and
// unnest(a, b, ..), which PostgreSQL reads as ROWS FROM (unnest(a),
// unnest(b), ..). Inputs, one per function (each the function's plan as
// it would be alone in FROM), run side by side: row i holds the i-th row
// of every input, NULLs for an input that has ended, until the longest
// ends; WITH ORDINALITY a bigint row number follows.
type RowsFrom struct {
	Inputs     []Node
	Ordinality bool
	cols       []Column
}

func (n *RowsFrom) Columns() []Column { return n.cols }
func (n *RowsFrom) Children() []Node  { return n.Inputs }

// fromFunc is one function of ROWS FROM.
type fromFunc struct {
	at   *pt.FuncCall // where its errors point
	name string
	args []pt.Expr
	defs []pt.FuncColumn // its column definition list
	// expanded says it is one of unnest(a, b, ..)'s unnests, which
	// PostgreSQL calls as pg_catalog.unnest (and names so in errors)
	expanded bool
}

// bindRowsFrom binds the marker f of ROWS FROM (..), or of unnest with
// more than one argument, under alias: PostgreSQL's transformRangeFunction
// and addRangeTableEntryForFunction. A column definition list after the
// alias belongs to the one function there is; a plain function's column
// takes the table alias only when it is the one function.
func (b *binder) bindRowsFrom(ft *pt.FuncTable, alias string, explicit, ord bool, colNames []string, colDefs []pt.FuncColumn) (Node, error) {
	rowsFrom := ft.RowsFrom
	var fns []fromFunc
	if rowsFrom {
		for _, rf := range ft.Funcs {
			fn := fromFunc{at: rf.Call, name: rf.Call.Name, args: rf.Call.Args, defs: rf.ColumnDefs}
			if fn.name == "unnest" && len(fn.args) > 1 && len(fn.defs) == 0 {
				fns = append(fns, unnestEach(fn)...)
				continue
			}
			fns = append(fns, fn)
		}
	} else {
		fns = unnestEach(fromFunc{at: ft.Call, name: "unnest", args: ft.Call.Args})
	}
	if len(colDefs) > 0 {
		var err *sqlerr.Error
		switch {
		case len(fns) != 1 && rowsFrom:
			err = sqlerr.New(sqlerr.SyntaxError, "ROWS FROM() with multiple functions cannot have a column definition list").
				WithHint("Put a separate column definition list for each function inside ROWS FROM().")
		case len(fns) != 1:
			err = sqlerr.New(sqlerr.SyntaxError, "UNNEST() with multiple arguments cannot have a column definition list").
				WithHint("Use separate UNNEST() calls inside ROWS FROM(), and attach a column definition list to each one.")
		case ord:
			err = sqlerr.New(sqlerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
				WithHint("Put the column definition list inside ROWS FROM().")
		case len(fns[0].defs) > 0:
			err = sqlerr.New(sqlerr.SyntaxError, "multiple column definition lists are not allowed for the same function")
		}
		if err != nil {
			return nil, b.errAt(colDefs[0], err)
		}
		fns[0].defs = colDefs
	}
	one := len(fns) == 1
	inputs := make([]Node, len(fns))
	for i, fn := range fns {
		if fn.at.Schema != "" && !b.isUDF(fn.name) {
			// public.generate_series(1, 2): sqlgate's functions are
			// pg_catalog's (calls.go), in the functions' order
			return nil, b.noFunctionInSchema(&scope{tables: map[string]bool{}}, fn.at)
		}
		n, err := b.bindFromFunc(fn, alias, explicit && one)
		if err != nil {
			return nil, err
		}
		inputs[i] = n
	}
	var cols []Column
	for _, in := range inputs {
		for _, c := range in.Columns() {
			c.T = c.T.Nullable() // an input that has ended gives NULLs
			c.Table, c.TableID, c.Ordinal = alias, 0, 0
			cols = append(cols, c)
		}
	}
	if ord {
		cols = append(cols, Column{Name: "ordinality", T: types.T{Kind: types.Int64, NotNull: true}, Table: alias})
	}
	if len(colNames) > len(cols) {
		return nil, tooManyAliases(alias, len(cols), len(colNames))
	}
	for i, c := range colNames {
		cols[i].Name = c
	}
	if one && !ord {
		// the function alone: its own plan, its columns renamed
		in := inputs[0]
		p := &Project{Input: in, Cols: cols}
		for i, c := range in.Columns() {
			p.Exprs = append(p.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
			p.Cols[i].T = c.T
		}
		return p, nil
	}
	return &RowsFrom{Inputs: inputs, Ordinality: ord, cols: cols}, nil
}

// unnestEach is unnest(a, b, ..) as one unnest per argument.
func unnestEach(fn fromFunc) []fromFunc {
	out := make([]fromFunc, len(fn.args))
	for i, a := range fn.args {
		out[i] = fromFunc{at: fn.at, name: fn.name, args: []pt.Expr{a}, expanded: true}
	}
	return out
}

// bindFromFunc binds one function of ROWS FROM, as srf.go's bindFuncTable binds
// a function alone in FROM, without ordinality or column aliases (ROWS
// FROM adds them over all its functions).
func (b *binder) bindFromFunc(fn fromFunc, alias string, explicit bool) (Node, error) {
	// The arguments see the enclosing query's row and, in a join, the
	// items before it (LATERAL), not the other functions.
	s := &scope{tables: map[string]bool{}}
	multiUnnest := fn.name == "unnest" && len(fn.args) > 1 // with a column definition list: no such function
	if !multiUnnest && (len(fn.defs) > 0 || functions.ReturnsRecord(fn.name)) {
		return b.bindRecordTableFunc(s, fn.at, fn.args, fn.name, alias, false, fn.defs)
	}
	if b.sqlSetFuncName(fn.name) {
		return b.bindSQLSetFromItem(s, fn.at, fn.args, fn.name, alias, explicit, false, nil) // sqlsetfunc.go
	}
	if !functions.IsSetFunc(fn.name) {
		if len(b.udfs().Tables(fn.name)) > 0 {
			return nil, b.errAt(fn.at, sqlerr.NotSupported("a table UDF in ROWS FROM"))
		}
		return b.bindScalarFromItem(s, fn.at, fn.args, fn.name, alias, explicit, false, nil)
	}
	args, err := b.bindTreeList(s, fn.args)
	if err != nil {
		return nil, err
	}
	n, err := b.bindSetFromFunc(fn.at, fn.args, args, fn.name, alias, explicit, false, nil)
	if e := sqlerr.As(err); e != nil && fn.expanded && (e.Code == sqlerr.UndefinedFunction || e.Code == sqlerr.AmbiguousFunction) {
		e.Message = strings.Replace(e.Message, "function unnest(", "function pg_catalog.unnest(", 1)
		return nil, e
	}
	return n, err
}
