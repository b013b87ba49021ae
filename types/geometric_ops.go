package types

import (
	"math"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// The geometric computations of geo_ops.c over Geo values, with its fuzzy
// comparisons (EPSILON 1e-6: FPeq and the others) and float.h's checked
// arithmetic (an overflow or underflow is 22003, a division by zero
// 22012), each written once here and used by the functions behind the
// operators (functions/geometric.go).

// geoEpsilon is geo_decls.h's EPSILON.
const geoEpsilon = 1.0e-06

// FPzero and the others are geo_decls.h's fuzzy comparisons (PostgreSQL
// 12's forms: A + EPSILON < B, not B - A > EPSILON, so that infinities
// compare as numbers do).
func FPzero(a float64) bool  { return math.Abs(a) <= geoEpsilon }
func FPeq(a, b float64) bool { return a == b || math.Abs(a-b) <= geoEpsilon }
func FPne(a, b float64) bool { return a != b && math.Abs(a-b) > geoEpsilon }
func FPlt(a, b float64) bool { return a+geoEpsilon < b }
func FPle(a, b float64) bool { return a <= b+geoEpsilon }
func FPgt(a, b float64) bool { return a > b+geoEpsilon }
func FPge(a, b float64) bool { return a+geoEpsilon >= b }
func f8eq(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
func f8lt(a, b float64) bool { return !math.IsNaN(a) && (math.IsNaN(b) || a < b) }
func f8gt(a, b float64) bool { return !math.IsNaN(b) && (math.IsNaN(a) || a > b) }
func f8min(a, b float64) float64 {
	if f8lt(a, b) {
		return a
	}
	return b
}
func f8max(a, b float64) float64 {
	if f8gt(a, b) {
		return a
	}
	return b
}

// GeoCalc is float.h's checked arithmetic with a sticky error: the first
// overflow, underflow or division by zero is kept and later steps go on
// harmlessly, so a computation reads as geo_ops.c's and checks once.
type GeoCalc struct{ Err error }

func (c *GeoCalc) overflow() {
	if c.Err == nil {
		c.Err = sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: overflow")
	}
}

func (c *GeoCalc) underflow() {
	if c.Err == nil {
		c.Err = sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: underflow")
	}
}

// Pl is float8_pl.
func (c *GeoCalc) Pl(a, b float64) float64 {
	r := a + b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		c.overflow()
	}
	return r
}

// Mi is float8_mi.
func (c *GeoCalc) Mi(a, b float64) float64 {
	r := a - b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		c.overflow()
	}
	return r
}

// Mul is float8_mul.
func (c *GeoCalc) Mul(a, b float64) float64 {
	r := a * b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		c.overflow()
	}
	if r == 0 && a != 0 && b != 0 {
		c.underflow()
	}
	return r
}

// Div is float8_div.
func (c *GeoCalc) Div(a, b float64) float64 {
	if b == 0 && !math.IsNaN(a) {
		if c.Err == nil {
			c.Err = sqlerr.New(sqlerr.DivisionByZero, "division by zero")
		}
		return 0
	}
	r := a / b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) {
		c.overflow()
	}
	if r == 0 && a != 0 && !math.IsInf(b, 0) {
		c.underflow()
	}
	return r
}

// Hypot is pg_hypot.
func (c *GeoCalc) Hypot(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return math.Inf(1)
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	x, y = math.Abs(x), math.Abs(y)
	if x < y {
		x, y = y, x
	}
	if y == 0 {
		return x
	}
	yx := y / x
	r := x * math.Sqrt(1.0+yx*yx)
	if math.IsInf(r, 0) {
		c.overflow()
	}
	if r == 0 {
		c.underflow()
	}
	return r
}

// PointEq is point_eq_point: fuzzily equal, or NaN where the other is.
func PointEq(a, b Point) bool {
	return FPeq(a.X, b.X) && FPeq(a.Y, b.Y) || f8eq(a.X, b.X) && f8eq(a.Y, b.Y)
}

