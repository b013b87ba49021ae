package sql

import (
	"sort"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// The rewrite turns one PostgreSQL statement (as tokens) into text the TiDB
// parser accepts. It works on a list of output items: each item is either a
// copied token or a composite (a rewritten primary such as
// pg__cast(x, 'int4')). Operators that need their left operand (::, [i],
// ^) pop the items that form the preceding primary and wrap them, which is
// how a::text::int and f(x)::int get the right extent. Operators that need
// their right operand find its token range and rewrite it recursively.
//
// Every output byte keeps the original offset it stands for (piece.orig),
// so TiDB's error offsets and AST node offsets map back to the user's text.

// piece is a run of output text.
type piece struct {
	text     string
	orig     int  // absolute byte offset in the input this text stands for
	param    int  // > 0: this piece is the "?" standing for $param
	verbatim bool // text == input[orig:orig+len(text)], so offsets map 1:1
	// kind, flags and hash are those of the token whose text (case-folded)
	// the piece copies (simple); kind 0 for any other text. emit hands
	// them to the fast path (fasttoks.go), which then needs no lexer.
	kind  tokKind
	flags tokFlags
	hash  uint32
}

// item is one unit of rewritten output. A composite's text is its parts
// in order (a tree, so wrapping a primary is O(1) however large it is).
type item struct {
	tok       token // the source token (zero for composites)
	composite bool
	lead      []piece // whitespace before the item (0 or 1 piece)
	pieces    []piece // the text of a simple item
	parts     []item  // the parts of a composite
	size      int     // bytes of text, parts included
	// derived marks the SELECT * FROM of a parenthesised join turned into
	// a derived table, which may take a column alias list (values.go)
	derived bool
	// opBack is how many items back from this || or | its left operand
	// starts, set when opLevelLeft scanned that operand (0: not scanned);
	// a later operator of the level reads it instead of scanning the
	// operand again (oplevel.go). Relative, so that a rule inserting an
	// item before the operand (IS DISTINCT FROM's not) moves both.
	opBack int
}

// firstOrig is the input offset the item's first text stands for.
func (it *item) firstOrig() int {
	if len(it.pieces) > 0 {
		return it.pieces[0].orig
	}
	for i := range it.parts {
		p := &it.parts[i]
		if len(p.lead) > 0 {
			return p.lead[0].orig
		}
		if len(p.pieces) > 0 || len(p.parts) > 0 {
			return p.firstOrig()
		}
	}
	return 0
}

func (it *item) textSize() int {
	n := 0
	for _, p := range it.lead {
		n += len(p.text)
	}
	for _, p := range it.pieces {
		n += len(p.text)
	}
	return n + it.size
}

type rewriter struct {
	src  string
	toks []token
	// wrapped is the name token of the qualified call qualifiedcall.go is
	// rewriting as if unqualified (0: none): the rules that leave a
	// qualified name alone (qualifiedName) read it as unqualified.
	wrapped int
	// match[i] is the index of the token closing the bracket at i (-1 if
	// none), computed on first use.
	match []int
	bad   int // badCloser's token, once match is computed
	// arrayDepth > 0 while the elements of an ARRAY[...] constructor are
	// rewritten: there a bare [a, b] is a sub-array (ARRAY[[1,2],[3,4]]).
	arrayDepth int
	// folded is src with ASCII letters lower-cased, made on first use.
	folded string
	// slab is where simple items' pieces are cut from.
	slab []piece
	// upper is src with ASCII letters upper-cased, made on first use.
	upper string
	// tidbTailEnd is the end of the last LIMIT n OFFSET m tail left to
	// TiDB as written (limit.go).
	tidbTailEnd int
	// items, when not nil, is a buffer for the output of the top-level
	// run (the whole token range), handed over by the Parser.
	items []item
	// written is the statement's tokens as written, before the
	// statement-level rewrites (ON CONFLICT DO UPDATE SET is ON
	// DUPLICATE KEY UPDATE in toks), nil when toks are; assigns holds the
	// starts of its SET items' = tokens (setAssignments), read on first
	// use: most statements never ask.
	written     []token
	assigns     []int
	assignsRead bool
}

// upperWord is strings.ToUpper(text) for token t, cut from r.upper for an
// ASCII word: one allocation per statement instead of one per word.
func (r *rewriter) upperWord(t token, text string) string {
	if t.synth != "" {
		return strings.ToUpper(text)
	}
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			return strings.ToUpper(text)
		}
	}
	if r.upper == "" {
		b := []byte(r.src)
		for i, c := range b {
			if c >= 'a' && c <= 'z' {
				b[i] = c - ('a' - 'A')
			}
		}
		r.upper = string(b)
	}
	return r.upper[t.start:t.end]
}

// maxNumberLiteral is the longest numeric constant handed to TiDB as is.
const maxNumberLiteral = 60

func (r *rewriter) errNear(i int) error {
	if i >= len(r.toks) && r.badCloser() >= 0 {
		// A closing bracket that closes nothing, or another kind of
		// bracket, is no part of any statement: PostgreSQL's grammar
		// refuses the statement there at the latest (ARRAY[d, r) ]), not
		// at the end of the input the rewrite's unmatched opener reached.
		i = r.badCloser()
	}
	if i >= len(r.toks) {
		// The statement ended early: at the semicolon that ends it, or
		// past the input's last character, where PostgreSQL points.
		if n := len(r.toks); n > 0 {
			if k := skipBlank(r.src, r.toks[n-1].end); k < len(r.src) && r.src[k] == ';' {
				return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \";\"").WithPosition(charPos(r.src, k))
			}
		}
		return sqlerr.New(sqlerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(r.src, len(r.src)))
	}
	t := r.toks[i]
	return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(t.text(r.src))).WithPosition(charPos(r.src, t.start))
}

// skipBlank is the offset of the first character at or after i that is
// neither white space nor inside a comment.
func skipBlank(src string, i int) int {
	for i < len(src) {
		switch {
		case isSpace(src[i]):
			i++
		case strings.HasPrefix(src[i:], "--"):
			k := strings.IndexByte(src[i:], '\n')
			if k < 0 {
				return len(src)
			}
			i += k + 1
		case strings.HasPrefix(src[i:], "/*"):
			k := strings.Index(src[i+2:], "*/")
			if k < 0 {
				return len(src)
			}
			i += k + 4
		default:
			return i
		}
	}
	return i
}

func (r *rewriter) leadOf(t token) []piece {
	var p piece
	if !r.leadPiece(t, &p) {
		return nil
	}
	return []piece{p}
}

// leadPiece sets *p to the whitespace before t and reports whether there is
// any.
func (r *rewriter) leadPiece(t token, p *piece) bool {
	switch {
	case t.synth != "" && t.lead >= t.start && !t.inPlace:
		*p = piece{text: " ", orig: t.start}
	case t.lead >= t.start:
		return false
	case t.hasComment:
		*p = piece{text: " ", orig: t.lead}
	default:
		*p = piece{text: r.src[t.lead:t.start], orig: t.lead, verbatim: true}
	}
	return true
}

// simple is the item that copies token t. Its lead and text are cut from
// the rewriter's slab (most tokens of a statement are simple items, and the
// rewrite runs on every statement).
func (r *rewriter) simple(t token) item {
	buf := r.piecePair()
	it := item{tok: t}
	if r.leadPiece(t, &buf[0]) {
		it.lead = buf[0:1:1]
	}
	if t.synth != "" {
		buf[1] = piece{text: t.synth, orig: t.start}
	} else {
		text := r.src[t.start:t.end]
		if t.kind == tkIdent {
			// PostgreSQL folds unquoted identifiers to lower case (ASCII
			// only, so byte offsets still map 1:1). TiDB keywords are
			// case-insensitive, so folding every bare word is harmless, and
			// the binder can read CIStr.O as the PostgreSQL name.
			text = r.foldedText(t)
		}
		buf[1] = piece{text: text, orig: t.start, verbatim: true, kind: t.kind, flags: t.flags, hash: t.hash}
	}
	it.pieces = buf[1:2:2]
	return it
}

// piecePair returns two zero pieces cut from r.slab. The slices handed out
// have their capacity capped, so an append to one never writes into another.
func (r *rewriter) piecePair() []piece {
	if len(r.slab)+2 > cap(r.slab) {
		// A slab holds two pieces per token of the statement, so a typical
		// statement needs one allocation (none when the Parser's slab from
		// the previous statement is large enough), not one per 32 tokens.
		r.slab = make([]piece, 0, max(64, 2*len(r.toks)+2))
	}
	n := len(r.slab)
	r.slab = r.slab[:n+2]
	return r.slab[n : n+2 : n+2]
}

// foldedText is token t's text with ASCII letters lower-cased. The whole
// input is folded once (folding keeps byte offsets), instead of one string
// per upper-case word.
func (r *rewriter) foldedText(t token) string {
	text := r.src[t.start:t.end]
	if !hasUpperASCII(text) {
		return text
	}
	if r.folded == "" {
		r.folded = foldASCII(r.src)
	}
	return r.folded[t.start:t.end]
}

func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// foldASCII lower-cases ASCII letters only, keeping the byte length.
func foldASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// composite builds a rewritten primary.
type compositeBuilder struct{ it item }

func newComposite(lead []piece) *compositeBuilder {
	return &compositeBuilder{it: item{composite: true, lead: lead}}
}

func (b *compositeBuilder) add(text string, orig int) {
	b.it.parts = append(b.it.parts, item{pieces: []piece{{text: text, orig: orig}}})
	b.it.size += len(text)
}

// addItems appends items; dropFirstLead drops the lead of the first one
// (it was moved in front of the composite).
func (b *compositeBuilder) addItems(items []item, dropFirstLead bool) {
	for i, it := range items {
		if i == 0 && dropFirstLead {
			it.lead = nil
		}
		b.it.parts = append(b.it.parts, it)
		b.it.size += it.textSize()
	}
}

// Words that end an operand when scanning backward, or cannot be a
// function name / operand.
var nonOperandWords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "WHERE": true, "ON": true, "WHEN": true, "THEN": true,
	"ELSE": true, "HAVING": true, "SELECT": true, "SET": true, "BY": true, "RETURNING": true,
	"LIMIT": true, "OFFSET": true, "FROM": true, "AS": true, "DISTINCT": true, "ALL": true,
	"USING": true, "CASE": true, "VALUES": true, "IS": true, "IN": true, "LIKE": true, "ILIKE": true,
	"BETWEEN": true, "SIMILAR": true, "ANY": true, "SOME": true, "JOIN": true, "UNION": true,
	"INTERSECT": true, "EXCEPT": true, "ORDER": true, "GROUP": true, "INTO": true, "WITH": true,
	"DO": true, "UPDATE": true, "DELETE": true, "INSERT": true, "RETURN": true, "ESCAPE": true,
	"OVER": true, "PARTITION": true, "FILTER": true, "WINDOW": true, "FETCH": true, "ASC": true, "DESC": true,
}

// exprBoundaryWords end the left operand of IS [NOT] DISTINCT FROM, which
// binds looser than comparisons in PostgreSQL.
var exprBoundaryWords = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "WHERE": true, "ON": true, "WHEN": true, "THEN": true,
	"ELSE": true, "HAVING": true, "SELECT": true, "SET": true, "BY": true, "RETURNING": true,
	"LIMIT": true, "OFFSET": true, "FROM": true, "AS": true, "DISTINCT": true, "ALL": true,
	"USING": true, "CASE": true, "VALUES": true, "IS": true, "DO": true, "RETURN": true,
}

var typedLiteralWords = map[string]bool{
	"DATE": true, "TIME": true, "TIMESTAMP": true, "TIMESTAMPTZ": true, "INTERVAL": true,
}

// constTypeWords are the keywords PostgreSQL's grammar spells its other
// type names with (ConstTypename: numeric, character and bit types), each
// of which may start a typed literal: NUMERIC(10,2) '1.5', DOUBLE PRECISION
// '2', CHARACTER VARYING '..', BIT '101' (42704 here: no bit type).
var constTypeWords = map[string]bool{
	"BIGINT": true, "BIT": true, "BOOLEAN": true, "CHAR": true, "CHARACTER": true, "DEC": true,
	"DECIMAL": true, "DOUBLE": true, "FLOAT": true, "INT": true, "INTEGER": true, "NATIONAL": true,
	"NCHAR": true, "NUMERIC": true, "REAL": true, "SMALLINT": true, "VARCHAR": true,
	// unreserved keywords that name types (PostgreSQL's type_function_name)
	"TEXT": true, "NAME": true,
}

// twoWordTypeStarts are the first words of the type names spelled with
// two or more words (DOUBLE PRECISION, CHARACTER VARYING, NATIONAL
// CHARACTER, BIT VARYING; the time types are typedLiteralAt's).
var twoWordTypeStarts = map[string]bool{"DOUBLE": true, "CHARACTER": true, "CHAR": true, "NATIONAL": true, "NCHAR": true, "BIT": true}

// literalTypeWord reports whether the word w may start the type of a
// typed literal: the time types and INTERVAL (typedLiteralAt), the
// keywords of constTypeWords, and any word that is no keyword of
// PostgreSQL's (int4 '1', jsonb '{}', uuid '...', a name of a type the
// binder does not know, which is then 42704 as in PostgreSQL): its
// grammar reads every func_name Sconst as a typed literal.
func literalTypeWord(w string) bool {
	if typedLiteralWords[w] || constTypeWords[w] {
		return true
	}
	if w == "REGEXP" || w == "RLIKE" {
		return false // TiDB's regular-expression operators, which the rewrite writes for ~
	}
	_, keyword := pgKeywords[w]
	return !keyword
}

