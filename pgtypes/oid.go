package pgtypes

import "github.com/sqlgate/sqlgate/types"

// PostgreSQL type OIDs (pg_type.oid) that sqlgate puts on the wire.
const (
	OIDUnknown    uint32 = 0
	OIDBool       uint32 = 16
	OIDBytea      uint32 = 17
	OIDChar       uint32 = 18 // "char", one byte
	OIDName       uint32 = 19
	OIDInt8       uint32 = 20
	OIDInt2       uint32 = 21
	OIDInt2Vector uint32 = 22
	OIDInt4       uint32 = 23
	OIDText       uint32 = 25
	OIDOid        uint32 = 26
	OIDOidVector  uint32 = 30
	OIDJSON       uint32 = 114
	OIDUUID       uint32 = 2950
	OIDUUIDArray  uint32 = 2951
	// jsonpath and jsonpath[]
	OIDJSONPath      uint32 = 4072
	OIDJSONPathArray uint32 = 4073
	OIDInet          uint32 = 869
	OIDInetArray     uint32 = 1041
	OIDCidr          uint32 = 650
	OIDMoney         uint32 = 790
	OIDMoneyArray    uint32 = 791
	OIDMacAddr       uint32 = 829
	OIDMacAddrArray  uint32 = 1040
	OIDMacAddr8      uint32 = 774
	OIDMacAddr8Array uint32 = 775
	OIDCidrArray     uint32 = 651
	OIDTSVector      uint32 = 3614
	OIDTSVectorArray uint32 = 3643
	OIDTSQuery       uint32 = 3615
	OIDTSQueryArray  uint32 = 3645
	OIDRegConfig     uint32 = 3734
	OIDRegConfigArr  uint32 = 3735
	OIDPgLsn         uint32 = 3220
	OIDVoid          uint32 = 2278
	OIDPgLsnArray    uint32 = 3221
	OIDXid           uint32 = 28
	OIDXidArray      uint32 = 1011
	OIDPgNodeTree    uint32 = 194
	OIDAclItem       uint32 = 1033
	OIDAclItemArr    uint32 = 1034
	OIDAnyArray      uint32 = 2277
	OIDFloat4        uint32 = 700
	OIDFloat8        uint32 = 701
	OIDBPChar        uint32 = 1042
	OIDVarchar       uint32 = 1043
	OIDDate          uint32 = 1082
	OIDTime          uint32 = 1083
	OIDTimestamp     uint32 = 1114
	OIDTimestampTZ   uint32 = 1184
	OIDInterval      uint32 = 1186
	OIDNumeric       uint32 = 1700
	OIDJSONB         uint32 = 3802
	OIDRecord        uint32 = 2249
	OIDRecordArray   uint32 = 2287

	OIDRegProc       uint32 = 24
	OIDRegProcedure  uint32 = 2202
	OIDRegClass      uint32 = 2205
	OIDRegType       uint32 = 2206
	OIDRegNamespace  uint32 = 4089
	OIDRegRole       uint32 = 4096
	OIDRegOper       uint32 = 2203
	OIDRegOperator   uint32 = 2204
	OIDRegCollation  uint32 = 4191
	OIDRegDictionary uint32 = 3769

	OIDJSONArray        uint32 = 199
	OIDBoolArray        uint32 = 1000
	OIDByteaArray       uint32 = 1001
	OIDCharArray        uint32 = 1002
	OIDNameArray        uint32 = 1003
	OIDInt2Array        uint32 = 1005
	OIDInt4Array        uint32 = 1007
	OIDTextArray        uint32 = 1009
	OIDBPCharArray      uint32 = 1014
	OIDVarcharArray     uint32 = 1015
	OIDInt8Array        uint32 = 1016
	OIDFloat4Array      uint32 = 1021
	OIDFloat8Array      uint32 = 1022
	OIDOidArray         uint32 = 1028
	OIDTimestampArray   uint32 = 1115
	OIDDateArray        uint32 = 1182
	OIDTimeArray        uint32 = 1183
	OIDTimestampTZArray uint32 = 1185
	OIDIntervalArray    uint32 = 1187
	OIDNumericArray     uint32 = 1231
	OIDJSONBArray       uint32 = 3807

	OIDRegProcArray       uint32 = 1008
	OIDRegProcedureArray  uint32 = 2207
	OIDRegClassArray      uint32 = 2210
	OIDRegTypeArray       uint32 = 2211
	OIDRegNamespaceArray  uint32 = 4090
	OIDRegRoleArray       uint32 = 4097
	OIDRegOperArray       uint32 = 2208
	OIDRegOperatorArray   uint32 = 2209
	OIDRegCollationArray  uint32 = 4192
	OIDRegDictionaryArray uint32 = 3770
)