// Add is point_add_point.
func (c *GeoCalc) Add(a, b Point) Point { return Point{c.Pl(a.X, b.X), c.Pl(a.Y, b.Y)} }

// Sub is point_sub_point.
func (c *GeoCalc) Sub(a, b Point) Point { return Point{c.Mi(a.X, b.X), c.Mi(a.Y, b.Y)} }

// MulPt is point_mul_point (complex multiplication).
func (c *GeoCalc) MulPt(a, b Point) Point {
	return Point{c.Mi(c.Mul(a.X, b.X), c.Mul(a.Y, b.Y)), c.Pl(c.Mul(a.X, b.Y), c.Mul(a.Y, b.X))}
}

// DivPt is point_div_point (complex division).
func (c *GeoCalc) DivPt(a, b Point) Point {
	div := c.Pl(c.Mul(b.X, b.X), c.Mul(b.Y, b.Y))
	return Point{c.Div(c.Pl(c.Mul(a.X, b.X), c.Mul(a.Y, b.Y)), div), c.Div(c.Mi(c.Mul(a.Y, b.X), c.Mul(a.X, b.Y)), div)}
}

// Dist is point_dt.
func (c *GeoCalc) Dist(a, b Point) float64 { return c.Hypot(c.Mi(a.X, b.X), c.Mi(a.Y, b.Y)) }

// Slope is point_sl: +Inf for a vertical pair.
func (c *GeoCalc) Slope(a, b Point) float64 {
	if FPeq(a.X, b.X) {
		return math.Inf(1)
	}
	if FPeq(a.Y, b.Y) {
		return 0
	}
	return c.Div(c.Mi(a.Y, b.Y), c.Mi(a.X, b.X))
}

// InvSlope is point_invsl.
func (c *GeoCalc) InvSlope(a, b Point) float64 {
	if FPeq(a.X, b.X) {
		return 0
	}
	if FPeq(a.Y, b.Y) {
		return math.Inf(1)
	}
	return c.Div(c.Mi(a.X, b.X), c.Mi(b.Y, a.Y))
}

// PointSlope is point_sl with its error.
func PointSlope(a, b Point) (float64, error) {
	var c GeoCalc
	s := c.Slope(a, b)
	return s, c.Err
}

// Line is a line's A, B, C.
type Line struct{ A, B, C float64 }

// LineOf is the line of a Geo of type line.
func LineOf(g Geo) Line { return Line{g.A, g.B, g.C} }

// Geo is the line as a Geo value.
func (l Line) Geo() Geo { return Geo{Type: GeoLine, A: l.A, B: l.B, C: l.C} }

// LineThrough is line_construct: the line through p with slope m.
func (c *GeoCalc) LineThrough(p Point, m float64) Line {
	switch {
	case math.IsInf(m, 0):
		return Line{-1, 0, p.X}
	case m == 0:
		return Line{0, -1, p.Y}
	}
	l := Line{m, -1, c.Mi(p.Y, c.Mul(m, p.X))}
	if l.C == 0 {
		l.C = 0
	}
	return l
}

// LineConstruct is line_construct as a Geo.
func LineConstruct(p Point, m float64) (Geo, error) {
	var c GeoCalc
	l := c.LineThrough(p, m)
	return l.Geo(), c.Err
}

// LineSlope is line_sl.
func (c *GeoCalc) LineSlope(l Line) float64 {
	if FPzero(l.A) {
		return 0
	}
	if FPzero(l.B) {
		return math.Inf(1)
	}
	return c.Div(l.A, -l.B)
}

// LineInvSlope is line_invsl.
func (c *GeoCalc) LineInvSlope(l Line) float64 {
	if FPzero(l.A) {
		return math.Inf(1)
	}
	if FPzero(l.B) {
		return 0
	}
	return c.Div(l.B, l.A)
}

