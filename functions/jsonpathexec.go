package functions

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/jsonpath"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The evaluator of a parsed jsonpath (types/jsonpath) over a decoded jsonb
// document (jsonpathvalue.go), as PostgreSQL 15's documentation describes
// it: an item maps each value of its input sequence to a sequence, the
// next accessor of its chain takes that; in lax mode accessors unwrap an
// array they meet (one level) and array accessors wrap a non-array, and
// structural errors (a missing key, an accessor on the wrong kind of
// value, a subscript out of range) give nothing instead; predicates are
// three-valued (unknown where an operand errs or values do not compare).

// jpError is an error of evaluation; structural ones are the errors lax
// mode suppresses.
type jpError struct {
	err        error
	structural bool
}

// jpExec is one evaluation: the document, the variables and the mode.
type jpExec struct {
	ctx    context.Context
	root   any
	vars   *jpObject
	strict bool
	// last is the last subscript of the array being subscripted, -1
	// outside subscripts
	last int
	// quiet counts the .** accessors being followed: structural errors
	// after one give nothing, in strict mode too
	quiet int
	// probe is the item whose values only count (the path of
	// jsonb_path_exists and @?, the operand of exists in lax mode): a
	// unary + or - there skips what is not a number instead of failing
	probe *jsonpath.Item
	// noThrow counts the reasons an error is returned to the caller
	// rather than raised (PostgreSQL's throwErrors false): a silent call,
	// and each predicate operand being evaluated (PostgreSQL evaluates
	// those through executeItemOptUnwrapResultNoThrow). It decides
	// whether .** can lose its level-0 error (levelZeroErrorLost).
	noThrow int
}

func jpErr(code sqlerr.Code, format string, args ...any) error {
	return sqlerr.New(code, format, args...)
}

// structural is an error lax mode turns into an empty result: nil there
// (the caller gives nothing), the error in strict mode.
func (e *jpExec) structural(code sqlerr.Code, format string, args ...any) error {
	if !e.strict || e.quiet > 0 {
		return errNothing
	}
	return &jpError{err: sqlerr.New(code, format, args...), structural: true}
}

// errNothing is a suppressed structural error: the item gives nothing.
var errNothing = &jpError{structural: true}

func (e *jpError) Error() string { return e.err.Error() }
func (e *jpError) Unwrap() error { return e.err }

// realErr is the SQL error of an evaluation error.
func realErr(err error) error {
	if je, ok := err.(*jpError); ok {
		return je.err
	}
	return err
}

// jpRun evaluates path over doc: the sequence of values, or for a
// predicate path its one value (true, false or null for unknown). With an
// error come the values found before it.
func jpRun(ctx context.Context, path *jsonpath.Path, doc any, vars *jpObject, exists, silent bool) ([]any, error) {
	e := &jpExec{ctx: ctx, root: doc, vars: vars, strict: path.Strict, last: -1}
	if silent {
		e.noThrow++
	}
	if exists && !path.Strict { // strict mode evaluates everything
		e.probe = path.Expr
	}
	if path.Expr.IsPredicate() {
		r, err := e.pred(path.Expr, doc)
		if err != nil {
			return nil, realErr(err)
		}
		return []any{r.json()}, nil
	}
	out, err := e.eval(path.Expr, doc, doc)
	if err != nil {
		return out, realErr(err) // what was found before the error
	}
	return out, nil
}

// eval evaluates it and its chain on v, with cur the value of @.
func (e *jpExec) eval(it *jsonpath.Item, v, cur any) ([]any, error) {
	out, err := e.item(it, v, cur)
	if err == errNothing {
		return nil, nil
	}
	if it.Next == nil {
		return out, err
	}
	if err != nil {
		// the values the item found before its error (a lax method's
		// elements before the one it refuses) went through the rest of
		// the path first, as PostgreSQL runs the next item on each as
		// it finds it: a silent call returns what they give
		res, nerr := e.evalNext(it, out, cur)
		if nerr != nil {
			return res, nerr
		}
		return res, err
	}
	return e.evalNext(it, out, cur)
}

// evalNext evaluates it's chain on each of out. The values found before
// an error are kept with it, as PostgreSQL appends each to its list as
// it goes: a silent call returns them.
func (e *jpExec) evalNext(it *jsonpath.Item, out []any, cur any) ([]any, error) {
	if it.Kind == jsonpath.AnyPath {
		e.quiet++
		defer func() { e.quiet-- }()
	}
	var res []any
	for i, x := range out {
		r, err := e.eval(it.Next, x, cur)
		res = append(res, r...)
		if err != nil {
			if i == 0 && e.levelZeroErrorLost(it, x, err) {
				continue
			}
			return res, err
		}
	}
	return res, nil
}

