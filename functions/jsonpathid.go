package functions

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// jsonbOffset finds o inside v, laid out from off as PostgreSQL's jsonb
// binary form lays a document out (a container is a 4-byte header, a
// 4-byte entry per element, or per key and value, then the keys and the
// values; numbers and containers start at a multiple of 4), and returns
// its offset: .keyvalue()'s "id" of an object inside the document.
func jsonbOffset(v any, o *jpObject, off int64) (int64, bool) {
	_, at, ok := jsonbLayout(v, o, off)
	return at, ok
}

// jsonbLayout lays v out from off: the end, and o's offset if v holds it.
func jsonbLayout(v any, o *jpObject, off int64) (end, at int64, found bool) {
	align := func(x int64) int64 { return (x + 3) &^ 3 }
	switch x := v.(type) {
	case nil, bool:
		return off, 0, false
	case string:
		return off + int64(len(x)), 0, false
	case *apd.Decimal:
		return align(off) + numericSize(x), 0, false
	case []any:
		off = align(off)
		p := off + 4 + 4*int64(len(x))
		for _, c := range x {
			var a int64
			var f bool
			if p, a, f = jsonbLayout(c, o, p); f {
				return p, a, true
			}
		}
		return p, 0, false
	case *jpObject:
		off = align(off)
		if x == o {
			return off, off, true
		}
		p := off + 4 + 8*int64(len(x.keys))
		for _, k := range x.keys {
			p += int64(len(k))
		}
		for _, c := range x.vals {
			var a int64
			var f bool
			if p, a, f = jsonbLayout(c, o, p); f {
				return p, a, true
			}
		}
		return p, 0, false
	}
	return off, 0, false
}

// numericSize is the bytes of numeric's stored form: a 4-byte length, a
// 2-byte header (4 when the weight or display scale is large), 2 bytes
// per base-10000 digit.
func numericSize(d *apd.Decimal) int64 {
	if numeric.IsSpecial(d) {
		return 6
	}
	s := numeric.String(numeric.Abs(d))
	intPart, frac := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			intPart, frac = s[:i], s[i+1:]
		}
	}
	dscale := len(frac)
	// base-10000 groups: the integer part from the point leftwards, the
	// fraction from the point rightwards
	for len(intPart)%4 != 0 {
		intPart = "0" + intPart
	}
	for len(frac)%4 != 0 {
		frac += "0"
	}
	var groups []string
	for i := 0; i < len(intPart); i += 4 {
		groups = append(groups, intPart[i:i+4])
	}
	nInt := len(groups)
	for i := 0; i < len(frac); i += 4 {
		groups = append(groups, frac[i:i+4])
	}
	first, last := 0, len(groups)
	for first < last && groups[first] == "0000" {
		first++
	}
	for last > first && groups[last-1] == "0000" {
		last--
	}
	weight := nInt - 1 - first
	hdr := int64(2)
	if first == last {
		weight = 0
	}
	if dscale > 63 || weight > 63 || weight < -64 {
		hdr = 4
	}
	return 4 + hdr + 2*int64(last-first)
}