// LineInterpt is line_interpt_line: where l1 and l2 meet; ok is false for
// parallel lines.
func (c *GeoCalc) LineInterpt(l1, l2 Line) (Point, bool) {
	var x, y float64
	switch {
	case !FPzero(l1.B):
		if FPeq(l2.A, c.Mul(l1.A, c.Div(l2.B, l1.B))) {
			return Point{}, false
		}
		x = c.Div(c.Mi(c.Mul(l1.B, l2.C), c.Mul(l2.B, l1.C)), c.Mi(c.Mul(l1.A, l2.B), c.Mul(l2.A, l1.B)))
		y = c.Div(-c.Pl(c.Mul(l1.A, x), l1.C), l1.B)
	case !FPzero(l2.B):
		if FPeq(l1.A, c.Mul(l2.A, c.Div(l1.B, l2.B))) {
			return Point{}, false
		}
		x = c.Div(c.Mi(c.Mul(l2.B, l1.C), c.Mul(l1.B, l2.C)), c.Mi(c.Mul(l2.A, l1.B), c.Mul(l1.A, l2.B)))
		y = c.Div(-c.Pl(c.Mul(l2.A, x), l2.C), l2.B)
	default:
		return Point{}, false
	}
	if x == 0 {
		x = 0
	}
	if y == 0 {
		y = 0
	}
	return Point{x, y}, true
}

// LineContains is line_contain_point.
func (c *GeoCalc) LineContains(l Line, p Point) bool {
	return FPzero(c.Pl(c.Pl(c.Mul(l.A, p.X), c.Mul(l.B, p.Y)), l.C))
}

// LineClosePoint is line_closept_point: the foot of the perpendicular
// from p and its distance (NaN when none is found).
func (c *GeoCalc) LineClosePoint(l Line, p Point) (Point, float64) {
	tmp := c.LineThrough(p, c.LineInvSlope(l))
	cp, ok := c.LineInterpt(tmp, l)
	if !ok {
		return p, math.NaN()
	}
	return cp, c.Dist(cp, p)
}

// LSeg is a line segment's two ends.
type LSeg [2]Point

// SegContains is lseg_contain_point (the triangle inequality, fuzzily).
func (c *GeoCalc) SegContains(s LSeg, p Point) bool {
	return FPeq(c.Dist(p, s[0])+c.Dist(p, s[1]), c.Dist(s[0], s[1]))
}

// SegInterptLine is lseg_interpt_line.
func (c *GeoCalc) SegInterptLine(s LSeg, l Line) (Point, bool) {
	tmp := c.LineThrough(s[0], c.Slope(s[0], s[1]))
	ip, ok := c.LineInterpt(tmp, l)
	if !ok || !c.SegContains(s, ip) {
		return Point{}, false
	}
	switch {
	case PointEq(s[0], ip):
		return s[0], true
	case PointEq(s[1], ip):
		return s[1], true
	}
	return ip, true
}

// SegInterpt is lseg_interpt_lseg.
func (c *GeoCalc) SegInterpt(l1, l2 LSeg) (Point, bool) {
	tmp := c.LineThrough(l2[0], c.Slope(l2[0], l2[1]))
	ip, ok := c.SegInterptLine(l1, tmp)
	if !ok || !c.SegContains(l2, ip) {
		return Point{}, false
	}
	return ip, true
}

// SegClosePoint is lseg_closept_point.
func (c *GeoCalc) SegClosePoint(s LSeg, p Point) (Point, float64) {
	tmp := c.LineThrough(p, c.InvSlope(s[0], s[1]))
	cp, _ := c.SegCloseLine(s, tmp)
	return cp, c.Dist(cp, p)
}