// levelZeroErrorLost reports whether the error of the chain after a .**
// on its level-0 value v (the accessor's input itself, first of its
// values when its range starts at 0) is lost. PostgreSQL's
// executeItemOptUnwrapTarget (case jpiAny) keeps that chain's result in
// res and, when v is an array or object (jbvBinary), overwrites res with
// the result of descending into v (executeAnyItem): an error returned
// there rather than raised (a silent call, a predicate's operand) is
// dropped, the values found before it stay, and the descent goes on. A
// raised error (a call that is not silent) ends the statement first; on a
// scalar v the error stands; a missing variable is always raised.
func (e *jpExec) levelZeroErrorLost(it *jsonpath.Item, v any, err error) bool {
	if it.Kind != jsonpath.AnyPath || it.Lo != 0 || e.noThrow == 0 || fatal(err) {
		return false
	}
	switch v.(type) {
	case []any, *jpObject:
		return true
	}
	return false
}

// operand evaluates a predicate's operand, whose errors PostgreSQL
// returns (executeItemOptUnwrapResultNoThrow) for the predicate to make
// unknown.
func (e *jpExec) operand(it *jsonpath.Item, cur any) ([]any, error) {
	e.noThrow++
	defer func() { e.noThrow-- }()
	return e.eval(it, cur, cur)
}

// unwrapped is v's elements when lax mode unwraps it, else v alone.
func (e *jpExec) unwrapped(v any) []any {
	if arr, ok := v.([]any); ok && !e.strict {
		return arr
	}
	return []any{v}
}

// laxEach applies f to v, or in lax mode to each element of an array v.
func (e *jpExec) laxEach(v any, f func(any) ([]any, error)) ([]any, error) {
	if arr, ok := v.([]any); ok && !e.strict {
		var out []any
		for _, x := range arr {
			r, err := f(x)
			if err == errNothing {
				continue
			}
			out = append(out, r...)
			if err != nil {
				return out, err
			}
		}
		return out, nil
	}
	return f(v)
}

// item evaluates one item (not its chain) on v.
func (e *jpExec) item(it *jsonpath.Item, v, cur any) ([]any, error) {
	switch it.Kind {
	case jsonpath.Root:
		return []any{e.root}, nil
	case jsonpath.Current:
		return []any{cur}, nil
	case jsonpath.Last:
		if e.last < -1 {
			return nil, jpErr("22033", "evaluating jsonpath LAST outside of array subscript")
		}
		return []any{numeric.FromInt64(int64(e.last))}, nil
	case jsonpath.Var:
		if e.vars == nil {
			return []any{nil}, nil // the operators have no variables: each is null
		}
		x, ok := e.vars.get(it.Str)
		if !ok {
			return nil, jpErr("42704", "could not find jsonpath variable \"%s\"", it.Str)
		}
		return []any{x}, nil
	case jsonpath.Null:
		return []any{nil}, nil
	case jsonpath.Bool:
		return []any{it.Bool}, nil
	case jsonpath.Number:
		return []any{it.Num}, nil
	case jsonpath.String:
		return []any{it.Str}, nil
	case jsonpath.Key:
		return e.laxEach(v, func(x any) ([]any, error) {
			o, ok := x.(*jpObject)
			if !ok {
				return nil, e.structural("2203A", "jsonpath member accessor can only be applied to an object")
			}
			m, ok := o.get(it.Str)
			if !ok {
				return nil, e.structural("2203A", "JSON object does not contain key \"%s\"", it.Str)
			}
			return []any{m}, nil
		})
	case jsonpath.AnyKey:
		return e.laxEach(v, func(x any) ([]any, error) {
			o, ok := x.(*jpObject)
			if !ok {
				return nil, e.structural("2203C", "jsonpath wildcard member accessor can only be applied to an object")
			}
			return append([]any(nil), o.vals...), nil
		})
	case jsonpath.AnyArray:
		arr, ok := v.([]any)
		if !ok {
			if e.strict {
				return nil, e.structural("22039", "jsonpath wildcard array accessor can only be applied to an array")
			}
			return []any{v}, nil
		}
		return append([]any(nil), arr...), nil
	case jsonpath.Index:
		return e.index(it, v)
	case jsonpath.AnyPath:
		var out []any
		e.anyPath(v, 0, it.Lo, it.Hi, &out)
		return out, nil
	case jsonpath.Filter:
		return e.laxEach(v, func(x any) ([]any, error) {
			r, err := e.pred(it.L, x)
			if err != nil {
				return nil, err
			}
			if r == jpTrue {
				return []any{x}, nil
			}
			return nil, nil
		})
	case jsonpath.Method:
		return e.method(it.Str, v)
	case jsonpath.Datetime:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "jsonpath item method .datetime() is not supported")
	case jsonpath.Binary:
		if it.IsPredicate() {
			break
		}
		return e.arith(it, v, cur)
	case jsonpath.Unary:
		xs, err := e.eval(it.L, v, cur)
		if err != nil {
			return nil, err
		}
		var out []any
		for _, x := range xs {
			for _, y := range e.unwrapped(x) {
				d, ok := y.(*apd.Decimal)
				if !ok && e.probe == it && it.Next == nil {
					continue
				}
				if !ok {
					// the values before it were found (a silent call
					// returns them), as PostgreSQL's executeUnaryArithmExpr
					// passes each on before it meets the next
					return out, jpErr("2203B", "operand of unary jsonpath operator %s is not a numeric value", it.Op)
				}
				if it.Op == "-" {
					d = numeric.Neg(d)
				}
				out = append(out, d)
			}
		}
		return out, nil
	}
	// a predicate used as a value (a parenthesised one with accessors)
	r, err := e.pred(it, cur)
	if err != nil {
		return nil, err
	}
	return []any{r.json()}, nil
}

