package sql

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
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
		defer func() { *edits = ed[:0] }()
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
// ...), ... into TiDB's AST for it.
func (fp *fastParser) insertStmt() (*ast.InsertStmt, bool) {
	if !fp.wordIs(fp.peek(), "insert") || !fp.wordIs(fp.peekAt(1), "into") {
		return nil, false
	}
	fp.pos += 2
	tn, ok := fp.ident(true)
	if !ok || fp.isOp(opDot) {
		return nil, false
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
					return nil, false
				}
				ins.Columns = append(ins.Columns, &ast.ColumnName{Name: cn})
				if !fp.acceptOp(opComma) {
					break
				}
			}
		}
		if !fp.acceptOp(opRParen) {
			return nil, false
		}
	}
	if !fp.wordIs(fp.peek(), "values") {
		return nil, false
	}
	fp.pos++
	width := -1
	for {
		if !fp.acceptOp(opLParen) {
			return nil, false
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
						return nil, false // DEFAULT(col) and the like: TiDB's
					}
					fp.pos++
					d := &ast.DefaultExpr{}
					mark(d, int(t.start), ast.FlagHasDefault)
					e = d
				} else {
					var ok bool
					if e, ok = fp.rowValue(t); !ok {
						return nil, false
					}
				}
				row = append(row, e)
				if !fp.acceptOp(opComma) {
					break
				}
			}
		}
		if !fp.acceptOp(opRParen) {
			return nil, false
		}
		if width < 0 {
			width = len(row)
		}
		ins.Lists = append(ins.Lists, row)
		if !fp.acceptOp(opComma) {
			break
		}
	}
	return ins, true
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