// literalAt returns the index of the string of a typed literal whose
// type's first word, w, is at k, or -1: typedLiteralAt for the time types,
// otherwise a type name as CAST reads it (typeExtent) right before a
// string. An array type does not start one (int[] '{}' is PostgreSQL's
// syntax error too), nor does a quoted name here.
func (r *rewriter) literalAt(k, j int, w string) int {
	if typedLiteralWords[w] {
		return r.typedLiteralAt(k, j)
	}
	if at := r.qualifiedLiteralAt(k, j, w); at != 0 {
		return at
	}
	if r.toks[k].kind != tkIdent || !literalTypeWord(w) || k+1 >= j {
		return -1
	}
	// Only a string, a type's modifiers followed by a string, or the
	// second word of a two-word type may follow: anything else (an
	// operator, a comma, a function call's arguments) is decided without
	// parsing a type.
	switch n := r.toks[k+1]; {
	case isLiteralString(r.src, n):
	case n.isPunct(r.src, "("):
		if m := r.matchClose(k+1, j); m < 0 || m+1 >= j || !isLiteralString(r.src, r.toks[m+1]) {
			return -1
		}
	case n.kind == tkIdent && twoWordTypeStarts[w]:
	default:
		return -1
	}
	end, text, err := r.typeExtent(k, j)
	if err != nil || end >= j || strings.ContainsAny(text, "[<") || !isLiteralString(r.src, r.toks[end]) {
		return -1
	}
	return end
}

// qualifiedLiteralAt decides the typed literals whose type is spelled
// with a quoted or schema-qualified name ("int4" '6', pg_catalog.int4
// '6', public.mood 'ok', pg_catalog.varchar(2) 'abc'): PostgreSQL's
// grammar reads every func_name [(modifiers)] Sconst as one, whatever
// the schema, so that an unknown schema or type is the cast's error. It
// returns the string's index, -1 when the name at k is such a name but
// no string follows, and 0 when the name is a plain word (literalAt's).
func (r *rewriter) qualifiedLiteralAt(k, j int, w string) int {
	t := r.toks[k]
	qualified := k+2 < j && r.toks[k+1].isPunct(r.src, ".") &&
		(r.toks[k+2].kind == tkIdent || r.toks[k+2].kind == tkQIdent)
	switch {
	case t.kind == tkQIdent:
	case t.kind == tkIdent && qualified && literalTypeWord(w):
	default:
		return 0
	}
	i := k + 1
	if qualified {
		i = k + 3
	}
	if i < j && r.toks[i].isPunct(r.src, "(") {
		m := r.matchClose(i, j)
		if m < 0 {
			return -1
		}
		i = m + 1
	}
	if i >= j || !isLiteralString(r.src, r.toks[i]) {
		return -1
	}
	end, _, err := r.typeExtent(k, j)
	if err != nil || end != i {
		return -1
	}
	return i
}

// literalTypeText is the type a typed literal is cast to, spelled text,
// its first word w: as written, but for a character type without a
// length, which is char(1) in a cast and bpchar here (PostgreSQL: CHAR
// 'ab' is 'ab', typed character).
func literalTypeText(w, text string) string {
	switch w {
	case "CHAR", "CHARACTER", "NCHAR", "NATIONAL":
		if !strings.ContainsAny(text, "(") && !strings.Contains(text, "varying") {
			return "bpchar"
		}
	}
	return text
}

// isLiteralString reports a '...' or E'...' string token.
func isLiteralString(src string, t token) bool {
	return t.kind == tkEString || (t.kind == tkString && src[t.start] == '\'')
}

// typedLiteralAt returns the index of the string literal of a typed
// literal whose type word is at k (DATE '...', TIME(3) '...', TIMESTAMP
// WITH TIME ZONE '...', INTERVAL(2) '1 s'), or -1 when the word is not
// followed by one. Only the time types take a precision (and TIME and
// TIMESTAMP a zone clause) before the string.
func (r *rewriter) typedLiteralAt(k, j int) int {
	w := r.toks[k].word(r.src)
	i := k + 1
	if (w == "TIME" || w == "TIMESTAMP" || w == "INTERVAL") && i < j && r.toks[i].isPunct(r.src, "(") {
		m := r.matchClose(i, j)
		if m < 0 || m != i+2 || r.toks[i+1].kind != tkNumber {
			return -1
		}
		i = m + 1
	}
	if (w == "TIME" || w == "TIMESTAMP") && i+2 < j && (r.toks[i].is(r.src, "WITH") || r.toks[i].is(r.src, "WITHOUT")) &&
		r.toks[i+1].is(r.src, "TIME") && r.toks[i+2].is(r.src, "ZONE") {
		i += 3
	}
	if i < j && isLiteralString(r.src, r.toks[i]) {
		return i
	}
	return -1
}

// tokensText is the source text of tokens [from, to) with single spaces
// between words, for a type name spelled over several tokens.
func (r *rewriter) tokensText(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		t := r.toks[i]
		if i > from && t.kind == tkIdent && r.toks[i-1].kind == tkIdent {
			b.WriteByte(' ')
		}
		b.WriteString(t.text(r.src))
	}
	return b.String()
}

func (r *rewriter) isOperand(it item) bool {
	if it.composite {
		// the rewrite's || is an operator, not an operand: a - or ~
		// after it is a prefix one ('x' || - 3 ^ 2 is 'x' || ((-3) ^ 2))
		return !isPipesItem(it)
	}
	t := it.tok
	switch t.kind {
	case tkIdent:
		var buf [24]byte
		w, ok := r.upperInto(t, &buf)
		if !ok {
			word := t.word(r.src)
			return word == "END" || !nonOperandWords[word]
		}
		// (string(w) in a map index or comparison does not allocate)
		return string(w) == "END" || !nonOperandWords[string(w)]
	case tkQIdent, tkString, tkEString, tkDollar, tkNumber, tkParam:
		return true
	case tkPunct:
		s := t.text(r.src)
		return s == ")" || s == "]"
	}
	return false
}

func (r *rewriter) itemIs(it item, p string) bool {
	return !it.composite && it.tok.kind != 0 && it.tok.isPunct(r.src, p)
}

