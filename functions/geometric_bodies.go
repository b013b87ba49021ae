package functions

import (
	"math"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

type (
	gc = types.GeoCalc
	gp = types.Point
	gb = types.Box
)

// geoBodies are geo_ops.c's C functions by name (prosrc/oprcode).
var geoBodies = map[string]geoBody{
	// points
	"construct_point": func(_ *gc, a []geoArg) (any, error) { return geoPoint(gp{X: a[0].f, Y: a[1].f}), nil },
	"point_add":       byPoint((*gc).Add),
	"point_sub":       byPoint((*gc).Sub),
	"point_mul":       byPoint((*gc).MulPt),
	"point_div":       byPoint((*gc).DivPt),
	"point_distance":  func(c *gc, a []geoArg) (any, error) { return c.Dist(a[0].g.Pts[0], a[1].g.Pts[0]), nil },
	"point_slope":     func(c *gc, a []geoArg) (any, error) { return c.Slope(a[0].g.Pts[0], a[1].g.Pts[0]), nil },
	"point_left":      pointCmp(func(p, q gp) bool { return types.FPlt(p.X, q.X) }),
	"point_right":     pointCmp(func(p, q gp) bool { return types.FPgt(p.X, q.X) }),
	"point_above":     pointCmp(func(p, q gp) bool { return types.FPgt(p.Y, q.Y) }),
	"point_below":     pointCmp(func(p, q gp) bool { return types.FPlt(p.Y, q.Y) }),
	"point_vert":      pointCmp(func(p, q gp) bool { return types.FPeq(p.X, q.X) }),
	"point_horiz":     pointCmp(func(p, q gp) bool { return types.FPeq(p.Y, q.Y) }),
	"point_eq":        pointCmp(types.PointEq),
	"point_ne":        pointCmp(func(p, q gp) bool { return !types.PointEq(p, q) }),
	"point_box": func(_ *gc, a []geoArg) (any, error) {
		p := a[0].g.Pts[0]
		return gb{High: p, Low: p}.Geo(), nil
	},
	"points_box": func(_ *gc, a []geoArg) (any, error) { return types.MakeBox(a[0].g.Pts[0], a[1].g.Pts[0]), nil },

	// line segments
	"lseg_construct": func(_ *gc, a []geoArg) (any, error) { return geoSeg(types.LSeg{a[0].g.Pts[0], a[1].g.Pts[0]}), nil },
	"lseg_length":    func(c *gc, a []geoArg) (any, error) { return segLen(c, a[0].g), nil },
	"lseg_center": func(c *gc, a []geoArg) (any, error) {
		p, q := a[0].g.Pts[0], a[0].g.Pts[1]
		return geoPoint(gp{X: c.Div(c.Pl(p.X, q.X), 2), Y: c.Div(c.Pl(p.Y, q.Y), 2)}), nil
	},
	"lseg_intersect": func(c *gc, a []geoArg) (any, error) {
		_, ok := c.SegInterpt(segOf(a[0].g), segOf(a[1].g))
		return ok, nil
	},
	"lseg_interpt": func(c *gc, a []geoArg) (any, error) {
		if p, ok := c.SegInterpt(segOf(a[0].g), segOf(a[1].g)); ok {
			return geoPoint(p), nil
		}
		return nil, nil
	},
	"lseg_parallel": func(c *gc, a []geoArg) (any, error) {
		return types.FPeq(c.Slope(a[0].g.Pts[0], a[0].g.Pts[1]), c.Slope(a[1].g.Pts[0], a[1].g.Pts[1])), nil
	},
	"lseg_perp": func(c *gc, a []geoArg) (any, error) {
		return types.FPeq(c.Slope(a[0].g.Pts[0], a[0].g.Pts[1]), c.InvSlope(a[1].g.Pts[0], a[1].g.Pts[1])), nil
	},
	"lseg_vertical":   func(_ *gc, a []geoArg) (any, error) { return types.FPeq(a[0].g.Pts[0].X, a[0].g.Pts[1].X), nil },
	"lseg_horizontal": func(_ *gc, a []geoArg) (any, error) { return types.FPeq(a[0].g.Pts[0].Y, a[0].g.Pts[1].Y), nil },
	"lseg_eq": func(_ *gc, a []geoArg) (any, error) {
		return types.PointEq(a[0].g.Pts[0], a[1].g.Pts[0]) && types.PointEq(a[0].g.Pts[1], a[1].g.Pts[1]), nil
	},
	"lseg_ne": func(_ *gc, a []geoArg) (any, error) {
		return !types.PointEq(a[0].g.Pts[0], a[1].g.Pts[0]) || !types.PointEq(a[0].g.Pts[1], a[1].g.Pts[1]), nil
	},
	"lseg_lt": func(c *gc, a []geoArg) (any, error) { return types.FPlt(segLen(c, a[0].g), segLen(c, a[1].g)), nil },
	"lseg_le": func(c *gc, a []geoArg) (any, error) { return types.FPle(segLen(c, a[0].g), segLen(c, a[1].g)), nil },
	"lseg_gt": func(c *gc, a []geoArg) (any, error) { return types.FPgt(segLen(c, a[0].g), segLen(c, a[1].g)), nil },
	"lseg_ge": func(c *gc, a []geoArg) (any, error) { return types.FPge(segLen(c, a[0].g), segLen(c, a[1].g)), nil },
	"lseg_distance": func(c *gc, a []geoArg) (any, error) {
		_, d := c.SegCloseSeg(segOf(a[0].g), segOf(a[1].g))
		return d, nil
	},

	// lines
	"line_construct_pp": func(c *gc, a []geoArg) (any, error) {
		p, q := a[0].g.Pts[0], a[1].g.Pts[0]
		if types.PointEq(p, q) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid line specification: must be two distinct points")
		}
		return c.LineThrough(p, c.Slope(p, q)).Geo(), nil
	},
	"line_intersect": func(c *gc, a []geoArg) (any, error) {
		_, ok := c.LineInterpt(types.LineOf(a[0].g), types.LineOf(a[1].g))
		return ok, nil
	},
	"line_parallel": func(c *gc, a []geoArg) (any, error) {
		_, ok := c.LineInterpt(types.LineOf(a[0].g), types.LineOf(a[1].g))
		return !ok, nil
	},
	"line_perp": func(c *gc, a []geoArg) (any, error) {
		l1, l2 := types.LineOf(a[0].g), types.LineOf(a[1].g)
		switch {
		case types.FPzero(l1.A):
			return types.FPzero(l2.B), nil
		case types.FPzero(l2.A):
			return types.FPzero(l1.B), nil
		case types.FPzero(l1.B):
			return types.FPzero(l2.A), nil
		case types.FPzero(l2.B):
			return types.FPzero(l1.A), nil
		}
		return types.FPeq(c.Div(c.Mul(l1.A, l2.A), c.Mul(l1.B, l2.B)), -1.0), nil
	},
	"line_vertical":   func(_ *gc, a []geoArg) (any, error) { return types.FPzero(a[0].g.B), nil },
	"line_horizontal": func(_ *gc, a []geoArg) (any, error) { return types.FPzero(a[0].g.A), nil },
	"line_eq": func(c *gc, a []geoArg) (any, error) {
		l1, l2 := types.LineOf(a[0].g), types.LineOf(a[1].g)
		var ratio float64
		switch {
		case !types.FPzero(l2.A) && !math.IsNaN(l2.A):
			ratio = c.Div(l1.A, l2.A)
		case !types.FPzero(l2.B) && !math.IsNaN(l2.B):
			ratio = c.Div(l1.B, l2.B)
		case !types.FPzero(l2.C) && !math.IsNaN(l2.C):
			ratio = c.Div(l1.C, l2.C)
		default:
			ratio = 1
		}
		eq := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
		return types.FPeq(l1.A, c.Mul(ratio, l2.A)) && types.FPeq(l1.B, c.Mul(ratio, l2.B)) && types.FPeq(l1.C, c.Mul(ratio, l2.C)) ||
			eq(l1.A, l2.A) && eq(l1.B, l2.B) && eq(l1.C, l2.C), nil
	},
	"line_distance": func(c *gc, a []geoArg) (any, error) {
		l1, l2 := types.LineOf(a[0].g), types.LineOf(a[1].g)
		if _, ok := c.LineInterpt(l1, l2); ok {
			return 0.0, nil
		}
		ratio := 1.0
		switch {
		case !types.FPzero(l1.A) && !math.IsNaN(l1.A) && !types.FPzero(l2.A) && !math.IsNaN(l2.A):
			ratio = c.Div(l1.A, l2.A)
		case !types.FPzero(l1.B) && !math.IsNaN(l1.B) && !types.FPzero(l2.B) && !math.IsNaN(l2.B):
			ratio = c.Div(l1.B, l2.B)
		}
		return c.Div(math.Abs(c.Mi(l1.C, c.Mul(ratio, l2.C))), c.Hypot(l1.A, l1.B)), nil
	},
	"line_interpt": func(c *gc, a []geoArg) (any, error) {
		if p, ok := c.LineInterpt(types.LineOf(a[0].g), types.LineOf(a[1].g)); ok {
			return geoPoint(p), nil
		}
		return nil, nil
	},

	// boxes
	"box_same": func(_ *gc, a []geoArg) (any, error) {
		return types.PointEq(a[0].g.Pts[0], a[1].g.Pts[0]) && types.PointEq(a[0].g.Pts[1], a[1].g.Pts[1]), nil
	},
	"box_overlap":   boxCmp(types.BoxOverlap),
	"box_left":      boxCmp(func(a, b gb) bool { return types.FPlt(a.High.X, b.Low.X) }),
	"box_overleft":  boxCmp(func(a, b gb) bool { return types.FPle(a.High.X, b.High.X) }),
	"box_right":     boxCmp(func(a, b gb) bool { return types.FPgt(a.Low.X, b.High.X) }),
	"box_overright": boxCmp(func(a, b gb) bool { return types.FPge(a.Low.X, b.Low.X) }),
	"box_below":     boxCmp(func(a, b gb) bool { return types.FPlt(a.High.Y, b.Low.Y) }),
	"box_overbelow": boxCmp(func(a, b gb) bool { return types.FPle(a.High.Y, b.High.Y) }),
	"box_above":     boxCmp(func(a, b gb) bool { return types.FPgt(a.Low.Y, b.High.Y) }),
	"box_overabove": boxCmp(func(a, b gb) bool { return types.FPge(a.Low.Y, b.Low.Y) }),
	"box_contained": boxCmp(func(a, b gb) bool { return types.BoxContainsBox(b, a) }),
	"box_contain":   boxCmp(types.BoxContainsBox),
	"box_below_eq":  boxCmp(func(a, b gb) bool { return types.FPle(a.High.Y, b.Low.Y) }),
	"box_above_eq":  boxCmp(func(a, b gb) bool { return types.FPge(a.Low.Y, b.High.Y) }),
	"box_contain_pt": func(_ *gc, a []geoArg) (any, error) {
		return types.BoxContainsPoint(types.BoxOf(a[0].g), a[1].g.Pts[0]), nil
	},
	"on_pb": func(_ *gc, a []geoArg) (any, error) {
		return types.BoxContainsPoint(types.BoxOf(a[1].g), a[0].g.Pts[0]), nil
	},
	"box_lt":     boxArea(types.FPlt),
	"box_gt":     boxArea(types.FPgt),
	"box_eq":     boxArea(types.FPeq),
	"box_le":     boxArea(types.FPle),
	"box_ge":     boxArea(types.FPge),
	"box_area":   func(c *gc, a []geoArg) (any, error) { return c.BoxArea(types.BoxOf(a[0].g)), nil },
	"box_width":  func(c *gc, a []geoArg) (any, error) { return c.Mi(a[0].g.Pts[0].X, a[0].g.Pts[1].X), nil },
	"box_height": func(c *gc, a []geoArg) (any, error) { return c.Mi(a[0].g.Pts[0].Y, a[0].g.Pts[1].Y), nil },
	"box_center": func(c *gc, a []geoArg) (any, error) { return geoPoint(c.BoxCenter(types.BoxOf(a[0].g))), nil },
	"box_distance": func(c *gc, a []geoArg) (any, error) {
		return c.Dist(c.BoxCenter(types.BoxOf(a[0].g)), c.BoxCenter(types.BoxOf(a[1].g))), nil
	},
	"box_intersect": func(_ *gc, a []geoArg) (any, error) {
		b1, b2 := types.BoxOf(a[0].g), types.BoxOf(a[1].g)
		if !types.BoxOverlap(b1, b2) {
			return nil, nil
		}
		return gb{High: gp{X: f8Min(b1.High.X, b2.High.X), Y: f8Min(b1.High.Y, b2.High.Y)},
			Low: gp{X: f8Max(b1.Low.X, b2.Low.X), Y: f8Max(b1.Low.Y, b2.Low.Y)}}.Geo(), nil
	},
	"box_diagonal": func(_ *gc, a []geoArg) (any, error) { return geoSeg(types.LSeg{a[0].g.Pts[0], a[0].g.Pts[1]}), nil },
	"box_add":      byPoint((*gc).Add),
	"box_sub":      byPoint((*gc).Sub),
	"box_mul":      boxScale((*gc).MulPt),
	"box_div":      boxScale((*gc).DivPt),
	"boxes_bound_box": func(_ *gc, a []geoArg) (any, error) {
		b1, b2 := types.BoxOf(a[0].g), types.BoxOf(a[1].g)
		return gb{High: gp{X: f8Max(b1.High.X, b2.High.X), Y: f8Max(b1.High.Y, b2.High.Y)},
			Low: gp{X: f8Min(b1.Low.X, b2.Low.X), Y: f8Min(b1.Low.Y, b2.Low.Y)}}.Geo(), nil
	},
	"box_poly": func(_ *gc, a []geoArg) (any, error) {
		b := types.BoxOf(a[0].g)
		return geoPoly([]gp{b.Low, {X: b.Low.X, Y: b.High.Y}, b.High, {X: b.High.X, Y: b.Low.Y}}), nil
	},
	"box_circle": func(c *gc, a []geoArg) (any, error) {
		b := types.BoxOf(a[0].g)
		center := gp{X: c.Div(c.Pl(b.High.X, b.Low.X), 2), Y: c.Div(c.Pl(b.High.Y, b.Low.Y), 2)}
		return geoCircle(center, c.Dist(center, b.High)), nil
	},

	// paths
	"path_area": func(c *gc, a []geoArg) (any, error) {
		g := a[0].g
		if !g.Closed {
			return nil, nil
		}
		area := 0.0
		for i := range g.Pts {
			j := (i + 1) % len(g.Pts)
			area = c.Pl(area, c.Mul(g.Pts[i].X, g.Pts[j].Y))
			area = c.Mi(area, c.Mul(g.Pts[i].Y, g.Pts[j].X))
		}
		return c.Div(math.Abs(area), 2), nil
	},
	"path_n_lt":     pathNpts(func(a, b int) bool { return a < b }),
	"path_n_gt":     pathNpts(func(a, b int) bool { return a > b }),
	"path_n_eq":     pathNpts(func(a, b int) bool { return a == b }),
	"path_n_le":     pathNpts(func(a, b int) bool { return a <= b }),
	"path_n_ge":     pathNpts(func(a, b int) bool { return a >= b }),
	"path_isclosed": func(_ *gc, a []geoArg) (any, error) { return a[0].g.Closed, nil },
	"path_isopen":   func(_ *gc, a []geoArg) (any, error) { return !a[0].g.Closed, nil },
	"path_npoints":  func(_ *gc, a []geoArg) (any, error) { return int64(len(a[0].g.Pts)), nil },
	"poly_npoints":  func(_ *gc, a []geoArg) (any, error) { return int64(len(a[0].g.Pts)), nil },
	"path_close": func(_ *gc, a []geoArg) (any, error) {
		g := a[0].g
		g.Closed = true
		return g, nil
	},
	"path_open": func(_ *gc, a []geoArg) (any, error) {
		g := a[0].g
		g.Closed = false
		return g, nil
	},
	"path_inter": func(c *gc, a []geoArg) (any, error) { return c.PathInter(a[0].g, a[1].g), nil },
	"path_distance": func(c *gc, a []geoArg) (any, error) {
		if d, ok := c.PathDistance(a[0].g, a[1].g); ok {
			return d, nil
		}
		return nil, nil
	},
	"path_length": func(c *gc, a []geoArg) (any, error) { return c.PathLength(a[0].g.Pts, a[0].g.Closed), nil },
	"path_add": func(_ *gc, a []geoArg) (any, error) {
		if a[0].g.Closed || a[1].g.Closed {
			return nil, nil
		}
		g := a[0].g
		g.Pts = append(append([]gp{}, a[0].g.Pts...), a[1].g.Pts...)
		return g, nil
	},
	"path_add_pt": byPoint((*gc).Add),
	"path_sub_pt": byPoint((*gc).Sub),
	"path_mul_pt": byPoint((*gc).MulPt),
	"path_div_pt": byPoint((*gc).DivPt),
	"path_poly": func(_ *gc, a []geoArg) (any, error) {
		if !a[0].g.Closed {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "open path cannot be converted to polygon")
		}
		return geoPoly(a[0].g.Pts), nil
	},
	"poly_path": func(_ *gc, a []geoArg) (any, error) {
		return types.Geo{Type: types.GeoPath, Pts: a[0].g.Pts, Closed: true}, nil
	},
	"on_ppath":        func(c *gc, a []geoArg) (any, error) { return c.OnPath(a[0].g.Pts[0], a[1].g), nil },
	"path_contain_pt": func(c *gc, a []geoArg) (any, error) { return c.OnPath(a[1].g.Pts[0], a[0].g), nil },

	// polygons
	"poly_left":      polyBox(func(a, b gb) bool { return a.High.X < b.Low.X }),
	"poly_overleft":  polyBox(func(a, b gb) bool { return a.High.X <= b.High.X }),
	"poly_right":     polyBox(func(a, b gb) bool { return a.Low.X > b.High.X }),
	"poly_overright": polyBox(func(a, b gb) bool { return a.Low.X >= b.Low.X }),
	"poly_below":     polyBox(func(a, b gb) bool { return a.High.Y < b.Low.Y }),
	"poly_overbelow": polyBox(func(a, b gb) bool { return a.High.Y <= b.High.Y }),
	"poly_above":     polyBox(func(a, b gb) bool { return a.Low.Y > b.High.Y }),
	"poly_overabove": polyBox(func(a, b gb) bool { return a.Low.Y >= b.Low.Y }),
	"poly_same": func(_ *gc, a []geoArg) (any, error) {
		return len(a[0].g.Pts) == len(a[1].g.Pts) && types.PlistSame(a[0].g.Pts, a[1].g.Pts), nil
	},
	"poly_overlap":   polyPoly((*gc).PolyOverlap),
	"poly_contain":   polyPoly((*gc).PolyContainsPoly),
	"poly_contained": polyPoly(func(c *gc, a, b []gp) bool { return c.PolyContainsPoly(b, a) }),
	"poly_contain_pt": func(c *gc, a []geoArg) (any, error) {
		return c.PointInside(a[1].g.Pts[0], a[0].g.Pts) != 0, nil
	},
	"pt_contained_poly": func(c *gc, a []geoArg) (any, error) {
		return c.PointInside(a[0].g.Pts[0], a[1].g.Pts) != 0, nil
	},
	"poly_distance": func(c *gc, a []geoArg) (any, error) {
		// zero for overlapping polygons (poly_overlap_internal), which
		// the segments' distances miss when one holds the other
		pa, pb := a[0].g.Pts, a[1].g.Pts
		if c.PolyOverlap(pa, pb) {
			return 0.0, nil
		}
		d, _ := c.PathDistance(types.Geo{Pts: pa, Closed: true}, types.Geo{Pts: pb, Closed: true})
		return d, nil
	},
	"poly_center": func(c *gc, a []geoArg) (any, error) {
		center, _ := c.PolyCircle(a[0].g.Pts)
		return geoPoint(center), nil
	},
	"poly_circle": func(c *gc, a []geoArg) (any, error) {
		center, r := c.PolyCircle(a[0].g.Pts)
		return geoCircle(center, r), nil
	},
	"poly_box": func(_ *gc, a []geoArg) (any, error) { return types.BoundBox(a[0].g.Pts).Geo(), nil },

	// circles
	"circle_same": circleCmp(func(_ *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return (math.IsNaN(r1) || types.FPeq(r1, r2)) && types.PointEq(p1, p2)
	}),
	"circle_overlap": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPle(c.Dist(p1, p2), c.Pl(r1, r2))
	}),
	"circle_overleft": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPle(c.Pl(p1.X, r1), c.Pl(p2.X, r2))
	}),
	"circle_left": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPlt(c.Pl(p1.X, r1), c.Mi(p2.X, r2))
	}),
	"circle_right": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPgt(c.Mi(p1.X, r1), c.Pl(p2.X, r2))
	}),
	"circle_overright": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPge(c.Mi(p1.X, r1), c.Mi(p2.X, r2))
	}),
	"circle_contained": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPle(c.Dist(p1, p2), c.Mi(r2, r1))
	}),
	"circle_contain": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPle(c.Dist(p1, p2), c.Mi(r1, r2))
	}),
	"circle_below": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPlt(c.Pl(p1.Y, r1), c.Mi(p2.Y, r2))
	}),
	"circle_above": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPgt(c.Mi(p1.Y, r1), c.Pl(p2.Y, r2))
	}),
	"circle_overbelow": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPle(c.Pl(p1.Y, r1), c.Pl(p2.Y, r2))
	}),
	"circle_overabove": circleCmp(func(c *gc, p1 gp, r1 float64, p2 gp, r2 float64) bool {
		return types.FPge(c.Mi(p1.Y, r1), c.Mi(p2.Y, r2))
	}),
	"circle_eq": circleAreas(types.FPeq),
	"circle_ne": circleAreas(types.FPne),
	"circle_lt": circleAreas(types.FPlt),
	"circle_gt": circleAreas(types.FPgt),
	"circle_le": circleAreas(types.FPle),
	"circle_ge": circleAreas(types.FPge),
	"circle_add_pt": func(c *gc, a []geoArg) (any, error) {
		return geoCircle(c.Add(a[0].g.Pts[0], a[1].g.Pts[0]), a[0].g.R), nil
	},
	"circle_sub_pt": func(c *gc, a []geoArg) (any, error) {
		return geoCircle(c.Sub(a[0].g.Pts[0], a[1].g.Pts[0]), a[0].g.R), nil
	},
	"circle_mul_pt":   circleScale((*gc).MulPt, (*gc).Mul),
	"circle_div_pt":   circleScale((*gc).DivPt, (*gc).Div),
	"circle_area":     func(c *gc, a []geoArg) (any, error) { return circleArea(c, a[0].g.R), nil },
	"circle_diameter": func(c *gc, a []geoArg) (any, error) { return c.Mul(a[0].g.R, 2), nil },
	"circle_radius":   func(_ *gc, a []geoArg) (any, error) { return a[0].g.R, nil },
	"circle_center":   func(_ *gc, a []geoArg) (any, error) { return geoPoint(a[0].g.Pts[0]), nil },
	"circle_distance": func(c *gc, a []geoArg) (any, error) {
		return nonNegative(c.Mi(c.Dist(a[0].g.Pts[0], a[1].g.Pts[0]), c.Pl(a[0].g.R, a[1].g.R))), nil
	},
	"circle_contain_pt": func(c *gc, a []geoArg) (any, error) {
		return c.Dist(a[0].g.Pts[0], a[1].g.Pts[0]) <= a[0].g.R, nil
	},
	"pt_contained_circle": func(c *gc, a []geoArg) (any, error) {
		return c.Dist(a[1].g.Pts[0], a[0].g.Pts[0]) <= a[1].g.R, nil
	},
	"dist_pc": func(c *gc, a []geoArg) (any, error) {
		return nonNegative(c.Mi(c.Dist(a[0].g.Pts[0], a[1].g.Pts[0]), a[1].g.R)), nil
	},
	"dist_cpoint": func(c *gc, a []geoArg) (any, error) {
		return nonNegative(c.Mi(c.Dist(a[1].g.Pts[0], a[0].g.Pts[0]), a[0].g.R)), nil
	},
	"cr_circle": func(_ *gc, a []geoArg) (any, error) { return geoCircle(a[0].g.Pts[0], a[1].f), nil },
	"circle_box": func(c *gc, a []geoArg) (any, error) {
		p, delta := a[0].g.Pts[0], c.Div(a[0].g.R, math.Sqrt(2.0))
		return gb{High: gp{X: c.Pl(p.X, delta), Y: c.Pl(p.Y, delta)}, Low: gp{X: c.Mi(p.X, delta), Y: c.Mi(p.Y, delta)}}.Geo(), nil
	},
	"circle_poly": func(c *gc, a []geoArg) (any, error) { return circlePoly(c, a[0].i, a[1].g) },
	"polygon":     func(c *gc, a []geoArg) (any, error) { return circlePoly(c, 12, a[0].g) },

	// distances and closest points between types
	"dist_pl": func(c *gc, a []geoArg) (any, error) {
		_, d := c.LineClosePoint(types.LineOf(a[1].g), a[0].g.Pts[0])
		return d, nil
	},
	"dist_lp": func(c *gc, a []geoArg) (any, error) {
		_, d := c.LineClosePoint(types.LineOf(a[0].g), a[1].g.Pts[0])
		return d, nil
	},
	"dist_ps": func(c *gc, a []geoArg) (any, error) {
		_, d := c.SegClosePoint(segOf(a[1].g), a[0].g.Pts[0])
		return d, nil
	},
	"dist_sp": func(c *gc, a []geoArg) (any, error) {
		_, d := c.SegClosePoint(segOf(a[0].g), a[1].g.Pts[0])
		return d, nil
	},
	"dist_ppath": func(c *gc, a []geoArg) (any, error) {
		return c.PathDistPoint(a[1].g.Pts, a[1].g.Closed, a[0].g.Pts[0]), nil
	},
	"dist_pathp": func(c *gc, a []geoArg) (any, error) {
		return c.PathDistPoint(a[0].g.Pts, a[0].g.Closed, a[1].g.Pts[0]), nil
	},
	"dist_pb": func(c *gc, a []geoArg) (any, error) {
		_, d := c.BoxClosePoint(types.BoxOf(a[1].g), a[0].g.Pts[0])
		return d, nil
	},
	"dist_bp": func(c *gc, a []geoArg) (any, error) {
		_, d := c.BoxClosePoint(types.BoxOf(a[0].g), a[1].g.Pts[0])
		return d, nil
	},
	"dist_sl": func(c *gc, a []geoArg) (any, error) {
		_, d := c.SegCloseLine(segOf(a[0].g), types.LineOf(a[1].g))
		return d, nil
	},
	"dist_ls": func(c *gc, a []geoArg) (any, error) {
		_, d := c.SegCloseLine(segOf(a[1].g), types.LineOf(a[0].g))
		return d, nil
	},
	"dist_sb": func(c *gc, a []geoArg) (any, error) {
		_, d := c.BoxCloseSeg(types.BoxOf(a[1].g), segOf(a[0].g))
		return d, nil
	},
	"dist_bs": func(c *gc, a []geoArg) (any, error) {
		_, d := c.BoxCloseSeg(types.BoxOf(a[0].g), segOf(a[1].g))
		return d, nil
	},
	"dist_ppoly": func(c *gc, a []geoArg) (any, error) { return c.PolyDistPoint(a[0].g.Pts[0], a[1].g.Pts), nil },
	"dist_polyp": func(c *gc, a []geoArg) (any, error) { return c.PolyDistPoint(a[1].g.Pts[0], a[0].g.Pts), nil },
	"dist_cpoly": func(c *gc, a []geoArg) (any, error) {
		return nonNegative(c.Mi(c.PolyDistPoint(a[0].g.Pts[0], a[1].g.Pts), a[0].g.R)), nil
	},
	"dist_polyc": func(c *gc, a []geoArg) (any, error) {
		return nonNegative(c.Mi(c.PolyDistPoint(a[1].g.Pts[0], a[0].g.Pts), a[1].g.R)), nil
	},
	"close_pl": func(c *gc, a []geoArg) (any, error) {
		return pointResult(c.LineClosePoint(types.LineOf(a[1].g), a[0].g.Pts[0])), nil
	},
	"close_ps": func(c *gc, a []geoArg) (any, error) {
		return pointResult(c.SegClosePoint(segOf(a[1].g), a[0].g.Pts[0])), nil
	},
	"close_pb": func(c *gc, a []geoArg) (any, error) {
		return pointResult(c.BoxClosePoint(types.BoxOf(a[1].g), a[0].g.Pts[0])), nil
	},
	"close_sb": func(c *gc, a []geoArg) (any, error) {
		return pointResult(c.BoxCloseSeg(types.BoxOf(a[1].g), segOf(a[0].g))), nil
	},
	"close_lseg": func(c *gc, a []geoArg) (any, error) {
		l1, l2 := segOf(a[0].g), segOf(a[1].g)
		if c.Slope(l1[0], l1[1]) == c.Slope(l2[0], l2[1]) {
			return nil, nil
		}
		return pointResult(c.SegCloseSeg(l2, l1)), nil
	},
	"close_ls": func(c *gc, a []geoArg) (any, error) {
		l, s := types.LineOf(a[0].g), segOf(a[1].g)
		if c.Slope(s[0], s[1]) == c.LineSlope(l) {
			return nil, nil
		}
		return pointResult(c.SegCloseLine(s, l)), nil
	},
	"on_pl": func(c *gc, a []geoArg) (any, error) { return c.LineContains(types.LineOf(a[1].g), a[0].g.Pts[0]), nil },
	"on_ps": func(c *gc, a []geoArg) (any, error) { return c.SegContains(segOf(a[1].g), a[0].g.Pts[0]), nil },
	"on_sl": func(c *gc, a []geoArg) (any, error) {
		l := types.LineOf(a[1].g)
		return c.LineContains(l, a[0].g.Pts[0]) && c.LineContains(l, a[0].g.Pts[1]), nil
	},
	"on_sb": func(_ *gc, a []geoArg) (any, error) {
		b := types.BoxOf(a[1].g)
		return types.BoxContainsPoint(b, a[0].g.Pts[0]) && types.BoxContainsPoint(b, a[0].g.Pts[1]), nil
	},
	"inter_sl": func(c *gc, a []geoArg) (any, error) {
		_, ok := c.SegInterptLine(segOf(a[0].g), types.LineOf(a[1].g))
		return ok, nil
	},
	"inter_sb": func(c *gc, a []geoArg) (any, error) {
		_, ok := c.BoxInterptSeg(types.BoxOf(a[1].g), segOf(a[0].g))
		return ok, nil
	},
	"inter_lb": func(c *gc, a []geoArg) (any, error) {
		l, b := types.LineOf(a[0].g), types.BoxOf(a[1].g)
		p1, p2 := b.Low, gp{X: b.Low.X, Y: b.High.Y}
		steps := []func(){
			func() {},
			func() { p1 = b.High },
			func() { p2 = gp{X: b.High.X, Y: b.Low.Y} },
			func() { p1 = b.Low },
		}
		for _, step := range steps {
			step()
			if _, ok := c.SegInterptLine(types.LSeg{p1, p2}, l); ok {
				return true, nil
			}
		}
		return false, nil
	},
}