// SegCloseLine is lseg_closept_line.
func (c *GeoCalc) SegCloseLine(s LSeg, l Line) (Point, float64) {
	if ip, ok := c.SegInterptLine(s, l); ok {
		return ip, 0
	}
	_, d1 := c.LineClosePoint(l, s[0])
	_, d2 := c.LineClosePoint(l, s[1])
	if d1 < d2 {
		return s[0], d1
	}
	return s[1], d2
}

// SegCloseSeg is lseg_closept_lseg: the point on on closest to to.
func (c *GeoCalc) SegCloseSeg(on, to LSeg) (Point, float64) {
	if ip, ok := c.SegInterpt(on, to); ok {
		return ip, 0
	}
	res, dist := c.SegClosePoint(on, to[0])
	if p, d := c.SegClosePoint(on, to[1]); f8lt(d, dist) {
		res, dist = p, d
	}
	if _, d := c.SegClosePoint(to, on[0]); f8lt(d, dist) {
		res, dist = on[0], d
	}
	if _, d := c.SegClosePoint(to, on[1]); f8lt(d, dist) {
		res, dist = on[1], d
	}
	return res, dist
}

// Box is a box's high and low corners.
type Box struct{ High, Low Point }

// BoxOf is the box of a Geo of type box (or a polygon's bounding box).
func BoxOf(g Geo) Box {
	if g.Type == GeoPolygon {
		return BoundBox(g.Pts)
	}
	return Box{g.Pts[0], g.Pts[1]}
}

// Geo is the box as a Geo value.
func (b Box) Geo() Geo { return Geo{Type: GeoBox, Pts: []Point{b.High, b.Low}} }

// BoundBox is make_bound_box over pts.
func BoundBox(pts []Point) Box {
	x1, x2, y1, y2 := pts[0].X, pts[0].X, pts[0].Y, pts[0].Y
	for _, p := range pts[1:] {
		if f8lt(p.X, x1) {
			x1 = p.X
		}
		if f8gt(p.X, x2) {
			x2 = p.X
		}
		if f8lt(p.Y, y1) {
			y1 = p.Y
		}
		if f8gt(p.Y, y2) {
			y2 = p.Y
		}
	}
	return Box{Point{x2, y2}, Point{x1, y1}}
}

// BoxOverlap is box_ov.
func BoxOverlap(a, b Box) bool {
	return FPle(a.Low.X, b.High.X) && FPle(b.Low.X, a.High.X) && FPle(a.Low.Y, b.High.Y) && FPle(b.Low.Y, a.High.Y)
}

// BoxContainsBox is box_contain_box.
func BoxContainsBox(a, b Box) bool {
	return FPge(a.High.X, b.High.X) && FPle(a.Low.X, b.Low.X) && FPge(a.High.Y, b.High.Y) && FPle(a.Low.Y, b.Low.Y)
}

// BoxContainsPoint is box_contain_point (exact, not fuzzy).
func BoxContainsPoint(b Box, p Point) bool {
	return b.High.X >= p.X && b.Low.X <= p.X && b.High.Y >= p.Y && b.Low.Y <= p.Y
}

// BoxCenter is box_cn.
func (c *GeoCalc) BoxCenter(b Box) Point {
	return Point{c.Div(c.Pl(b.High.X, b.Low.X), 2), c.Div(c.Pl(b.High.Y, b.Low.Y), 2)}
}

// BoxArea is box_ar.
func (c *GeoCalc) BoxArea(b Box) float64 {
	return c.Mul(c.Mi(b.High.X, b.Low.X), c.Mi(b.High.Y, b.Low.Y))
}

// boxSides are a box's four sides as box_closept_point walks them.
func boxSides(b Box) [4]LSeg {
	p1 := Point{b.Low.X, b.High.Y}
	p2 := Point{b.High.X, b.Low.Y}
	return [4]LSeg{{b.Low, p1}, {b.High, p1}, {b.Low, p2}, {b.High, p2}}
}

