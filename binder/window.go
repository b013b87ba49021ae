package binder

import (
	"math"
	"slices"
	"strconv"
	"strings"

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

// Frame is a window frame: ROWS, RANGE, or GROUPS (Groups set, Rows not),
// with PostgreSQL's EXCLUDE: "" (NO OTHERS), "current row", "group" or
// "ties".
type Frame struct {
	Rows       bool
	Groups     bool
	Start, End FrameBound
	Exclude    string
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
	// Filter is an aggregate's FILTER (WHERE ..) condition (nil: none);
	// Arrays marks array_agg(anyarray), as AggCall.Arrays.
	Filter Expr
	Arrays bool
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

// Over is the window function call, computed over in (an input the
// optimiser narrowed, call's columns rewritten to its): in's columns
// followed by n's result column.
func (n *Window) Over(in Node, call WindowCall) *Window {
	cols := append(slices.Clone(in.Columns()), n.cols[len(n.cols)-1])
	return &Window{Input: in, Call: call, cols: cols}
}

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
	// srf holds the set-returning calls of the windows' PARTITION BY and
	// ORDER BY: PostgreSQL evaluates them in the windows' input (a
	// ProjectSet below them), where the SELECT list's own run above.
	srf *srfState
	// deferred are the errors of the windows calls use, which
	// checkWindows reports (deferWindowError)
	deferred []deferredWindowError
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
		if b.winPlace != "" {
			return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in %s", b.winPlace))
		}
		return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed here"))
	}
	if st.inDef {
		return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in window definitions"))
	}
	if st.inCall {
		return nil, b.errAt(n, sqlerr.New(sqlerr.WindowingError, "window function calls cannot be nested"))
	}
	name := n.Name
	switch {
	case n.WithinGroup:
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name))
	case !windowOnly[name] && !aggregateNames[aggName(name)]:
		return nil, b.notAggregateCall(st.bind, n)
	}
	switch name {
	case "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg":
		return b.bindJSONWindowCall(n)
	}
	st.inCall = true
	defer func() { st.inCall = false }()
	call := WindowCall{Func: name}
	star := name == "count" && len(n.Args) == 1 && isStarArg(n.Args[0])
	// raw are the arguments as bound, an untyped literal's type
	// "unknown" (the lookup's 42883 names it so)
	var raw []Expr
	// pending are corr's and its kin's untyped arguments, typed double
	// precision once the others are known to fit the one candidate
	// (float8, float8), as the plain aggregate's (aggregate.go)
	var pending []int
	argNodes := lagOffsetArgs(name, n.Args)
	if !star {
		for _, a := range argNodes {
			e, err := st.bind(a)
			if err != nil {
				return nil, err
			}
			raw = append(raw, e)
			if !windowOnly[name] {
				if pairStats(name) && isUnknown(e.Type()) {
					pending = append(pending, len(call.Args))
					call.Args = append(call.Args, e)
					continue
				}
				if e, err = b.windowAggregateArg(n, name, len(n.Args), len(call.Args), a, e); err != nil {
					return nil, err
				}
			}
			call.Args = append(call.Args, b.resolveUnknown(e, types.StringType))
		}
	}
	if n.Filter != nil {
		f, err := st.bind(n.Filter)
		if err != nil {
			return nil, err
		}
		if call.Filter, err = b.coerce(n.Filter, f, types.BoolType, "argument of FILTER"); err != nil {
			return nil, err
		}
	}
	if len(pending) > 0 {
		for _, a := range call.Args {
			if t := a.Type(); len(call.Args) != 2 || !isUnknown(t) && t.Kind != types.Float64 {
				return nil, b.errAt(n, undefinedCall(name, raw)) // corr(text, unknown)
			}
		}
		for _, i := range pending {
			e, err := b.windowAggregateArg(n, name, len(n.Args), i, argNodes[i], call.Args[i])
			if err != nil {
				return nil, err
			}
			call.Args[i] = b.resolveUnknown(e, types.StringType)
		}
	}
	// the function's lookup, then PostgreSQL's ParseFuncOrColumn's
	// refusals, once the arguments and FILTER are bound; the window is
	// looked up after them (transformWindowFuncCall)
	if windowOnly[name] {
		args, err := b.windowFuncArgs(n, argNodes, name, raw)
		if err != nil {
			return nil, err
		}
		call.Args = args
	}
	// min(anyarray) and max(anyarray) over a window: the frame's
	// array_agg, its least or greatest element picked on top, as the
	// plain aggregate's (aggregate.go bindArrayMinMax)
	arrayMinMax := (name == "min" || name == "max") && len(call.Args) == 1 && call.Args[0].Type().Kind == types.Array
	var enumArray *types.T
	if arrayMinMax && isEnumArray(call.Args[0].Type()) {
		at := call.Args[0].Type()
		enumArray = &at
		call.Args[0] = b.enumKey(call.Args[0]) // by rank (enumops.go)
	}
	t, err := windowResultType(name, call.Args)
	if arrayMinMax {
		call.Func, t, err = "array_agg", types.ArrayOf(call.Args[0].Type().Nullable()), nil
	}
	if err != nil {
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.UndefinedFunction {
			err = undefinedCall(name, raw)
		}
		return nil, b.errAt(n, sqlerr.As(err))
	}
	call.T = t
	if n.Distinct {
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "DISTINCT is not implemented for window functions"))
	}
	if n.OrderedOver {
		// not before: PostgreSQL looks the function up first
		// (nosuch(x ORDER BY y) OVER () is 42883) and never binds the keys
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions"))
	}
	if n.Filter != nil && windowOnly[name] {
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "FILTER is not implemented for non-aggregate window functions"))
	}
	w, err := b.namedWindow(st, n)
	if err != nil {
		return nil, err
	}
	call.Arrays = name == "array_agg" && len(call.Args) == 1 && call.Args[0].Type().Kind == types.Array
	st.inDef = true
	defer func() { st.inDef = false }()
	// a set-returning call in the definition is the windows' input's
	// (winState.srf), not the window call's arguments'
	prevSRF := b.srf
	if st.srf != nil {
		b.srf, st.inCall = st.srf, false
	}
	defer func() { b.srf = prevSRF }()
	for _, p := range w.PartitionBy {
		e, err := st.bind(p)
		if err != nil {
			return b.deferWindowError(st, n, t, err)
		}
		e = b.resolveUnknown(e, types.StringType)
		if err := b.checkPartitionKey(p, e.Type()); err != nil { // typeops.go
			return b.deferWindowError(st, n, t, err)
		}
		if o, ok := textOrderOf(e.Type()); ok && o.keyedEquality {
			// tsquery, ranges: partitioned by their equality, the key's
			// (textorder.go)
			e = b.textKey(e, o)
		}
		call.Partition = append(call.Partition, e)
	}
	for _, item := range w.OrderBy {
		e, err := st.bind(item.X)
		if err != nil {
			return b.deferWindowError(st, n, t, err)
		}
		if err := b.applyUsing(&item, b.resolveUnknown(e, types.StringType).Type()); err != nil { // typeops.go
			return b.deferWindowError(st, n, t, err)
		}
		if err := b.checkSortable(item.X, b.resolveUnknown(e, types.StringType).Type()); err != nil {
			return b.deferWindowError(st, n, t, err)
		}
		e = b.enumKey(e) // enums by declaration order (enumops.go)
		call.Order = append(call.Order, SortKey{Expr: b.resolveUnknown(e, types.StringType), Desc: item.Desc, NullsFirst: nullsFirst(item)})
	}
	st.inDef, st.inCall, b.srf = false, true, prevSRF
	if f := w.Frame; f != nil {
		var key *types.T
		if len(call.Order) == 1 {
			t := call.Order[0].Expr.Type()
			key = &t
		}
		fr, err := b.bindFrame(f, len(w.OrderBy), key)
		if err != nil {
			return b.deferWindowError(st, n, t, err)
		}
		call.Frame = fr
	}
	st.calls = append(st.calls, call)
	ref := &winRef{Index: len(st.calls) - 1, Name: name, T: t}
	if !arrayMinMax {
		return ref, nil
	}
	ref.Name = "array_agg"
	e, err := b.callFunction(n, "pg__array_"+name, []Expr{ref})
	if err != nil || enumArray == nil {
		return e, err
	}
	return b.enumLabel(e, *enumArray), nil
}