// matchOpenItem returns the index of the item opening the bracket closed
// by out[k], or -1.
func (r *rewriter) matchOpenItem(out []item, k int, open, close string) int {
	depth := 0
	for ; k >= 0; k-- {
		if r.itemIs(out[k], close) {
			depth++
		} else if r.itemIs(out[k], open) {
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// matchCaseItem returns the index of the CASE matching the END at out[k].
func (r *rewriter) matchCaseItem(out []item, k int) int {
	depth := 0
	for ; k >= 0; k-- {
		if out[k].composite {
			continue
		}
		switch out[k].tok.word(r.src) {
		case "END":
			depth++
		case "CASE":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// primaryStart returns the index in out where the primary expression that
// ends out begins: a literal, a (qualified) name, $n, a parenthesised
// expression, a function call, CASE ... END or an earlier composite.
func (r *rewriter) primaryStart(out []item) int {
	n := len(out)
	if n == 0 {
		return -1
	}
	last := out[n-1]
	s := n - 1
	if !last.composite {
		t := last.tok
		switch t.kind {
		case tkString, tkEString, tkDollar, tkNumber, tkParam, tkQIdent:
		case tkIdent:
			w := t.word(r.src)
			if w == "END" {
				s = r.matchCaseItem(out, n-1)
				if s < 0 {
					return -1
				}
				return s
			}
			if nonOperandWords[w] {
				return -1
			}
		case tkPunct:
			if !r.itemIs(last, ")") {
				return -1
			}
			s = r.matchOpenItem(out, n-1, "(", ")")
			if s < 0 {
				return -1
			}
			if s > 0 && !out[s-1].composite {
				pt := out[s-1].tok
				if (pt.kind == tkIdent && !nonOperandWords[pt.word(r.src)]) || pt.kind == tkQIdent {
					s-- // function call
				}
			}
		default:
			return -1
		}
	}
	// qualified names: a.b.c, pg_catalog.f(x)
	for s >= 2 && r.itemIs(out[s-1], ".") && !out[s-2].composite &&
		(out[s-2].tok.kind == tkIdent || out[s-2].tok.kind == tkQIdent) {
		s -= 2
	}
	// f(x) OVER (...), f(x) OVER w, f(x) FILTER (WHERE ...): the window or
	// filter clause belongs to the call, and so does a cast after it.
	if s >= 2 && !out[s-1].composite {
		if w := out[s-1].tok.word(r.src); w == "OVER" || w == "FILTER" {
			if s2 := r.primaryStart(out[:s-1]); s2 >= 0 {
				return s2
			}
		}
	}
	return s
}

// isCallName reports whether it, before an open parenthesis, makes the
// parenthesis a function call's: a name that is no keyword.
func (r *rewriter) isCallName(it item) bool {
	if it.composite {
		return false
	}
	return (it.tok.kind == tkIdent && !nonOperandWords[it.tok.word(r.src)]) || it.tok.kind == tkQIdent
}

// exprStart returns where the left operand of IS [NOT] DISTINCT FROM
// begins: everything back to the nearest lower-precedence keyword, comma
// or unmatched open parenthesis.
func (r *rewriter) exprStart(out []item) int {
	return r.operandStart(out, false)
}

// quantifierAt reports whether toks[k] starts ANY | SOME | ALL (.
func (r *rewriter) quantifierAt(k int) bool {
	t := r.toks[k]
	return (t.is(r.src, "ANY") || t.is(r.src, "SOME") || t.is(r.src, "ALL")) &&
		k+1 < len(r.toks) && r.toks[k+1].isPunct(r.src, "(")
}

// isSubqueryStart reports whether toks[k] starts a subquery's text.
func (r *rewriter) isSubqueryStart(k int) bool {
	return k < len(r.toks) && (r.toks[k].is(r.src, "SELECT") || r.toks[k].is(r.src, "WITH") || r.toks[k].is(r.src, "VALUES"))
}

// quantifiedOp is the operator ending out that an ANY | SOME | ALL (..)
// after it quantifies, as written ("=", "~~", "LIKE", "NOT ILIKE"), or "".
// PostgreSQL's subquery_Op: any operator, LIKE, ILIKE and their NOT forms.
func (r *rewriter) quantifiedOp(out []item) string {
	n := len(out)
	if n < 2 || out[n-1].composite {
		return ""
	}
	t := out[n-1].tok
	if t.kind == tkOp {
		if op := t.text(r.src); comparisonOps[op] || likeOps[op] {
			return op
		}
		return ""
	}
	w := t.word(r.src)
	if w != "LIKE" && w != "ILIKE" {
		return ""
	}
	if n >= 3 && !out[n-2].composite && out[n-2].tok.word(r.src) == "NOT" {
		return "NOT " + w
	}
	return w
}

// likeOps are LIKE's operator spellings; likeOpNames the operator each
// keyword form is.
var (
	likeOps     = map[string]bool{"~~": true, "!~~": true, "~~*": true, "!~~*": true}
	likeOpNames = map[string]string{"LIKE": "~~", "NOT LIKE": "!~~", "ILIKE": "~~*", "NOT ILIKE": "!~~*"}
)

// tidbQuantifiedOps are the operators TiDB's grammar quantifies over a
// subquery itself (op ANY (SELECT ..)).
var tidbQuantifiedOps = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true}

// comparisonOps are the operators that may precede ANY/SOME/ALL (array).
var comparisonOps = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true, "~": true, "!~": true, "~*": true, "!~*": true}

// operandStart scans back from the end of out to where an operand begins.
// With comparison set it also stops at comparison operators and predicate
// keywords (the left operand of "op ANY (array)" binds tighter than them).
func (r *rewriter) operandStart(out []item, comparison bool) int {
	k := len(out) - 1
	for k >= 0 {
		it := out[k]
		if it.composite {
			k--
			continue
		}
		switch {
		case r.itemIs(it, ")"):
			o := r.matchOpenItem(out, k, "(", ")")
			if o < 0 {
				return k + 1
			}
			k = o - 1
			continue
		case r.itemIs(it, "("), r.itemIs(it, ","), r.itemIs(it, ";"), r.itemIs(it, "["):
			return k + 1
		}
		if comparison && it.tok.kind == tkOp && comparisonOps[it.tok.text(r.src)] {
			return k + 1
		}
		w := it.tok.word(r.src)
		if comparison && (w == "LIKE" || w == "ILIKE" || w == "IN" || w == "BETWEEN" || w == "SIMILAR") {
			return k + 1
		}
		if w == "END" {
			c := r.matchCaseItem(out, k)
			if c < 0 {
				return k + 1
			}
			k = c - 1
			continue
		}
		if exprBoundaryWords[w] || r.isAssignment(it.tok) {
			return k + 1
		}
		k--
	}
	return 0
}

// isAssignment reports whether t is a SET item's = (SET b = x IS
// DISTINCT FROM y): no operator, so an operand's start scanned back from
// after it is right after it.
func (r *rewriter) isAssignment(t token) bool {
	if t.kind != tkOp || t.synth != "" || t.end != t.start+1 || r.src[t.start] != '=' {
		return false
	}
	if !r.assignsRead {
		toks := r.written
		if toks == nil {
			toks = r.toks
		}
		r.assigns, r.assignsRead = setAssignments(r.src, toks), true
	}
	for _, s := range r.assigns {
		if s == t.start {
			return true
		}
	}
	return false
}

// orderItemStart returns where the ORDER BY item ending out begins: after
// the nearest BY or comma at depth 0.
func (r *rewriter) orderItemStart(out []item) int {
	for k := len(out) - 1; k >= 0; k-- {
		it := out[k]
		if it.composite {
			continue
		}
		switch {
		case r.itemIs(it, ")"):
			o := r.matchOpenItem(out, k, "(", ")")
			if o < 0 {
				return k + 1
			}
			k = o
		case r.itemIs(it, ","), r.itemIs(it, "("), it.tok.word(r.src) == "BY":
			return k + 1
		}
	}
	return 0
}

// matchClose returns the index of the token closing the bracket at toks[k]
// (within [k, j)), or -1.
func (r *rewriter) matchClose(k, j int) int {
	if r.match == nil {
		r.computeMatches()
	}
	if k < 0 || k >= len(r.match) {
		return -1
	}
	if m := r.match[k]; m > k && m < j {
		return m
	}
	return -1
}

// badCloser is the first ) or ] that closes no bracket or one of the
// other kind, or -1.
func (r *rewriter) badCloser() int {
	if r.match == nil {
		r.computeMatches()
	}
	return r.bad
}

// computeMatches pairs every ( and [ with its closing token in one pass,
// so nested brackets cost O(n) in total, not O(n) each; it also finds
// badCloser's token.
func (r *rewriter) computeMatches() {
	r.match = make([]int, len(r.toks))
	r.bad = -1
	var stack []int
	for i, t := range r.toks {
		r.match[i] = -1
		if t.kind != tkPunct {
			continue
		}
		switch t.text(r.src) {
		case "(", "[":
			stack = append(stack, i)
		case ")", "]":
			if len(stack) == 0 {
				if r.bad < 0 {
					r.bad = i
				}
				continue
			}
			o := stack[len(stack)-1]
			want := "("
			if t.text(r.src) == "]" {
				want = "["
			}
			if r.toks[o].text(r.src) != want {
				// mismatched: no pairs for the rest (TiDB reports the error)
				if r.bad < 0 {
					r.bad = i
				}
				stack = stack[:0]
				continue
			}
			stack = stack[:len(stack)-1]
			r.match[o] = i
		}
	}
}

// matchEnd returns the index of the END closing the CASE at toks[k].
func (r *rewriter) matchEnd(k, j int) int {
	depth := 0
	for i := k; i < j; i++ {
		switch r.toks[i].word(r.src) {
		case "CASE":
			depth++
		case "END":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// typeExtent parses the type name starting at toks[k] and returns the index
// after it and its source text.
func (r *rewriter) typeExtent(k, j int) (int, string, error) {
	if k >= j {
		return 0, "", r.errNear(k)
	}
	// A type is a few tokens; bounding the window keeps a long run of
	// ARRAY<..> casts linear (splitAngles copies the window).
	sub := r.toks[k:min(j, k+256)]
	split := false
	switch sub[0].word(r.src) {
	case "ARRAY", "MAP", "ROW":
		sub, split = splitAngles(r.src, sub), true
	}
	tp := &typeParser{src: r.src, toks: sub}
	if _, err := tp.parseType(false); err != nil {
		return 0, "", err
	}
	if tp.pos == 0 {
		return 0, "", r.errNear(k)
	}
	lastTok := sub[tp.pos-1]
	end := k + tp.pos
	if split {
		// map back to an index in r.toks (splitAngles may have split
		// tokens); by offsets only here: a synthetic token after the type
		// (a named call's ")", namedargs.go) stands at an earlier offset
		end = k
		for end < j && r.toks[end].start < lastTok.end {
			end++
		}
	}
	return end, r.src[r.toks[k].start:lastTok.end], nil
}

// primaryEnd returns the end (exclusive) of the primary expression starting
// at toks[k], including a unary sign and trailing ::casts and [subscripts].
func (r *rewriter) primaryEnd(k, j int) (int, error) {
	e := k
	if e < j && (r.toks[e].isPunct(r.src, "-") || r.toks[e].isPunct(r.src, "+")) {
		e++
	}
	if e >= j {
		return 0, r.errNear(e)
	}
	t := r.toks[e]
	switch t.kind {
	case tkIdent, tkQIdent:
		w := t.word(r.src)
		if w == "CASE" {
			m := r.matchEnd(e, j)
			if m < 0 {
				return 0, r.errNear(j)
			}
			e = m + 1
			break
		}
		if nonOperandWords[w] {
			return 0, r.errNear(e)
		}
		word := e
		e++
		for e+1 < j && r.toks[e].isPunct(r.src, ".") && (r.toks[e+1].kind == tkIdent || r.toks[e+1].kind == tkQIdent) {
			e += 2
		}
		typed := false
		if e == word+1 && e < j && literalTypeWord(w) {
			if at := r.literalAt(word, j, w); at >= e {
				e, typed = at+1, true // DATE '...', TIMESTAMP(3) WITH TIME ZONE '...', NUMERIC(4,1) '1.5'
			}
		}
		if !typed && e < j && (r.toks[e].isPunct(r.src, "(") || ((w == "ARRAY" || w == "MAP") && r.toks[e].isPunct(r.src, "["))) {
			m := r.matchClose(e, j)
			if m < 0 {
				return 0, r.errNear(j)
			}
			e = m + 1
		}
	case tkString, tkEString, tkDollar, tkNumber, tkParam:
		e++
	case tkPunct:
		if !t.isPunct(r.src, "(") {
			return 0, r.errNear(e)
		}
		m := r.matchClose(e, j)
		if m < 0 {
			return 0, r.errNear(j)
		}
		e = m + 1
	default:
		return 0, r.errNear(e)
	}
	for e < j {
		if r.toks[e].isPunct(r.src, "::") {
			end, _, err := r.typeExtent(e+1, j)
			if err != nil {
				return 0, err
			}
			e = end
			continue
		}
		if r.toks[e].isPunct(r.src, "[") {
			m := r.matchClose(e, j)
			if m < 0 {
				return 0, r.errNear(j)
			}
			e = m + 1
			continue
		}
		break
	}
	return e, nil
}

// run rewrites toks[i:j] into items.
func (r *rewriter) run(i, j int) ([]item, error) {
	return r.runAfter(nil, i, j)
}

// runAfter rewrites toks[i:j] into items as if they followed the items
// before: the rules that look back (is a FROM item allowed here? does
// VALUES start a query?) see them, and only the new items are returned.
// A rewrite that takes a range out of the main loop (fulljoin.go's table
// and condition) passes the word that stood before it, so the range is
// rewritten as it would be in place.
func (r *rewriter) runAfter(before []item, i, j int) ([]item, error) {
	n := j - i
	if i > 0 || j < len(r.toks) {
		n = min(n, 16) // nested ranges: deep nesting must not allocate O(n) each
	}
	var out []item
	if i == 0 && j == len(r.toks) && r.items != nil && len(before) == 0 {
		out, r.items = r.items[:0], nil
	} else {
		out = make([]item, 0, n+len(before))
	}
	out = append(out, before...)
	for k := i; k < j; {
		out = r.closedForm(out, k, j) // closedforms.go
		if r.toks[k].kind == tkIdent && len(out) > 0 && r.likeLevelAt(k, j) && r.isOperand(out[len(out)-1]) {
			out, _ = r.opLevelLeft(out, k, true) // x ~ y LIKE z: oplevel.go
		}
		t := r.toks[k]
		text := t.text(r.src)
		if t.kind == tkIdent && t.is(r.src, "COLLATE") && collateClauseAt(r.src, r.toks, k) {
			if it, end, ok := r.collateMarker(out, k, j); ok { // collations.go
				s := r.primaryStart(out)
				out = append(out[:s], it)
				k = end
				continue
			}
		}
		if t.kind == tkIdent || t.kind == tkPunct {
			// ROLLUP (, CUBE (, GROUPING SETS (, () in GROUP BY: groupingsets.go
			if marker, n, ok := r.groupingSetMarker(out, k, j); ok {
				if marker != "" {
					out = append(out, r.groupingSetItem(k, marker))
				}
				k += n
				continue
			}
		}
		if t.kind == tkIdent || t.kind == tkQIdent {
			// schema.f(..) in a form TiDB takes unqualified only: qualifiedcall.go
			if end, ok := r.qualifiedCallAt(out, k, j); ok {
				it, err := r.qualifiedCall(k, end)
				if err != nil {
					return nil, err
				}
				out = append(out, it)
				k = end
				continue
			}
		}
		if t.kind == tkQIdent && !(len(out) > 0 && r.itemIs(out[len(out)-1], ".")) {
			if at := r.qualifiedLiteralAt(k, j, ""); at > k {
				// "int4" '6', "pg_catalog"."int4" '6': a typed literal
				// (qualifiedLiteralAt), CAST('6' AS "pg_catalog"."int4")
				lit, err := r.run(at, at+1)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__cast(", t.start)
				b.addItems(lit, true)
				b.add(", "+sqlQuote(r.src[t.start:r.toks[at-1].end])+")", t.start)
				out = append(out, b.it)
				k = at + 1
				continue
			}
		}
		switch t.kind {
		case tkString:
			if lit, ok := bitStringLiteral(text); ok {
				// B'101' and X'1F' are bit strings in PostgreSQL (TiDB
				// reads them as bytes): bit_in's text, typed bit
				b := newComposite(r.leadOf(t))
				b.add("pg__cast("+sqlQuote(lit)+", 'pg__bit')", t.start)
				out = append(out, b.it)
				k++
				continue
			}
		case tkParam:
			n, err := strconv.Atoi(text[1:])
			if err != nil || n <= 0 || n > 65535 {
				return nil, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter %s", text).WithPosition(charPos(r.src, t.start))
			}
			out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: "?", orig: t.start, param: n}}})
			k++
			continue
		case tkNumber:
			if len(text) > maxNumberLiteral || beyondDouble(text) {
				// TiDB's decimal holds 65 digits (and its test driver panics
				// beyond 81), and its lexer refuses an exponent beyond a
				// double's; PostgreSQL reads any long constant, and any
				// with an exponent, as numeric, which is what this cast says.
				b := newComposite(r.leadOf(t))
				b.add("pg__cast("+sqlQuote(text)+", 'numeric')", t.start)
				out = append(out, b.it)
				k++
				continue
			}
		case tkEString, tkDollar:
			var val string
			if t.kind == tkEString {
				v, err := decodeEStringAt(r.src, t)
				if err != nil {
					return nil, err
				}
				val = v
			} else {
				val = dollarBody(text)
			}
			out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: sqlQuote(val), orig: t.start}}})
			k++
			continue
		case tkOp:
			opBack := 0
			if len(out) > 0 && r.isOpLevel(k) && r.isOperand(out[len(out)-1]) {
				var start int
				out, start = r.opLevelLeft(out, k, false) // oplevel.go
				opBack = len(out) - start                 // the operator goes at len(out)
			}
			if otherOperator(text) || (len(out) == 0 || !r.isOperand(out[len(out)-1])) && r.prefixOnlyOther(k, j) {
				var err error
				if out, k, err = r.otherOperatorCall(out, k, j); err != nil {
					return nil, err
				}
				continue
			}
			switch text {
			case "||":
				// a || b -> a | pg__pipes() | b: TiDB's || (PIPES_AS_CONCAT)
				// binds tighter than * and +, PostgreSQL's sits with the
				// other operators, below + - and above comparisons, as
				// TiDB's | does; QueryToTree reads the pair back as ||.
				b := newComposite(r.leadOf(t))
				b.add("| "+PipesMarker+"() |", t.start)
				b.it.opBack = opBack
				out = append(out, b.it)
				k++
				continue
			case "::":
				s := r.primaryStart(out)
				if s < 0 {
					// no operand before it: the statement is wrong at
					// the :: or before it (a ')' that closes nothing,
					// '(' after a constant), which TiDB's grammar finds
					// in the text before the :: as PostgreSQL's does
					out = append(out, r.simple(t))
					k++
					continue
				}
				end, typeText, err := r.typeExtent(k+1, j)
				if err != nil {
					return nil, err
				}
				// The cast is placed where its operand starts (an
				// expression's leftmost place) and its type at the ::
				// (where PostgreSQL points "cannot cast", tree.Cast.TypePos).
				b := newComposite(out[s].lead)
				b.add("pg__cast(", out[s].firstOrig())
				b.addItems(out[s:], true)
				b.add(", ", t.start)
				b.add(sqlQuote(typeText)+")", t.start)
				out = append(out[:s], b.it)
				k = end
				continue
			case "~", "!~", "~*", "!~*":
				if len(out) == 0 || !r.isOperand(out[len(out)-1]) {
					if text == "~" { // prefix bitwise not: pg__op_not(x)
						e, err := r.prefixOperand(k, j)
						if err != nil {
							return nil, err
						}
						right, err := r.run(k+1, e)
						if err != nil {
							return nil, err
						}
						b := newComposite(r.leadOf(t))
						b.add("pg__op_not(", t.start)
						b.addItems(right, true)
						b.add(")", r.toks[e-1].end)
						out = append(out, b.it)
						k = e
						continue
					}
					// !~ 'a': no such prefix operator
					var err error
					if out, k, err = r.otherOperatorCall(out, k, j); err != nil {
						return nil, err
					}
					continue
				}
				if k+2 < j && r.quantifierAt(k+1) {
					// x ~* ANY (..): the ANY case takes the operator
					out = append(out, r.simple(t))
					k++
					continue
				}
				kw := "regexp"
				if text[0] == '!' {
					kw = "not regexp"
				}
				out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: kw, orig: t.start}}})
				if !strings.HasSuffix(text, "*") {
					k++
					if it, e, ok, err := r.patternOperand(k, j, true); err != nil { // pipes.go
						return nil, err
					} else if ok {
						out, k = append(out, it), e
					}
					continue
				}
				// case-insensitive: wrap the pattern, PostgreSQL's ARE
				// embedded option (?i) has the same meaning; the pattern
				// takes the arithmetic after it (x ~* 'a' || 1 is not)
				e, err := r.prefixOperand(k, j)
				if err != nil {
					return nil, err
				}
				inner, err := r.run(k+1, e)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(r.toks[k+1]))
				b.add("pg__ci(", r.toks[k+1].start)
				b.addItems(inner, true)
				b.add(")", r.toks[e-1].end)
				out = append(out, b.it)
				k = e
				continue
			case "^":
				// PostgreSQL's ^ is exponentiation (MySQL's is XOR) and
				// binds tighter than * and /, looser than unary minus.
				s := r.primaryStart(out)
				if s < 0 {
					return nil, r.errNear(k)
				}
				if s > 0 && (r.itemIs(out[s-1], "-") || r.itemIs(out[s-1], "+")) && (s == 1 || !r.isOperand(out[s-2])) {
					s--
				}
				e, err := r.primaryEnd(k+1, j)
				if err != nil {
					return nil, err
				}
				right, err := r.run(k+1, e)
				if err != nil {
					return nil, err
				}
				b := newComposite(out[s].lead)
				b.add("pg__power(", out[s].firstOrig())
				b.addItems(out[s:], true)
				b.add(", ", t.start)
				b.addItems(right, true)
				b.add(")", r.toks[e-1].end)
				out = append(out[:s], b.it)
				k = e
				continue
			case "@", "|/", "||/":
				if len(out) == 0 || !r.isOperand(out[len(out)-1]) {
					// PostgreSQL's prefix operators (opfuncs.go)
					e, err := r.prefixOperand(k, j)
					if err != nil {
						return nil, err
					}
					right, err := r.run(k+1, e)
					if err != nil {
						return nil, err
					}
					b := newComposite(r.leadOf(t))
					b.add(prefixOps[text]+"(", t.start)
					b.addItems(right, true)
					b.add(")", r.toks[e-1].end)
					out = append(out, b.it)
					k = e
					continue
				}
				// a prefix operator written between two operands
				// (2 @ 3): no such operator
				var err error
				if out, k, err = r.otherOperatorCall(out, k, j); err != nil {
					return nil, err
				}
				continue
			case "~~", "!~~", "~~*", "!~~*":
				if len(out) > 0 && r.isOperand(out[len(out)-1]) && k+2 < j && r.quantifierAt(k+1) {
					// x ~~ ANY (..): the ANY case takes the operator
					out = append(out, r.simple(t))
					k++
					continue
				}
				fallthrough
			case "->", "->>", "#>", "#>>", "@>", "<@", "?", "?|", "?&", "@?", "@@",
				"~<~", "~<=~", "~>=~", "~>~", "^@", "#", "#-", "&&":
				if len(out) == 0 || !r.isOperand(out[len(out)-1]) {
					// an infix operator with no left operand (? 1; ? is no
					// parameter marker in PostgreSQL): no such prefix
					// operator
					var err error
					if out, k, err = r.otherOperatorCall(out, k, j); err != nil {
						return nil, err
					}
					continue
				}
				// PostgreSQL's JSON operators -> pg__json_get(a, b) and
				// friends (functions/jsonops.go); MySQL's -> means
				// something else and # starts a comment. The left operand
				// is the preceding primary (so a -> 'x' -> 'y' nests), the
				// right one a primary, optionally negated (j -> -1), with any
				// arithmetic after it.
				s := r.primaryStart(out)
				if s < 0 {
					return nil, r.errNear(k)
				}
				rs := k + 1
				if rs < j && r.toks[rs].kind == tkOp && (r.toks[rs].text(r.src) == "-" || r.toks[rs].text(r.src) == "+") {
					rs++
				}
				if rs >= j {
					return nil, r.errNear(j)
				}
				e, err := r.primaryEnd(rs, j)
				if err != nil {
					return nil, err
				}
				// + - * / % ^ bind tighter than these operators, so the
				// right operand takes them in (j -> 1 + 1 is j -> 2).
				for e+1 < j && r.toks[e].kind == tkOp && strings.Contains("+-*/%^", r.toks[e].text(r.src)) && len(r.toks[e].text(r.src)) == 1 {
					n := e + 1
					if r.toks[n].kind == tkOp && (r.toks[n].text(r.src) == "-" || r.toks[n].text(r.src) == "+") {
						n++
					}
					if n >= j {
						break
					}
					if e, err = r.primaryEnd(n, j); err != nil {
						return nil, err
					}
				}
				right, err := r.run(k+1, e)
				if err != nil {
					return nil, err
				}
				// @> <@ ? ?| ?& bind as loosely as -> among PostgreSQL's
				// "other" operators; the binder picks the function by the
				// operands' types (binder/operators.go)
				fn := map[string]string{"->": "pg__json_get(", "->>": "pg__json_get_text(", "#>": "pg__json_path(", "#>>": "pg__json_path_text(",
					"@>": "pg__op_contains(", "<@": "pg__op_contained(", "?": "pg__op_exists(", "?|": "pg__op_exists_any(", "?&": "pg__op_exists_all(",
					"@?": "pg__op_path_exists(", "@@": "pg__op_path_match("}[text]
				sep, end := ", ", ")"
				if op, ok := infixOps[text]; ok {
					fn, sep, end = op[0], op[1], op[2]
					// unary minus binds tighter (-1 # 3 is (-1) # 3)
					if s > 0 && (r.itemIs(out[s-1], "-") || r.itemIs(out[s-1], "+")) && (s == 1 || !r.isOperand(out[s-2])) {
						s--
					}
				}
				b := newComposite(out[s].lead)
				b.add(fn, out[s].firstOrig())
				b.addItems(out[s:], true)
				b.add(sep, t.start)
				b.addItems(right, true)
				b.add(end, r.toks[e-1].end)
				out = append(out[:s], b.it)
				k = e
				continue
			case "`":
				return nil, r.errNear(k)
			case "&", "|":
				// bitwise and/or have no prefix form (& 2)
				if len(out) == 0 || !r.isOperand(out[len(out)-1]) {
					var err error
					if out, k, err = r.otherOperatorCall(out, k, j); err != nil {
						return nil, err
					}
					continue
				}
				if text == "|" {
					it := r.simple(t)
					it.opBack = opBack
					out = append(out, it)
					k++
					continue
				}
			case "!":
				// no infix ! (2 ! 1; PostgreSQL 14 dropped factorial's)
				if len(out) > 0 && r.isOperand(out[len(out)-1]) {
					var err error
					if out, k, err = r.otherOperatorCall(out, k, j); err != nil {
						return nil, err
					}
					continue
				}
			}
		case tkPunct:
			if m := r.aliasedJoinAt(out, k, j); m > 0 {
				// (a JOIN b ON ..) AS j -> (SELECT * FROM a JOIN b ON ..) AS j:
				// TiDB takes no alias on a parenthesised join; as in
				// PostgreSQL, the alias hides the inner names and j.*
				// is the join's columns (USING's merged ones once).
				// The inside is rewritten after what came before, so
				// its first item is a FROM item as in place.
				inner, err := r.runAfter(append(out[:len(out):len(out)], r.simple(t)), k+1, m)
				if err != nil {
					return nil, err
				}
				b := newComposite(nil)
				b.add("SELECT * FROM ", t.start)
				b.addItems(inner, false)
				b.it.derived = true
				out = append(out, r.simple(t), b.it, r.simple(r.toks[m]))
				k = m + 1
				continue
			}
			if text == "." && k+1 < j && len(out) > 0 && isFieldSelect(out[len(out)-1]) {
				// (x).a.b -> pg__field(pg__field((x), 'a'), 'b'): a field
				// of a field, as PostgreSQL reads the chain
				if nt := r.toks[k+1]; nt.kind == tkIdent || nt.kind == tkQIdent {
					last := out[len(out)-1]
					b := newComposite(last.lead)
					b.add("pg__field(", last.firstOrig())
					b.addItems(out[len(out)-1:], true)
					b.add(", "+sqlQuote(r.identName(nt))+")", nt.start)
					out = append(out[:len(out)-1], b.it)
					k += 2
					continue
				}
			}
			if text == "." && r.rowFieldStarAt(k, j) && len(out) > 0 {
				// ROW(t.*, ..) and (t.*, ..): t's columns, as PostgreSQL
				// expands them in a row constructor -> pg__field(t, '*'),
				// which the binder's row constructor expands
				name := out[len(out)-1]
				b := newComposite(name.lead)
				b.add("pg__field(", name.firstOrig())
				b.addItems([]item{name}, true)
				b.add(", '*')", r.toks[k+1].start)
				out[len(out)-1] = b.it
				k += 2
				continue
			}
			if text == "." && r.wholeRowArgAt(k, j) {
				// f(t.*) -> f(t): a FROM item's whole row as an argument
				// (PostgreSQL's t.* there is the composite, not its
				// columns), which TiDB's grammar cannot read
				k += 2
				continue
			}
			if text == "." && k+1 < j && len(out) > 0 && r.itemIs(out[len(out)-1], ")") {
				// (expr).field -> pg__field((expr), 'field'): field
				// selection from a composite; not after a call's
				// parentheses (f(x).y is no PostgreSQL syntax)
				if s := r.matchOpenItem(out, len(out)-1, "(", ")"); s >= 0 && (s == 0 || !r.isCallName(out[s-1])) {
					nt := r.toks[k+1]
					// (expr).* becomes pg__field((expr), '*'), which
					// the select list expands into one column per field.
					name := ""
					switch {
					case nt.kind == tkIdent || nt.kind == tkQIdent:
						name = r.identName(nt)
					case nt.isPunct(r.src, "*"):
						name = "*"
					}
					if name != "" {
						b := newComposite(out[s].lead)
						b.add("pg__field(", out[s].firstOrig())
						b.addItems(out[s:], true)
						b.add(", "+sqlQuote(name)+")", nt.start)
						out = append(out[:s], b.it)
						k += 2
						continue
					}
				}
			}
			if text == "(" {
				// (query) AS t(x, y): see values.go
				o, nk, ok, err := r.columnAliasList(out, k, j)
				if err != nil {
					return nil, err
				}
				if ok {
					out, k = o, nk
					continue
				}
			}
			if text == "[" {
				if r.arrayDepth > 0 && (len(out) == 0 || r.itemIs(out[len(out)-1], ",")) {
					// [a, b] as an element of ARRAY[...]: a sub-array
					m := r.matchClose(k, j)
					if m < 0 {
						return nil, r.errNear(j)
					}
					inner, err := r.run(k+1, m)
					if err != nil {
						return nil, err
					}
					b := newComposite(r.leadOf(t))
					b.add("pg__array(", t.start)
					b.addItems(inner, true)
					b.add(")", r.toks[m].start)
					out = append(out, b.it)
					k = m + 1
					continue
				}
				if len(out) == 0 || !r.isOperand(out[len(out)-1]) {
					return nil, r.errNear(k)
				}
				s := r.primaryStart(out)
				m := r.matchClose(k, j)
				if s < 0 || m < 0 {
					return nil, r.errNear(k)
				}
				colon := -1
				for q := k + 1; q < m; q++ {
					if r.toks[q].isPunct(r.src, "(") || r.toks[q].isPunct(r.src, "[") {
						if c := r.matchClose(q, m); c > q {
							q = c
						}
					} else if r.toks[q].isPunct(r.src, ":") {
						colon = q
						break
					}
				}
				if colon >= 0 {
					// x[lo:hi] -> pg__slice(x, lo, hi); an omitted bound
					// is pg__open()
					bound := func(from, to int) ([]item, error) {
						if from == to {
							return nil, nil
						}
						return r.run(from, to)
					}
					lo, err := bound(k+1, colon)
					if err != nil {
						return nil, err
					}
					hi, err := bound(colon+1, m)
					if err != nil {
						return nil, err
					}
					b := newComposite(out[s].lead)
					b.add("pg__slice(", out[s].firstOrig())
					b.addItems(out[s:], true)
					b.add(", ", t.start)
					if lo == nil {
						b.add("pg__open()", t.start)
					} else {
						b.addItems(lo, true)
					}
					b.add(", ", r.toks[colon].start)
					if hi == nil {
						b.add("pg__open()", r.toks[colon].start)
					} else {
						b.addItems(hi, true)
					}
					b.add(")", r.toks[m].start)
					out = append(out[:s], b.it)
					k = m + 1
					continue
				}
				inner, err := r.run(k+1, m)
				if err != nil {
					return nil, err
				}
				b := newComposite(out[s].lead)
				b.add("pg__subscript(", out[s].firstOrig())
				b.addItems(out[s:], true)
				b.add(", ", t.start)
				b.addItems(inner, true)
				b.add(")", r.toks[m].start)
				out = append(out[:s], b.it)
				k = m + 1
				continue
			}
		case tkIdent:
			w := r.upperWord(t, text)
			litAt := r.literalAt(k, j, w) // the string of a typed literal whose type word is at k
			switch {
			case (w == "OVER" || w == "AS") && k+1 < j && r.toks[k+1].isPunct(r.src, "("):
				// OVER (.. frame) and WINDOW w AS (.. frame): frame.go
				if m, f, ok := r.windowSpecAt(k+1, j, w == "AS"); ok {
					items, err := r.windowSpec(k+1, m, f)
					if err != nil {
						return nil, err
					}
					out = append(out, r.simple(t))
					out = append(out, items...)
					k = m + 1
					continue
				}
			case k+1 < j && r.toks[k+1].isPunct(r.src, "(") && r.startsWindowAggregate(out, k, j):
				// agg(args) [FILTER (WHERE c)] OVER w that TiDB cannot
				// read: windowagg.go
				m, f, _ := r.windowAggregateAt(out, k, j)
				it, next, err := r.windowAggregate(k, m, f)
				if err != nil {
					return nil, err
				}
				out = append(out, it)
				k = next
				continue
			case k+2 < j && r.toks[k+1].isPunct(r.src, "(") && (r.toks[k+2].isPunct(r.src, ")") || r.toks[k+2].isPunct(r.src, "*")) && r.startsEmptyCall(out, w, k, j):
				// count(), rank(), lower(*): emptycall.go
				star, _ := r.emptyCallAt(out, w, k, j)
				items, next := r.emptyCall(w, star, k)
				out = append(out, items...)
				k = next
				continue
			case emptyListEnd[w] && r.emptySelectList(out):
				// SELECT FROM t (or SELECT ALL FROM t): PostgreSQL
				// allows an empty select list, TiDB does not; the marker
				// column pg__nocols() is dropped by the binder.
				b := newComposite(r.leadOf(t))
				b.add("pg__nocols()", t.start)
				out = append(out, b.it)
				continue // the word itself as usual
			case keywordFuncNames[w] && litAt < 0 && k+1 < j && r.toks[k+1].isPunct(r.src, "(") && !(k+2 < j && r.toks[k+2].is(r.src, "DISTINCT")) &&
				!((w == "STDDEV" || w == "VARIANCE") && r.startsOrderedAggregate(k, j)): // stddev(x ORDER BY y): aggorder.go
				// a function whose name TiDB's grammar takes as a keyword:
				// quoted, it is an ordinary function name
				out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: `"` + foldASCII(text) + `"`, orig: t.start}}})
				k++
				continue
			case w == "ROWS" && k+2 < j && r.toks[k+1].is(r.src, "FROM") && r.toks[k+2].isPunct(r.src, "(") && r.fromItemHere(out):
				// ROWS FROM (f(..), g(..)): srf.go
				var err error
				if out, k, err = r.rowsFrom(out, k, j); err != nil {
					return nil, err
				}
				continue
			case k+1 < j && r.toks[k+1].isPunct(r.src, "(") && !notFromFuncWords[w] && r.fromFuncAt(out) >= 0:
				// a function in FROM (qualified by pg_catalog. or
				// information_schema. or not): a table function, or
				// PostgreSQL's one-row table of a plain function's value
				var err error
				if out, k, err = r.setFunction(out, r.fromFuncAt(out), k, j); err != nil {
					return nil, err
				}
				continue
			case w == "VALUES" && k+1 < j && r.toks[k+1].isPunct(r.src, "(") && r.valuesIsQueryAt(out, k):
				// VALUES (..), (..) as a query: see values.go
				items, nk, err := r.valuesRows(k, j)
				if err != nil {
					return nil, err
				}
				if wrapped, ok, err := r.ctasValues(out, items, nk, j); err != nil || ok {
					return append(out, wrapped...), err
				}
				out = append(out, items...)
				k = nk
				continue
			case w == "CAST" && k+1 < j && r.toks[k+1].isPunct(r.src, "("):
				m := r.matchClose(k+1, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				as := -1
				for q := k + 2; q < m; q++ {
					tq := r.toks[q]
					if tq.isPunct(r.src, "(") || tq.isPunct(r.src, "[") {
						if c := r.matchClose(q, m); c > q {
							q = c // skip nested brackets in one step
						}
					} else if tq.is(r.src, "AS") {
						as = q
						break
					}
				}
				if as < 0 || as == k+2 {
					return nil, r.errNear(m)
				}
				inner, err := r.run(k+2, as)
				if err != nil {
					return nil, err
				}
				end, typeText, err := r.typeExtent(as+1, m)
				if err != nil {
					return nil, err
				}
				if end != m {
					return nil, r.errNear(end)
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__cast(", t.start)
				b.addItems(inner, true)
				b.add(", ", r.toks[as].start)
				b.add(sqlQuote(typeText)+")", t.start) // the type at CAST (tree.Cast.TypePos)
				out = append(out, b.it)
				k = m + 1
				continue
			case litAt > k &&
				!(len(out) > 0 && r.itemIs(out[len(out)-1], ".")):
				// DATE '2024-01-02', INTERVAL '1 day', TIMESTAMP(3) WITH TIME
				// ZONE '...', NUMERIC '1.5', int4 '1', jsonb '{}': one form
				// for the binder, as CAST('...' AS type).
				at := litAt
				lit, err := r.run(at, at+1)
				if err != nil {
					return nil, err
				}
				typeText := literalTypeText(w, strings.ToLower(r.tokensText(k, at)))
				if r.toks[k].kind == tkQIdent || r.toks[k+1].isPunct(r.src, ".") {
					// a quoted or qualified name as written: CAST's text
					typeText = r.src[r.toks[k].start:r.toks[at-1].end]
				}
				next := at + 1
				if w == "INTERVAL" {
					// INTERVAL '1' DAY [TO SECOND]: the fields change the meaning.
					for next < j && (isIntervalField(r.toks[next].word(r.src)) ||
						(r.toks[next].is(r.src, "TO") && next+1 < j && isIntervalField(r.toks[next+1].word(r.src)))) {
						typeText += " " + strings.ToLower(r.toks[next].text(r.src))
						next++
					}
					if strings.HasSuffix(typeText, "second") && next < j && r.toks[next].isPunct(r.src, "(") {
						// INTERVAL '1.234' SECOND(1): the seconds' precision
						if m := r.matchClose(next, j); m > next {
							typeText += r.tokensText(next, m+1)
							next = m + 1
						}
					}
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__cast(", t.start)
				b.addItems(lit, true)
				b.add(", "+sqlQuote(typeText)+")", t.start)
				out = append(out, b.it)
				k = next
				continue
			case w == "ARRAY" && (k+1 >= j || !r.toks[k+1].isPunct(r.src, "(") && !r.toks[k+1].isPunct(r.src, "[")) &&
				k > 0 && arrayStartsExpr(r.src, r.toks[k-1]):
				// ARRAY where an expression starts takes [ or ( next
				// (array_expr, select_with_parens): PostgreSQL's grammar
				// refuses the token after it (SELECT ARRAY 3: at 3)
				return nil, r.errNear(k + 1)
			case w == "ARRAY" && k+2 < j && r.toks[k+1].isPunct(r.src, "(") &&
				(r.toks[k+2].is(r.src, "SELECT") || r.toks[k+2].is(r.src, "WITH") || r.toks[k+2].is(r.src, "VALUES")):
				// ARRAY(SELECT ...) -> pg__array_subquery((SELECT ...))
				m := r.matchClose(k+1, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				inner, err := r.run(k+1, m+1)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__array_subquery(", t.start)
				b.addItems(inner, true)
				b.add(")", r.toks[m].start)
				out = append(out, b.it)
				k = m + 1
				continue
			case (w == "ANY" || w == "SOME" || w == "ALL") && k+2 < j && r.toks[k+1].isPunct(r.src, "(") &&
				r.quantifiedOp(out) != "" &&
				(!r.isSubqueryStart(k+2) || !tidbQuantifiedOps[r.quantifiedOp(out)]):
				// x op ANY (array) -> pg__any(x, 'op', array); TiDB only
				// knows op ANY (subquery) for the comparisons, which is
				// left as it is. LIKE's and ~'s family over a subquery
				// -> pg__any(x, 'op', (subquery)) (the binder reads the
				// rows as an array).
				op := r.quantifiedOp(out)
				nop := 1
				if !out[len(out)-1].composite && out[len(out)-1].tok.kind == tkIdent {
					nop = len(strings.Fields(op)) // LIKE, NOT LIKE
					op = likeOpNames[op]
				}
				opItem := out[len(out)-nop]
				left := out[:len(out)-nop]
				s := r.operandStart(left, true)
				if op[0] != '~' && op[0] != '!' || op == "!=" {
					s = r.cmpOperandStart(left) // closedforms.go
				}
				if s >= len(left) {
					return nil, r.errNear(k)
				}
				m := r.matchClose(k+1, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				lo, hi := k+2, m
				if r.isSubqueryStart(k + 2) {
					lo, hi = k+1, m+1 // the subquery with its parentheses
				}
				inner, err := r.run(lo, hi)
				if err != nil {
					return nil, err
				}
				fn := "pg__any("
				if w == "ALL" {
					fn = "pg__all("
				}
				b := newComposite(left[s].lead)
				b.add(fn, left[s].firstOrig())
				b.addItems(left[s:], true)
				b.add(", "+sqlQuote(op)+", ", opItem.tok.start)
				b.addItems(inner, true)
				b.add(")", r.toks[m].start)
				out = append(out[:s], b.it)
				k = m + 1
				continue
			case w == "USING" && k+1 < j && r.toks[k+1].kind == tkOp && len(out) > 0 && r.isOperand(out[len(out)-1]):
				// ORDER BY e USING op: orderusing.go
				if it, s, ok := r.orderUsing(out, k); ok {
					out = append(out[:s], it)
					k += 2
					continue
				}
				return nil, r.errNear(k)
			case w == "NULLS" && k+1 < j && (r.toks[k+1].is(r.src, "FIRST") || r.toks[k+1].is(r.src, "LAST")):
				// e [ASC|DESC] NULLS FIRST -> pg__nulls(e, 'first') [ASC|DESC]:
				// TiDB has no NULLS clause; the binder reads the marker (so that
				// an ORDER BY position or alias inside it still resolves).
				end := len(out)
				var dirItem *item
				if end > 0 && !out[end-1].composite {
					if d := out[end-1].tok.word(r.src); d == "ASC" || d == "DESC" {
						dirItem = &out[end-1]
						end--
					}
				}
				s := r.orderItemStart(out[:end])
				if s >= end {
					return nil, r.errNear(k)
				}
				which := "'first'"
				if r.toks[k+1].is(r.src, "LAST") {
					which = "'last'"
				}
				expr := out[s:end]
				b := newComposite(expr[0].lead)
				b.add("pg__nulls(", expr[0].firstOrig())
				b.addItems(expr, true)
				b.add(", "+which+")", t.start)
				items := []item{b.it}
				if dirItem != nil {
					items = append(items, *dirItem)
				}
				out = append(out[:s], items...)
				k += 2
				continue
			case (w == "LIKE" || w == "ILIKE") && k+2 < j && len(out) > 0 && r.quantifierAt(k+1):
				// x LIKE ANY (..): the ANY case above takes the operator
				out = append(out, r.simple(t))
				k++
				continue
			case (w == "LIKE" || w == "ILIKE") && k+1 < j && len(out) > 0 && r.likeEscapeExprAt(k+1, j):
				// x LIKE p ESCAPE e, e no string constant: TiDB's ESCAPE
				// takes one; PostgreSQL's is x ~~ like_escape(p, e)
				pat, e, err := r.similarOperand(k+1, j)
				if err != nil {
					return nil, err
				}
				if e+1 >= j || !r.toks[e].is(r.src, "ESCAPE") {
					return nil, r.errNear(e) // the pattern ends before ESCAPE
				}
				esc, ee, err := r.similarOperand(e+1, j)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(r.toks[k+1]))
				b.add("like_escape(", r.toks[k+1].start)
				b.addItems(pat, true)
				b.add(", ", r.toks[e].start)
				b.addItems(esc, true)
				b.add(")", r.toks[ee-1].end)
				out = append(out, r.simple(t), b.it)
				k = ee
				continue
			case (w == "LIKE" || w == "ILIKE") && k+1 < j && len(out) > 0:
				// x LIKE a || b: the pattern parenthesised (pipes.go)
				it, e, ok, err := r.patternOperand(k+1, j, false)
				if err != nil {
					return nil, err
				}
				if ok {
					out = append(out, r.simple(t), it)
					k = e
					continue
				}
				out = append(out, r.simple(t))
				k++
				continue
			case (w == "LIMIT" || w == "OFFSET" || w == "FETCH") && len(out) > 0 && k >= r.tidbTailEnd:
				// a query's LIMIT / OFFSET / FETCH tail: limit.go
				lt, err := r.parseLimitTail(k, j)
				if err != nil {
					return nil, err
				}
				if !lt.tidb {
					it, err := r.limitTailItem(out, k, lt)
					if err != nil {
						return nil, err
					}
					out = append(out, it)
					k = lt.end
					continue
				}
				r.tidbTailEnd = lt.end // its OFFSET is TiDB's too
				out = append(out, r.simple(t))
				k++
				continue
			case w == "DISTINCT" && k+2 < j && r.toks[k+1].is(r.src, "ON") && r.toks[k+2].isPunct(r.src, "(") &&
				len(out) > 0 && !out[len(out)-1].composite && out[len(out)-1].tok.is(r.src, "SELECT"):
				// SELECT DISTINCT ON (e, ...) list -> SELECT pg__distinct_on(e, ...), list:
				// TiDB has no DISTINCT ON; the binder takes the marker column back out.
				m := r.matchClose(k+2, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				inner, err := r.run(k+3, m)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__distinct_on(", t.start)
				b.addItems(inner, true)
				b.add("),", r.toks[m].start)
				out = append(out, b.it)
				k = m + 1
				continue
			case w == "FILTER" && k+2 < j && r.toks[k+1].isPunct(r.src, "(") && r.toks[k+2].is(r.src, "WHERE") &&
				len(out) > 0 && (r.itemIs(out[len(out)-1], ")") || out[len(out)-1].composite):
				// agg(args) FILTER (WHERE cond) -> pg__filter(agg(args), cond)
				// (a composite: an ordered aggregate, see aggorder.go):
				// TiDB has no FILTER clause; the binder turns the wrapper back
				// into the aggregate's FILTER.
				s := r.primaryStart(out)
				if s < 0 {
					return nil, r.errNear(k)
				}
				m := r.matchClose(k+1, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				cond, err := r.run(k+3, m)
				if err != nil {
					return nil, err
				}
				b := newComposite(out[s].lead)
				b.add("pg__filter(", out[s].firstOrig())
				b.addItems(out[s:], true)
				b.add(", ", t.start)
				b.addItems(cond, true)
				b.add(")", r.toks[m].start)
				out = append(out[:s], b.it)
				k = m + 1
				continue
			case (w == "VARIANCE" || w == "STDDEV") && k+1 < j && r.toks[k+1].isPunct(r.src, "(") && (len(out) == 0 || !r.itemIs(out[len(out)-1], ".")) &&
				!r.startsMultiArgAggregate(k, j) && !(k+2 < j && r.toks[k+2].is(r.src, "DISTINCT") && r.startsDistinctAggregate(k, j)) &&
				!r.startsOrderedAggregate(k, j): // stddev(x ORDER BY y): aggorder.go, as any aggregate
				// (with several arguments: group_concat's marker, aggorder.go)
				// TiDB reads VARIANCE( and STDDEV( as MySQL's var_pop and
				// stddev_pop; PostgreSQL's are the sample's. The binder
				// labels pg__variance "variance" (pg__stddev "stddev");
				// with DISTINCT or as a window function only TiDB's own
				// aggregate syntax parses, so they become var_samp and
				// stddev_samp there.
				name, samp := "pg__variance", "var_samp"
				if w == "STDDEV" {
					name, samp = "pg__stddev", "stddev_samp"
				}
				if m := r.matchClose(k+1, j); k+2 < j && r.toks[k+2].is(r.src, "DISTINCT") || m > 0 && m+1 < j && r.toks[m+1].is(r.src, "OVER") {
					name = samp
				}
				out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: name, orig: t.start}}})
				k++
				continue
			case w == "ROW" && r.isRowConstructor(out, k, j):
				out = append(out, r.rowConstructor(k))
				k++
				continue
			case w == "MAP" && r.isMapConstructor(out, k, j):
				it, next, err := r.mapConstructor(k, j)
				if err != nil {
					return nil, err
				}
				out = append(out, it)
				k = next
				continue
			case w == "ARRAY" && k+1 < j && r.toks[k+1].isPunct(r.src, "["):
				m := r.matchClose(k+1, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				r.arrayDepth++
				inner, err := r.run(k+2, m)
				r.arrayDepth--
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__array(", t.start)
				b.addItems(inner, true)
				b.add(")", r.toks[m].start)
				out = append(out, b.it)
				k = m + 1
				continue
			case w == "IS" && k+2 < j && r.toks[k+1].is(r.src, "DISTINCT") && r.toks[k+2].is(r.src, "FROM"):
				// a IS DISTINCT FROM b -> NOT a <=> b. MySQL's NOT binds
				// looser than <=> and tighter than AND, so the NOT covers
				// exactly the comparison; the left operand extends back to
				// the nearest keyword of lower precedence than IS.
				s := r.isLevelStart(out)
				if s >= len(out) {
					return nil, r.errNear(k)
				}
				not := item{composite: true, lead: out[s].lead, pieces: []piece{{text: "not ", orig: t.start}}}
				out[s].lead = nil
				out = append(out, item{})
				copy(out[s+1:], out[s:])
				out[s] = not
				out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: "<=>", orig: t.start}}})
				k += 3
				var err error
				if out, k, err = r.distinctRight(out, k, j); err != nil { // closedforms.go
					return nil, err
				}
				continue
			case w == "IS" && k+3 < j && r.toks[k+1].is(r.src, "NOT") && r.toks[k+2].is(r.src, "DISTINCT") && r.toks[k+3].is(r.src, "FROM"):
				out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: "<=>", orig: t.start}}})
				k += 4
				var err error
				if out, k, err = r.distinctRight(out, k, j); err != nil { // closedforms.go
					return nil, err
				}
				continue
			case w == "NORMALIZE" && k+1 < j && r.toks[k+1].isPunct(r.src, "(") && r.normalizeFormArgAt(k, j) > 0:
				// normalize(x, NFC): the form is a keyword in PostgreSQL's
				// grammar; the function takes it as text (normalize.go)
				m := r.normalizeFormArgAt(k, j)
				arg, err := r.run(k+2, m-2)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("normalize(", t.start)
				b.addItems(arg, true)
				b.add(", "+sqlQuote(r.bareWord(r.toks[m-1]))+")", r.toks[m-1].start)
				out = append(out, b.it)
				k = m + 1
				continue
			case w == "IS" && r.unknownTestAt(k, j) > 0:
				// x IS [NOT] UNKNOWN -> pg__is_[not_]unknown(x): TiDB's
				// grammar makes IS NULL of it, which takes any type, where
				// PostgreSQL's BooleanTest takes a boolean (closedforms.go;
				// the left operand extends back as IS DISTINCT FROM's does)
				n := r.unknownTestAt(k, j)
				s := r.isLevelStart(out)
				if s >= len(out) {
					return nil, r.errNear(k)
				}
				b := newComposite(out[s].lead)
				b.add(map[bool]string{false: "pg__is_unknown(", true: "pg__is_not_unknown("}[n == 3], out[s].firstOrig())
				b.addItems(out[s:], true)
				b.add(")", r.toks[k+n-1].end)
				out = append(out[:s], b.it)
				k += n
				continue
			case w == "IS" && r.normalizedAt(k, j) > 0:
				// x IS [NOT] [NFC|NFD|NFKC|NFKD] NORMALIZED ->
				// [NOT] is_normalized(x, 'NFC'): the left operand extends
				// back as IS DISTINCT FROM's does
				n := r.normalizedAt(k, j)
				s := r.exprStart(out)
				if s >= len(out) {
					return nil, r.errNear(k)
				}
				not := r.toks[k+1].is(r.src, "NOT")
				form := "NFC"
				if f := r.bareWord(r.toks[k+n-2]); normalFormWords[f] {
					form = f
				}
				b := newComposite(out[s].lead)
				if not {
					b.add("not ", t.start)
				}
				b.add("is_normalized(", t.start)
				b.addItems(out[s:], true)
				b.add(", "+sqlQuote(form)+")", t.start)
				out = append(out[:s], b.it)
				k += n
				continue
			case w == "SIMILAR" && k+1 < j && r.toks[k+1].is(r.src, "TO"):
				// x [NOT] SIMILAR TO p [ESCAPE e]: similar.go
				var err error
				if out, k, err = r.similarTo(out, k, j); err != nil {
					return nil, err
				}
				continue
			case (w == "SUBSTRING" || w == "OVERLAY") && k+1 < j && r.toks[k+1].isPunct(r.src, "("):
				// substring(x SIMILAR p ESCAPE e), overlay(x PLACING y FROM n [FOR m]): similar.go
				if w == "SUBSTRING" {
					// substring(x [FROM n] FOR m), substring(x FOR m FROM n)
					it, m, ok, err := r.substringFor(k, j) // similar.go
					if err != nil {
						return nil, err
					}
					if ok {
						out = append(out, it)
						k = m + 1
						continue
					}
				}
				kw, more, wrap := "SIMILAR", []string{"ESCAPE"}, "pg__cast"
				if w == "OVERLAY" {
					kw, more, wrap = "PLACING", []string{"FROM", "FOR"}, ""
				}
				if m, q, ok := r.keywordArgsAt(k, j, w, kw); ok {
					it, err := r.keywordCall(k, m, q, strings.ToLower(w), more, wrap)
					if err != nil {
						return nil, err
					}
					out = append(out, it)
					k = m + 1
					continue
				}
			case (w == "LAG" || w == "LEAD") && k+1 < j:
				// lag/lead with an offset TiDB cannot parse: lagoffset.go
				if m, commas, ok := r.lagOffsetAt(k, j); ok {
					it, err := r.lagOffset(k, m, commas)
					if err != nil {
						return nil, err
					}
					out = append(out, it)
					k = m + 1
					continue
				}
			case w == "WITHIN":
				// f(args) WITHIN GROUP (ORDER BY ..): withingroup.go
				if _, _, ok := r.withinGroupAt(out, k, j); ok {
					var err error
					if out, k, err = r.withinGroup(out, k, j); err != nil {
						return nil, err
					}
					continue
				}
			case r.startsOrderedAggregate(k, j):
				items, nk, err := r.orderedAggregate(k, j)
				if err != nil {
					return nil, err
				}
				out = append(r.dropCatalogQualifier(out, k), items...)
				k = nk
				continue
			case w != "" && k+2 < j && r.toks[k+2].is(r.src, "DISTINCT") && r.startsDistinctAggregate(k, j),
				tidbOneArgAggregates[w] && r.startsMultiArgAggregate(k, j):
				m, ok := r.distinctAggregateAt(k, j)
				if !ok {
					m, _ = r.multiArgAggregateAt(k, j)
				}
				items, nk, err := r.distinctAggregate(k, m)
				if err != nil {
					return nil, err
				}
				out = append(out, items...)
				k = nk
				continue
			case (w == "FULL" || w == "NATURAL") && r.startsFullJoin(k, j):
				next, natural, _ := r.isFullJoinAt(k, j)
				items, nk, err := r.fullJoin(k, next, j, natural)
				if err != nil {
					return nil, err
				}
				out = append(out, items...)
				k = nk
				continue
			case w == "AS" && k+1 < j && r.toks[k+1].kind == tkIdent && r.isLabelAfterAS(k+1, j):
				// A column or table label: PostgreSQL accepts any keyword
				// after AS (AS default, AS key, AS schema, AS table, AS
				// update: catalog queries of BI tools use them), TiDB only
				// non-reserved words, so the label goes quoted (folded to
				// lower case first, as PostgreSQL folds it).
				out = append(out, r.simple(t))
				lt := r.toks[k+1]
				out = append(out, item{tok: lt, lead: r.leadOf(lt), pieces: []piece{{text: `"` + foldASCII(r.src[lt.start:lt.end]) + `"`, orig: lt.start}}})
				k += 2
				continue
			case w == "EXTRACT" && k+3 < j && r.toks[k+1].isPunct(r.src, "(") &&
				(r.toks[k+2].kind == tkIdent || r.toks[k+2].kind == tkString) && r.toks[k+3].is(r.src, "FROM"):
				// EXTRACT(field FROM x) -> pg__extract('field', x): TiDB's
				// EXTRACT knows MySQL's units only (no dow, doy, epoch,
				// isodow, century, ...); the binder calls extract(text, x).
				m := r.matchClose(k+1, j)
				if m < 0 {
					return nil, r.errNear(j)
				}
				field := strings.ToLower(r.toks[k+2].text(r.src))
				if r.toks[k+2].kind == tkString {
					field = strings.ToLower(unquoteString(r.toks[k+2].text(r.src)))
				}
				arg, err := r.run(k+4, m)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__extract("+sqlQuote(field)+", ", t.start)
				b.addItems(arg, true)
				b.add(")", r.toks[m].start)
				out = append(out, b.it)
				k = m + 1
				continue
			case w == "POSITION" && k+1 < j && r.toks[k+1].isPunct(r.src, "(") && r.positionIn(k+1, j) > 0:
				// position(x IN y) is strpos(y, x): TiDB keeps the
				// operands in written order (and its POSITION takes no
				// comma form), PostgreSQL's function takes the string first.
				open := k + 1
				m := r.matchClose(open, j)
				in := r.positionIn(open, j)
				needle, err := r.run(open+1, in)
				if err != nil {
					return nil, err
				}
				hay, err := r.run(in+1, m)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("pg__position(", t.start)
				b.addItems(hay, true)
				b.add(", ", r.toks[in].start)
				b.addItems(needle, true)
				b.add(")", r.toks[m].start)
				out = append(out, b.it)
				k = m + 1
				continue
			case (w == "INNER" || w == "OUTER") && len(out) > 0 && !out[len(out)-1].composite &&
				(out[len(out)-1].tok.is(r.src, "NATURAL") || w == "OUTER" && len(out) > 1 && !out[len(out)-2].composite && out[len(out)-2].tok.is(r.src, "NATURAL")):
				// NATURAL INNER JOIN, NATURAL LEFT OUTER JOIN: TiDB's
				// grammar has NATURAL [LEFT|RIGHT] JOIN only, the same joins
				k++
				continue
			case w == "NOT" && len(out) > 0 && k+1 < j && r.afterOperator(out):
				// x = NOT y: a prefix NOT as an operator's right operand,
				// which TiDB's grammar takes only parenthesised; its
				// operand reaches to the next AND or OR (closedforms.go)
				e := r.notOperandEnd(k+1, j)
				inner, err := r.run(k, e)
				if err != nil {
					return nil, err
				}
				b := newComposite(r.leadOf(t))
				b.add("(", t.start)
				b.addItems(inner, true)
				b.add(")", r.toks[e-1].end)
				out = append(out, b.it)
				k = e
				continue
			case (w == "ISNULL" || w == "NOTNULL") && len(out) > 0 && r.isOperand(out[len(out)-1]):
				// PostgreSQL's postfix x ISNULL / x NOTNULL are x IS [NOT] NULL
				kw := "is null"
				if w == "NOTNULL" {
					kw = "is not null"
				}
				out = append(out, item{tok: t, lead: r.leadOf(t), pieces: []piece{{text: kw, orig: t.start}}})
				k++
				continue
			case w == "ALL" && len(out) >= 2 && r.itemIs(out[len(out)-1], "(") && r.isCallName(out[len(out)-2]) &&
				k+1 < j && !r.toks[k+1].isPunct(r.src, ")") && !r.toks[k+1].isPunct(r.src, ","):
				// agg(ALL x) is agg(x): ALL is the default set quantifier,
				// and TiDB's grammar knows it for none of its aggregates
				k++
				continue
			case w == "OVERLAPS" && len(out) > 0 && r.itemIs(out[len(out)-1], ")"):
				// (s1, e1) OVERLAPS (s2, e2) -> overlaps(s1, e1, s2, e2)
				// (functions/overlaps.go): each side is a row of two,
				// written with or without ROW
				m, err := r.overlapsAt(out, k, j)
				if err != nil {
					return nil, err
				}
				if m.end > 0 {
					right, err := r.run(m.rightOpen+1, m.end-1)
					if err != nil {
						return nil, err
					}
					// the call's place is the OVERLAPS word, where
					// PostgreSQL reports a missing overlaps function
					b := newComposite(out[m.leftStart].lead)
					b.add("overlaps(", t.start)
					b.addItems(out[m.leftOpen+1:len(out)-1], true)
					b.add(", ", t.start)
					b.addItems(right, true)
					b.add(")", r.toks[m.end-1].end)
					out = append(out[:m.leftStart], b.it)
					k = m.end
					continue
				}
			case w == "AT" && k+2 < j && r.toks[k+1].is(r.src, "TIME") && r.toks[k+2].is(r.src, "ZONE"):
				// x AT TIME ZONE z -> timezone(z, x), PostgreSQL's own
				// meaning. AT binds tighter than every binary operator, so
				// both operands are primaries (with their casts).
				s := r.primaryStart(out)
				if s < 0 {
					return nil, r.errNear(k)
				}
				if k+3 >= j {
					return nil, r.errNear(j)
				}
				e, err := r.primaryEnd(k+3, j)
				if err != nil {
					return nil, err
				}
				zone, err := r.run(k+3, e)
				if err != nil {
					return nil, err
				}
				b := newComposite(out[s].lead)
				b.add("timezone(", out[s].firstOrig())
				b.addItems(zone, true)
				b.add(", ", t.start)
				b.addItems(out[s:], true)
				b.add(")", r.toks[e-1].end)
				out = append(out[:s], b.it)
				k = e
				continue
			}
		}
		it := r.simple(t)
		if t.kind == tkPunct && len(out) > 0 && t.lead < t.start && text == "(" && r.isCallName(out[len(out)-1]) &&
			tidbBuiltinTokens[r.emittedWord(out[len(out)-1])] && !r.namesRelation(out[:len(out)-1]) {
			// count (x) is count(x): TiDB's lexer (MySQL without
			// IGNORE_SPACE) takes these names as its builtins only when
			// "(" follows at once, and parses count (*) or sum (ALL x) as
			// an unknown call otherwise; PostgreSQL allows any whitespace.
			it.lead = nil
		}
		out = append(out, it)
		k++
	}
	if j == len(r.toks) && r.emptySelectList(out) { // SELECT alone: one row of no columns
		b := newComposite(nil)
		b.add(" pg__nocols()", len(r.src))
		out = append(out, b.it)
	}
	if len(out) < len(before) { // a rule took a word of before as its operand
		return nil, r.errNear(i)
	}
	return out[len(before):], nil
}