// index is [subscripts] on v.
func (e *jpExec) index(it *jsonpath.Item, v any) ([]any, error) {
	arr, isArr := v.([]any)
	if !isArr {
		if e.strict {
			return nil, e.structural("22039", "jsonpath array accessor can only be applied to an array")
		}
		arr = []any{v}
	}
	saved := e.last
	e.last = len(arr) - 1
	defer func() { e.last = saved }()
	var out []any
	for _, s := range it.Subs {
		from, err := e.subscript(s.From, v)
		if err != nil {
			return nil, err
		}
		to := from
		if s.To != nil {
			if to, err = e.subscript(s.To, v); err != nil {
				return nil, err
			}
		}
		n := int64(len(arr))
		if (from < 0 || from > to || to >= n) && e.strict {
			return nil, e.structural("22033", "jsonpath array subscript is out of bounds")
		}
		if from < 0 {
			from = 0
		}
		if to >= n {
			to = n - 1
		}
		for i := from; i <= to; i++ {
			out = append(out, arr[i])
		}
	}
	return out, nil
}

// subscript evaluates one subscript: a single number, truncated.
func (e *jpExec) subscript(it *jsonpath.Item, v any) (int64, error) {
	xs, err := e.eval(it, v, v)
	if err != nil {
		return 0, err
	}
	if len(xs) != 1 {
		return 0, jpErr("22033", "jsonpath array subscript is not a single numeric value")
	}
	d, ok := xs[0].(*apd.Decimal)
	if !ok {
		return 0, jpErr("22033", "jsonpath array subscript is not a single numeric value")
	}
	t, err := numeric.Trunc(d, 0)
	if err != nil {
		return 0, err
	}
	i, ok, _ := numeric.ToInt64(t, "integer")
	if !ok || i > math.MaxInt32 || i < math.MinInt32 {
		return 0, jpErr("22033", "jsonpath array subscript is out of integer range")
	}
	return i, nil
}

// anyPath collects .**{lo to hi} (hi -1: no limit) from v at level.
func (e *jpExec) anyPath(v any, level, lo, hi int, out *[]any) {
	if level >= lo && (hi < 0 || level <= hi) {
		*out = append(*out, v)
	}
	if hi >= 0 && level >= hi {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, c := range x {
			e.anyPath(c, level+1, lo, hi, out)
		}
	case *jpObject:
		for _, c := range x.vals {
			e.anyPath(c, level+1, lo, hi, out)
		}
	}
}

