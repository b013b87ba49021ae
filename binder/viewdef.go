package binder

import (
	"math"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL re-prints a view's definition from its parse tree
// (pg_get_viewdef): every column qualified, one output column per line,
// constants cast, and in the plain (not pretty) form every operator
// expression in parentheses. printViewDef reproduces that, from sqlgate's tree of the query, for simple
// views - one table, output columns that are its columns, a WHERE clause
// of AND / OR / comparisons of columns with columns, integer or text
// constants, and IS [NOT] NULL - and reports ok false for anything else,
// whose definition is then shown as written.

// ViewText is a definition as PostgreSQL prints it: Pretty for
// pg_get_viewdef(v, true) (psql's \d+), Plain for pg_get_viewdef(v) and
// pg_views.
type ViewText struct {
	Pretty, Plain string
}

// printViewDef prints a view's query q (sqlgate's tree) whose one table
// is info and whose output columns are names; ok is false for a query it
// does not know how to print.
func printViewDef(q pt.Query, info fluss.TableInfo, names []string) (ViewText, bool) {
	sel, ok := q.(*pt.Select)
	if !ok || sel.With != nil || sel.Distinct || sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil ||
		sel.Limit != nil || sel.QueryClauses.Offset != nil || sel.Windows != nil || sel.Locking != nil {
		return ViewText{}, false
	}
	tr, ok := sel.From.(*pt.TableRef)
	if !ok || tr.Name == nil || tr.Name.Name != info.Path.Table || len(tr.Alias.Columns) > 0 {
		return ViewText{}, false
	}
	p := defPrinter{info: info, qual: info.Path.Table}
	from := pgIdent(info.Path.Table)
	if a := tr.Alias.Name; a != "" {
		p.qual = a
		from += " " + pgIdent(a)
	}
	targets := sel.Targets
	if sel.Table { // TABLE t prints as SELECT of every column
		targets = []*pt.Target{{X: &pt.Star{}}}
	}
	if len(targets) == 0 {
		return ViewText{}, false
	}
	var items []string
	for _, f := range targets {
		if st, ok := f.X.(*pt.Star); ok {
			if st.Schema != "" || (st.Table != "" && st.Table != p.qual) {
				return ViewText{}, false
			}
			for _, c := range info.Descriptor.Schema.Columns {
				items = append(items, c.Name)
			}
			continue
		}
		cn, ok := f.X.(*pt.ColumnRef)
		if !ok {
			return ViewText{}, false
		}
		c, ok := p.column(cn)
		if !ok {
			return ViewText{}, false
		}
		items = append(items, c.Name)
	}
	if len(items) != len(names) {
		return ViewText{}, false
	}
	var list strings.Builder
	for i, col := range items {
		if i > 0 {
			list.WriteString(",\n    ")
		}
		list.WriteString(pgIdent(p.qual) + "." + pgIdent(col))
		if names[i] != col {
			list.WriteString(" AS " + pgIdent(names[i]))
		}
	}
	head := " SELECT " + list.String() + "\n   FROM " + from
	if sel.Where == nil {
		return ViewText{Pretty: head + ";", Plain: head + ";"}, true
	}
	pretty, _, ok := p.cond(sel.Where, true)
	if !ok {
		return ViewText{}, false
	}
	plain, _, _ := p.cond(sel.Where, false)
	return ViewText{Pretty: head + "\n  WHERE " + pretty + ";", Plain: head + "\n  WHERE " + plain + ";"}, true
}

type defPrinter struct {
	info fluss.TableInfo
	qual string // the alias columns are qualified with
}

// column resolves a column reference to the table's column.
func (p defPrinter) column(cn *pt.ColumnRef) (fluss.Column, bool) {
	if cn.Schema != "" || (cn.Table != "" && cn.Table != p.qual) {
		return fluss.Column{}, false
	}
	i := p.info.ColumnIndex(cn.Name)
	if i < 0 {
		return fluss.Column{}, false
	}
	return p.info.Descriptor.Schema.Columns[i], true
}

var defOps = map[pt.BinaryOp]string{pt.Eq: "=", pt.Ne: "<>", pt.Lt: "<", pt.Gt: ">", pt.Le: "<=", pt.Ge: ">="}

// Precedences for the pretty form's parentheses: OR < AND < the rest.
const (
	precOr = iota + 1
	precAnd
	precAtom
)

// cond prints a WHERE condition; prec is its operator's precedence.
func (p defPrinter) cond(e pt.Expr, pretty bool) (string, int, bool) {
	switch x := e.(type) {
	case *pt.Binary:
		if x.Op == pt.And || x.Op == pt.Or {
			prec, word := precAnd, " AND "
			if x.Op == pt.Or {
				prec, word = precOr, " OR "
			}
			var parts []string
			for _, arg := range boolArgs(x) {
				s, ap, ok := p.cond(arg, pretty)
				if !ok {
					return "", 0, false
				}
				// PostgreSQL's pretty form parenthesises an OR under an AND only
				if pretty && ap == precOr && prec == precAnd {
					s = "(" + s + ")"
				}
				parts = append(parts, s)
			}
			s := strings.Join(parts, word)
			if !pretty {
				s = "(" + s + ")"
			}
			return s, prec, true
		}
		op, ok := defOps[x.Op]
		if !ok {
			return "", 0, false
		}
		l, lt, ok1 := p.operand(x.L)
		r, rt, ok2 := p.operand(x.R)
		if !ok1 || !ok2 || lt == nil && rt == nil {
			return "", 0, false
		}
		for _, t := range []*types.T{lt, rt} {
			if t != nil && !t.IsInteger() && !isText(*t) {
				return "", 0, false // PostgreSQL would print casts this printer does not know
			}
		}
		// a constant takes the other side's type; two columns must agree
		switch {
		case lt == nil:
			if l, ok = constant(x.L, *rt); !ok {
				return "", 0, false
			}
		case rt == nil:
			if r, ok = constant(x.R, *lt); !ok {
				return "", 0, false
			}
		case !(lt.IsInteger() && rt.IsInteger()) && !(isText(*lt) && isText(*rt)):
			return "", 0, false
		}
		s := l + " " + op + " " + r
		if !pretty {
			s = "(" + s + ")"
		}
		return s, precAtom, true
	case *pt.IsNull:
		c, t, ok := p.operand(x.X)
		if !ok || t == nil {
			return "", 0, false
		}
		s := c + " IS NULL"
		if x.Not {
			s = c + " IS NOT NULL"
		}
		if !pretty {
			s = "(" + s + ")"
		}
		return s, precAtom, true
	}
	return "", 0, false
}

// boolArgs lists the arguments of an AND or OR as PostgreSQL's parser
// builds them: a left operand with the same operator is merged into one
// list (parentheses make no node there, nor in sqlgate's tree), a right
// one is not.
func boolArgs(x *pt.Binary) []pt.Expr {
	if l, ok := x.L.(*pt.Binary); ok && l.Op == x.Op {
		return append(boolArgs(l), x.R)
	}
	return []pt.Expr{x.L, x.R}
}

// operand prints a column (with its type) or accepts a constant (nil
// type: printed by constant once the other side's type is known). Which
// column types a comparison may hold is cond's business; IS NULL takes
// any.
func (p defPrinter) operand(e pt.Expr) (string, *types.T, bool) {
	if cn, ok := e.(*pt.ColumnRef); ok {
		c, ok := p.column(cn)
		if !ok {
			return "", nil, false
		}
		t := c.Type
		return pgIdent(p.qual) + "." + pgIdent(c.Name), &t, true
	}
	if _, ok := e.(*pt.Literal); ok {
		return "", nil, true
	}
	return "", nil, false
}

// constant prints a literal compared with a column of type t as
// PostgreSQL does: integers that fit int4 bare, strings as 'x'::text.
func constant(e pt.Expr, t types.T) (string, bool) {
	v, ok := treeValue(e)
	if !ok {
		return "", false
	}
	switch x := v.(type) {
	case int64:
		if t.IsInteger() && x >= 0 && x <= math.MaxInt32 {
			return strconv.FormatInt(x, 10), true
		}
	case string:
		if isText(t) {
			return "'" + strings.ReplaceAll(x, "'", "''") + "'::text", true
		}
	}
	return "", false
}

func isText(t types.T) bool { return t.Kind == types.String && t.Length == 0 }

// pgIdent quotes a name as PostgreSQL's quote_identifier does: unless it
// is lower-case letters, digits and underscores (not first a digit) and
// no keyword that needs quoting.
func pgIdent(s string) string {
	plain := s != "" && !pgKeywords[s]
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// pgKeywords are PostgreSQL 15's keywords that quote_identifier quotes
// (every category but the unreserved one).
var pgKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric both case cast check collate
	column constraint create current_catalog current_date current_role current_time current_timestamp current_user
	default deferrable desc distinct do else end except false fetch for foreign from grant group having in initially
	intersect into lateral leading limit localtime localtimestamp not null offset on only or order placing primary
	references returning select session_user some symmetric system_user table then to trailing true union unique user
	using variadic when where window with authorization binary collation concurrently cross current_schema freeze full
	ilike inner is isnull join left like natural notnull outer overlaps right similar tablesample verbose between
	bigint bit boolean char character coalesce dec decimal exists extract float greatest grouping inout int integer
	interval least national nchar none normalize nullif numeric out overlay position precision real row setof
	smallint substring time timestamp treat trim values varchar xmlattributes xmlconcat xmlelement xmlexists
	xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable`) {
		m[w] = true
	}
	return m
}()
