package types

import "testing"

// TestParseGeo checks the input forms geo_ops.c's decoders take and the
// text their output functions print, and the errors of malformed input.
func TestParseGeo(t *testing.T) {
	cases := []struct {
		v        Variant
		in, want string
	}{
		{GeoPoint, "(1,2)", "(1,2)"},
		{GeoPoint, " 1 , 2 ", "(1,2)"},
		{GeoPoint, "(1e3,-0.5)", "(1000,-0.5)"},
		{GeoLSeg, "[(1,2),(3,4)]", "[(1,2),(3,4)]"},
		{GeoLSeg, "1,2,3,4", "[(1,2),(3,4)]"},
		{GeoBox, "(1,2),(3,4)", "(3,4),(1,2)"},
		{GeoBox, "((0,0),(1,1))", "(1,1),(0,0)"},
		{GeoPath, "[(0,0),(1,1),(2,0)]", "[(0,0),(1,1),(2,0)]"},
		{GeoPath, "((0,0),(1,1))", "((0,0),(1,1))"},
		{GeoPath, "(0,0),(1,1)", "((0,0),(1,1))"},
		{GeoPolygon, "(0,0),(1,1),(2,0)", "((0,0),(1,1),(2,0))"},
		{GeoCircle, "<(1,2),3>", "<(1,2),3>"},
		{GeoCircle, "1,2,3", "<(1,2),3>"},
		{GeoCircle, "((1,2),3)", "<(1,2),3>"},
		{GeoLine, "{1,-1,0}", "{1,-1,0}"},
		{GeoLine, "[(0,0),(1,1)]", "{1,-1,0}"},
		{GeoLine, "(0,0),(0,1)", "{-1,0,0}"},
		{GeoPoint, "(1", "error"},
		{GeoPoint, "(1,2)x", "error"},
		{GeoCircle, "<(1,2),-3>", "error"},
		{GeoLine, "{0,0,1}", "error"},
		{GeoBox, "[(1,2),(3,4)]", "error"},
		{GeoPath, "(1,2),(3,4),(5", "error"},
	}
	for _, c := range cases {
		got, err := ParseGeoText(c.in, c.v)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("%s %q: got %q, want %q (%v)", c.v.Name(), c.in, got, c.want, err)
		}
	}
}