// method evaluates an item method on v.
func (e *jpExec) method(name string, v any) ([]any, error) {
	switch name {
	case "type":
		return []any{jpTypeName(v)}, nil
	case "size":
		if arr, ok := v.([]any); ok {
			return []any{numeric.FromInt64(int64(len(arr)))}, nil
		}
		if e.strict {
			return nil, e.structural("22039", "jsonpath item method .size() can only be applied to an array")
		}
		return []any{numeric.FromInt64(1)}, nil
	}
	return e.laxEach(v, func(x any) ([]any, error) {
		switch name {
		case "double":
			var f float64
			switch y := x.(type) {
			case *apd.Decimal:
				// PostgreSQL checks that the number's text is a double
				// (float8in: no overflow, no underflow to zero) and keeps
				// the number as it is: 0.10 stays 0.10
				if f, err := numeric.ToFloat64(y); err != nil || math.IsInf(f, 0) {
					return nil, jpErr("22003", "numeric argument of jsonpath item method .double() is out of range for type double precision")
				}
				return []any{y}, nil
			case string:
				t := strings.TrimSpace(y)
				g, err := strconv.ParseFloat(t, 64)
				if err != nil || math.IsInf(g, 0) || math.IsNaN(g) || g == 0 && underflows(t) {
					return nil, jpErr("22036", "string argument of jsonpath item method .double() is not a valid representation of a double precision number")
				}
				f = g
			default:
				return nil, jpErr("22036", "jsonpath item method .double() can only be applied to a string or numeric value")
			}
			d, err := numeric.FromFloat64(f, 15)
			if err != nil {
				return nil, err
			}
			return []any{d}, nil
		case "ceiling", "floor", "abs":
			d, ok := x.(*apd.Decimal)
			if !ok {
				return nil, jpErr("22036", "jsonpath item method .%s() can only be applied to a numeric value", name)
			}
			var r *apd.Decimal
			var err error
			switch name {
			case "ceiling":
				r, err = numeric.Ceil(d)
			case "floor":
				r, err = numeric.Floor(d)
			default:
				r = numeric.Abs(d)
			}
			if err != nil {
				return nil, err
			}
			return []any{r}, nil
		case "keyvalue":
			o, ok := x.(*jpObject)
			if !ok {
				return nil, jpErr("2203C", "jsonpath item method .keyvalue() can only be applied to an object")
			}
			id := jpObjectID(e.root, o)
			out := make([]any, len(o.keys))
			for i, k := range o.keys {
				out[i] = &jpObject{keys: []string{"id", "key", "value"}, vals: []any{numeric.FromInt64(id), k, o.vals[i]}}
			}
			return out, nil
		}
		return nil, jpErr(sqlerr.FeatureNotSupported, "jsonpath item method .%s() is not supported", name)
	})
}

func jpTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case *apd.Decimal:
		return "number"
	case []any:
		return "array"
	case *jpObject:
		return "object"
	case jpDatetime:
		return x.typ
	}
	return "unknown"
}

// arith evaluates + - * / % : each operand a single number.
func (e *jpExec) arith(it *jsonpath.Item, v, cur any) ([]any, error) {
	ls, err := e.eval(it.L, v, cur)
	if err != nil {
		return nil, err
	}
	rs, err := e.eval(it.R, v, cur)
	if err != nil {
		return nil, err
	}
	single := func(xs []any, side string) (*apd.Decimal, error) {
		var all []any
		for _, y := range xs {
			all = append(all, e.unwrapped(y)...)
		}
		if len(all) == 1 {
			if d, ok := all[0].(*apd.Decimal); ok {
				return d, nil
			}
		}
		return nil, jpErr("22038", "%s operand of jsonpath operator %s is not a single numeric value", side, it.Op)
	}
	l, err := single(ls, "left")
	if err != nil {
		return nil, err
	}
	r, err := single(rs, "right")
	if err != nil {
		return nil, err
	}
	var d *apd.Decimal
	switch it.Op {
	case "+":
		d, err = numeric.Add(l, r)
	case "-":
		d, err = numeric.Sub(l, r)
	case "*":
		d, err = numeric.Mul(l, r)
	case "/":
		d, err = numeric.Div(l, r)
	case "%":
		d, err = numeric.Mod(l, r)
	}
	if err != nil {
		return nil, err
	}
	return []any{d}, nil
}

// jpBool is a predicate's three-valued result.
type jpBool uint8

const (
	jpFalse jpBool = iota
	jpTrue
	jpUnknown
)

func (b jpBool) json() any {
	switch b {
	case jpTrue:
		return true
	case jpFalse:
		return false
	}
	return nil
}

