package types

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL's geometric types (geo_ops.c): point (OID 600), lseg (601),
// path (602), box (603), polygon (604), line (628) and circle (718) are
// Strings holding the value's text as PostgreSQL prints it with
// extra_float_digits 1 (the shortest text that reads back exactly, so no
// bit of a coordinate is lost); output in another extra_float_digits and
// the binary forms (point_send ...) are made from it. Fluss has no such
// types: a column of one is a STRING of that text, as a range's is. None
// of them has a btree opclass, so they do not order, group or DISTINCT.

// IsGeometric reports whether v is one of the seven geometric types.
func (v Variant) IsGeometric() bool { return v >= GeoPoint && v <= GeoCircle }

// IsGeometric reports whether t is a geometric type.
func (t T) IsGeometric() bool { return t.Kind == String && t.Variant.IsGeometric() }

// GeometricType is the geometric type v.
func GeometricType(v Variant) T { return T{Kind: String, Variant: v} }

// Point is a geometric point.
type Point struct{ X, Y float64 }

// Geo is a value of a geometric type taken apart: Pts holds a point's one
// point, a lseg's two ends, a box's high and low corners (in that order),
// a path's or polygon's points, a circle's center; R is a circle's radius,
// A, B and C a line's Ax + By + C = 0, Closed a path's closedness.
type Geo struct {
	Type    Variant
	Pts     []Point
	R       float64
	A, B, C float64
	Closed  bool
}

// geoInput reads one geometric text as geo_ops.c's decoders do: pos is the
// reading position in s; every failure is the type's one 22P02 but a
// coordinate out of range (22003, float8in's).
type geoInput struct {
	s    string
	i    int
	name string
}

func (p *geoInput) syntax() error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", p.name, p.s)
}

func (p *geoInput) skipSpace() {
	for p.i < len(p.s) && isCSpaceByte(p.s[p.i]) {
		p.i++
	}
}

func (p *geoInput) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// next consumes one byte and reports whether it was c (as C's *s++ != c,
// which moves on either way).
func (p *geoInput) next(c byte) bool {
	got := p.peek()
	if p.i < len(p.s) {
		p.i++
	}
	return got == c
}

func isCSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// float is float8in_internal with an end pointer: blanks, a number as
// strtod reads it (or NaN, Infinity), blanks.
func (p *geoInput) float() (float64, error) {
	p.skipSpace()
	n := strtodPrefix(p.s[p.i:])
	if n == 0 {
		return 0, p.syntax()
	}
	num := p.s[p.i : p.i+n]
	f, err := float8Value(num)
	if err != nil {
		return 0, err
	}
	p.i += n
	p.skipSpace()
	return f, nil
}

// float8Value is float8in's value of a number strtodPrefix found: 22003
// where strtod's ERANGE meets a result of zero or infinity (a subnormal
// one is kept).
func float8Value(num string) (float64, error) {
	if v, ok := strtodValue(num); ok {
		return v, nil
	}
	t := num
	if m := strings.ToLower(strings.TrimLeft(num, "+-")); strings.HasPrefix(m, "0x") && !strings.Contains(m, "p") {
		t += "p0"
	}
	v, _ := strconv.ParseFloat(t, 64)
	if v == 0 || math.IsInf(v, 0) {
		return 0, floatOutOfRange(Float64Type, num)
	}
	return v, nil
}

// pair is pair_decode: blanks, an optional '(', x ',' y, its ')' and
// blanks.
func (p *geoInput) pair() (Point, error) {
	p.skipSpace()
	paren := p.peek() == '('
	if paren {
		p.i++
	}
	x, err := p.float()
	if err != nil {
		return Point{}, err
	}
	if !p.next(',') {
		return Point{}, p.syntax()
	}
	y, err := p.float()
	if err != nil {
		return Point{}, err
	}
	if paren {
		if !p.next(')') {
			return Point{}, p.syntax()
		}
		p.skipSpace()
	}
	return Point{x, y}, nil
}

