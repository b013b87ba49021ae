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
		st.refs = append(st.refs, w)
		eff, err := b.refWindow(st, w, overOffset(b.stmtText(), n.Offset))
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
func (b *binder) checkWindows(st *winState) error {
	for i, d := range st.defs {
		if _, err := b.windowDef(st, i); err != nil {
			return err
		}
		if err := b.bindWindowExprs(st, d); err != nil {
			return err
		}
	}
	for _, w := range st.refs {
		if _, err := b.refWindow(st, w, b.overOffsetOf(w)); err != nil {
			return err
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

// overOffsetOf finds the position of an OVER (w ..) spec's parenthesis:
// its offset is not recorded (TiDB keeps none for window specs), so the
// nth "OVER (w" in the text is taken.
func (b *binder) overOffsetOf(w *pt.Window) int {
	text := b.stmtText()
	re := regexp.MustCompile(`(?i)\bover\s*(\(\s*)` + regexp.QuoteMeta(w.Ref) + `\b`)
	if m := re.FindStringSubmatchIndex(text); m != nil {
		return m[2]
	}
	return 0
}

// windowDefOffset returns the offset of the parenthesis opening WINDOW
// definition i ("name AS (" in the text; the k-th such when earlier
// definitions share the name).
func (b *binder) windowDefOffset(st *winState, i int) int {
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
	depth := 0
	var quote byte
	for i := off; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0 && (c == 'o' || c == 'O') && i+4 <= len(text) && strings.EqualFold(text[i:i+4], "over") &&
			(i == 0 || !isIdentByte(text[i-1])) && (i+4 == len(text) || !isIdentByte(text[i+4])):
			j := i + 4
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			return j
		}
	}
	return off
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
