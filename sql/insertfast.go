package sql

import (
	"math"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// The fast path of INSERT ... VALUES (issue 33: a 1000-row INSERT spent
// ~43% of its time in Parse). Two halves, each the exact equivalent of the
// general path it replaces, each checked against it by generated tests
// (insertfast_test.go):
//
//   - plainInsert is plainRewrite (plain.go) for INSERT INTO name
//     [(name, ...)] VALUES (literal, ...), ...: its rewrite only folds the
//     case of bare words and quotes a keyword standing as a name, so one
//     pass over the tokens gives the general rewrite's text and offset map;
//   - fastParser.insertStmt is the fast parser's (fastparse.go) reading of
//     the rewritten INSERT INTO name [(name, ...)] VALUES (expr | default,
//     ...), ..., building the AST TiDB builds, so the rows' values need no
//     goyacc table walk.
//
// Anything else (RETURNING, ON CONFLICT, SELECT, casts, $n, E'' strings,
// comments, schema-qualified names ...) declines and takes the general path
// unchanged, errors included.

// plainInsert is plainRewrite for an INSERT of literal rows; ok false when
// the statement is not one.
func plainInsert(src string, toks []token, seg *[1]segment, edits *[]int32) (text string, segs []segment, ok bool) {
	if len(toks) < 6 || !toks[1].is(src, "INTO") {
		return "", nil, false
	}
	var ed []int32
	if edits != nil {
		ed = (*edits)[:0]
		defer func() { *edits = ed }() // the edits stay readable: the fast path reads the labels (fasttoks.go)
	}
	var buf [24]byte
	// word reports whether token k is a plain ASCII bare word (no comment
	// before it) and records its case fold when it holds upper case.
	word := func(k int) (string, bool) {
		t := &toks[k]
		if t.kind != tkIdent || t.hasComment || t.synth != "" {
			return "", false
		}
		w, isUpper, ok := plainUpper(src[t.start:t.end], &buf)
		if !ok {
			return "", false
		}
		if isUpper {
			ed = append(ed, int32(k)<<1)
		}
		return w, true
	}
	// name reports whether token k is a bare word or quoted name (its case
	// fold recorded; quoting, if any, is decided below).
	name := func(k int) bool {
		if k >= len(toks) {
			return false
		}
		t := &toks[k]
		if t.kind == tkQIdent {
			return !t.hasComment && t.synth == ""
		}
		_, ok := word(k)
		return ok
	}
	punct := func(k int, p string) bool {
		return k < len(toks) && !toks[k].hasComment && toks[k].synth == "" && toks[k].isPunct(src, p)
	}
	if _, ok := word(0); !ok {
		return "", nil, false
	}
	if _, ok := word(1); !ok {
		return "", nil, false
	}
	k := 2
	if !name(k) {
		return "", nil, false
	}
	k++
	if punct(k, "(") {
		k++
		for {
			if !name(k) {
				return "", nil, false
			}
			k++
			if punct(k, ",") {
				k++
				continue
			}
			if !punct(k, ")") {
				return "", nil, false
			}
			k++
			break
		}
	}
	if k >= len(toks) {
		return "", nil, false
	}
	if w, ok := word(k); !ok || w != "VALUES" {
		return "", nil, false
	}
	values := k
	k++
	// The rows: ( value, ... ) [, ( value, ... )] ... to the end.
	for {
		if !punct(k, "(") {
			return "", nil, false
		}
		k++
		empty := punct(k, ")") // () is the binder's error either way
		for !empty {
			if k >= len(toks) {
				return "", nil, false
			}
			t := &toks[k]
			if t.hasComment || t.synth != "" {
				return "", nil, false
			}
			switch t.kind {
			case tkOp:
				// a sign: only right before a number
				if s := src[t.start:t.end]; s != "-" && s != "+" || k+1 >= len(toks) || toks[k+1].kind != tkNumber {
					return "", nil, false
				}
				k++
				continue
			case tkNumber:
				if t.end-t.start > maxNumberLiteral || beyondDouble(src[t.start:t.end]) {
					return "", nil, false
				}
			case tkString:
				if src[t.start] != '\'' || k+1 < len(toks) && toks[k+1].kind == tkString {
					return "", nil, false
				}
			case tkIdent:
				w, ok := word(k)
				if !ok || w != "NULL" && w != "TRUE" && w != "FALSE" && w != "DEFAULT" {
					return "", nil, false
				}
			default:
				return "", nil, false
			}
			k++
			if punct(k, ",") {
				k++
				continue
			}
			if !punct(k, ")") {
				return "", nil, false
			}
			break
		}
		k++
		if k == len(toks) {
			break
		}
		if !punct(k, ",") {
			return "", nil, false
		}
		k++
	}
	// Keywords standing as names: the general rewrite quotes them (or
	// refuses them), as quoteNames decides from the words before VALUES.
	head := toks[:values+1]
	q, err := quoteNames(src[:toks[values].end], head)
	if err != nil {
		return "", nil, false
	}
	if len(q) > 0 && &q[0] != &head[0] {
		for i := range q {
			if q[i].synth == "" {
				continue
			}
			if !q[i].inPlace || q[i].kind != tkQIdent || toks[i].kind != tkIdent {
				return "", nil, false
			}
			// a label edit: the word lower-cased between quotes
			for j := range ed {
				if ed[j] == int32(i)<<1 {
					ed[j] |= 1
					goto quoted
				}
			}
			ed = append(ed, int32(i)<<1|1)
		quoted:
		}
		sortEdits(ed)
	}
	if len(ed) == 0 {
		first, last := toks[0], toks[len(toks)-1]
		seg[0] = segment{rw: 0, orig: first.start, n: last.end - first.start, verbatim: true}
		return src[first.start:last.end], seg[:], true
	}
	return plainText(src, toks, ed, seg)
}

// sortEdits orders edits by token (an insertion sort: the header's few
// quoted names are appended after the body's case folds).
func sortEdits(ed []int32) {
	for i := 1; i < len(ed); i++ {
		for j := i; j > 0 && ed[j]>>1 < ed[j-1]>>1; j-- {
			ed[j], ed[j-1] = ed[j-1], ed[j]
		}
	}
}

// wordIs reports whether token t is the (lower-case) word w.
func (fp *fastParser) wordIs(t *ftok, w string) bool {
	return t.kind == ftWord && fp.src[t.start:t.end] == w
}

// insertStmt reads insert into name [(name, ...)] values (expr | default,
// ...), ... into TiDB's AST for it. When every value is a literal, a
// signed number or DEFAULT (directRows), the rows go straight into
// sqlgate's tree instead (rows): the AST then holds the statement's table
// and columns but no Lists, and sql.DMLToTree takes the rows from the
// Statement (Statement.fastInsert), so that a 1000-row INSERT builds one
// tree, not TiDB's nodes and then the tree's.
func (fp *fastParser) insertStmt() (_ *ast.InsertStmt, rows [][]pt.Expr, ok bool) {
	if !fp.wordIs(fp.peek(), "insert") || !fp.wordIs(fp.peekAt(1), "into") {
		return nil, nil, false
	}
	fp.pos += 2
	tn, ok := fp.ident(true)
	if !ok || fp.isOp(opDot) {
		return nil, nil, false
	}
	ins := &ast.InsertStmt{}
	ts := &ast.TableSource{Source: &ast.TableName{Name: tn}}
	ins.Table = &ast.TableRefsClause{TableRefs: &ast.Join{Left: ts}}
	ins.PartitionNames = []ast.CIStr{}
	if fp.acceptOp(opLParen) {
		ins.Columns = []*ast.ColumnName{}
		if !fp.isOp(opRParen) {
			for {
				cn, ok := fp.ident(true)
				if !ok || fp.isOp(opDot) {
					return nil, nil, false
				}
				ins.Columns = append(ins.Columns, &ast.ColumnName{Name: cn})
				if !fp.acceptOp(opComma) {
					break
				}
			}
		}
		if !fp.acceptOp(opRParen) {
			return nil, nil, false
		}
	}
	if !fp.wordIs(fp.peek(), "values") {
		return nil, nil, false
	}
	fp.pos++
	if start := fp.pos; true {
		if rows, ok := fp.directRows(); ok && fp.pos == len(fp.toks)-1 {
			return ins, rows, true
		}
		fp.pos = start // a value beyond a literal: TiDB's nodes, as TiDB builds them
	}
	width := -1
	for {
		if !fp.acceptOp(opLParen) {
			return nil, nil, false
		}
		n := width
		if n < 0 {
			n = fp.listLen()
		}
		row := make([]ast.ExprNode, 0, max(n, 0))
		if !fp.isOp(opRParen) {
			for {
				t := fp.peek()
				var e ast.ExprNode
				if fp.wordIs(t, "default") {
					if n := fp.peekAt(1); n.kind != ftOp || n.id != opComma && n.id != opRParen {
						return nil, nil, false // DEFAULT(col) and the like: TiDB's
					}
					fp.pos++
					d := &ast.DefaultExpr{}
					mark(d, int(t.start), ast.FlagHasDefault)
					e = d
				} else {
					var ok bool
					if e, ok = fp.rowValue(t); !ok {
						return nil, nil, false
					}
				}
				row = append(row, e)
				if !fp.acceptOp(opComma) {
					break
				}
			}
		}
		if !fp.acceptOp(opRParen) {
			return nil, nil, false
		}
		if width < 0 {
			width = len(row)
		}
		ins.Lists = append(ins.Lists, row)
		if !fp.acceptOp(opComma) {
			break
		}
	}
	return ins, nil, true
}

// rowValue reads one value of a VALUES row, whose first token is t: a
// literal or a signed number right before the ',' or ')' that ends it is
// what the expression grammar's levels (OR, AND, NOT, comparisons,
// predicates, + -, * /, ||) each hand back untouched when no operator
// follows, so it is read by the level that builds it (unary or primary)
// without the descent; anything else goes through expr.
func (fp *fastParser) rowValue(t *ftok) (ast.ExprNode, bool) {
	k := 1
	if t.kind == ftOp && (t.id == opMinus || t.id == opPlus) {
		if n := fp.peekAt(1).kind; n != ftInt && n != ftDec && n != ftFloat {
			return fp.expr()
		}
		k = 2
	} else {
		switch t.kind {
		case ftString, ftInt, ftDec, ftFloat:
		case ftWord:
			if t.id != kwNull && t.id != kwTrue && t.id != kwFalse {
				return fp.expr()
			}
		default:
			return fp.expr()
		}
	}
	if end := fp.peekAt(k); end.kind != ftOp || end.id != opComma && end.id != opRParen {
		return fp.expr()
	}
	if k == 2 {
		return fp.unary()
	}
	return fp.primary()
}

// directRows reads VALUES' rows, from the first "(", into sqlgate's tree
// when every value is a literal, a signed number or DEFAULT standing
// alone (before the ',' or ')' that ends it): the nodes the transformer
// (totree.go) makes of the AST TiDB builds for them, with the same
// offsets, but no TiDB node in between (their At.Src is nil; the binder
// reads a literal's and DEFAULT's tree node only). ok is false at the
// first other value, or a malformed list; the caller then reads the rows
// again into TiDB's AST. The rows' cells and literals are cut from a few
// arrays sized by the lexer's count of literals.
func (fp *fastParser) directRows() (rows [][]pt.Expr, ok bool) {
	width := -1
	var cells []pt.Expr
	var lits []pt.Literal
	for {
		if !fp.acceptOp(opLParen) {
			return nil, false
		}
		if width < 0 {
			width = fp.listLen()
			n := max(fp.nLits, width)
			rows = make([][]pt.Expr, 0, n/width+1)
			cells = make([]pt.Expr, 0, n+width)
			lits = make([]pt.Literal, 0, fp.nLits)
		}
		if cap(cells)-len(cells) < width {
			cells = make([]pt.Expr, 0, 64*width) // more DEFAULTs than the estimate holds
		}
		begin := len(cells)
		if !fp.isOp(opRParen) {
			for {
				e, ok := fp.directValue(&lits)
				if !ok {
					return nil, false
				}
				cells = append(cells, e)
				if !fp.acceptOp(opComma) {
					break
				}
			}
		}
		if !fp.acceptOp(opRParen) {
			return nil, false
		}
		rows = append(rows, cells[begin:len(cells):len(cells)])
		if !fp.acceptOp(opComma) {
			return rows, true
		}
	}
}

// directValue reads one value of directRows: a literal, a signed number
// (the transformer's Unary over it, as TiDB's grammar keeps the sign an
// operator) or DEFAULT, which must stand before a ',' or ')'.
func (fp *fastParser) directValue(lits *[]pt.Literal) (pt.Expr, bool) {
	t := fp.peek()
	k := 1 // tokens of the value
	if t.kind == ftOp && (t.id == opMinus || t.id == opPlus) {
		k = 2
	}
	if end := fp.peekAt(k); end.kind != ftOp || end.id != opComma && end.id != opRParen {
		return nil, false
	}
	if k == 2 {
		n := fp.peekAt(1)
		if n.kind != ftInt && n.kind != ftDec && n.kind != ftFloat {
			return nil, false
		}
		fp.pos++
		x, ok := fp.directLiteral(n, lits)
		if !ok {
			return nil, false
		}
		op := pt.UMinus
		if t.id == opPlus {
			op = pt.UPlus
		}
		return &pt.Unary{At: pt.At{Offset: int(t.start)}, Op: op, X: x}, true
	}
	if fp.wordIs(t, "default") {
		fp.pos++
		return &pt.Default{At: pt.At{Offset: int(t.start)}}, true
	}
	return fp.directLiteral(t, lits)
}

// directLiteral reads the literal token t (at fp.pos) as the transformer
// reads the value TiDB's lexer makes of it (primary, LiteralOf).
func (fp *fastParser) directLiteral(t *ftok, lits *[]pt.Literal) (pt.Expr, bool) {
	var v pt.Value
	switch t.kind {
	case ftString:
		v = pt.Value{Kind: pt.LitString, Text: fp.val(t)}
	case ftInt:
		n, ok := fp.uintVal(t)
		switch {
		case !ok:
			// beyond uint64: a decimal, as TiDB's lexer makes it
			text, ok := decimalText(fp.val(t))
			if !ok {
				return nil, false
			}
			v = pt.Value{Kind: pt.LitDecimal, Text: text}
		case n <= math.MaxInt64:
			v = pt.Value{Kind: pt.LitInt, Int: int64(n)}
		default:
			v = pt.Value{Kind: pt.LitUint, Uint: n}
		}
	case ftDec:
		text, ok := decimalText(fp.val(t))
		if !ok {
			return nil, false
		}
		v = pt.Value{Kind: pt.LitDecimal, Text: text}
	case ftFloat:
		f, err := strconv.ParseFloat(fp.val(t), 64)
		if err != nil {
			return nil, false
		}
		v = pt.Value{Kind: pt.LitFloat, Float: f}
	case ftWord:
		switch t.id {
		case kwNull:
			v = pt.Value{Kind: pt.LitNull}
		case kwTrue:
			v = pt.Value{Kind: pt.LitBool, Int: 1}
		case kwFalse:
			v = pt.Value{Kind: pt.LitBool}
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	fp.pos++
	if len(*lits) == cap(*lits) {
		*lits = make([]pt.Literal, 0, max(cap(*lits)/2, 16))
	}
	*lits = (*lits)[:len(*lits)+1]
	l := &(*lits)[len(*lits)-1]
	*l = pt.Literal{At: pt.At{Offset: int(t.start)}, Value: v}
	return l, true
}

// decimalText is the text LiteralOf gives a decimal literal of these
// digits (TiDB's MyDecimal, printed): the digits themselves when they
// are short and carry no leading zero, else MyDecimal's reading of them
// (which drops leading zeros and refuses what it cannot hold).
func decimalText(s string) (string, bool) {
	intPart, frac := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			intPart, frac = s[:i], s[i+1:]
			break
		}
	}
	if len(intPart) > 0 && len(intPart) <= 18 && len(frac) <= 18 && (intPart[0] != '0' || len(intPart) == 1) {
		return s, true
	}
	d, err := ast.NewDecimal(s)
	if err != nil {
		return "", false
	}
	str, ok := d.(interface{ String() string })
	if !ok {
		return "", false
	}
	return str.String(), true
}

// fastInsert is Statement.fastInsert: stmt, the AST of an INSERT whose
// rows the fast path read into the tree, and those rows.
type fastInsert struct {
	stmt *ast.InsertStmt
	rows [][]pt.Expr
}