// path is path_decode: npts points, optionally inside '[' ']' (when open
// is allowed; isOpen reports it) or '(' ')'; the position is left after
// the closing delimiters.
func (p *geoInput) path(allowOpen bool, npts int) (pts []Point, isOpen bool, err error) {
	depth := 0
	p.skipSpace()
	switch p.peek() {
	case '[':
		if !allowOpen {
			return nil, false, p.syntax()
		}
		isOpen = true
		depth++
		p.i++
	case '(':
		cp, nested := p.afterParen()
		if nested || strings.LastIndexByte(p.s[p.i:], '(') == 0 {
			depth++
			p.i = cp
		}
	}
	pts = make([]Point, 0, npts)
	for k := 0; k < npts; k++ {
		pt, err := p.pair()
		if err != nil {
			return nil, false, err
		}
		pts = append(pts, pt)
		if p.peek() == ',' {
			p.i++
		}
	}
	for depth > 0 {
		if c := p.peek(); c == ')' || c == ']' && isOpen && depth == 1 {
			depth--
			p.i++
			p.skipSpace()
		} else {
			return nil, false, p.syntax()
		}
	}
	return pts, isOpen, nil
}

// afterParen is where the blanks after the '(' at the reading position
// end, and whether another '(' follows them (two left parens: the first
// one the value's own).
func (p *geoInput) afterParen() (int, bool) {
	cp := p.i + 1
	for cp < len(p.s) && isCSpaceByte(p.s[cp]) {
		cp++
	}
	return cp, cp < len(p.s) && p.s[cp] == '('
}

func (p *geoInput) end() error {
	if p.i != len(p.s) {
		return p.syntax()
	}
	return nil
}

// pairCount is pair_count: the points a path's or polygon's text holds
// by its commas (an odd number of them), -1 for an even number.
func pairCount(s string) int {
	n := strings.Count(s, ",")
	if n%2 == 1 {
		return (n + 1) / 2
	}
	return -1
}

// ParseGeo takes apart a stored geometric text (one ParseGeoText made):
// as the input functions read it, but a box's corners are kept as they
// are (a box_intersect's high may be below its low, and stays so).
func ParseGeo(s string, v Variant) (Geo, error) { return parseGeo(s, v, false) }

// parseGeo reads the text of geometric type v as its input function
// (point_in, lseg_in, line_in, box_in, path_in, poly_in, circle_in) does;
// input says box_in's reordering of the corners applies.
func parseGeo(s string, v Variant, input bool) (Geo, error) {
	p := &geoInput{s: s, name: v.Name()}
	g := Geo{Type: v}
	switch v {
	case GeoPoint:
		pt, err := p.pair()
		if err != nil {
			return g, err
		}
		g.Pts = []Point{pt}
		return g, p.end()
	case GeoLSeg, GeoBox:
		pts, _, err := p.path(v == GeoLSeg, 2)
		if err != nil {
			return g, err
		}
		if err := p.end(); err != nil {
			return g, err
		}
		g.Pts = pts
		if v == GeoBox && input {
			g = boxIn(pts[0], pts[1])
		}
		return g, nil
	case GeoLine:
		return parseLine(p)
	case GeoPath:
		return parsePath(p)
	case GeoPolygon:
		n := pairCount(s)
		if n <= 0 {
			return g, p.syntax()
		}
		pts, _, err := p.path(false, n)
		if err != nil {
			return g, err
		}
		g.Pts = pts
		return g, p.end()
	case GeoCircle:
		return parseCircle(p)
	}
	return g, p.syntax()
}

// MakeBox is box_construct: the box with corners a and b, high first
// (float8_gt: NaN above every number).
func MakeBox(a, b Point) Geo {
	hi, lo := a, b
	if !f8gt(a.X, b.X) {
		hi.X, lo.X = b.X, a.X
	}
	if !f8gt(a.Y, b.Y) {
		hi.Y, lo.Y = b.Y, a.Y
	}
	return Geo{Type: GeoBox, Pts: []Point{hi, lo}}
}

// boxIn is box_in's and box_recv's reordering: the corners read as high
// and low, swapped where high is below low (float8_lt), so that a -0
// and a 0 keep their places.
func boxIn(hi, lo Point) Geo {
	if f8lt(hi.X, lo.X) {
		hi.X, lo.X = lo.X, hi.X
	}
	if f8lt(hi.Y, lo.Y) {
		hi.Y, lo.Y = lo.Y, hi.Y
	}
	return Geo{Type: GeoBox, Pts: []Point{hi, lo}}
}