// emptyListEnd are the words that end a select list: standing right after
// SELECT (or SELECT ALL), the list is empty.
var emptyListEnd = map[string]bool{
	"FROM": true, "WHERE": true, "GROUP": true, "HAVING": true, "ORDER": true, "LIMIT": true, "OFFSET": true,
	"UNION": true, "INTERSECT": true, "EXCEPT": true, "WINDOW": true, "FETCH": true, "FOR": true, "INTO": true,
}

// emptySelectList reports whether out ends with SELECT or SELECT ALL (as
// written, not a rewritten composite).
func (r *rewriter) emptySelectList(out []item) bool {
	n := len(out)
	if n > 0 && !out[n-1].composite && out[n-1].tok.is(r.src, "ALL") { // not DISTINCT: PostgreSQL's syntax error
		n--
	}
	if n == 0 || out[n-1].composite || !out[n-1].tok.is(r.src, "SELECT") {
		return false
	}
	return n == 1 || out[n-2].composite || !out[n-2].tok.is(r.src, "AS") // SELECT 1 AS select: a label
}

// emittedWord is the word an item hands TiDB, upper-cased: the name the
// rewrite put in its place (stddev becomes stddev_samp before DISTINCT,
// one of TiDB's builtins), else the token as written.
func (r *rewriter) emittedWord(it item) string {
	if len(it.pieces) == 1 {
		return strings.ToUpper(it.pieces[0].text)
	}
	return it.tok.word(r.src)
}

