package binder

import (
	"regexp"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Named windows: SELECT .. WINDOW w AS (spec), OVER w and OVER (w ..), by
// PostgreSQL's rules (parse_clause.c transformWindowDefinitions and
// parse_agg.c transformWindowFuncCall): a definition or an OVER clause that
// names an earlier window copies its PARTITION BY (and may not add one),
// copies its ORDER BY unless it has one of its own (and may add one only if
// the named window has none), and may not copy a window with a frame
// clause; OVER w (no parentheses) takes w as it is, frame included.

// namedWindow returns the window call n is over, with the named window it
// refers to folded in.
func (b *binder) namedWindow(st *winState, n *pt.FuncCall) (*pt.Window, error) {
	w := n.Over
	switch {
	case w.OnlyName:
		// OVER w: looked up at once, as PostgreSQL does while it reads the
		// select list.
		i := findWindowDef(st.defs, w.Name, len(st.defs))
		if i < 0 {
			return nil, b.errAtOffset(overOffset(b.stmtText(), n.Offset), sqlerr.New(sqlerr.UndefinedObject, "window \"%s\" does not exist", w.Name))
		}
		eff, err := b.windowDef(st, i)
		if err != nil {
			return nil, b.firstWindowError(st, err)
		}
		return eff, nil
	case w.Ref != "":
		off := overOffset(b.stmtText(), n.Offset)
		st.refs = append(st.refs, windowRef{w, off})
		eff, err := b.refWindow(st, w, off)
		if err != nil {
			return nil, b.firstWindowError(st, err)
		}
		return eff, nil
	}
	return w, nil
}

// refWindow resolves OVER (w ..) against the WINDOW clause.
func (b *binder) refWindow(st *winState, w *pt.Window, off int) (*pt.Window, error) {
	i := findWindowDef(st.defs, w.Ref, len(st.defs))
	if i < 0 {
		return nil, b.errAtOffset(off, sqlerr.New(sqlerr.UndefinedObject, "window \"%s\" does not exist", w.Ref))
	}
	ref, err := b.windowDef(st, i)
	if err != nil {
		return nil, err
	}
	return b.refineWindow(ref, w, false, off)
}

// firstWindowError returns the error PostgreSQL reports first among the
// WINDOW clause's definitions (it checks them in order, after the select
// list), or err when they are all right.
func (b *binder) firstWindowError(st *winState, err error) error {
	for i := range st.defs {
		if _, e := b.windowDef(st, i); e != nil {
			return e
		}
	}
	return err
}

// findWindowDef returns the index of the first of defs[:limit] named name,
// or -1.
func findWindowDef(defs []*pt.Window, name string, limit int) int {
	for i, d := range defs[:limit] {
		if d.Name == name {
			return i
		}
	}
	return -1
}

// windowDef returns definition i of the WINDOW clause with the earlier
// definition it names folded in; a definition may only name an earlier one.
func (b *binder) windowDef(st *winState, i int) (*pt.Window, error) {
	d := st.defs[i]
	if findWindowDef(st.defs, d.Name, i) >= 0 {
		return nil, b.errAtOffset(b.windowDefOffset(st, i), sqlerr.New(sqlerr.WindowingError, "window \"%s\" is already defined", d.Name))
	}
	if d.Ref == "" {
		return d, nil
	}
	j := findWindowDef(st.defs, d.Ref, i)
	if j < 0 {
		return nil, b.errAtOffset(b.windowDefOffset(st, i), sqlerr.New(sqlerr.UndefinedObject, "window \"%s\" does not exist", d.Ref))
	}
	ref, err := b.windowDef(st, j)
	if err != nil {
		return nil, err
	}
	return b.refineWindow(ref, d, true, b.windowDefOffset(st, i))
}

// refineWindow folds ref, the window w names, into w (SQL:2008 7.11, as
// PostgreSQL applies it). def says w is a WINDOW clause definition.
func (b *binder) refineWindow(ref, w *pt.Window, def bool, off int) (*pt.Window, error) {
	if len(w.PartitionBy) > 0 {
		return nil, b.errAtOffset(off, sqlerr.New(sqlerr.WindowingError, "cannot override PARTITION BY clause of window \"%s\"", w.Ref))
	}
	if len(w.OrderBy) > 0 && len(ref.OrderBy) > 0 {
		return nil, b.errAtOffset(off, sqlerr.New(sqlerr.WindowingError, "cannot override ORDER BY clause of window \"%s\"", w.Ref))
	}
	if ref.Frame != nil {
		err := sqlerr.New(sqlerr.WindowingError, "cannot copy window \"%s\" because it has a frame clause", w.Ref)
		if !def && len(w.OrderBy) == 0 && w.Frame == nil {
			// OVER (w) differs from OVER w only in refusing w's frame
			err = err.WithHint("Omit the parentheses in this OVER clause.")
		}
		return nil, b.errAtOffset(off, err)
	}
	out := &pt.Window{At: w.At, Name: w.Name, PartitionBy: ref.PartitionBy, OrderBy: ref.OrderBy, Frame: w.Frame}
	if len(w.OrderBy) > 0 {
		out.OrderBy = w.OrderBy
	}
	return out, nil
}

// checkWindows checks the WINDOW clause after the select list, HAVING and
// ORDER BY are bound, as PostgreSQL does: every definition, used or not,
// in order (its expressions bound too), then the OVER (w ..) specs.
//
// The errors of the windows the calls use, kept till now
// (deferWindowError), come in the same order: a definition's after its
// own checks, an OVER (..) spec's after the definitions'.
func (b *binder) checkWindows(st *winState) error {
	deferred := func(key int) error {
		for _, d := range st.deferred {
			if d.key == key {
				return d.err
			}
		}
		return nil
	}
	for i, d := range st.defs {
		if _, err := b.windowDef(st, i); err != nil {
			return err
		}
		if err := b.bindWindowExprs(st, d); err != nil {
			return err
		}
		if err := deferred(i); err != nil {
			return err
		}
	}
	for _, r := range st.refs {
		if _, err := b.refWindow(st, r.w, r.off); err != nil {
			return err
		}
	}
	for _, d := range st.deferred {
		if d.key >= len(st.defs) {
			return d.err
		}
	}
	return nil
}

// bindWindowExprs binds the expressions of a definition no call may use,
// for the errors PostgreSQL reports about them (an unknown or ungrouped
// column).
func (b *binder) bindWindowExprs(st *winState, d *pt.Window) error {
	st.inDef = true // a window call in a window definition is refused
	defer func() { st.inDef = false }()
	// a set-returning call there is allowed (the windows' input runs it,
	// winState.srf): this check binds it into a state of its own
	prev := b.srf
	b.srf = &srfState{bind: st.bind}
	defer func() { b.srf = prev }()
	for _, p := range d.PartitionBy {
		if _, err := st.bind(p); err != nil {
			return err
		}
	}
	for _, o := range d.OrderBy {
		if _, err := st.bind(o.X); err != nil {
			return err
		}
	}
	return nil
}

// windowRef is an OVER (w ..) spec and the offset of its parenthesis.
type windowRef struct {
	w   *pt.Window
	off int
}

// windowDefOffset returns the offset of the parenthesis opening WINDOW
// definition i: found by windowClauseOffsets, or else the k-th "name AS ("
// in the text (k earlier definitions sharing the name).
func (b *binder) windowDefOffset(st *winState, i int) int {
	if i < len(st.defOffsets) {
		return st.defOffsets[i]
	}
	name := st.defs[i].Name
	k := 0
	for _, d := range st.defs[:i] {
		if d.Name == name {
			k++
		}
	}
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(name) + `\s+as\s*(\()`)
	ms := re.FindAllStringSubmatchIndex(b.stmtText(), -1)
	if k < len(ms) {
		return ms[k][2]
	}
	return 0
}