func parseLine(p *geoInput) (Geo, error) {
	g := Geo{Type: GeoLine}
	p.skipSpace()
	if p.peek() == '{' {
		p.i++
		var vals [3]float64
		for k := range vals {
			f, err := p.float()
			if err != nil {
				return g, err
			}
			vals[k] = f
			want := byte(',')
			if k == 2 {
				want = '}'
			}
			if !p.next(want) {
				return g, p.syntax()
			}
		}
		p.skipSpace()
		if err := p.end(); err != nil {
			return g, err
		}
		g.A, g.B, g.C = vals[0], vals[1], vals[2]
		if FPzero(g.A) && FPzero(g.B) {
			return g, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid line specification: A and B cannot both be zero")
		}
		return g, nil
	}
	pts, _, err := p.path(true, 2)
	if err != nil {
		return g, err
	}
	if err := p.end(); err != nil {
		return g, err
	}
	if PointEq(pts[0], pts[1]) {
		return g, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid line specification: must be two distinct points")
	}
	sl, err := PointSlope(pts[0], pts[1])
	if err != nil {
		return g, err
	}
	return LineConstruct(pts[0], sl)
}

func parsePath(p *geoInput) (Geo, error) {
	g := Geo{Type: GeoPath}
	n := pairCount(p.s)
	if n <= 0 {
		return g, p.syntax()
	}
	p.skipSpace()
	depth := 0
	if p.peek() == '(' && strings.LastIndexByte(p.s[p.i:], '(') == 0 {
		p.i++
		depth++
	}
	pts, isOpen, err := p.path(true, n)
	if err != nil {
		return g, err
	}
	if depth >= 1 {
		if !p.next(')') {
			return g, p.syntax()
		}
		p.skipSpace()
	}
	if err := p.end(); err != nil {
		return g, err
	}
	g.Pts, g.Closed = pts, !isOpen
	return g, nil
}

func parseCircle(p *geoInput) (Geo, error) {
	g := Geo{Type: GeoCircle}
	depth := 0
	p.skipSpace()
	switch p.peek() {
	case '<':
		depth++
		p.i++
	case '(':
		if cp, nested := p.afterParen(); nested {
			depth++
			p.i = cp
		}
	}
	center, err := p.pair()
	if err != nil {
		return g, err
	}
	if p.peek() == ',' {
		p.i++
	}
	r, err := p.float()
	if err != nil {
		return g, err
	}
	if r < 0 {
		return g, p.syntax()
	}
	for depth > 0 {
		if c := p.peek(); c == ')' || c == '>' && depth == 1 {
			depth--
			p.i++
			p.skipSpace()
		} else {
			return g, p.syntax()
		}
	}
	if err := p.end(); err != nil {
		return g, err
	}
	g.Pts, g.R = []Point{center}, r
	return g, nil
}

// AppendText writes g as its output function does, floats as float8out
// under extra_float_digits d.
func (g Geo) AppendText(dst []byte, d FloatDigits) []byte {
	pair := func(dst []byte, pt Point) []byte {
		dst = append(dst, '(')
		dst = AppendFloatText(dst, pt.X, 64, d)
		dst = append(dst, ',')
		dst = AppendFloatText(dst, pt.Y, 64, d)
		return append(dst, ')')
	}
	list := func(dst []byte, pts []Point) []byte {
		for k, pt := range pts {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = pair(dst, pt)
		}
		return dst
	}
	switch g.Type {
	case GeoPoint, GeoBox:
		return list(dst, g.Pts)
	case GeoLSeg:
		return append(list(append(dst, '['), g.Pts), ']')
	case GeoPath:
		if !g.Closed {
			return append(list(append(dst, '['), g.Pts), ']')
		}
		return append(list(append(dst, '('), g.Pts), ')')
	case GeoPolygon:
		return append(list(append(dst, '('), g.Pts), ')')
	case GeoCircle:
		dst = pair(append(dst, '<'), g.Pts[0])
		dst = AppendFloatText(append(dst, ','), g.R, 64, d)
		return append(dst, '>')
	case GeoLine:
		dst = AppendFloatText(append(dst, '{'), g.A, 64, d)
		dst = AppendFloatText(append(dst, ','), g.B, 64, d)
		dst = AppendFloatText(append(dst, ','), g.C, 64, d)
		return append(dst, '}')
	}
	return dst
}

// String is g's stored text (extra_float_digits 1).
func (g Geo) String() string { return string(g.AppendText(nil, FloatDigits{})) }