// namesRelation reports whether the word after out names a table, a view or
// a CTE rather than a function: after CREATE TABLE, INSERT INTO, COPY and
// the like, "mid (id INT)" or "count (a, b)" is a name with its column list,
// and gluing its "(" would make TiDB read a builtin call.
func (r *rewriter) namesRelation(out []item) bool {
	if len(out) == 0 {
		return false
	}
	prev := out[len(out)-1]
	return !prev.composite && prev.tok.kind == tkIdent && relationIntroducers[prev.tok.word(r.src)]
}

// relationIntroducers are the words after which a name followed by "("
// is a relation with a column list, never a call.
var relationIntroducers = map[string]bool{"TABLE": true, "INTO": true, "EXISTS": true, "VIEW": true,
	"REFERENCES": true, "COPY": true, "ONLY": true, "RECURSIVE": true, "WITH": true, "TRUNCATE": true}

// tidbBuiltinTokens are the names TiDB's lexer turns into builtin tokens
// when "(" follows without whitespace (btFuncTokenMap in its misc.go).
var tidbBuiltinTokens = map[string]bool{
	"BIT_AND": true, "BIT_OR": true, "BIT_XOR": true, "CAST": true, "COUNT": true,
	"APPROX_COUNT_DISTINCT": true, "APPROX_PERCENTILE": true, "CURDATE": true, "CURTIME": true,
	"DATE_ADD": true, "DATE_SUB": true, "EXTRACT": true, "GROUP_CONCAT": true, "MAX": true,
	"MID": true, "MIN": true, "NOW": true, "POSITION": true, "STD": true,
	"STDDEV_POP": true, "STDDEV_SAMP": true, "SUBSTR": true, "SUBSTRING": true, "SUM": true,
	"SYSDATE": true, "TRANSLATE": true, "TRIM": true, "VAR_POP": true, "VAR_SAMP": true,
}