// BoxClosePoint is box_closept_point.
func (c *GeoCalc) BoxClosePoint(b Box, p Point) (Point, float64) {
	if BoxContainsPoint(b, p) {
		return p, 0
	}
	sides := boxSides(b)
	res, dist := c.SegClosePoint(sides[0], p)
	for _, s := range sides[1:] {
		if cp, d := c.SegClosePoint(s, p); f8lt(d, dist) {
			res, dist = cp, d
		}
	}
	return res, dist
}

// BoxInterptSeg is box_interpt_lseg.
func (c *GeoCalc) BoxInterptSeg(b Box, s LSeg) (Point, bool) {
	lbox := Box{Point{f8max(s[0].X, s[1].X), f8max(s[0].Y, s[1].Y)}, Point{f8min(s[0].X, s[1].X), f8min(s[0].Y, s[1].Y)}}
	if !BoxOverlap(lbox, b) {
		return Point{}, false
	}
	res, _ := c.SegClosePoint(s, c.BoxCenter(b))
	if BoxContainsPoint(b, s[0]) || BoxContainsPoint(b, s[1]) {
		return res, true
	}
	for _, side := range boxSides(b) {
		if _, ok := c.SegInterpt(side, s); ok {
			return res, true
		}
	}
	return Point{}, false
}

// BoxCloseSeg is box_closept_lseg.
func (c *GeoCalc) BoxCloseSeg(b Box, s LSeg) (Point, float64) {
	if p, ok := c.BoxInterptSeg(b, s); ok {
		return p, 0
	}
	sides := boxSides(b)
	res, dist := c.SegCloseSeg(sides[0], s)
	for _, side := range sides[1:] {
		if cp, d := c.SegCloseSeg(side, s); f8lt(d, dist) {
			res, dist = cp, d
		}
	}
	return res, dist
}

// pathSegs calls f with each segment of a path (the closing one first for
// a closed path), as the loops over iprev do.
func pathSegs(pts []Point, closed bool, f func(LSeg)) {
	for i := range pts {
		var prev int
		if i > 0 {
			prev = i - 1
		} else {
			if !closed {
				continue
			}
			prev = len(pts) - 1
		}
		f(LSeg{pts[prev], pts[i]})
	}
}

// PathDistPoint is dist_ppath_internal.
func (c *GeoCalc) PathDistPoint(pts []Point, closed bool, p Point) float64 {
	res, have := 0.0, false
	pathSegs(pts, closed, func(s LSeg) {
		if _, d := c.SegClosePoint(s, p); !have || f8lt(d, res) {
			res, have = d, true
		}
	})
	return res
}

// PathLength is path_length.
func (c *GeoCalc) PathLength(pts []Point, closed bool) float64 {
	res := 0.0
	pathSegs(pts, closed, func(s LSeg) { res = c.Pl(res, c.Dist(s[0], s[1])) })
	return res
}

// PathInter is path_inter.
func (c *GeoCalc) PathInter(a, b Geo) bool {
	if !BoxOverlap(BoundBox(a.Pts), BoundBox(b.Pts)) {
		return false
	}
	hit := false
	pathSegs(a.Pts, a.Closed, func(s1 LSeg) {
		pathSegs(b.Pts, b.Closed, func(s2 LSeg) {
			if !hit {
				_, hit = c.SegInterpt(s1, s2)
			}
		})
	})
	return hit
}

// PathDistance is path_distance; ok is false when neither has a segment.
func (c *GeoCalc) PathDistance(a, b Geo) (float64, bool) {
	res, have := 0.0, false
	pathSegs(a.Pts, a.Closed, func(s1 LSeg) {
		pathSegs(b.Pts, b.Closed, func(s2 LSeg) {
			if _, d := c.SegCloseSeg(s1, s2); !have || f8lt(d, res) {
				res, have = d, true
			}
		})
	})
	return res, have
}

// pointOnPolygon is point_inside's POINT_ON_POLYGON.
const pointOnPolygon = math.MaxInt32