// ParseGeoText is ParseGeo returning the stored text.
func ParseGeoText(s string, v Variant) (string, error) {
	g, err := parseGeo(s, v, true)
	if err != nil {
		return "", err
	}
	return g.String(), nil
}

// GeoTextDigits is a stored geometric text printed under extra_float_digits
// d (the text itself for the default).
func GeoTextDigits(s string, v Variant, d FloatDigits) string {
	if d == (FloatDigits{}) {
		return s
	}
	g, err := ParseGeo(s, v)
	if err != nil {
		return s
	}
	return string(g.AppendText(nil, d))
}

// GeoBytes is the binary form (point_send, lseg_send, line_send, box_send,
// path_send, poly_send, circle_send) of a stored geometric text.
func GeoBytes(s string, v Variant) ([]byte, error) {
	g, err := ParseGeo(s, v)
	if err != nil {
		return nil, err
	}
	var out []byte
	f8 := func(f float64) { out = binary.BigEndian.AppendUint64(out, math.Float64bits(f)) }
	pts := func() {
		for _, pt := range g.Pts {
			f8(pt.X)
			f8(pt.Y)
		}
	}
	switch v {
	case GeoPoint, GeoLSeg, GeoBox:
		pts()
	case GeoLine:
		f8(g.A)
		f8(g.B)
		f8(g.C)
	case GeoPath:
		closed := byte(0)
		if g.Closed {
			closed = 1
		}
		out = append(out, closed)
		out = binary.BigEndian.AppendUint32(out, uint32(len(g.Pts)))
		pts()
	case GeoPolygon:
		out = binary.BigEndian.AppendUint32(out, uint32(len(g.Pts)))
		pts()
	case GeoCircle:
		pts()
		f8(g.R)
	}
	return out, nil
}

// GeoFromBytes reads a geometric type's binary form (point_recv ...) and
// returns its stored text; 22P03 for a short or malformed message.
func GeoFromBytes(b []byte, v Variant) (string, error) {
	bad := func() error {
		return sqlerr.New(sqlerr.Code("22P03"), "insufficient data left in message")
	}
	f8 := func() (float64, bool) {
		if len(b) < 8 {
			return 0, false
		}
		f := math.Float64frombits(binary.BigEndian.Uint64(b))
		b = b[8:]
		return f, true
	}
	pts := func(n int) ([]Point, bool) {
		out := make([]Point, n)
		for k := range out {
			x, ok1 := f8()
			y, ok2 := f8()
			if !ok1 || !ok2 {
				return nil, false
			}
			out[k] = Point{x, y}
		}
		return out, true
	}
	g := Geo{Type: v}
	var ok bool
	switch v {
	case GeoPoint:
		g.Pts, ok = pts(1)
	case GeoLSeg:
		g.Pts, ok = pts(2)
	case GeoBox:
		if g.Pts, ok = pts(2); ok {
			g = boxIn(g.Pts[0], g.Pts[1])
		}
	case GeoLine:
		var ok1, ok2, ok3 bool
		g.A, ok1 = f8()
		g.B, ok2 = f8()
		g.C, ok3 = f8()
		ok = ok1 && ok2 && ok3
		if ok && FPzero(g.A) && FPzero(g.B) {
			return "", sqlerr.New(sqlerr.Code("22P03"), "invalid line specification: A and B cannot both be zero")
		}
	case GeoPath, GeoPolygon:
		if v == GeoPath {
			if len(b) < 1 {
				return "", bad()
			}
			g.Closed, b = b[0] != 0, b[1:]
		}
		if len(b) < 4 {
			return "", bad()
		}
		n := int32(binary.BigEndian.Uint32(b))
		b = b[4:]
		if n <= 0 || int(n) > len(b)/16 {
			return "", sqlerr.New(sqlerr.Code("22P03"), "invalid number of points in external \"%s\" value", v.Name())
		}
		g.Pts, ok = pts(int(n))
	case GeoCircle:
		if g.Pts, ok = pts(1); ok {
			g.R, ok = f8()
			if ok && g.R < 0 {
				return "", sqlerr.New(sqlerr.Code("22P03"), "invalid radius in external \"circle\" value")
			}
		}
	}
	if !ok {
		return "", bad()
	}
	return g.String(), nil
}