// pred evaluates a predicate with @ = cur. Errors of its operands make
// it unknown; only errors outside them (a missing variable) escape.
func (e *jpExec) pred(it *jsonpath.Item, cur any) (jpBool, error) {
	switch it.Kind {
	case jsonpath.Binary:
		switch it.Op {
		case "&&":
			l, err := e.pred(it.L, cur)
			if err != nil || l == jpFalse {
				return l, err
			}
			r, err := e.pred(it.R, cur)
			if err != nil || r == jpFalse {
				return r, err
			}
			if l == jpUnknown || r == jpUnknown {
				return jpUnknown, nil
			}
			return jpTrue, nil
		case "||":
			l, err := e.pred(it.L, cur)
			if err != nil || l == jpTrue {
				return l, err
			}
			r, err := e.pred(it.R, cur)
			if err != nil || r == jpTrue {
				return r, err
			}
			if l == jpUnknown || r == jpUnknown {
				return jpUnknown, nil
			}
			return jpFalse, nil
		}
		return e.compare(it, cur)
	case jsonpath.Not:
		r, err := e.pred(it.L, cur)
		if err != nil {
			return r, err
		}
		switch r {
		case jpTrue:
			return jpFalse, nil
		case jpFalse:
			return jpTrue, nil
		}
		return jpUnknown, nil
	case jsonpath.IsUnknown:
		r, err := e.pred(it.L, cur)
		if err != nil {
			return r, err
		}
		if r == jpUnknown {
			return jpTrue, nil
		}
		return jpFalse, nil
	case jsonpath.Exists:
		saved := e.probe
		if !e.strict {
			e.probe = it.L
		}
		xs, err := e.operand(it.L, cur)
		e.probe = saved
		if err != nil {
			if fatal(err) {
				return 0, err
			}
			return jpUnknown, nil
		}
		if len(xs) > 0 {
			return jpTrue, nil
		}
		return jpFalse, nil
	case jsonpath.LikeRegex:
		re, err := jpRegex(it.Str, it.Flags)
		if err != nil {
			return 0, err
		}
		// a match that fails (too complex, cancelled) ends the statement,
		// as RE_compile_and_execute raises it
		var regexErr error
		r, err := e.each(it.L, cur, func(x any) jpBool {
			if regexErr != nil {
				return jpUnknown
			}
			s, ok := x.(string)
			if !ok {
				return jpUnknown
			}
			ok, err := re.match(e.ctx, s)
			if err != nil {
				regexErr = err
				return jpUnknown
			}
			if ok {
				return jpTrue
			}
			return jpFalse
		})
		if regexErr != nil {
			return 0, regexErr
		}
		return r, err
	case jsonpath.StartsWith:
		// PostgreSQL's executePredicate: the right operand is a sequence
		// (not unwrapped), evaluated first (an error: unknown), and each
		// left value is tried against each right one, both strings or
		// unknown: an empty side makes the predicate false.
		prefixes, err := e.operand(it.R, cur)
		if err != nil {
			if fatal(err) {
				return 0, err
			}
			return jpUnknown, nil
		}
		return e.each(it.L, cur, func(x any) jpBool {
			res := jpFalse
			for _, p := range prefixes {
				s, ok := x.(string)
				prefix, pok := p.(string)
				switch {
				case !ok || !pok:
					if e.strict {
						return jpUnknown
					}
					res = jpUnknown
				case strings.HasPrefix(s, prefix):
					if !e.strict {
						return jpTrue
					}
					if res != jpUnknown {
						res = jpTrue
					}
				}
			}
			return res
		})
	}
	return 0, jpErr(sqlerr.SyntaxError, "jsonpath: not a predicate")
}

// fatal reports an error no predicate hides: a missing variable.
func fatal(err error) bool {
	se, ok := realErr(err).(*sqlerr.Error)
	return ok && se.Code == "42704"
}

// each is a predicate over the values of it: true when one is true
// (lax: at once; strict: unless one is unknown), unknown when one is
// unknown or it errs, else false.
func (e *jpExec) each(it *jsonpath.Item, cur any, f func(any) jpBool) (jpBool, error) {
	xs, err := e.operand(it, cur)
	if err != nil {
		if fatal(err) {
			return 0, err
		}
		return jpUnknown, nil
	}
	found, unknown := false, false
	for _, x := range xs {
		for _, y := range e.unwrapped(x) {
			switch f(y) {
			case jpTrue:
				if !e.strict {
					return jpTrue, nil
				}
				found = true
			case jpUnknown:
				if e.strict {
					return jpUnknown, nil
				}
				unknown = true
			}
		}
	}
	switch {
	case found:
		return jpTrue, nil
	case unknown:
		return jpUnknown, nil
	}
	return jpFalse, nil
}