// deferWindowError keeps err, an error of call n's window (its PARTITION
// BY, ORDER BY or frame), for checkWindows, and stands for the call with
// a NULL of its type t meanwhile: PostgreSQL binds the windows
// (transformWindowDefinitions) after every clause but the locking one,
// so an error of another clause comes first. A WINDOW definition's are
// reported in the definitions' order, then the OVER (..) specs'.
func (b *binder) deferWindowError(st *winState, n *pt.FuncCall, t types.T, err error) (Expr, error) {
	key := len(st.defs) + len(st.deferred) // an OVER (..) spec's: after the definitions'
	if n.Over.OnlyName {
		key = findWindowDef(st.defs, n.Over.Name, len(st.defs))
	}
	st.deferred = append(st.deferred, deferredWindowError{key, err})
	return &Const{T: t}, nil
}

// deferredWindowError is an error of a window a call uses
// (deferWindowError): key is its definition's index in the WINDOW clause,
// or for an OVER (..) spec a number after them, in the calls' order.
type deferredWindowError struct {
	key int
	err error
}

// windowIntArg are the window functions' arguments of type integer, by
// position (ntile(integer), nth_value(anyelement, integer), lag and
// lead(anyelement, integer, anycompatible)).
var windowIntArg = map[string]int{"ntile": 0, "nth_value": 1, "lag": 1, "lead": 1}

