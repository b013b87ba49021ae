package binder

import (
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// FrameBound is one end of a window frame.
type FrameBound struct {
	// Kind: "unbounded preceding", "preceding", "current row", "following",
	// "unbounded following".
	Kind   string
	Offset int64
}

// Frame is a window frame (ROWS or RANGE).
type Frame struct {
	Rows       bool
	Start, End FrameBound
}

// WindowCall is one window function: Func over Args, per partition,
// ordered, over Frame (nil: PostgreSQL's default frame).
type WindowCall struct {
	Func      string
	Args      []Expr
	Partition []Expr
	Order     []SortKey
	Frame     *Frame
	T         types.T
}

// Window computes one window function over its input; its columns are the
// input's followed by the function's result.
type Window struct {
	Input Node
	Call  WindowCall
	cols  []Column
}

func (n *Window) Columns() []Column { return n.cols }
func (n *Window) Children() []Node  { return []Node{n.Input} }

// winState is the window binder's state while a SELECT list and ORDER BY
// with window functions are bound.
type winState struct {
	calls []WindowCall
	// bind binds an expression the way the select list is bound (over the
	// FROM columns, or the Aggregate node's, rebased).
	bind   func(pt.Expr) (Expr, error)
	inCall bool
	// defs are the SELECT's WINDOW clause definitions, in order; refs are
	// the OVER (w ..) specs that refine one of them, in the order they
	// were bound (PostgreSQL checks them after the definitions).
	defs []*pt.Window
	refs []windowRef
	// defOffsets are the offsets of the definitions' parentheses in the
	// statement's text (nil when the WINDOW clause was not found there).
	defOffsets []int
	// inDef: a window's PARTITION BY or ORDER BY is being bound.
	inDef bool
}

// winRef stands for window call Index until the Window nodes exist.
type winRef struct {
	Index int
	Name  string
	T     types.T
}

func (e *winRef) Type() types.T  { return e.T }
func (e *winRef) String() string { return e.Name }

var windowOnly = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
}

// bindWindowCall binds f(args) OVER (PARTITION BY ... ORDER BY ... frame).
func (b *binder) bindWindowCall(n *pt.FuncCall) (Expr, error) {
	st := b.win
	if st == nil {
		return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed here"))
	}
	if st.inDef {
		return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in window definitions"))
	}
	if st.inCall {
		return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window function calls cannot be nested"))
	}
	w, err := b.namedWindow(st, n)
	if err != nil {
		return nil, err
	}
	if n.Distinct {
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "DISTINCT is not implemented for window functions"))
	}
	st.inCall = true
	defer func() { st.inCall = false }()
	name := n.Name
	call := WindowCall{Func: name}
	star := name == "count" && len(n.Args) == 1 && isStarArg(n.Args[0])
	if !star {
		for _, a := range lagOffsetArgs(name, n.Args) {
			e, err := st.bind(a)
			if err != nil {
				return nil, err
			}
			call.Args = append(call.Args, b.resolveUnknown(e, types.StringType))
		}
	}
	st.inDef = true
	defer func() { st.inDef = false }()
	for _, p := range w.PartitionBy {
		e, err := st.bind(p)
		if err != nil {
			return nil, err
		}
		call.Partition = append(call.Partition, b.resolveUnknown(e, types.StringType))
	}
	for _, item := range w.OrderBy {
		e, err := st.bind(item.X)
		if err != nil {
			return nil, err
		}
		e = b.enumKey(e) // enums by declaration order (enumops.go)
		call.Order = append(call.Order, SortKey{Expr: b.resolveUnknown(e, types.StringType), Desc: item.Desc, NullsFirst: nullsFirst(item)})
	}
	st.inDef = false
	if f := w.Frame; f != nil {
		fr, err := bindFrame(f)
		if err != nil {
			return nil, err
		}
		call.Frame = fr
	}
	t, err := windowResultType(name, call.Args)
	if err != nil {
		return nil, b.errAt(n, sqlerr.As(err))
	}
	call.T = t
	st.calls = append(st.calls, call)
	return &winRef{Index: len(st.calls) - 1, Name: name, T: t}, nil
}

// bindFrame reads a frame whose offsets are non-negative integer
// constants (ROWS and RANGE; GROUPS is not there yet).
func bindFrame(f *pt.Frame) (*Frame, error) {
	if f.Groups {
		return nil, sqlerr.NotSupported("GROUPS frames")
	}
	bound := func(fb pt.FrameBound) (FrameBound, error) {
		switch fb.Kind {
		case "current row", "unbounded preceding", "unbounded following":
			return FrameBound{Kind: fb.Kind}, nil
		}
		l, ok := fb.Offset.(*pt.Literal)
		if !ok || l.Kind != pt.LitInt || l.Int < 0 {
			return FrameBound{}, sqlerr.NotSupported("frame offsets other than non-negative integer constants")
		}
		return FrameBound{Kind: fb.Kind, Offset: l.Int}, nil
	}
	start, err := bound(f.Start)
	if err != nil {
		return nil, err
	}
	end, err := bound(f.End)
	if err != nil {
		return nil, err
	}
	return &Frame{Rows: f.Rows, Start: start, End: end}, nil
}

// windowResultType gives PostgreSQL's result type of a window function.
func windowResultType(name string, args []Expr) (types.T, error) {
	switch name {
	case "row_number", "rank", "dense_rank":
		return types.Int64Type, nil
	case "ntile":
		return types.Int32Type, nil
	case "percent_rank", "cume_dist":
		return types.Float64Type, nil
	case "lag", "lead", "first_value", "last_value", "nth_value":
		if len(args) == 0 {
			return types.T{}, sqlerr.New(sqlerr.UndefinedFunction, "function %s() does not exist", name)
		}
		return args[0].Type().Nullable(), nil
	}
	var ts []types.T
	for _, a := range args {
		ts = append(ts, a.Type())
	}
	return aggResultType(name, ts)
}

// addWindows puts one Window node per call on top of input and returns the
// node; call k's result is column len(input.Columns()) + k.
func addWindows(input Node, calls []WindowCall) Node {
	n := input
	for _, c := range calls {
		cols := append(append([]Column{}, n.Columns()...), Column{Name: c.Func, T: c.T})
		n = &Window{Input: n, Call: c, cols: cols}
	}
	return n
}

// resolveWinRefs replaces window references by columns of the Window chain.
func resolveWinRefs(e Expr, base int) Expr {
	if w, ok := e.(*winRef); ok {
		return &ColumnRef{Index: base + w.Index, Name: w.Name, T: w.T}
	}
	out, _ := MapChildren(e, func(c Expr) (Expr, error) { return resolveWinRefs(c, base), nil })
	return out
}

// lagOffsetArgs undoes sql's rewrite of lag/lead with an offset TiDB
// cannot parse (sql/lagoffset.go): lag(pg__lag_offset(x, off), 1, d) is
// lag(x, off, d).
func lagOffsetArgs(name string, args []pt.Expr) []pt.Expr {
	if name != "lag" && name != "lead" || len(args) < 2 {
		return args
	}
	m, ok := args[0].(*pt.FuncCall)
	if !ok || m.Name != sql.LagOffsetMarker || len(m.Args) != 2 {
		return args
	}
	return append([]pt.Expr{m.Args[0], m.Args[1]}, args[2:]...)
}
