package sql

import (
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE's actions that the engine carries out by rewriting the table
// (engine/rewrite.go): a column's new type, a dropped column, a renamed
// column.

// columnType parses [SET DATA] TYPE type [COLLATE name] [USING expr] of
// ALTER COLUMN column; USING's expression runs to the action's end.
func (p *ddlParser) columnType(column string) (AlterAction, error) {
	if p.accept("SET", "DATA") {
		p.accept("TYPE")
	} else {
		p.accept("TYPE")
	}
	a := AlterAction{Kind: AlterColumnType, Column: column}
	ts := p.pos
	p.pos = typeEnd(p.src, p.toks, p.pos)
	for i := ts; i < p.pos; i++ { // the type ends before USING (which typeEnd does not know)
		if p.toks[i].is(p.src, "USING") {
			p.pos = i
			break
		}
	}
	if ts == p.pos {
		return a, p.err()
	}
	tn, err := ParseTypeName(p.src[p.toks[ts].start:p.toks[p.pos-1].end])
	if err != nil {
		return a, err
	}
	a.Type = tn
	if p.accept("COLLATE") {
		// [schema.]name: the collation is looked up before the type is
		// checked for one (PostgreSQL's GetColumnDefCollation)
		at := p.pos - 1
		name, err := p.ident()
		for err == nil && p.punct(".") {
			name, err = p.ident()
		}
		if err != nil {
			return a, err
		}
		if !knownCollation(name) {
			return a, sqlerr.New(sqlerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", name).WithPosition(charPos(p.src, p.toks[at].start))
		}
		a.Collation = name
	}
	if p.accept("USING") {
		start := p.pos
		p.skipAction()
		if p.pos == start {
			return a, p.err()
		}
		if err := exprSyntaxIn(p.src, p.toks, start, p.pos); err != nil {
			return a, err
		}
		a.Default = p.src[p.toks[start].start:p.toks[p.pos-1].end]
		a.DefaultPos = charPos(p.src, p.toks[start].start)
	}
	return a, nil
}

// dropColumn parses [COLUMN] [IF EXISTS] column [RESTRICT | CASCADE]
// after DROP.
func (p *ddlParser) dropColumn() (AlterAction, error) {
	p.accept("COLUMN")
	a := AlterAction{Kind: AlterDropColumn, IfNotExists: p.accept("IF", "EXISTS")}
	n, err := p.ident()
	if err != nil {
		return a, err
	}
	a.Column = n
	if !p.accept("RESTRICT") {
		a.Cascade = p.accept("CASCADE")
	}
	return a, nil
}

// renameColumn parses [COLUMN] column TO new after RENAME.
func (p *ddlParser) renameColumn() (AlterAction, error) {
	p.accept("COLUMN")
	a := AlterAction{Kind: AlterRenameColumn}
	n, err := p.ident()
	if err != nil {
		return a, err
	}
	a.Column = n
	if !p.accept("TO") {
		return a, p.err()
	}
	if a.NewName, err = p.ident(); err != nil {
		return a, err
	}
	return a, nil
}

// RenameColumnInExpr rewrites a stored expression of one table (a CHECK
// constraint's, a generated column's: they read the table's own columns
// only, no subquery) after its column from was renamed: every identifier
// token naming from that the parsed expression reads as a column
// reference becomes to, which the caller quotes as needed. A word of the
// syntax spelt like the column (TIME of AT TIME ZONE, a function's name, a
// type's, EXTRACT's field) stays: where the tokens naming from are more
// than the column references of the tree, each is told apart by parsing
// the text with that token alone replaced by a probe name, which must then
// be a column reference in place of one of from's. ok is false when the
// text does not parse, names no such column, or its references cannot be
// told apart.
func RenameColumnInExpr(text, from, to string) (string, bool) {
	toks, err := lexInto(text, nil)
	if err != nil {
		return text, false
	}
	var cands []token
	for k, t := range toks {
		name, ok := identName(text, t)
		if !ok || name != from {
			continue
		}
		if k+1 < len(toks) && (toks[k+1].isPunct(text, "(") || toks[k+1].kind == tkString) {
			continue // a function call, a typed literal
		}
		if k > 0 && (toks[k-1].isPunct(text, "::") || toks[k-1].is(text, "AS")) {
			continue // a type name
		}
		cands = append(cands, t)
	}
	x, err := ParseExprText(text)
	if err != nil || len(cands) == 0 {
		return text, false
	}
	refs := columnRefsNamed(x.Tree, from)
	chosen := cands
	if refs != len(cands) {
		const probe = "sqlgate$rename$probe"
		chosen = nil
		for _, t := range cands {
			px, err := ParseExprText(text[:t.start] + quoteIdent(probe) + text[t.end:])
			if err == nil && columnRefsNamed(px.Tree, probe) == 1 && columnRefsNamed(px.Tree, from) == refs-1 {
				chosen = append(chosen, t)
			}
		}
	}
	if refs == 0 || len(chosen) != refs {
		return text, false
	}
	var b strings.Builder
	last := 0
	for _, t := range chosen {
		b.WriteString(text[last:t.start])
		b.WriteString(to)
		last = t.end
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// columnRefsNamed counts the column references to name in e.
func columnRefsNamed(e pt.Expr, name string) int {
	n := 0
	pt.Walk(e, func(x pt.Expr) bool {
		if c, ok := x.(*pt.ColumnRef); ok && c.Name == name {
			n++
		}
		return true
	})
	return n
}