// PointInside is point_inside: 0 outside, 1 inside, 2 on the border.
func (c *GeoCalc) PointInside(p Point, pts []Point) int {
	x0, y0 := c.Mi(pts[0].X, p.X), c.Mi(pts[0].Y, p.Y)
	px, py := x0, y0
	total := 0
	for _, q := range pts[1:] {
		x, y := c.Mi(q.X, p.X), c.Mi(q.Y, p.Y)
		cross := c.segCrossing(x, y, px, py)
		if cross == pointOnPolygon {
			return 2
		}
		total += cross
		px, py = x, y
	}
	cross := c.segCrossing(x0, y0, px, py)
	if cross == pointOnPolygon {
		return 2
	}
	if total+cross != 0 {
		return 1
	}
	return 0
}

// segCrossing is lseg_crossing.
func (c *GeoCalc) segCrossing(x, y, px, py float64) int {
	if FPzero(y) {
		switch {
		case FPzero(x):
			return pointOnPolygon
		case FPgt(x, 0):
			if FPzero(py) {
				if FPgt(px, 0) {
					return 0
				}
				return pointOnPolygon
			}
			if FPlt(py, 0) {
				return 1
			}
			return -1
		default:
			if FPzero(py) {
				if FPlt(px, 0) {
					return 0
				}
				return pointOnPolygon
			}
			return 0
		}
	}
	ySign := -1
	if FPgt(y, 0) {
		ySign = 1
	}
	switch {
	case FPzero(py):
		if FPlt(px, 0) {
			return 0
		}
		return ySign
	case ySign < 0 && FPlt(py, 0) || ySign > 0 && FPgt(py, 0):
		return 0
	case FPge(x, 0) && FPgt(px, 0):
		return 2 * ySign
	case FPlt(x, 0) && FPle(px, 0):
		return 0
	}
	z := c.Mi(c.Mul(c.Mi(x, px), y), c.Mul(c.Mi(y, py), x))
	if FPzero(z) {
		return pointOnPolygon
	}
	if ySign < 0 && FPlt(z, 0) || ySign > 0 && FPgt(z, 0) {
		return 0
	}
	return 2 * ySign
}

// OnPath is on_ppath.
func (c *GeoCalc) OnPath(p Point, g Geo) bool {
	if g.Closed {
		return c.PointInside(p, g.Pts) != 0
	}
	a := c.Dist(p, g.Pts[0])
	for i := 0; i < len(g.Pts)-1; i++ {
		b := c.Dist(p, g.Pts[i+1])
		if FPeq(c.Pl(a, b), c.Dist(g.Pts[i], g.Pts[i+1])) {
			return true
		}
		a = b
	}
	return false
}

// PolyDistPoint is dist_ppoly_internal.
func (c *GeoCalc) PolyDistPoint(p Point, pts []Point) float64 {
	if c.PointInside(p, pts) != 0 {
		return 0
	}
	_, res := c.SegClosePoint(LSeg{pts[0], pts[len(pts)-1]}, p)
	for i := 0; i < len(pts)-1; i++ {
		if _, d := c.SegClosePoint(LSeg{pts[i], pts[i+1]}, p); f8lt(d, res) {
			res = d
		}
	}
	return res
}

// PolyCircle is poly_to_circle: the points' mean and their mean distance
// from it.
func (c *GeoCalc) PolyCircle(pts []Point) (Point, float64) {
	var center Point
	for _, p := range pts {
		center = c.Add(center, p)
	}
	n := float64(len(pts))
	center = Point{c.Div(center.X, n), c.Div(center.Y, n)}
	r := 0.0
	for _, p := range pts {
		r = c.Pl(r, c.Dist(p, center))
	}
	return center, c.Div(r, n)
}