// variantOIDs are the OIDs of the types.Variant types that travel as
// scalars of their own (the vectors are handled beside "char").
var variantOIDs = map[types.Variant]uint32{
	types.RegClass: OIDRegClass, types.RegType: OIDRegType, types.RegProc: OIDRegProc,
	types.RegProcedure: OIDRegProcedure, types.RegNamespace: OIDRegNamespace, types.RegRole: OIDRegRole,
	types.RegOper: OIDRegOper, types.RegOperator: OIDRegOperator, types.RegCollation: OIDRegCollation, types.RegDictionary: OIDRegDictionary,
	types.JSON: OIDJSON, types.JSONB: OIDJSONB, types.UUID: OIDUUID, types.JSONPath: OIDJSONPath,
	types.Inet: OIDInet, types.PgLsn: OIDPgLsn, types.Xid: OIDXid, types.Cidr: OIDCidr,
	types.Money: OIDMoney, types.MacAddr: OIDMacAddr, types.MacAddr8: OIDMacAddr8,
	types.TSVector: OIDTSVector, types.TSQuery: OIDTSQuery, types.RegConfig: OIDRegConfig,
	types.PgNodeTree: OIDPgNodeTree, types.AclItem: OIDAclItem, types.AnyArray: OIDAnyArray,
	types.Void: OIDVoid,
}

// arrayOIDs maps an element type OID to its PostgreSQL array type OID
// (pg_type.typarray).
var arrayOIDs = map[uint32]uint32{
	OIDRecord: OIDRecordArray,
	OIDBool:   OIDBoolArray, OIDBytea: OIDByteaArray, OIDName: OIDNameArray, OIDChar: OIDCharArray,
	OIDInt2: OIDInt2Array, OIDInt4: OIDInt4Array, OIDInt8: OIDInt8Array,
	OIDText: OIDTextArray, OIDBPChar: OIDBPCharArray, OIDVarchar: OIDVarcharArray,
	OIDFloat4: OIDFloat4Array, OIDFloat8: OIDFloat8Array, OIDOid: OIDOidArray,
	OIDTimestamp: OIDTimestampArray, OIDDate: OIDDateArray, OIDTime: OIDTimeArray,
	OIDTimestampTZ: OIDTimestampTZArray, OIDInterval: OIDIntervalArray, OIDTimeTZ: OIDTimeTZArray,
	OIDNumeric: OIDNumericArray, OIDJSON: OIDJSONArray, OIDJSONB: OIDJSONBArray, OIDUUID: OIDUUIDArray, OIDJSONPath: OIDJSONPathArray,
	OIDInet: OIDInetArray, OIDCidr: OIDCidrArray,
	OIDMoney: OIDMoneyArray, OIDMacAddr: OIDMacAddrArray, OIDMacAddr8: OIDMacAddr8Array, OIDTSVector: OIDTSVectorArray, OIDTSQuery: OIDTSQueryArray, OIDRegConfig: OIDRegConfigArr, OIDPgLsn: OIDPgLsnArray, OIDXid: OIDXidArray, OIDAclItem: OIDAclItemArr,
	OIDInt4Range: OIDInt4RangeArray, OIDInt8Range: OIDInt8RangeArray, OIDNumRange: OIDNumRangeArray,
	OIDDateRange: OIDDateRangeArray, OIDTsRange: OIDTsRangeArray, OIDTstzRange: OIDTstzRangeArray,
	OIDInt4Multirange: OIDInt4MultirangeArray, OIDInt8Multirange: OIDInt8MultirangeArray, OIDNumMultirange: OIDNumMultirangeArray,
	OIDDateMultirange: OIDDateMultirangeArray, OIDTsMultirange: OIDTsMultirangeArray, OIDTstzMultirange: OIDTstzMultirangeArray,
	OIDRegProc: OIDRegProcArray, OIDRegProcedure: OIDRegProcedureArray, OIDRegClass: OIDRegClassArray,
	OIDRegType: OIDRegTypeArray, OIDRegNamespace: OIDRegNamespaceArray, OIDRegRole: OIDRegRoleArray,
	OIDRegOper: OIDRegOperArray, OIDRegOperator: OIDRegOperatorArray, OIDRegCollation: OIDRegCollationArray, OIDRegDictionary: OIDRegDictionaryArray,
}

