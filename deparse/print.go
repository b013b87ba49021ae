package deparse

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
)

// The printer: ruleutils.c's get_rule_expr over the analysed tree. With
// pretty off (pg_get_constraintdef(oid), pg_get_expr(expr, rel)) every
// operator, boolean, IS test and ANY is wrapped in its own parentheses
// and a cast's operand too; with pretty on (the forms psql's \d asks for)
// they are left out and get_rule_expr_paren puts them back only where
// isSimpleNode says the node is not simple in its parent. CASE is always
// laid out on lines (both forms set PRETTYFLAG_INDENT).

// prettyIndent is PRETTYINDENT_VAR.
const prettyIndent = 4

type printer struct {
	// visible is Scope.Visible (nil: public alone is on the path).
	visible func(schema string) bool
	sb      strings.Builder
	pretty  bool
	indent  int
	// wrap is a view's wrap column; taken the range-table names of the
	// query levels around the expression (for a subquery's names).
	wrap  int
	taken []string
	// identity prints a view query's column by its entry's identity (for
	// comparing expressions before the entries are named).
	identity bool
	// q is the query level being printed (a window's keys are its
	// target entries).
	q *query
}

// expr is get_rule_expr: showImplicit says whether an implicit coercion
// at the top of n is shown.
func (p *printer) expr(n node, showImplicit bool) {
	switch x := n.(type) {
	case *varNode:
		if x.rte != nil && p.identity {
			fmt.Fprintf(&p.sb, "%p.%d", x.rte, x.col)
		} else if x.rte != nil {
			p.sb.WriteString(quoteIdent(x.rte.refname) + "." + quoteIdent(x.rte.cols[x.col]))
		} else if x.name == "" {
			p.sb.WriteString("VALUE")
		} else {
			p.sb.WriteString(quoteIdent(x.name))
		}
	case *constNode:
		p.constant(x, 0)
	case *opNode:
		p.open()
		if len(x.args) == 1 {
			p.sb.WriteString(x.name + " ")
			p.paren(x.args[0], true, n)
		} else {
			p.paren(x.args[0], true, n)
			p.sb.WriteString(" " + x.name + " ")
			p.paren(x.args[1], true, n)
		}
		p.close()
	case *arrayOpNode:
		p.open()
		p.paren(x.l, true, n)
		kw := "ALL"
		if x.useOr {
			kw = "ANY"
		}
		fmt.Fprintf(&p.sb, " %s %s (", x.name, kw)
		p.paren(x.r, true, n)
		p.sb.WriteByte(')')
		p.close()
	case *distinctNode:
		p.open()
		p.paren(x.l, true, n)
		p.sb.WriteString(" IS DISTINCT FROM ")
		p.paren(x.r, true, n)
		p.close()
	case *boolNode:
		p.open()
		if x.kind == boolNot {
			p.sb.WriteString("NOT ")
			p.paren(x.args[0], false, n)
		} else {
			sep := " AND "
			if x.kind == boolOr {
				sep = " OR "
			}
			for i, a := range x.args {
				if i > 0 {
					p.sb.WriteString(sep)
				}
				p.paren(a, false, n)
			}
		}
		p.close()
	case *nullTestNode:
		p.open()
		p.paren(x.arg, true, n)
		if x.not {
			p.sb.WriteString(" IS NOT NULL")
		} else {
			p.sb.WriteString(" IS NULL")
		}
		p.close()
	case *boolTestNode:
		p.open()
		p.paren(x.arg, true, n)
		p.sb.WriteString(" " + x.test)
		p.close()
	case *coerceNode:
		if x.form == castImplicit && !showImplicit {
			p.paren(x.arg, false, n)
			return
		}
		p.coercion(x)
	case *funcNode:
		if x.schema != "" && !p.isVisible(x.schema) {
			p.sb.WriteString(quoteIdent(x.schema) + ".")
		}
		p.sb.WriteString(quoteIdent(x.name) + "(")
		for i, a := range x.args {
			if i > 0 {
				p.sb.WriteString(", ")
			}
			if x.variadic && i == len(x.args)-1 {
				p.sb.WriteString("VARIADIC ")
			}
			if i < len(x.argNames) && x.argNames[i] != "" {
				p.sb.WriteString(quoteIdent(x.argNames[i]) + " => ")
			}
			p.expr(a, true)
		}
		p.sb.WriteByte(')')
	case *sqlValueNode:
		p.sb.WriteString(x.text)
	case *syntaxNode:
		p.syntax(x)
	case *listFuncNode:
		p.sb.WriteString(x.name + "(")
		p.list(x.args)
		p.sb.WriteByte(')')
	case *arrayNode:
		p.sb.WriteString("ARRAY[")
		p.list(x.elems)
		p.sb.WriteByte(']')
		if len(x.elems) == 0 {
			// ruleutils.c: an empty ARRAY[] reads back only with its
			// type, written without a typmod
			p.sb.WriteString("::" + p.formatType(withoutMod(x.t)))
		}
	case *aggNode:
		p.sb.WriteString(quoteIdent(x.name) + "(")
		switch {
		case x.star:
			p.sb.WriteByte('*')
		case x.distinct:
			p.sb.WriteString("DISTINCT ")
		}
		p.list(x.args)
		p.sb.WriteByte(')')
	case *subLinkNode:
		p.subLink(x)
	case *winNode:
		if p.identity {
			fmt.Fprintf(&p.sb, "window%p", x)
			return
		}
		p.windowFunc(x)
	case *subscriptNode:
		// the array in parentheses unless it is a column
		_, isVar := x.arg.(*varNode)
		if !isVar {
			p.sb.WriteByte('(')
		}
		p.expr(x.arg, showImplicit)
		if !isVar {
			p.sb.WriteByte(')')
		}
		p.sb.WriteByte('[')
		p.expr(x.index, false)
		p.sb.WriteByte(']')
	case *caseNode:
		p.keyword("CASE", 0, prettyIndent)
		if x.arg != nil {
			p.sb.WriteByte(' ')
			p.expr(x.arg, true)
		}
		for _, w := range x.whens {
			p.keyword("WHEN ", 0, 0)
			p.expr(w.cond, false)
			p.sb.WriteString(" THEN ")
			p.expr(w.result, true)
		}
		p.keyword("ELSE ", 0, 0)
		p.expr(x.els, true)
		p.keyword("END", -prettyIndent, 0)
	}
}