// asFollowers are the words after AS that may start something else than a
// label: a query (CREATE TABLE ... AS SELECT, AS TABLE t), a CTE's
// [NOT] MATERIALIZED.
var asFollowers = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true,
	"NOT": true, "MATERIALIZED": true}

// isLabelAfterAS reports whether the word at k (after AS) is a label: not
// followed by "(" (a CTE body, a column alias list), and, for the words of
// asFollowers, followed by what ends a select item (",", ")", FROM, the
// end).
func (r *rewriter) isLabelAfterAS(k, j int) bool {
	next := k + 1
	if next < j && r.toks[next].isPunct(r.src, "(") {
		return false
	}
	if !asFollowers[r.toks[k].word(r.src)] {
		return true
	}
	return next >= j || r.toks[next].isPunct(r.src, ",") || r.toks[next].isPunct(r.src, ")") || r.toks[next].is(r.src, "FROM")
}

// positionIn returns the index of the IN at the top level of the
// parenthesised list opening at open (position(x IN y)), or -1.
func (r *rewriter) positionIn(open, j int) int {
	m := r.matchClose(open, j)
	if m < 0 {
		return -1
	}
	depth := 0
	for k := open + 1; k < m; k++ {
		switch {
		case r.toks[k].isPunct(r.src, "("):
			depth++
		case r.toks[k].isPunct(r.src, ")"):
			depth--
		case depth == 0 && r.toks[k].is(r.src, "IN"):
			return k
		}
	}
	return -1
}