// boxArea compares two boxes' areas.
func boxArea(cmp func(a, b float64) bool) geoBody {
	return func(c *gc, a []geoArg) (any, error) {
		return cmp(c.BoxArea(types.BoxOf(a[0].g)), c.BoxArea(types.BoxOf(a[1].g))), nil
	}
}

// circleAreas compares two circles' areas.
func circleAreas(cmp func(a, b float64) bool) geoBody {
	return func(c *gc, a []geoArg) (any, error) {
		return cmp(circleArea(c, a[0].g.R), circleArea(c, a[1].g.R)), nil
	}
}

// polyBox compares two polygons' bounding boxes exactly.
func polyBox(f func(a, b gb) bool) geoBody {
	return func(_ *gc, a []geoArg) (any, error) {
		return f(types.BoundBox(a[0].g.Pts), types.BoundBox(a[1].g.Pts)), nil
	}
}

func nonNegative(d float64) float64 {
	if d < 0 {
		return 0
	}
	return d
}

// f8Max and f8Min are float8_max and float8_min: NaN sorts above every
// number.
func f8Max(a, b float64) float64 {
	if !math.IsNaN(b) && (math.IsNaN(a) || a > b) {
		return a
	}
	return b
}

func f8Min(a, b float64) float64 {
	if !math.IsNaN(a) && (math.IsNaN(b) || a < b) {
		return a
	}
	return b
}