// overOffset returns the offset of what follows OVER in the window call
// starting at off: the window's name, or its parenthesis.
func overOffset(text string, off int) int {
	i := scanParens(text, off, func(i, depth int) bool {
		return depth == 0 && (text[i] == 'o' || text[i] == 'O') && i+4 <= len(text) && strings.EqualFold(text[i:i+4], "over") &&
			(i == 0 || !isIdentByte(text[i-1])) && (i+4 == len(text) || !isIdentByte(text[i+4]))
	})
	if i < 0 {
		return off
	}
	j := i + 4
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
		j++
	}
	return j
}

// scanParens visits the bytes of text from off on that stand outside
// quotes ('...' and "..."), each with the parenthesis depth counted from
// off up to and including it, and returns the offset where visit first
// answers true, -1 when it never does.
func scanParens(text string, off int, visit func(i, depth int) bool) int {
	depth := 0
	var quote byte
	for i := off; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
		if visit(i, depth) {
			return i
		}
	}
	return -1
}

// stmtText is the text positions are offsets into.
func (b *binder) stmtText() string {
	if b.stmt == nil {
		return ""
	}
	return b.stmt.Rewritten
}

// errAtOffset gives err the position of byte offset off of the text (none
// when off is 0: no position was found).
func (b *binder) errAtOffset(off int, err *sqlerr.Error) *sqlerr.Error {
	if b.stmt == nil || off <= 0 {
		return err
	}
	return err.WithPosition(b.stmt.Position(off))
}

// windowClauseOffsets returns the offsets of the parentheses of the n
// definitions of the WINDOW clause that follows offset start at the same
// parenthesis depth (TiDB records no offsets for window specs; start is
// the offset of a node of the same SELECT before its WINDOW clause), or
// nil when the text does not read as n definitions there.
func windowClauseOffsets(text string, start, n int) []int {
	depth := 0
	var quote byte
	i := start
	for ; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '(':
			depth++
			continue
		case c == ')':
			// start may stand inside parentheses of its own expression
			depth = max(depth-1, 0)
			continue
		}
		if depth == 0 && wordAt(text, i, "window") {
			break
		}
	}
	if i >= len(text) {
		return nil
	}
	i += len("window")
	skip := func() {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
			i++
		}
	}
	var offs []int
	for len(offs) < n {
		skip()
		if i < len(text) && text[i] == '"' {
			j := strings.IndexByte(text[i+1:], '"')
			if j < 0 {
				return nil
			}
			i += j + 2
		} else {
			for i < len(text) && isIdentByte(text[i]) {
				i++
			}
		}
		skip()
		if !wordAt(text, i, "as") {
			return nil
		}
		i += 2
		skip()
		if i >= len(text) || text[i] != '(' {
			return nil
		}
		offs = append(offs, i)
		d := 0
		for ; i < len(text); i++ {
			if text[i] == '(' {
				d++
			} else if text[i] == ')' {
				if d--; d == 0 {
					i++
					break
				}
			}
		}
		skip()
		if len(offs) < n {
			if i >= len(text) || text[i] != ',' {
				return nil
			}
			i++
		}
	}
	return offs
}

// wordAt reports whether text holds the keyword word (any case) as a whole
// word at i.
func wordAt(text string, i int, word string) bool {
	return i+len(word) <= len(text) && strings.EqualFold(text[i:i+len(word)], word) &&
		(i == 0 || !isIdentByte(text[i-1])) && (i+len(word) == len(text) || !isIdentByte(text[i+len(word)]))
}