// PlistSame is plist_same: the same points in the same cyclic order,
// either way round.
func PlistSame(p1, p2 []Point) bool {
	n := len(p1)
	for i := 0; i < n; i++ {
		if !PointEq(p2[i], p1[0]) {
			continue
		}
		ii, j := 1, i+1
		for ; ii < n; ii, j = ii+1, j+1 {
			if j >= n {
				j = 0
			}
			if !PointEq(p2[j], p1[ii]) {
				break
			}
		}
		if ii == n {
			return true
		}
		ii, j = 1, i-1
		for ; ii < n; ii, j = ii+1, j-1 {
			if j < 0 {
				j = n - 1
			}
			if !PointEq(p2[j], p1[ii]) {
				break
			}
		}
		if ii == n {
			return true
		}
	}
	return false
}

// PolyOverlap is poly_overlap.
func (c *GeoCalc) PolyOverlap(a, b []Point) bool {
	if !BoxOverlap(BoundBox(a), BoundBox(b)) {
		return false
	}
	sa := LSeg{a[len(a)-1]}
	for _, pa := range a {
		sa[1] = pa
		sb := LSeg{b[len(b)-1]}
		for _, pb := range b {
			sb[1] = pb
			if _, ok := c.SegInterpt(sa, sb); ok {
				return true
			}
			sb[0] = sb[1]
		}
		sa[0] = sa[1]
	}
	return c.PointInside(a[0], b) != 0 || c.PointInside(b[0], a) != 0
}

// touchedSegInsidePoly is touched_lseg_inside_poly.
func (c *GeoCalc) touchedSegInsidePoly(a, b Point, s LSeg, poly []Point, start int) bool {
	t := LSeg{a, b}
	switch {
	case PointEq(a, s[0]):
		if c.SegContains(t, s[1]) {
			return c.segInsidePoly(b, s[1], poly, start)
		}
	case PointEq(a, s[1]):
		if c.SegContains(t, s[0]) {
			return c.segInsidePoly(b, s[0], poly, start)
		}
	case c.SegContains(t, s[0]):
		return c.segInsidePoly(b, s[0], poly, start)
	case c.SegContains(t, s[1]):
		return c.segInsidePoly(b, s[1], poly, start)
	}
	return true
}

// segInsidePoly is lseg_inside_poly.
func (c *GeoCalc) segInsidePoly(a, b Point, poly []Point, start int) bool {
	t := LSeg{a, b}
	var s LSeg
	if start == 0 {
		s[0] = poly[len(poly)-1]
	} else {
		s[0] = poly[start-1]
	}
	res, intersection := true, false
	for i := start; i < len(poly) && res; i++ {
		s[1] = poly[i]
		if c.SegContains(s, t[0]) {
			if c.SegContains(s, t[1]) {
				return true
			}
			res = c.touchedSegInsidePoly(t[0], t[1], s, poly, i+1)
		} else if c.SegContains(s, t[1]) {
			res = c.touchedSegInsidePoly(t[1], t[0], s, poly, i+1)
		} else if ip, ok := c.SegInterpt(t, s); ok {
			intersection = true
			res = c.segInsidePoly(t[0], ip, poly, i+1)
			if res {
				res = c.segInsidePoly(t[1], ip, poly, i+1)
			}
		}
		s[0] = s[1]
	}
	if res && !intersection {
		p := Point{c.Div(c.Pl(t[0].X, t[1].X), 2), c.Div(c.Pl(t[0].Y, t[1].Y), 2)}
		res = c.PointInside(p, poly) != 0
	}
	return res
}

// PolyContainsPoly is poly_contain_poly.
func (c *GeoCalc) PolyContainsPoly(outer, inner []Point) bool {
	if !BoxContainsBox(BoundBox(outer), BoundBox(inner)) {
		return false
	}
	s := LSeg{inner[len(inner)-1]}
	for _, p := range inner {
		s[1] = p
		if !c.segInsidePoly(s[0], s[1], outer, 0) {
			return false
		}
		s[0] = s[1]
	}
	return true
}