// syntax is get_func_sql_syntax: the arguments without their implicit
// casts, in the syntax's places.
func (p *printer) syntax(x *syntaxNode) {
	switch x.kind {
	case "EXTRACT":
		p.sb.WriteString("EXTRACT(" + x.args[0].(*constNode).text + " FROM ")
		p.expr(x.args[1], false)
		p.sb.WriteByte(')')
	case "POSITION":
		p.sb.WriteString("POSITION((")
		p.expr(x.args[1], false)
		p.sb.WriteString(") IN (")
		p.expr(x.args[0], false)
		p.sb.WriteString("))")
	case "SUBSTRING":
		p.sb.WriteString("SUBSTRING(")
		p.expr(x.args[0], false)
		p.sb.WriteString(" FROM ")
		p.expr(x.args[1], false)
		if len(x.args) == 3 {
			p.sb.WriteString(" FOR ")
			p.expr(x.args[2], false)
		}
		p.sb.WriteByte(')')
	case "AT TIME ZONE": // in parentheses in both forms
		p.sb.WriteByte('(')
		p.paren(x.args[1], false, x)
		p.sb.WriteString(" AT TIME ZONE ")
		p.paren(x.args[0], false, x)
		p.sb.WriteByte(')')
	default: // TRIM(BOTH | LEADING | TRAILING [chars] FROM x)
		p.sb.WriteString("TRIM(" + x.kind)
		if len(x.args) == 2 {
			p.sb.WriteByte(' ')
			p.expr(x.args[1], false)
		}
		p.sb.WriteString(" FROM ")
		p.expr(x.args[0], false)
		p.sb.WriteByte(')')
	}
}

// open and close are the parentheses a node puts around itself when
// pretty is off.
func (p *printer) open() {
	if !p.pretty {
		p.sb.WriteByte('(')
	}
}

func (p *printer) close() {
	if !p.pretty {
		p.sb.WriteByte(')')
	}
}

// list prints comma-separated expressions, implicit casts shown.
func (p *printer) list(xs []node) {
	for i, a := range xs {
		if i > 0 {
			p.sb.WriteString(", ")
		}
		p.expr(a, true)
	}
}

// keyword is appendContextKeyword with no extra indentation.
func (p *printer) keyword(str string, before, after int) { p.contextKeyword(str, before, after, 0) }