// ArrayOIDOf returns the OID of the PostgreSQL array type whose elements have
// type OID elem, and false when PostgreSQL has none that sqlgate uses.
func ArrayOIDOf(elem uint32) (uint32, bool) {
	o, ok := arrayOIDs[elem]
	return o, ok
}

// IsPGArray reports whether t travels as a PostgreSQL array ({1,2,NULL},
// {{1,2},{3,4}}): an ARRAY of a scalar type, or an ARRAY of such arrays
// (a multidimensional array of the innermost type, multidim.go). Arrays
// of MAP/ROW travel as json: PostgreSQL has no such element type.
func IsPGArray(t types.T) bool {
	return arrayDepth(t) > 0
}

// OIDOf returns the PostgreSQL type of a result column of type t: its OID, its
// type modifier (atttypmod, -1 for none) and its size (pg_type.typlen, -1 for
// variable length), as RowDescription carries them. Unknown and Null columns are
// text, as PostgreSQL resolves unknown-typed output columns.
func OIDOf(t types.T) (oid uint32, typmod int32, size int16) {
	switch {
	case t.Variant == types.Enum: // a user-defined enum: its own OID (pg_type)
		return t.TypeOID, -1, 4
	case t.Variant == types.QChar:
		return OIDChar, -1, 1
	case t.Variant == types.Int2Vector:
		return OIDInt2Vector, -1, -1
	case t.Variant == types.OidVector:
		return OIDOidVector, -1, -1
	case t.Variant.IsReg():
		return variantOIDs[t.Variant], -1, 4
	case t.Variant.IsJSON():
		return variantOIDs[t.Variant], -1, -1
	case t.Variant == types.UUID:
		return OIDUUID, -1, 16
	case t.IsBitString():
		return bitOIDOf(t) // bitstring.go
	case t.Variant == types.Inet:
		return OIDInet, -1, -1
	case t.Variant == types.Cidr:
		return OIDCidr, -1, -1
	case t.Variant == types.Money:
		return OIDMoney, -1, 8
	case t.Variant == types.MacAddr:
		return OIDMacAddr, -1, 6
	case t.Variant == types.MacAddr8:
		return OIDMacAddr8, -1, 8
	case t.Variant == types.TSVector, t.Variant == types.TSQuery:
		return variantOIDs[t.Variant], -1, -1
	case t.Variant == types.RegConfig:
		return OIDRegConfig, -1, 4
	case t.IsRange() || t.IsMultirange():
		return rangeOIDs[t.Variant], -1, -1 // ranges.go
	case t.IsGeometric():
		return geoOIDs[t.Variant][0], -1, geoSizes[t.Variant] // geometric.go
	case t.Variant == types.PgLsn:
		return OIDPgLsn, -1, 8
	case t.Variant == types.Xid:
		return OIDXid, -1, 4
	case t.Variant == types.PgNodeTree, t.Variant == types.AnyArray, t.Variant == types.JSONPath:
		return variantOIDs[t.Variant], -1, -1
	case t.Variant == types.AclItem:
		return OIDAclItem, -1, 12
	case t.Variant == types.Void:
		return OIDVoid, -1, 4
	case t.Variant == types.Record: // SEARCH BREADTH FIRST's column (binder/searchcycle.go)
		return OIDRecord, -1, -1
	case t.Variant == types.RecordArray: // SEARCH DEPTH FIRST's and CYCLE's
		return OIDRecordArray, -1, -1
	case t.IsComposite(): // a table's row type, CREATE TYPE ... AS (...)'s
		return t.TypeOID, -1, -1
	case t.IsAnonRecord(): // ROW(a, b): record.go
		return OIDRecord, -1, -1
	}
	switch t.Kind {
	case types.Unknown, types.Null:
		return OIDText, -1, -1
	case types.Bool:
		return OIDBool, -1, 1
	case types.Int8, types.Int16:
		return OIDInt2, -1, 2
	case types.Int32:
		return OIDInt4, -1, 4
	case types.Int64:
		return OIDInt8, -1, 8
	case types.Float32:
		return OIDFloat4, -1, 4
	case types.Float64:
		return OIDFloat8, -1, 8
	case types.Char:
		if t.Length <= 0 { // bpchar without a length
			return OIDBPChar, -1, -1
		}
		return OIDBPChar, int32(t.Length) + 4, -1
	case types.String:
		if t.Length < 0 { // varchar without a limit
			return OIDVarchar, -1, -1
		}
		if t.Length > 0 {
			return OIDVarchar, int32(t.Length) + 4, -1
		}
		return OIDText, -1, -1
	case types.Bytes, types.Binary:
		return OIDBytea, -1, -1
	case types.Decimal:
		if t.Precision > 0 {
			return OIDNumeric, int32(t.Precision<<16|t.Scale) + 4, -1
		}
		return OIDNumeric, -1, -1
	case types.Date:
		return OIDDate, -1, 4
	case types.Time:
		return OIDTime, fracTypmod(t.Precision), 8
	case types.Timestamp:
		return OIDTimestamp, fracTypmod(t.Precision), 8
	case types.TimestampTZ:
		return OIDTimestampTZ, fracTypmod(t.Precision), 8
	case types.Interval:
		return OIDInterval, -1, 16
	case types.TimeTZ:
		return OIDTimeTZ, fracTypmod(t.Precision), 12
	case types.Oid:
		return OIDOid, -1, 4
	case types.Name:
		return OIDName, -1, 64
	case types.Array:
		if IsPGArray(t) {
			in := innermost(t)
			elem, typmod, _ := OIDOf(in)
			if in.Variant == types.Enum {
				return in.TypeOID + 1, -1, -1 // the enum's array type (engine/enumtypes.go)
			}
			if in.IsComposite() {
				return types.CompositeArrayOID(in.TypeOID), -1, -1 // its array type (types/composite.go)
			}
			if arr, ok := arrayOIDs[elem]; ok {
				return arr, typmod, -1
			}
		}
		return OIDJSON, -1, -1
	case types.Map, types.Row:
		return OIDJSON, -1, -1
	}
	return OIDText, -1, -1
}

// ParamOIDOf returns the OID that ParameterDescription reports for a parameter
// of type t: 0 for Unknown, so that drivers send any value as text (with 25,
// pgx refuses to encode non-string values), else OIDOf's.
func ParamOIDOf(t types.T) uint32 {
	if t.Kind == types.Unknown {
		return OIDUnknown
	}
	oid, _, _ := OIDOf(t)
	return oid
}

// fracTypmod is the typmod of time/timestamp(p). 6 digits is PostgreSQL's
// default and maximum, shown as "no typmod" as PostgreSQL shows a bare time
// or timestamp; 0..5 are typmods of their own, so a TIME(0) column (and
// sqlgate's bare TIME, which is Fluss's TIME(0)) reads as time(0) in psql's
// \d, format_type and information_schema.datetime_precision, as in
// PostgreSQL 15. Precisions above 6 (Fluss's 7..9) are held at 6 digits.
func fracTypmod(p int) int32 {
	if p >= 0 && p < 6 {
		return int32(p)
	}
	return -1
}