// windowFuncArgs looks a window function (windowOnly) up by its
// arguments as PostgreSQL 15's catalog declares it: 42883 naming the
// arguments' types when no signature fits, 42809 for rank, dense_rank,
// percent_rank and cume_dist with arguments (what the lookup finds then
// is their hypothetical-set aggregate, which wants WITHIN GROUP); an
// untyped literal where an integer is taken is converted to it (22P02 for
// ','), as the lookup's coercion does, before DISTINCT, an aggregate
// ORDER BY or FILTER is refused. It returns the arguments to call with.
func (b *binder) windowFuncArgs(n *pt.FuncCall, nodes []pt.Expr, name string, raw []Expr) ([]Expr, error) {
	lo, hi := 1, 1
	switch name {
	case "row_number":
		lo, hi = 0, 0
	case "rank", "dense_rank", "percent_rank", "cume_dist":
		if len(raw) > 0 {
			return nil, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name))
		}
		lo, hi = 0, 0
	case "nth_value":
		lo, hi = 2, 2
	case "lag", "lead":
		hi = 3
	}
	if len(raw) < lo || len(raw) > hi {
		return nil, b.errAt(n, undefinedCall(name, raw))
	}
	args := make([]Expr, len(raw))
	for i, e := range raw {
		if p, ok := windowIntArg[name]; ok && p == i {
			switch k := e.Type().Kind; {
			case isUnknown(e.Type()):
				c, err := b.coerceUnknown(nodes[i], e, types.Int32Type) // its error at the literal
				if err != nil {
					return nil, err
				}
				e = c
			case k != types.Int16 && k != types.Int32:
				return nil, b.errAt(n, undefinedCall(name, raw))
			}
		}
		args[i] = b.resolveUnknown(e, types.StringType)
	}
	return args, nil
}

// bindJSONWindowCall binds json_agg(x) OVER w and the other JSON
// aggregates as their plain form binds them (bindJSONAggregate): the
// JSON built from array_agg of each argument, here over the window w,
// NULLs and unequal arrays kept.
func (b *binder) bindJSONWindowCall(n *pt.FuncCall) (Expr, error) {
	want := 1
	if strings.HasSuffix(n.Name, "object_agg") {
		want = 2
	}
	if len(n.Args) != want {
		// the arguments and FILTER are bound before the lookup fails
		var raw []Expr
		for _, a := range n.Args {
			e, err := b.win.bind(a)
			if err != nil {
				return nil, err
			}
			raw = append(raw, e)
		}
		if n.Filter != nil {
			f, err := b.win.bind(n.Filter)
			if err != nil {
				return nil, err
			}
			if _, err := b.coerce(n.Filter, f, types.BoolType, "argument of FILTER"); err != nil {
				return nil, err
			}
		}
		return nil, b.errAt(n, undefinedCall(n.Name, raw))
	}
	parts := make([]Expr, want)
	for i, a := range n.Args {
		part := *n
		part.Name, part.Args = "array_agg", []pt.Expr{a}
		e, err := b.bindWindowCall(&part)
		if err != nil {
			return nil, err
		}
		if r, ok := e.(*winRef); ok {
			b.win.calls[r.Index].Arrays = false
		}
		parts[i] = e
	}
	return b.callFunction(n, "pg__"+n.Name, parts)
}