// prettyIndentLimit is PRETTYINDENT_LIMIT: past it, indentation grows
// by half and wraps around.
const prettyIndentLimit = 40

// contextKeyword is appendContextKeyword: with PRETTYFLAG_INDENT (always
// set here) the trailing spaces dropped, a new line indented by the
// level (plus plus), then str.
func (p *printer) contextKeyword(str string, before, after, plus int) {
	p.indent += before
	s := strings.TrimRight(p.sb.String(), " ")
	p.sb.Reset()
	p.sb.WriteString(s)
	p.sb.WriteByte('\n')
	amount := max(p.indent, 0) + plus
	if p.indent >= prettyIndentLimit {
		amount = (prettyIndentLimit+(p.indent-prettyIndentLimit)/(prettyIndentStd/2))%prettyIndentLimit + plus
	}
	p.sb.WriteString(strings.Repeat(" ", amount))
	p.sb.WriteString(str)
	p.indent = max(p.indent+after, 0)
}

// paren is get_rule_expr_paren: parentheses in pretty mode where n is not
// simple under parent.
func (p *printer) paren(n node, showImplicit bool, parent node) {
	need := p.pretty && !isSimple(n, parent)
	if need {
		p.sb.WriteByte('(')
	}
	p.expr(n, showImplicit)
	if need {
		p.sb.WriteByte(')')
	}
}

// coercion is get_coercion_expr: a constant of the target type with no
// modifier prints bare and takes the cast's type; anything else is
// (arg)::type (arg::type when pretty and arg is simple).
func (p *printer) coercion(x *coerceNode) {
	if k, ok := x.arg.(*constNode); ok && k.t.oid == x.t.oid && k.t.mod < 0 {
		p.constant(k, -1)
	} else {
		p.open()
		p.paren(x.arg, false, x)
		p.close()
	}
	p.sb.WriteString("::" + p.formatType(x.t))
}

// constant is get_const_expr: showType -1 leaves the type out, 0 adds it
// unless the literal reads back as that type by itself, 1 always adds it.
func (p *printer) constant(k *constNode, showType int) {
	if k.isNull {
		p.sb.WriteString("NULL")
		if showType >= 0 {
			p.sb.WriteString("::" + p.formatType(k.t))
		}
		return
	}
	needLabel := false
	switch k.t.oid {
	case oidInt4:
		if !strings.HasPrefix(k.text, "-") {
			p.sb.WriteString(k.text)
		} else {
			p.sb.WriteString("'" + k.text + "'")
			needLabel = true
		}
	case oidNumeric:
		if k.text != "" && k.text[0] >= '0' && k.text[0] <= '9' && strings.ContainsAny(k.text, "eE.") {
			p.sb.WriteString(k.text)
		} else {
			p.sb.WriteString("'" + k.text + "'")
			needLabel = true
		}
	case oidBool:
		if k.text == "t" {
			p.sb.WriteString("true")
		} else {
			p.sb.WriteString("false")
		}
	case oidRegclass:
		p.sb.WriteString("'" + strings.ReplaceAll(p.regclassName(k.text), "'", "''") + "'")
	default:
		p.sb.WriteString("'" + strings.ReplaceAll(k.text, "'", "''") + "'")
	}
	if showType < 0 {
		return
	}
	if showType > 0 {
		p.sb.WriteString("::" + p.formatType(k.t))
		return
	}
	switch k.t.oid {
	case oidBool, oidUnknown:
		needLabel = false
	case oidInt4:
	case oidNumeric:
		needLabel = needLabel || k.t.mod >= 0
	default:
		needLabel = true
	}
	if needLabel {
		p.sb.WriteString("::" + p.formatType(k.t))
	}
}