// compare is a comparison: true when some pair of the operands' values
// compares true, unknown when a pair does not compare.
func (e *jpExec) compare(it *jsonpath.Item, cur any) (jpBool, error) {
	rs, err := e.operand(it.R, cur)
	if err != nil {
		if fatal(err) {
			return 0, err
		}
		return jpUnknown, nil
	}
	var right []any
	for _, x := range rs {
		right = append(right, e.unwrapped(x)...)
	}
	var res jpBool
	var ferr error
	r, err := e.each(it.L, cur, func(l any) jpBool {
		found, unknown := false, false
		for _, r := range right {
			switch jpCompare(it.Op, l, r) {
			case jpTrue:
				if !e.strict {
					return jpTrue
				}
				found = true
			case jpUnknown:
				if e.strict {
					return jpUnknown
				}
				unknown = true
			}
		}
		switch {
		case found:
			return jpTrue
		case unknown:
			return jpUnknown
		}
		return jpFalse
	})
	if ferr != nil {
		return res, ferr
	}
	return r, err
}

// jpCompare compares two scalars: numbers, strings (bytewise) and
// booleans among themselves, null equal only to null; anything else
// (arrays, objects, mixed kinds) is unknown.
func jpCompare(op string, l, r any) jpBool {
	c := 0
	if (l == nil) != (r == nil) { // null and any other value are not equal
		return jpOf(op == "!=")
	}
	switch x := l.(type) {
	case nil:
	case bool:
		y, ok := r.(bool)
		if !ok {
			return jpNullOr(op, r)
		}
		if x != y {
			c = 1
			if !x {
				c = -1
			}
		}
	case string:
		y, ok := r.(string)
		if !ok {
			return jpNullOr(op, r)
		}
		c = strings.Compare(x, y)
	case *apd.Decimal:
		y, ok := r.(*apd.Decimal)
		if !ok {
			return jpNullOr(op, r)
		}
		c = numeric.Cmp(x, y)
	default:
		return jpUnknown
	}
	switch op {
	case "==":
		return jpOf(c == 0)
	case "!=":
		return jpOf(c != 0)
	case "<":
		return jpOf(c < 0)
	case "<=":
		return jpOf(c <= 0)
	case ">":
		return jpOf(c > 0)
	}
	return jpOf(c >= 0)
}

// jpNullOr is a scalar compared with r of another kind: with null, not
// equal; else unknown.
func jpNullOr(op string, r any) jpBool {
	if r == nil {
		return jpOf(op == "!=")
	}
	return jpUnknown
}

func jpOf(b bool) jpBool {
	if b {
		return jpTrue
	}
	return jpFalse
}

// jpRegex compiles like_regex's pattern with its flags as PostgreSQL's
// jspConvertRegexFlags reads them: an ARE, case-insensitive under i;
// under q a literal string (x ignored); otherwise "." and [^...] do not
// match a newline unless s, and ^ and $ match at newlines under m (x
// never arrives: the path's parse refuses it).
func jpRegex(pat, flags string) (*areRE, error) {
	f := areFlags{icase: strings.Contains(flags, "i"), quote: strings.Contains(flags, "q")}
	if !f.quote {
		dotAll, multiLine := strings.Contains(flags, "s"), strings.Contains(flags, "m")
		f.newline = !dotAll && multiLine
		f.partialNL = !dotAll && !multiLine
		f.weirdNL = dotAll && multiLine
	}
	return compileARE(pat, f)
}

// jpObjectID is .keyvalue()'s id of o: 0 for the document's root object;
// inside the document, PostgreSQL's id is the object's offset in jsonb's
// binary form (jsonpathid.go).
func jpObjectID(root any, o *jpObject) int64 {
	if off, ok := jsonbOffset(root, o, 0); ok {
		return off
	}
	return 0
}

// underflows reports whether t, a number's text that strconv.ParseFloat
// read as zero, has a non-zero digit before its exponent: a value below
// the smallest double, which float8in refuses (strtod's ERANGE with 0).
func underflows(t string) bool {
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		t = t[:i]
	}
	return strings.ContainsAny(t, "123456789")
}
