package functions

import (
	"context"
	"math"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL 15's geometric functions and operators (geo_ops.c) over
// point, lseg, line, box, path, polygon and circle, held as their text
// (types/geometric.go). geometric_defs.go lists PostgreSQL's pg_proc and
// pg_operator rows; each row's C function is a body here, computed by
// types/geometric_ops.go with geo_ops.c's fuzzy comparisons and checked
// float arithmetic. An operator resolves among its overloads as
// PostgreSQL's operators do (GeometricOperator, ResolveOperator), and
// the binder calls the function behind it (binder/geometric.go).

// geoArg is one argument as a body sees it: the value taken apart for a
// geometric type, the float or integer otherwise.
type geoArg struct {
	g types.Geo
	f float64
	i int64
}

// geoBody computes one C function: the result is a types.Geo, bool,
// float64, int64, or nil for NULL.
type geoBody func(c *types.GeoCalc, a []geoArg) (any, error)

// geoLetterTypes are geometric_defs.go's type letters.
var geoLetterTypes = map[byte]types.T{
	'p': types.GeometricType(types.GeoPoint), 's': types.GeometricType(types.GeoLSeg),
	'l': types.GeometricType(types.GeoLine), 'b': types.GeometricType(types.GeoBox),
	'a': types.GeometricType(types.GeoPath), 'g': types.GeometricType(types.GeoPolygon),
	'c': types.GeometricType(types.GeoCircle), 'f': types.Float64Type, 'i': types.Int32Type,
	'B': types.BoolType,
}

func geoTypes(letters string) []types.T {
	out := make([]types.T, len(letters))
	for k := range letters {
		out[k] = geoLetterTypes[letters[k]]
	}
	return out
}

// geoFunc is the Func name(args) returning ret computed by body.
func geoFunc(name, args string, ret byte, body geoBody) *Func {
	ts, rt := geoTypes(args), geoLetterTypes[ret]
	return &Func{Name: name, Args: ts, Ret: rt, Strict: true, Kernel: rowFunc(rt, true, func(_ context.Context, v []any) (any, error) {
		in := make([]geoArg, len(v))
		for k, x := range v {
			switch t := ts[k]; {
			case t.IsGeometric():
				g, err := types.ParseGeo(x.(string), t.Variant)
				if err != nil {
					return nil, err
				}
				in[k].g = g
			case t.Kind == types.Float64:
				in[k].f = x.(float64)
			default:
				in[k].i = x.(int64)
			}
		}
		var c types.GeoCalc
		out, err := body(&c, in)
		if err == nil {
			err = c.Err
		}
		if err != nil {
			return nil, err
		}
		if g, ok := out.(types.Geo); ok {
			return g.String(), nil
		}
		return out, nil
	})}
}

// geometricFuncs are the functions of geoProcDefs and of the operators'
// C functions, one Func per row.
func geometricFuncs() []*Func {
	var fs []*Func
	seen := map[string]bool{}
	add := func(name, args string, ret byte, src string) {
		key := name + "(" + args + ")"
		if seen[key] {
			return
		}
		seen[key] = true
		if body, ok := geoBodies[src]; ok {
			fs = append(fs, geoFunc(name, args, ret, body))
		}
	}
	for _, d := range geoProcDefs {
		add(d[0], d[1], d[2][0], d[3])
	}
	for _, d := range geoOperatorDefs {
		add(d[4], d[1]+d[2], d[3][0], d[4])
	}
	return fs
}

// GeometricOperator picks the geometric operator op for operands of types
// l and r (l is nil for a prefix operator) as PostgreSQL's operator
// resolution does: the function to call and the types to cast the
// operands to. ok is false when op has no geometric overload or neither
// operand is geometric, so that the caller's other rules apply.
func GeometricOperator(op string, l *types.T, r types.T) (fn string, args []types.T, ok bool, err error) {
	if !r.IsGeometric() && (l == nil || !l.IsGeometric()) {
		return "", nil, false, nil
	}
	var decls [][]types.T
	var names []string
	for _, d := range geoOperatorDefs {
		if d[0] != op || (d[1] == "") != (l == nil) {
			continue
		}
		decls = append(decls, geoTypes(d[1]+d[2]))
		names = append(names, d[4])
	}
	if len(decls) == 0 {
		return "", nil, false, nil
	}
	if l == nil {
		for k, d := range decls {
			if d[0].Variant == r.Variant {
				return names[k], d, true, nil
			}
		}
		return "", nil, true, sqlerr.New(sqlerr.UndefinedFunction, "operator does not exist: %s %s", op, r.PGName()).
			WithHint("No operator matches the given name and argument type. You might need to add an explicit type cast.")
	}
	k, ts, err := ResolveOperator(op, decls, *l, r)
	if err != nil {
		return "", nil, true, err
	}
	return names[k], ts, true, nil
}

// IsGeometricOperator reports whether PostgreSQL has an operator op over
// a geometric type (so that the binder asks GeometricOperator first).
func IsGeometricOperator(op string) bool {
	for _, d := range geoOperatorDefs {
		if d[0] == op {
			return true
		}
	}
	return false
}

func geoPoint(p types.Point) types.Geo {
	return types.Geo{Type: types.GeoPoint, Pts: []types.Point{p}}
}

func geoSeg(s types.LSeg) types.Geo {
	return types.Geo{Type: types.GeoLSeg, Pts: []types.Point{s[0], s[1]}}
}

func segOf(g types.Geo) types.LSeg { return types.LSeg{g.Pts[0], g.Pts[1]} }

func geoCircle(center types.Point, r float64) types.Geo {
	return types.Geo{Type: types.GeoCircle, Pts: []types.Point{center}, R: r}
}

func geoPoly(pts []types.Point) types.Geo { return types.Geo{Type: types.GeoPolygon, Pts: pts} }

// pointResult is a close_* result: the point, or NULL when the distance
// is NaN.
func pointResult(p types.Point, d float64) any {
	if math.IsNaN(d) {
		return nil
	}
	return geoPoint(p)
}

// mapPoints is a path, box or circle with f applied to each point.
func mapPoints(g types.Geo, f func(types.Point) types.Point) types.Geo {
	out := g
	out.Pts = make([]types.Point, len(g.Pts))
	for k, p := range g.Pts {
		out.Pts[k] = f(p)
	}
	return out
}

// boxCmp is a box relation over the two boxes.
func boxCmp(f func(a, b types.Box) bool) geoBody {
	return func(_ *types.GeoCalc, a []geoArg) (any, error) {
		return f(types.BoxOf(a[0].g), types.BoxOf(a[1].g)), nil
	}
}

// circleCmp is a circle relation over centers and radii.
func circleCmp(f func(c *types.GeoCalc, p1 types.Point, r1 float64, p2 types.Point, r2 float64) bool) geoBody {
	return func(c *types.GeoCalc, a []geoArg) (any, error) {
		return f(c, a[0].g.Pts[0], a[0].g.R, a[1].g.Pts[0], a[1].g.R), nil
	}
}

// pointCmp is a point relation.
func pointCmp(f func(p, q types.Point) bool) geoBody {
	return func(_ *types.GeoCalc, a []geoArg) (any, error) { return f(a[0].g.Pts[0], a[1].g.Pts[0]), nil }
}

// circleArea is circle_ar.
func circleArea(c *types.GeoCalc, r float64) float64 { return c.Mul(c.Mul(r, r), math.Pi) }

// segLen is a segment's length.
func segLen(c *types.GeoCalc, g types.Geo) float64 { return c.Dist(g.Pts[0], g.Pts[1]) }

// pathNpts compares two paths' point counts.
func pathNpts(f func(a, b int) bool) geoBody {
	return func(_ *types.GeoCalc, a []geoArg) (any, error) { return f(len(a[0].g.Pts), len(a[1].g.Pts)), nil }
}

// byPoint is a translation, rotation or scaling of the first argument's
// points by the second argument, a point.
func byPoint(f func(c *types.GeoCalc, p, q types.Point) types.Point) geoBody {
	return func(c *types.GeoCalc, a []geoArg) (any, error) {
		q := a[1].g.Pts[0]
		return mapPoints(a[0].g, func(p types.Point) types.Point { return f(c, p, q) }), nil
	}
}

// boxScale is box_mul and box_div: the corners moved, then reordered.
func boxScale(f func(c *types.GeoCalc, p, q types.Point) types.Point) geoBody {
	return func(c *types.GeoCalc, a []geoArg) (any, error) {
		q := a[1].g.Pts[0]
		return types.MakeBox(f(c, a[0].g.Pts[0], q), f(c, a[0].g.Pts[1], q)), nil
	}
}

// circleScale is circle_mul_pt and circle_div_pt.
func circleScale(f func(c *types.GeoCalc, p, q types.Point) types.Point, r func(c *types.GeoCalc, r, h float64) float64) geoBody {
	return func(c *types.GeoCalc, a []geoArg) (any, error) {
		q := a[1].g.Pts[0]
		return geoCircle(f(c, a[0].g.Pts[0], q), r(c, a[0].g.R, c.Hypot(q.X, q.Y))), nil
	}
}

func polyPoly(f func(c *types.GeoCalc, a, b []types.Point) bool) geoBody {
	return func(c *types.GeoCalc, a []geoArg) (any, error) { return f(c, a[0].g.Pts, a[1].g.Pts), nil }
}

func circlePoly(c *types.GeoCalc, n int64, g types.Geo) (any, error) {
	if types.FPzero(g.R) {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot convert circle with radius zero to polygon")
	}
	if n < 2 {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "must request at least 2 points")
	}
	step := c.Div(2.0*math.Pi, float64(n))
	pts := make([]types.Point, n)
	for i := range pts {
		angle := c.Mul(step, float64(i))
		pts[i] = types.Point{X: c.Mi(g.Pts[0].X, c.Mul(g.R, cCos(angle))), Y: c.Pl(g.Pts[0].Y, c.Mul(g.R, cSin(angle)))}
	}
	return geoPoly(pts), nil
}