// windowAggregateArg is argument i of the nargs of aggregate name used as
// a window function, typed as bindAggregateCallFiltered types an
// aggregate's: an untyped one by the aggregate's candidates, the
// statistics' numbers as double precision, string_agg's bpchar and name
// as text.
func (b *binder) windowAggregateArg(n *pt.FuncCall, name string, nargs, i int, a pt.Expr, e Expr) (Expr, error) {
	var err error
	if pairStats(name) && isUnknown(e.Type()) {
		if e, err = b.coerceUnknown(a, e, types.Float64Type); err != nil {
			return nil, err
		}
	}
	if nargs == 1 && isUnknown(e.Type()) {
		if t, ok := unknownAggArg[name]; ok {
			if e, err = b.coerceUnknown(a, e, t); err != nil {
				return nil, err
			}
		} else if ambiguousOnUnknown[name] {
			return nil, b.errAt(n, sqlerr.New(sqlerr.AmbiguousFunction, "function %s(unknown) is not unique", name).
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts."))
		}
	}
	e = b.resolveUnknown(e, types.StringType)
	if name == "string_agg" && (e.Type().Kind == types.Name || e.Type().Kind == types.Char) {
		e = b.castTo(e, types.StringType)
	}
	if pairStats(name) {
		if t := e.Type(); t.IsInteger() || t.Kind == types.Decimal || t.IsFloat() {
			e = b.castTo(e, types.Float64Type)
		}
	}
	return e, nil
}

// bindFrame checks a frame as PostgreSQL's grammar and parse analysis do
// (the bound combinations, GROUPS and RANGE offsets against the ORDER BY
// keys) and reads its offsets, which must be constants here: an integer,
// with a sign or not, NULL, or for ROWS and GROUPS any numeric or string
// constant PostgreSQL's bigint takes. A NULL or negative offset is
// PostgreSQL's execution error, raised here: the offsets are constants.
// key is the type of the ORDER BY's one key (nil: not one), which a RANGE
// offset must suit.
func (b *binder) bindFrame(f *pt.Frame, orderKeys int, key *types.T) (*Frame, error) {
	if err := b.checkFrameBounds(f); err != nil {
		return nil, err
	}
	offsets := f.Start.Offset != nil || f.End.Offset != nil
	unit := "ROWS"
	switch {
	case f.Groups:
		unit = "GROUPS"
		if orderKeys == 0 {
			return nil, b.errAtOffset(f.SpecWhere.Offset, sqlerr.New(sqlerr.WindowingError, "GROUPS mode requires an ORDER BY clause"))
		}
	case !f.Rows:
		unit = "RANGE"
		if offsets && orderKeys != 1 {
			return nil, b.errAtOffset(f.SpecWhere.Offset, sqlerr.New(sqlerr.WindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column"))
		}
	}
	bound := func(fb pt.FrameBound, which string) (FrameBound, error) {
		switch fb.Kind {
		case "current row", "unbounded preceding", "unbounded following":
			return FrameBound{Kind: fb.Kind}, nil
		}
		if unit == "RANGE" && key != nil {
			if err := b.checkRangeOffset(fb.Offset, *key); err != nil {
				return FrameBound{}, err
			}
		}
		n, null, err := b.frameOffset(fb.Offset, unit)
		if err != nil {
			return FrameBound{}, err
		}
		switch {
		case null:
			return FrameBound{}, sqlerr.New(sqlerr.NullValueNotAllowed, "frame %s offset must not be null", which)
		case n < 0 && unit == "RANGE":
			return FrameBound{}, sqlerr.New(sqlerr.InvalidPrecedingOrFollowingSize, "invalid preceding or following size in window function")
		case n < 0:
			return FrameBound{}, sqlerr.New(sqlerr.InvalidPrecedingOrFollowingSize, "frame %s offset must not be negative", which)
		}
		return FrameBound{Kind: fb.Kind, Offset: n}, nil
	}
	start, err := bound(f.Start, "starting")
	if err != nil {
		return nil, err
	}
	end, err := bound(f.End, "ending")
	if err != nil {
		return nil, err
	}
	return &Frame{Rows: f.Rows, Groups: f.Groups, Start: start, End: end, Exclude: f.Exclude}, nil
}

// checkFrameBounds refuses the bound combinations PostgreSQL's grammar
// refuses, each at the place it points to.
func (b *binder) checkFrameBounds(f *pt.Frame) error {
	s, e := f.Start.Kind, f.End.Kind
	errAt := func(pos int, msg string) error {
		return b.errAtOffset(pos, sqlerr.New(sqlerr.WindowingError, "%s", msg))
	}
	if f.Single {
		switch s {
		case "unbounded following":
			return errAt(f.Start.Where.Offset, "frame start cannot be UNBOUNDED FOLLOWING")
		case "following":
			return errAt(f.Start.Where.Offset, "frame starting from following row cannot end with current row")
		}
		return nil
	}
	switch {
	case s == "unbounded following":
		return errAt(f.Start.Where.Offset, "frame start cannot be UNBOUNDED FOLLOWING")
	case e == "unbounded preceding":
		return errAt(f.End.Where.Offset, "frame end cannot be UNBOUNDED PRECEDING")
	case s == "current row" && e == "preceding":
		return errAt(f.End.Where.Offset, "frame starting from current row cannot have preceding rows")
	case s == "following" && (e == "preceding" || e == "current row"):
		return errAt(f.End.Where.Offset, "frame starting from following row cannot have preceding rows")
	}
	return nil
}

// checkRangeOffset refuses a RANGE offset that PostgreSQL has no in_range
// support function for: a date or timestamp key moves by an interval, not
// by a number (ORDER BY d RANGE 1 PRECEDING is no day), as PostgreSQL's
// transformFrameOffset refuses it.
func (b *binder) checkRangeOffset(x pt.Expr, key types.T) error {
	if key.Kind != types.Date && key.Kind != types.Timestamp && key.Kind != types.TimestampTZ {
		return nil
	}
	lit := x
	for {
		u, ok := lit.(*pt.Unary)
		if !ok || (u.Op != pt.UMinus && u.Op != pt.UPlus) {
			break
		}
		lit = u.X
	}
	l, ok := lit.(*pt.Literal)
	if !ok {
		return nil
	}
	var offset string
	switch l.Kind {
	case pt.LitInt:
		offset = "integer"
		if l.Int > math.MaxInt32 || l.Int < math.MinInt32 {
			offset = "bigint"
		}
	case pt.LitDecimal:
		offset = "numeric"
	case pt.LitFloat:
		offset = "numeric" // 1e3 is a numeric constant too
	default:
		return nil
	}
	return b.errAt(x, sqlerr.New(sqlerr.FeatureNotSupported, "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s", key.PGName(), offset).
		WithHint("Cast the offset value to an appropriate type."))
}

// frameOffset reads a constant frame offset; null reports NULL.
func (b *binder) frameOffset(x pt.Expr, unit string) (n int64, null bool, err error) {
	neg := false
	for {
		u, ok := x.(*pt.Unary)
		if !ok || (u.Op != pt.UMinus && u.Op != pt.UPlus) {
			break
		}
		if u.Op == pt.UMinus {
			neg = !neg
		}
		x = u.X
	}
	l, ok := x.(*pt.Literal)
	if !ok {
		return 0, false, sqlerr.NotSupported("frame offsets other than constants")
	}
	switch {
	case l.Kind == pt.LitNull:
		return 0, true, nil
	case l.Kind == pt.LitInt:
		n = l.Int
	case unit != "RANGE" && (l.Kind == pt.LitDecimal || l.Kind == pt.LitFloat):
		// bigint takes a numeric by rounding half away from zero
		v, perr := strconv.ParseFloat(l.Text, 64)
		if l.Kind == pt.LitFloat {
			v, perr = l.Float, nil
		}
		if perr != nil || math.Abs(v) >= 9.2e18 {
			return 0, false, b.errAt(l, sqlerr.New(sqlerr.NumericValueOutOfRange, "bigint out of range"))
		}
		n = int64(math.Round(v))
	case unit != "RANGE" && l.Kind == pt.LitString:
		v, perr := strconv.ParseInt(strings.TrimSpace(l.Text), 10, 64)
		if perr != nil {
			return 0, false, b.errAt(l, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type bigint: %q", l.Text))
		}
		n = v
	default:
		return 0, false, sqlerr.NotSupported("frame offsets other than integer constants")
	}
	if neg {
		n = -n
	}
	return n, false, nil
}

// windowResultType gives PostgreSQL's result type of a window function.
func windowResultType(name string, args []Expr) (types.T, error) {
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		if len(args) > 0 {
			// they take no argument (reached with DISTINCT, which the
			// rewrite hands on: row_number(DISTINCT x) OVER ())
			names := make([]string, len(args))
			for i, a := range args {
				names[i] = a.Type().PGName()
			}
			return types.T{}, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if name == "percent_rank" || name == "cume_dist" {
			return types.Float64Type, nil
		}
		return types.Int64Type, nil
	case "ntile":
		return types.Int32Type, nil
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

// inputSetCalls puts the set-returning calls of the windows' definitions
// in a ProjectSet over input, below the windows, and points the
// definitions' keys at its columns.
func (st *winState) inputSetCalls(input Node) Node {
	var keys []Expr
	for _, c := range st.calls {
		keys = append(keys, c.Partition...)
		for _, k := range c.Order {
			keys = append(keys, k.Expr)
		}
	}
	n, _ := st.srf.addProjectSet(input, keys)
	i := 0
	for ci := range st.calls {
		c := &st.calls[ci]
		for k := range c.Partition {
			c.Partition[k], i = keys[i], i+1
		}
		for k := range c.Order {
			c.Order[k].Expr, i = keys[i], i+1
		}
	}
	return n
}