// normalizeTokens replaces OPERATOR(schema.op) by the bare operator and
// removes the COLLATE clauses of a statement's types (a column's, a
// domain's: sqlgate's collations all compare bytewise, and
// columnCollations keeps a column's for the catalog); a COLLATE clause
// of an expression stays, for the rewrite's pg__collate marker
// (collations.go: exprCollateFrom).
func normalizeTokens(src string, toks []token) ([]token, error) {
	var out []token
	exprFrom := exprCollateFrom(src, toks)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.is(src, "OPERATOR") && i+1 < len(toks) && toks[i+1].isPunct(src, "(") {
			j := i + 2
			for j+1 < len(toks) && (toks[j].kind == tkIdent || toks[j].kind == tkQIdent) && toks[j+1].isPunct(src, ".") {
				j += 2
			}
			var op strings.Builder
			for j < len(toks) && toks[j].kind == tkOp {
				op.WriteString(toks[j].text(src))
				j++
			}
			if op.Len() == 0 || j >= len(toks) || !toks[j].isPunct(src, ")") {
				return nil, syntaxErrorAt(src, toks, j)
			}
			if out == nil {
				out = append(make([]token, 0, len(toks)), toks[:i]...)
			}
			out = append(out, token{kind: tkOp, start: t.start, end: toks[j].end, lead: t.lead, hasComment: t.hasComment, synth: op.String()})
			i = j
			continue
		}
		if t.is(src, "COLLATE") && i < exprFrom && collateClauseAt(src, toks, i) && !alterTypeCollate(src, toks, i) {
			j := i + 1
			name := ""
			for j < len(toks) {
				switch toks[j].kind {
				case tkIdent:
					name = strings.ToLower(toks[j].text(src))
				case tkQIdent:
					name = unquoteIdent(toks[j].text(src))
				default:
					return nil, syntaxErrorAt(src, toks, j)
				}
				j++
				if j+1 < len(toks) && toks[j].isPunct(src, ".") {
					j++
					continue
				}
				break
			}
			if !knownCollation(name) {
				return nil, sqlerr.New(sqlerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", name).WithPosition(charPos(src, t.start))
			}
			if out == nil {
				out = append(make([]token, 0, len(toks)), toks[:i]...)
			}
			i = j - 1
			continue
		}
		if out != nil {
			out = append(out, t)
		}
	}
	if out == nil {
		return toks, nil
	}
	return out, nil
}

// collateClauseAt reports whether the COLLATE at toks[i] starts a COLLATE
// clause: after an operand and before a name. Elsewhere the word is a name
// (t.collate) or a misplaced keyword, for quoteNames to judge.
func collateClauseAt(src string, toks []token, i int) bool {
	if i == 0 || i+1 >= len(toks) || toks[i+1].kind != tkIdent && toks[i+1].kind != tkQIdent {
		return false
	}
	p := toks[i-1]
	switch p.kind {
	case tkPunct:
		return p.isPunct(src, ")") || p.isPunct(src, "]")
	case tkIdent:
		w := p.word(src)
		return nameWords[w].cat != kwReserved || valueKeywords[w]
	}
	return p.kind != tkOp
}

// syntaxErrorAt is PostgreSQL's syntax error at toks[i] (or end of input).
func syntaxErrorAt(src string, toks []token, i int) error {
	if i >= len(toks) {
		return sqlerr.New(sqlerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(src, len(src)))
	}
	t := toks[i]
	return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(t.text(src))).WithPosition(charPos(src, t.start))
}

// segment records where a piece landed in the rewritten text.
type segment struct {
	rw, orig, n int
	verbatim    bool
}

// emit concatenates items into the rewritten text, its offset map and the
// $n numbers of the markers in textual order. It appends to marks (and
// returns) where the rewritten text's tokens lie, for the fast path
// (fasttoks.go): a copied token's place and lexical facts, a marker's
// place, and each run of other text the rewrite wrote.
func emit(out []item, marks []rwMark) (string, []segment, []int, []rwMark) {
	var b strings.Builder
	size := 0
	for i := range out {
		size += out[i].textSize()
	}
	b.Grow(size)
	segs := make([]segment, 0, 2*len(out)+8)
	var params []int
	marks = marks[:0]
	lastCopied := false // the last piece written copies a token
	add := func(p piece, lead bool) {
		if p.text == "" {
			return
		}
		if !lead && b.Len() > 0 && (p.kind == 0 || !lastCopied) && wordish(b.String()[b.Len()-1]) && wordish(p.text[0]) {
			// a word the rewrite wrote (x ~ y's regexp) right after a
			// word or number, or one right after it: apart, or TiDB (and
			// the fast path) would read one word
			segs = append(segs, segment{rw: b.Len(), orig: p.orig, n: 1})
			b.WriteByte(' ')
		}
		lastCopied = !lead && p.kind != 0
		rw := b.Len()
		segs = append(segs, segment{rw: rw, orig: p.orig, n: len(p.text), verbatim: p.verbatim})
		b.WriteString(p.text)
		end := b.Len()
		switch {
		case lead: // whitespace (leadPiece)
		case p.param > 0:
			params = append(params, p.param)
			marks = append(marks, rwMark{start: int32(rw), end: int32(end), mark: markParam})
		case p.kind != 0:
			marks = append(marks, rwMark{start: int32(rw), end: int32(end), mark: markToken, kind: p.kind, flags: p.flags, hash: p.hash})
		case len(marks) > 0 && marks[len(marks)-1].mark == markText && int(marks[len(marks)-1].end) == rw:
			marks[len(marks)-1].end = int32(end)
		default:
			marks = append(marks, rwMark{start: int32(rw), end: int32(end), mark: markText})
		}
	}
	var walk func(it *item, withLead bool)
	walk = func(it *item, withLead bool) {
		if withLead {
			for _, p := range it.lead {
				add(p, true)
			}
		}
		for _, p := range it.pieces {
			add(p, false)
		}
		for i := range it.parts {
			walk(&it.parts[i], true)
		}
	}
	for i := range out {
		walk(&out[i], i > 0)
	}
	return b.String(), segs, params, marks
}

