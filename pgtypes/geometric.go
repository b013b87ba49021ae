package pgtypes

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// The geometric types on the wire (types/geometric.go holds them as their
// text): the text form under the session's extra_float_digits, and
// point_send's ... circle_send's binary forms (big-endian float8s; a
// path's closed byte and a path's or polygon's int32 count first).

// geometric type OIDs and their arrays
const (
	OIDPoint        uint32 = 600
	OIDPointArray   uint32 = 1017
	OIDLSeg         uint32 = 601
	OIDLSegArray    uint32 = 1018
	OIDPath         uint32 = 602
	OIDPathArray    uint32 = 1019
	OIDBox          uint32 = 603
	OIDBoxArray     uint32 = 1020
	OIDPolygon      uint32 = 604
	OIDPolygonArray uint32 = 1027
	OIDLine         uint32 = 628
	OIDLineArray    uint32 = 629
	OIDCircle       uint32 = 718
	OIDCircleArray  uint32 = 719
)

// geoOIDs are the geometric variants' OIDs and their arrays' (box[]'s
// elements are separated by ';', its typdelim, in PostgreSQL's text).
var geoOIDs = map[types.Variant][2]uint32{
	types.GeoPoint: {OIDPoint, OIDPointArray}, types.GeoLSeg: {OIDLSeg, OIDLSegArray},
	types.GeoPath: {OIDPath, OIDPathArray}, types.GeoBox: {OIDBox, OIDBoxArray},
	types.GeoPolygon: {OIDPolygon, OIDPolygonArray}, types.GeoLine: {OIDLine, OIDLineArray},
	types.GeoCircle: {OIDCircle, OIDCircleArray},
}

// geoSizes are the fixed sizes (pg_type.typlen) of the geometric types;
// path and polygon are variable (-1).
var geoSizes = map[types.Variant]int16{
	types.GeoPoint: 16, types.GeoLSeg: 32, types.GeoBox: 32, types.GeoLine: 24, types.GeoCircle: 24,
	types.GeoPath: -1, types.GeoPolygon: -1,
}

// geoVariantOf is the geometric variant of a type OID.
func geoVariantOf(oid uint32) (types.Variant, bool) {
	for v, o := range geoOIDs {
		if o[0] == oid {
			return v, true
		}
	}
	return types.NoVariant, false
}

// GeoTypeOfOID is the type of a geometric OID or of its array's.
func GeoTypeOfOID(oid uint32) (types.T, bool) {
	for v, o := range geoOIDs {
		switch oid {
		case o[0]:
			return types.GeometricType(v), true
		case o[1]:
			return types.ArrayOf(types.GeometricType(v)), true
		}
	}
	return types.T{}, false
}

// geoEncoder writes a geometric column (its stored text) in a format.
type geoEncoder struct {
	mode    mode
	variant types.Variant
	digits  types.FloatDigits
	arr     *array.String
}

func (e *geoEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.String)
	if !ok {
		return mismatch(arr, types.GeometricType(e.variant))
	}
	e.arr = a
	return nil
}

func (e *geoEncoder) appendValue(dst []byte, row int) []byte {
	s := e.arr.Value(row)
	switch e.mode {
	case modeBinary:
		b, err := types.GeoBytes(s, e.variant)
		if err != nil {
			return append(dst, s...)
		}
		return append(dst, b...)
	case modeJSON:
		return appendJSONString(dst, []byte(types.GeoTextDigits(s, e.variant, e.digits)))
	}
	return append(dst, types.GeoTextDigits(s, e.variant, e.digits)...)
}

// init registers the geometric types in the tables oid.go keeps for
// every String variant, as bitstring.go does: scalar and array OIDs.
func init() {
	for v, o := range geoOIDs {
		variantOIDs[v] = o[0]
		arrayOIDs[o[0]] = o[1]
	}
}