// isSimple is isSimpleNode: whether n needs no parentheses of its own
// under parent in pretty mode.
func isSimple(n, parent node) bool {
	switch x := n.(type) {
	case *varNode, *constNode, *funcNode, *sqlValueNode, *listFuncNode, *arrayNode, *caseNode, *syntaxNode, *aggNode, *subscriptNode, *winNode:
		return true
	case *coerceNode:
		if !isRelabel(x) {
			return true // a cast function: function-like
		}
		return isSimple(x.arg, n)
	case *opNode:
		if po, ok := parent.(*opNode); ok {
			op, pop := simpleBinary(x), simpleBinary(po)
			if op == "" || pop == "" {
				return false
			}
			lo, hi := strings.Contains("+-", op), strings.Contains("*/%", op)
			plo, phi := strings.Contains("+-", pop), strings.Contains("*/%", pop)
			switch {
			case !(lo || hi) || !(plo || phi):
				return false
			case hi && plo:
				return true
			case lo && phi:
				return false
			}
			return po.args[0] == n
		}
		return simpleUnder(parent)
	case *nullTestNode, *boolTestNode, *distinctNode, *subLinkNode:
		return simpleUnder(parent)
	case *boolNode:
		if pb, ok := parent.(*boolNode); ok {
			switch x.kind {
			case boolNot, boolAnd:
				return pb.kind == boolAnd || pb.kind == boolOr
			case boolOr:
				return pb.kind == boolOr
			}
			return false
		}
		return simpleUnder(parent)
	}
	return false
}

// simpleUnder is isSimpleNode's choice by the parent for the nodes that
// bring no parentheses of their own.
func simpleUnder(parent node) bool {
	switch parent.(type) {
	case *funcNode, *arrayNode, *listFuncNode, *caseNode, *boolNode, *aggNode, *winNode:
		return true
	}
	return false
}

// simpleBinary is the name of a binary operator's OpExpr ("" for a prefix
// one).
func simpleBinary(o *opNode) string {
	if len(o.args) != 2 {
		return ""
	}
	return o.name
}

// isRelabel reports whether a coercion is a RelabelType (a binary
// coercible cast, pg_cast's method b, or the drop of a modifier) rather
// than a function.
func isRelabel(x *coerceNode) bool {
	from := x.arg.typeOf()
	if from.oid == x.t.oid {
		return x.t.mod < 0 // to the type without a modifier: a RelabelType
	}
	if from.base != nil && from.base.oid == x.t.oid {
		return true // a domain's value as its base type
	}
	return pgBinaryCasts[uint64(from.oid)<<32|uint64(x.t.oid)]
}

// isFuncCast reports whether a coercion is a FuncExpr: a length
// coercion to the type's modifier, or a cast by a function (pg_cast's
// method f).
func isFuncCast(x *coerceNode) bool {
	from := x.arg.typeOf()
	if from.oid == x.t.oid {
		return x.t.mod >= 0
	}
	return pgFunctionCasts[uint64(from.oid)<<32|uint64(x.t.oid)]
}

// formatType is format_type_with_typemod: the SQL-named types by
// pgtypes.FormatTypeName (format_type's own rule), the others by their
// catalog names.
func formatType(t typ) string { return (&printer{}).formatType(t) }

func (p *printer) formatType(t typ) string {
	if t.elem != nil {
		return p.formatType(*t.elem) + "[]"
	}
	if name, ok := pgtypes.FormatTypeName(t.oid, t.mod, true); ok {
		return name
	}
	if n, ok := simpleTypeNames[t.oid]; ok {
		return n
	}
	if name, ok := userTypeName(t, p.isVisible); ok {
		return name
	}
	return fmt.Sprintf("type%d", t.oid)
}

// simpleTypeNames are the catalog names of the built-in types
// pgtypes.FormatTypeName leaves to their names.
var simpleTypeNames = map[uint32]string{
	oidBytea: "bytea", oidName: "name", oidText: "text", oidJSON: "json", oidDate: "date",
	oidRegclass: "regclass", oidUUID: "uuid", oidJSONB: "jsonb", oidUnknown: "unknown",
}

// quoteIdent is quote_identifier (functions.QuoteIdent: PostgreSQL 15's
// keyword list, generated).
func quoteIdent(s string) string { return functions.QuoteIdent(s) }

// isVisible says whether schema is on the search path the expression is
// printed under (public alone without Scope.Visible).
func (p *printer) isVisible(schema string) bool {
	if p.visible == nil {
		return schema == "" || schema == "public"
	}
	return schema == "" || p.visible(schema)
}

// regclassName is a regclass constant's text as regclassout prints it:
// the relation's name, schema-qualified when its schema is not on the
// search path. text is qualified (typedConst qualifies it).
func (p *printer) regclassName(text string) string {
	parts := nameParts(text)
	if len(parts) != 2 {
		return text
	}
	if p.isVisible(parts[0]) {
		return quoteIdent(parts[1])
	}
	return quoteIdent(parts[0]) + "." + quoteIdent(parts[1])
}