// mapOffset maps a byte offset in the rewritten text back to the input.
func mapOffset(segs []segment, rw int, endOrig int) int {
	if len(segs) == 0 {
		return endOrig
	}
	last := segs[len(segs)-1]
	if rw >= last.rw+last.n {
		return endOrig
	}
	i := sort.Search(len(segs), func(i int) bool { return segs[i].rw > rw }) - 1
	if i < 0 {
		i = 0
	}
	s := segs[i]
	if s.verbatim && rw-s.rw < s.n && rw >= s.rw {
		return s.orig + (rw - s.rw)
	}
	return s.orig
}

// aliasedJoinAt returns the index of the ")" closing a parenthesised join
// that starts at k (a FROM item) and is followed by an alias, or -1.
func (r *rewriter) aliasedJoinAt(out []item, k, j int) int {
	if !r.toks[k].isPunct(r.src, "(") || k+1 >= j {
		return -1
	}
	if first := r.toks[k+1]; first.is(r.src, "SELECT") || first.is(r.src, "WITH") || first.is(r.src, "VALUES") || first.is(r.src, "TABLE") {
		return -1
	}
	m := r.matchClose(k, j)
	if m < 0 || m+1 >= j {
		return -1
	}
	next := r.toks[m+1]
	if !(next.is(r.src, "AS") || next.kind == tkQIdent || next.kind == tkIdent && !clauseEndWords[next.word(r.src)]) {
		return -1
	}
	// Asked last: fromItemHere walks back over the level, which for each
	// row of a long VALUES list (a "(" after a comma) made the rewrite
	// quadratic in the statement's length.
	n := len(out)
	if !r.fromItemHere(out) && !(n > 0 && r.itemIs(out[n-1], "(") && r.fromItemHere(out[:n-1])) { // ((a JOIN b) j JOIN c)
		return -1
	}
	for q := k + 1; q < m; q++ { // a JOIN at the top level of the parentheses
		switch tq := r.toks[q]; {
		case tq.isPunct(r.src, "("):
			if c := r.matchClose(q, m); c > q {
				q = c
			}
		case tq.is(r.src, "JOIN"):
			return m
		}
	}
	return -1
}

// normalFormWords are PostgreSQL's unicode_normal_form keywords.
var normalFormWords = map[string]bool{"NFC": true, "NFD": true, "NFKC": true, "NFKD": true}

// normalizeFormArgAt returns the ")" closing normalize( at k+1 when its
// last argument is a bare normal form word after a comma, else 0.
func (r *rewriter) normalizeFormArgAt(k, j int) int {
	m := r.matchClose(k+1, j)
	if m < k+5 || !normalFormWords[r.bareWord(r.toks[m-1])] || !r.toks[m-2].isPunct(r.src, ",") {
		return 0
	}
	return m
}

// bareWord is the upper-cased word a token was written as, also when the
// name pass (names.go) quoted it in place as a TiDB keyword; "" for a
// token written quoted or not a word.
func (r *rewriter) bareWord(t token) string {
	if t.kind == tkQIdent && t.inPlace && t.end > t.start && r.src[t.start] != '"' {
		return strings.ToUpper(r.src[t.start:t.end])
	}
	return t.word(r.src)
}

// normalizedAt returns how many tokens IS [NOT] [form] NORMALIZED at k
// spans, or 0.
func (r *rewriter) normalizedAt(k, j int) int {
	q := k + 1
	if q < j && r.toks[q].is(r.src, "NOT") {
		q++
	}
	if q < j && normalFormWords[r.bareWord(r.toks[q])] {
		q++
	}
	if q < j && r.bareWord(r.toks[q]) == "NORMALIZED" {
		return q + 1 - k
	}
	return 0
}

// overlapsMatch is where an OVERLAPS expression's two rows lie: the left
// one in the items already emitted (from leftStart, its ROW word or its
// "(", to the last item; leftOpen is its "("), the right one in tokens
// (its "(" at rightOpen, its ")" just before end). end is 0 when the
// words around OVERLAPS are no such rows.
type overlapsMatch struct {
	leftStart, leftOpen int
	rightOpen, end      int
}

// overlapsAt matches the rows around the OVERLAPS at token k. A row that
// is no pair is PostgreSQL's error: "wrong number of parameters" at the
// row's start (a parenthesised single value is no row, and is the syntax
// error at OVERLAPS that the grammar gives).
func (r *rewriter) overlapsAt(out []item, k, j int) (overlapsMatch, error) {
	var m overlapsMatch
	m.leftOpen = r.matchOpenItem(out, len(out)-1, "(", ")")
	if m.leftOpen < 0 {
		return m, nil
	}
	m.leftStart = m.leftOpen
	if m.leftOpen > 0 && !out[m.leftOpen-1].composite && out[m.leftOpen-1].tok.is(r.src, "ROW") {
		m.leftStart--
	}
	m.rightOpen = k + 1
	if m.rightOpen < j && r.toks[m.rightOpen].is(r.src, "ROW") {
		m.rightOpen++
	}
	if m.rightOpen >= j {
		return m, r.errNear(j)
	}
	if !r.toks[m.rightOpen].isPunct(r.src, "(") {
		return m, r.errNear(m.rightOpen)
	}
	closeAt := r.matchClose(m.rightOpen, j)
	if closeAt < 0 {
		return m, r.errNear(j)
	}
	left := r.topLevelItems(out[m.leftOpen+1 : len(out)-1])
	if left == 1 && m.leftStart == m.leftOpen {
		return m, r.errNear(k)
	}
	if left != 2 {
		return m, wrongOverlapsRow("left", r.src, out[m.leftStart].firstOrig())
	}
	if n := r.topLevelTokens(m.rightOpen+1, closeAt); n != 2 {
		return m, wrongOverlapsRow("right", r.src, r.toks[k+1].start)
	}
	m.end = closeAt + 1
	return m, nil
}

// topLevelItems counts the comma-separated values of items (0 when empty).
func (r *rewriter) topLevelItems(items []item) int {
	if len(items) == 0 {
		return 0
	}
	n, depth := 1, 0
	for _, it := range items {
		switch {
		case r.itemIs(it, "(") || r.itemIs(it, "["):
			depth++
		case r.itemIs(it, ")") || r.itemIs(it, "]"):
			depth--
		case depth == 0 && r.itemIs(it, ","):
			n++
		}
	}
	return n
}

// topLevelTokens counts the comma-separated values of tokens [i, e).
func (r *rewriter) topLevelTokens(i, e int) int {
	if i >= e {
		return 0
	}
	n := 1
	for ; i < e; i++ {
		if c := r.matchClose(i, e+1); c > i {
			i = c
			continue
		}
		if r.toks[i].isPunct(r.src, ",") {
			n++
		}
	}
	return n
}

// wrongOverlapsRow is PostgreSQL's error for an OVERLAPS side that is not
// a row of two values, at the row's start.
func wrongOverlapsRow(side, src string, at int) error {
	return sqlerr.New(sqlerr.SyntaxError, "wrong number of parameters on %s side of OVERLAPS expression", side).WithPosition(charPos(src, at))
}

// starItemAt reports whether the tokens at k ("." then "*") end an item
// name.* of a parenthesised list (before j): a name after "(" or ",",
// and ")" or "," after the "*" — what rowFieldStarAt and wholeRowArgAt
// then tell apart by what holds the list.
func (r *rewriter) starItemAt(k, j int) bool {
	if k < 2 || k+2 >= j || !r.toks[k+1].isPunct(r.src, "*") {
		return false
	}
	if next := r.toks[k+2]; !next.isPunct(r.src, ")") && !next.isPunct(r.src, ",") {
		return false
	}
	name := r.toks[k-1]
	if name.kind != tkIdent && name.kind != tkQIdent || name.kind == tkIdent && nonOperandWords[name.word(r.src)] {
		return false
	}
	before := r.toks[k-2]
	return before.isPunct(r.src, "(") || before.isPunct(r.src, ",")
}

// rowFieldStarAt reports whether the tokens at k ("." then "*") end an
// item alias.* of a row constructor: ROW(.., alias.*, ..) or a
// parenthesised list of two items or more ((alias.*, 1)), whose items
// alias.* expands into its columns.
func (r *rewriter) rowFieldStarAt(k, j int) bool {
	if !r.starItemAt(k, j) {
		return false
	}
	depth, commas := 0, 0
	for i := k - 2; i >= 0; i-- {
		switch t := r.toks[i]; {
		case t.isPunct(r.src, ")"):
			depth++
		case depth == 0 && t.isPunct(r.src, ","):
			commas++
		case t.isPunct(r.src, "("):
			if depth > 0 {
				depth--
				continue
			}
			if i > 0 && r.toks[i-1].is(r.src, "ROW") {
				return true
			}
			if i > 0 && (r.toks[i-1].kind == tkQIdent || r.toks[i-1].kind == tkIdent && !nonOperandWords[r.toks[i-1].word(r.src)]) {
				return false // a call's argument (wholeRowArgAt)
			}
			m := r.matchClose(i, j)
			if m < 0 {
				return false
			}
			for q := k + 2; q < m; q++ { // a comma after the item
				if t := r.toks[q]; t.isPunct(r.src, "(") || t.isPunct(r.src, "[") {
					if c := r.matchClose(q, m); c > q {
						q = c
					}
				} else if t.isPunct(r.src, ",") {
					commas++
				}
			}
			return commas > 0
		}
	}
	return false
}

// wholeRowArgAt reports whether the tokens at k ("." then "*") end an
// argument alias.* of a function call other than ROW(...), whose
// arguments alias.* expands into columns: the "." follows a name that
// follows the call's "(" or a ",", and ")" or "," follows the "*". It
// reads the tokens, whatever items the rewrite made of them.
func (r *rewriter) wholeRowArgAt(k, j int) bool {
	if !r.starItemAt(k, j) {
		return false
	}
	depth := 0
	for i := k - 2; i >= 0; i-- {
		switch t := r.toks[i]; {
		case t.isPunct(r.src, ")"):
			depth++
		case t.isPunct(r.src, "("):
			if depth > 0 {
				depth--
				continue
			}
			if i == 0 {
				return false
			}
			f := r.toks[i-1]
			return (f.kind == tkIdent && !nonOperandWords[f.word(r.src)] && f.word(r.src) != "ROW") || f.kind == tkQIdent
		}
	}
	return false
}

// isFieldSelect reports whether it is a field selection the rewrite made
// of (x).f (pg__field(...)), which a further .g selects from.
func isFieldSelect(it item) bool {
	return it.composite && len(it.parts) > 0 && len(it.parts[0].pieces) == 1 && it.parts[0].pieces[0].text == "pg__field("
}

// arrayStartsExpr reports whether an expression starts after prev (an
// operator, an opening bracket, a comma, or a keyword of arrayExprAfter), so
// that an ARRAY after it is array_expr's and not a type's ARRAY suffix
// (int ARRAY).
func arrayStartsExpr(src string, prev token) bool {
	switch prev.kind {
	case tkOp:
		return prev.text(src) != "::"
	case tkPunct:
		return prev.isPunct(src, "(") || prev.isPunct(src, ",") || prev.isPunct(src, "[")
	case tkIdent:
		if prev.synth != "" {
			return false
		}
		_, ok := lookupWord(src, prev, arrayExprAfter)
		return ok
	}
	return false
}

// arrayExprAfter are the keywords an expression follows (not FROM, where
// ARRAY is a FROM item's refused name: at the word).
var arrayExprAfter = map[string]bool{
	"SELECT": true, "WHERE": true, "AND": true, "OR": true, "NOT": true, "CASE": true, "WHEN": true, "THEN": true,
	"ELSE": true, "HAVING": true, "ON": true, "BY": true, "DISTINCT": true, "ALL": true, "LIMIT": true, "OFFSET": true,
	"RETURNING": true, "LIKE": true, "ILIKE": true,
}

// likeEscapeExprAt reports whether the LIKE pattern at s is followed by an
// ESCAPE whose operand is no lone string constant (ESCAPE '#'::text,
// ESCAPE e || 'x'), which TiDB's grammar cannot read.
func (r *rewriter) likeEscapeExprAt(s, j int) bool {
	// the pattern's extent as similarOperand reads it, without rewriting
	e := -1
	depth := 0
	for i := s; i < j; i++ {
		t := r.toks[i]
		if d := t.nesting(r.src); d != 0 {
			if depth += d; depth < 0 {
				return false
			}
			continue
		}
		if depth == 0 && t.is(r.src, "ESCAPE") {
			e = i
			break
		}
		if depth == 0 && t.kind == tkIdent && patternStops[t.word(r.src)] {
			return false
		}
	}
	if e < 0 || e+1 >= j {
		return false
	}
	lit := r.toks[e+1]
	if lit.kind != tkString && lit.kind != tkEString {
		return true
	}
	if e+2 >= j {
		return false
	}
	next := r.toks[e+2]
	return next.kind == tkOp || next.isPunct(r.src, "[")
}
