package types

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Kind is the family of a SQL type.
type Kind uint8

// The kinds. The order of the numeric kinds is their promotion order
// (Int8 < Int16 < Int32 < Int64 < Decimal < Float32 < Float64), used by the binder.
const (
	Unknown     Kind = iota // an untyped string literal or parameter; coerced by context
	Null                    // the type of a bare NULL literal
	Bool                    // BOOLEAN
	Int8                    // TINYINT (PostgreSQL int2 on the wire)
	Int16                   // SMALLINT
	Int32                   // INT
	Int64                   // BIGINT
	Decimal                 // DECIMAL(p,s) (decimal128); Precision 0 = unconstrained NUMERIC (numeric.go)
	Float32                 // FLOAT / REAL
	Float64                 // DOUBLE PRECISION
	Char                    // CHAR(n)
	String                  // STRING / TEXT / VARCHAR
	Bytes                   // BYTES / BYTEA
	Binary                  // BINARY(n)
	Date                    // DATE
	Time                    // TIME(p)
	Timestamp               // TIMESTAMP(p), no time zone
	TimestampTZ             // TIMESTAMP_LTZ(p) / timestamptz
	Interval                // PostgreSQL interval (queries only)
	Array                   // ARRAY<Elem>
	Map                     // MAP<Key, Elem>
	Row                     // ROW<Fields...>
	Oid                     // PostgreSQL oid (catalog queries)
	Name                    // PostgreSQL name (catalog queries)
	TimeTZ                  // PostgreSQL time(p) with time zone (queries only; timetz.go)
)

// Variant marks a PostgreSQL catalog type that sqlgate computes as the
// type's Kind but shows to clients under the PostgreSQL type's own OID,
// text and binary forms. Everything but the wire encodings (pgtypes), type
// names, subscripts and casts to and from text treats it as its Kind.
type Variant uint8

// The variants.
const (
	NoVariant  Variant = iota
	QChar              // PostgreSQL's one-byte "char" (OID 18: relkind, contype ...), a String
	Int2Vector         // int2vector (OID 22: pg_index.indkey), an ARRAY<SMALLINT> printed "2 1", subscripts from 0
	OidVector          // oidvector (OID 30: pg_index.indclass), an ARRAY<OID> printed "0 0", subscripts from 0

	// The reg* types are OIDs (Kind Oid) that print as the name of the
	// object they identify. Only the wire's text output (which asks the
	// catalog) and casts to text tell them from oid; binary is the OID.
	RegClass     // regclass (OID 2205)
	RegType      // regtype (OID 2206)
	RegProc      // regproc (OID 24)
	RegProcedure // regprocedure (OID 2202)
	RegNamespace // regnamespace (OID 4089)
	RegRole      // regrole (OID 4096)

	// JSON and JSONB are Strings holding JSON text: json (OID 114) as
	// written, jsonb (OID 3802) normalised as PostgreSQL prints it.
	JSON
	JSONB

	// Record and RecordArray are the record and record[] columns the
	// SEARCH and CYCLE clauses of WITH RECURSIVE add: Bytes holding an
	// order-preserving key of the values (functions/recordkey.go),
	// which compare and sort as PostgreSQL's but are never printed.
	Record
	RecordArray

	// UUID is uuid (OID 2950): a String holding the canonical text form
	// (lower-case hex, 8-4-4-4-12), which sorts as PostgreSQL's 16 bytes
	// do. Fluss has no uuid type: a uuid column is STRING (see
	// fluss/coldefs.go).
	UUID

	// Inet is inet (OID 869) and PgLsn pg_lsn (OID 3220): Strings holding
	// PostgreSQL's text form (types/inet.go), which pg_stat_activity and
	// the replication views show. inet orders as PostgreSQL's network_cmp
	// and pg_lsn numerically, through keys (InetKey, LSNKey) the binder
	// compares in place of the text (binder/textorder.go).
	Inet
	PgLsn
	// Xid is xid (OID 28), a transaction ID: an Oid that prints as its
	// number (pg_class.relfrozenxid, pg_stat_activity.backend_xid).
	Xid
	// PgNodeTree (OID 194: pg_index.indexprs, pg_attrdef.adbin), AclItem
	// (OID 1033, in aclitem[] columns: pg_class.relacl) and AnyArray (OID
	// 2277: pg_attribute.attmissingval, always NULL) are catalog columns'
	// types: Strings holding the text, whose binary form is the text too.
	// They have no input: no cast or parameter makes one.
	PgNodeTree
	AclItem
	AnyArray
	// JSONPath is jsonpath (OID 4072): a String holding the path as
	// PostgreSQL prints it (types/jsonpath), which its text input reads.
	JSONPath

	// AnonRecord marks a Row that is PostgreSQL's anonymous record (OID
	// 2249; an array of them is record[], 2287): what ROW(a, b) and (a, b)
	// make. Being in the type, it survives derived tables, VALUES, set
	// operations, DISTINCT and GROUP BY, so the value prints "(1,a)" where a
	// Fluss ROW column's value travels as JSON.
	AnonRecord

	// Enum is a user-defined enum type (CREATE TYPE ... AS ENUM, enum.go):
	// a String holding the label, T.TypeOID naming the type, whose
	// definition (labels, their order) the registry in enum.go holds.
	Enum

	// Bit and VarBit are bit(n) (OID 1560) and bit varying(n) (OID 1562):
	// Strings holding the bits as '0'/'1' characters (bitstring.go), whose
	// byte order is PostgreSQL's bitcmp order. Length is n; 0 is no typmod
	// (an operator's result; varbit without a limit).
	Bit
	VarBit

	// Void is void (OID 2278), what pg_sleep and pg_advisory_lock return:
	// a String that is always empty, as void's output is.
	Void

	// Cidr is cidr (OID 650): a String holding its text, always with
	// /bits (netaddr.go: ParseCidr); it orders as inet does and converts
	// implicitly to inet.
	Cidr

	// TSVector and TSQuery are tsvector (OID 3614) and tsquery (3615):
	// Strings holding the value as PostgreSQL prints it (types/tsearch
	// reads and prints them; they order by keys, binder/textorder.go).
	// RegConfig is regconfig (3734), a text search configuration: a
	// String holding its name (tsearch.go).
	TSVector
	TSQuery
	RegConfig

	// Money is money (OID 790): an Int64 counting cents (money.go), which
	// compares, sorts, sums and stores as the integer does; only its text
	// ('$1,234.50'), its operators and its casts are its own.
	Money
	// MacAddr and MacAddr8 are macaddr (OID 829) and macaddr8 (OID 774):
	// Strings holding the output text (macaddr.go), whose byte order is
	// PostgreSQL's.
	MacAddr
	MacAddr8
	// Int4Range ... TstzRange are the range types int4range (OID 3904),
	// int8range (3926), numrange (3906), daterange (3912), tsrange (3908)
	// and tstzrange (3910): Strings holding the range's text (ranges.go),
	// which order through a key (RangeKey) as PostgreSQL's range_cmp.
	Int4Range
	Int8Range
	NumRange
	DateRange
	TsRange
	TstzRange
	// Int4Multirange ... TstzMultirange are the multirange types of the
	// six range types, in their order (OIDs 4451, 4536, 4532, 4535, 4533,
	// 4534): Strings holding the multirange's text (multirange.go).
	Int4Multirange
	Int8Multirange
	NumMultirange
	DateMultirange
	TsMultirange
	TstzMultirange

	// RegOper and RegOperator are regoper (OID 2203) and regoperator
	// (2204): OIDs of pg_operator rows, printed as the operator's name
	// (+) or its name and operand types (+(integer,integer)).
	RegOper
	RegOperator
	// RegCollation and RegDictionary are regcollation (OID 4191) and
	// regdictionary (3769): OIDs of pg_collation and pg_ts_dict rows,
	// printed as the object's name.
	RegCollation
	RegDictionary

	// GeoPoint ... GeoCircle are the geometric types point (OID 600),
	// lseg (601), line (628), box (603), path (602), polygon (604) and
	// circle (718): Strings holding the value's text (geometric.go).
	GeoPoint
	GeoLSeg
	GeoLine
	GeoBox
	GeoPath
	GeoPolygon
	GeoCircle
)

// IsMoney reports whether t is money.
func (t T) IsMoney() bool { return t.Kind == Int64 && t.Variant == Money }

// IsMacAddr reports whether t is macaddr or macaddr8.
func (t T) IsMacAddr() bool {
	return t.Kind == String && (t.Variant == MacAddr || t.Variant == MacAddr8)
}

// IsBitString reports whether t is bit or bit varying.
func (t T) IsBitString() bool { return t.Kind == String && (t.Variant == Bit || t.Variant == VarBit) }

// IsAnonRecord reports whether t is an anonymous record (AnonRecord).
func (t T) IsAnonRecord() bool { return t.Kind == Row && t.Variant == AnonRecord }

// IsRecord reports whether v is record or record[] (a SEARCH/CYCLE column).
func (v Variant) IsRecord() bool { return v == Record || v == RecordArray }

// IsVector reports whether v is int2vector or oidvector.
func (v Variant) IsVector() bool { return v == Int2Vector || v == OidVector }

// IsReg reports whether v is one of the reg* OID types.
func (v Variant) IsReg() bool {
	return v >= RegClass && v <= RegRole || v >= RegOper && v <= RegDictionary
}

// IsJSON reports whether v is json or jsonb.
func (v Variant) IsJSON() bool { return v == JSON || v == JSONB }

// variantNames are PostgreSQL's type names (pg_type.typname) of the variants.
var variantNames = [...]string{
	QChar: `"char"`, Int2Vector: "int2vector", OidVector: "oidvector",
	RegClass: "regclass", RegType: "regtype", RegProc: "regproc", RegProcedure: "regprocedure",
	RegNamespace: "regnamespace", RegRole: "regrole", RegOper: "regoper", RegOperator: "regoperator", RegCollation: "regcollation", RegDictionary: "regdictionary", JSON: "json", JSONB: "jsonb",
	Record: "record", RecordArray: "record[]", UUID: "uuid",
	Inet: "inet", PgLsn: "pg_lsn", Xid: "xid", PgNodeTree: "pg_node_tree", AclItem: "aclitem", AnyArray: "anyarray", JSONPath: "jsonpath",
	AnonRecord: "record", Bit: "bit", VarBit: "varbit", Void: "void", Cidr: "cidr",
	TSVector: "tsvector", TSQuery: "tsquery", RegConfig: "regconfig",
	Money: "money", MacAddr: "macaddr", MacAddr8: "macaddr8",
	Int4Range: "int4range", Int8Range: "int8range", NumRange: "numrange", DateRange: "daterange", TsRange: "tsrange", TstzRange: "tstzrange",
	Int4Multirange: "int4multirange", Int8Multirange: "int8multirange", NumMultirange: "nummultirange",
	DateMultirange: "datemultirange", TsMultirange: "tsmultirange", TstzMultirange: "tstzmultirange",
	GeoPoint: "point", GeoLSeg: "lseg", GeoLine: "line", GeoBox: "box", GeoPath: "path", GeoPolygon: "polygon", GeoCircle: "circle",
}

// Name is PostgreSQL's name of the variant's type ("" for NoVariant);
// "char" keeps its double quotes.
func (v Variant) Name() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return ""
}

// VariantNamed is the variant whose PostgreSQL type name is name.
func VariantNamed(name string) (Variant, bool) {
	for v, n := range variantNames {
		if n != "" && n == name {
			return Variant(v), true
		}
	}
	return NoVariant, false
}

// RegOf is the reg* type v (an OID printed as a name).
func RegOf(v Variant) T { return T{Kind: Oid, Variant: v} }

// Field is one field of a ROW type.
type Field struct {
	Name string
	Type T
}

// T is a SQL type. The zero value is Unknown.
type T struct {
	Kind Kind
	// NotNull is the Fluss NOT NULL constraint; it is kept at every nesting level.
	NotNull bool
	// Variant is the PostgreSQL catalog type this type stands for, if any.
	// It sits beside the other one-byte fields so that T packs into 80
	// bytes instead of 88: every bound and lowered expression node holds
	// a T, and planning's cost is mostly the bytes it allocates.
	Variant Variant
	// TypeOID is the OID of a user-defined type (Variant Enum); 0 for
	// the others. It fills padding after the one-byte fields: T stays 80
	// bytes.
	TypeOID uint32
	// Precision is DECIMAL's precision, TIME/TIMESTAMP's fractional-second
	// precision (0..9), or 0.
	Precision int
	// Scale is DECIMAL's scale.
	Scale int
	// Length is CHAR(n)'s and BINARY(n)'s length (for Char, 0 is bpchar
	// without a length: blank-padded, no limit); for String, VARCHAR(n)'s
	// limit, 0 for text, -1 for varchar without a limit.
	Length int
	// Elem is the element type of an ARRAY and the value type of a MAP.
	Elem *T
	// Key is the key type of a MAP.
	Key *T
	// Fields are the fields of a ROW.
	Fields []Field
	// reg is the registry that knows the user-defined type TypeOID
	// names (oidregistry.go): set by the registry that resolved it, nil
	// for the other types. Same ignores it.
	reg *Registry
}

// Common types.
var (
	UnknownType = T{Kind: Unknown}
	NullType    = T{Kind: Null}
	BoolType    = T{Kind: Bool}
	Int16Type   = T{Kind: Int16}
	Int32Type   = T{Kind: Int32}
	Int64Type   = T{Kind: Int64}
	Float32Type = T{Kind: Float32}
	Float64Type = T{Kind: Float64}
	StringType  = T{Kind: String}
	BytesType   = T{Kind: Bytes}
	DateType    = T{Kind: Date}
	NumericType = T{Kind: Decimal} // unconstrained numeric: arbitrary precision, Scale unused
	// QCharType is PostgreSQL's "char"; Int2VectorType and OidVectorType
	// are int2vector and oidvector.
	QCharType      = T{Kind: String, Variant: QChar}
	Int2VectorType = T{Kind: Array, Elem: &T{Kind: Int16}, Variant: Int2Vector}
	OidVectorType  = T{Kind: Array, Elem: &T{Kind: Oid}, Variant: OidVector}
	// JSONType and JSONBType are json and jsonb.
	JSONType  = T{Kind: String, Variant: JSON}
	JSONBType = T{Kind: String, Variant: JSONB}
	// UUIDType is uuid.
	UUIDType = T{Kind: String, Variant: UUID}
	// JSONPathType is jsonpath.
	JSONPathType = T{Kind: String, Variant: JSONPath}
	// InetType, PgLsnType and XidType are inet, pg_lsn and xid.
	InetType = T{Kind: String, Variant: Inet}
	CidrType = T{Kind: String, Variant: Cidr}
	// TSVectorType, TSQueryType and RegConfigType are tsvector, tsquery
	// and regconfig.
	TSVectorType  = T{Kind: String, Variant: TSVector}
	TSQueryType   = T{Kind: String, Variant: TSQuery}
	RegConfigType = T{Kind: String, Variant: RegConfig}
	PgLsnType     = T{Kind: String, Variant: PgLsn}
	// MoneyType, MacAddrType and MacAddr8Type are money, macaddr and
	// macaddr8 (money.go, macaddr.go).
	MoneyType    = T{Kind: Int64, Variant: Money}
	MacAddrType  = T{Kind: String, Variant: MacAddr}
	MacAddr8Type = T{Kind: String, Variant: MacAddr8}
	// VoidType is void: the result of a function called for its effect.
	VoidType = T{Kind: String, Variant: Void}
	XidType  = T{Kind: Oid, Variant: Xid}
	// PgNodeTreeType, AclItemType and AnyArrayType are pg_node_tree,
	// aclitem and anyarray.
	PgNodeTreeType = T{Kind: String, Variant: PgNodeTree}
	AclItemType    = T{Kind: String, Variant: AclItem}
	AnyArrayType   = T{Kind: String, Variant: AnyArray}
)

// StoredNumericType is the Fluss column a NUMERIC declared without a
// precision becomes: DECIMAL(38,10), the widest precision Fluss stores,
// with 28 digits before the point (past bigint's 19, so any integer sum
// fits) and 10 after (past the 2–8 of money, rates and measurements). A
// Fluss DECIMAL has one scale per column where PostgreSQL's numeric has
// one per value, so values are rounded to 10 decimals on the way in, and
// one with more than 28 integer digits is refused (22003).
var StoredNumericType = T{Kind: Decimal, Precision: 38, Scale: 10}

// DecimalType returns DECIMAL(p,s).
func DecimalType(p, s int) T { return T{Kind: Decimal, Precision: p, Scale: s} }

// TimestampType returns TIMESTAMP(p).
func TimestampType(p int) T { return T{Kind: Timestamp, Precision: p} }

// TimestampTZType returns TIMESTAMP_LTZ(p).
func TimestampTZType(p int) T { return T{Kind: TimestampTZ, Precision: p} }

// ArrayOf returns ARRAY<elem>.
func ArrayOf(elem T) T { return T{Kind: Array, Elem: &elem} }

// Nullable returns t without its top-level NOT NULL.
func (t T) Nullable() T { t.NotNull = false; return t }

// IsInteger reports whether t is TINYINT, SMALLINT, INT or BIGINT.
//
// money is not one: it counts cents in an Int64 but converts implicitly to
// no number and takes none of their operators (money.go).
func (t T) IsInteger() bool { return t.Kind >= Int8 && t.Kind <= Int64 && t.Variant != Money }

// IsFloat reports whether t is FLOAT or DOUBLE.
func (t T) IsFloat() bool { return t.Kind == Float32 || t.Kind == Float64 }

// IsNumeric reports whether t is an integer, decimal or floating type.
// money is not one (IsInteger).
func (t T) IsNumeric() bool { return t.Kind >= Int8 && t.Kind <= Float64 && t.Variant != Money }

// IsString reports whether t is CHAR or STRING.
func (t T) IsString() bool { return t.Kind == Char || t.Kind == String }

// IsNested reports whether t is ARRAY, MAP or ROW.
// ArrayLeaf is the element type of an array as PostgreSQL sees it, the
// innermost one (integer for int[][]); t itself when it is no array.
func (t T) ArrayLeaf() T {
	for t.Kind == Array && t.Elem != nil {
		t = *t.Elem
	}
	return t
}

func (t T) IsNested() bool { return t.Kind == Array || t.Kind == Map || t.Kind == Row }

// Equal reports whether a and b are the same type, ignoring top-level
// nullability (nested NOT NULL counts). Unlike String, it tells apart the
// scales of unconstrained numerics, which print alike.
func (t T) Equal(o T) bool { return t.Same(&o) }

// Same is Equal without copying either type: a T is 80 bytes, and binding
// and planning compare the types of nearly every operand and column.
func (t *T) Same(o *T) bool {
	if t.Kind != o.Kind || t.Precision != o.Precision || t.Scale != o.Scale || t.Length != o.Length || len(t.Fields) != len(o.Fields) || t.Variant != o.Variant || t.TypeOID != o.TypeOID {
		return false
	}
	sub := func(a, b *T) bool {
		if a == nil || b == nil {
			return a == b
		}
		return a.NotNull == b.NotNull && a.Same(b)
	}
	if !sub(t.Elem, o.Elem) || !sub(t.Key, o.Key) {
		return false
	}
	for i := range t.Fields {
		if t.Fields[i].Name != o.Fields[i].Name || !sub(&t.Fields[i].Type, &o.Fields[i].Type) {
			return false
		}
	}
	return true
}

// String prints the type as seed 000 prints Fluss types ("int NOT NULL",
// "array<string NOT NULL>"); query-only kinds print their PostgreSQL names.
func (t T) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t T) write(b *strings.Builder) {
	// an anonymous record keeps its row<...> spelling, which tells two
	// records of different fields apart
	if t.Variant != NoVariant && t.Variant != AnonRecord {
		if t.Variant == Enum {
			b.WriteString(t.reg.EnumName(t.TypeOID))
		} else {
			b.WriteString(t.Variant.Name())
		}
		if t.NotNull {
			b.WriteString(" NOT NULL")
		}
		return
	}
	switch t.Kind {
	case Unknown:
		b.WriteString("unknown")
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString("boolean")
	case Int8:
		b.WriteString("tinyint")
	case Int16:
		b.WriteString("smallint")
	case Int32:
		b.WriteString("int")
	case Int64:
		b.WriteString("bigint")
	case Decimal:
		if t.Precision == 0 {
			b.WriteString("numeric")
		} else {
			fmt.Fprintf(b, "decimal(%d, %d)", t.Precision, t.Scale)
		}
	case Float32:
		b.WriteString("float")
	case Float64:
		b.WriteString("double")
	case Char:
		if t.Length <= 0 {
			b.WriteString("bpchar")
		} else {
			fmt.Fprintf(b, "char(%d)", t.Length)
		}
	case String:
		b.WriteString("string")
	case Bytes:
		b.WriteString("bytes")
	case Binary:
		fmt.Fprintf(b, "binary(%d)", t.Length)
	case Date:
		b.WriteString("date")
	case Time:
		fmt.Fprintf(b, "time(%d)", t.Precision)
	case Timestamp:
		fmt.Fprintf(b, "timestamp(%d)", t.Precision)
	case TimestampTZ:
		fmt.Fprintf(b, "timestamp_ltz(%d)", t.Precision)
	case Interval:
		b.WriteString("interval")
	case TimeTZ:
		fmt.Fprintf(b, "timetz(%d)", t.Precision)
	case Oid:
		b.WriteString("oid")
	case Name:
		b.WriteString("name")
	case Array:
		b.WriteString("array<")
		t.Elem.write(b)
		b.WriteString(">")
	case Map:
		b.WriteString("map<")
		t.Key.write(b)
		b.WriteString(", ")
		t.Elem.write(b)
		b.WriteString(">")
	case Row:
		b.WriteString("row<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name)
			b.WriteString(" ")
			f.Type.write(b)
		}
		b.WriteString(">")
	default:
		fmt.Fprintf(b, "kind(%d)", t.Kind)
	}
	if t.NotNull {
		b.WriteString(" NOT NULL")
	}
}

// IntervalArrowType is the Arrow type of an interval value.
var IntervalArrowType = arrow.FixedWidthTypes.MonthDayNanoInterval

// ArrowType returns the Arrow type of t, as DESIGN.md's type table maps it.
// Unknown and Null values travel as utf8 (an unknown literal is its text).
func (t T) ArrowType() arrow.DataType {
	switch t.Kind {
	case Unknown, Null, String, Char, Name:
		return arrow.BinaryTypes.String
	case Bool:
		return arrow.FixedWidthTypes.Boolean
	case Int8:
		return arrow.PrimitiveTypes.Int8
	case Int16:
		return arrow.PrimitiveTypes.Int16
	case Int32:
		return arrow.PrimitiveTypes.Int32
	case Int64, TimeTZ: // a timetz packs time and zone into an ordered int64 (timetz.go)
		return arrow.PrimitiveTypes.Int64
	case Oid:
		return arrow.PrimitiveTypes.Uint32
	case Decimal:
		if t.Precision == 0 { // unconstrained numeric: arbitrary precision, a scale per value
			return NewNumericArrowType()
		}
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}
	case Float32:
		return arrow.PrimitiveTypes.Float32
	case Float64:
		return arrow.PrimitiveTypes.Float64
	case Bytes:
		return arrow.BinaryTypes.Binary
	case Binary:
		return &arrow.FixedSizeBinaryType{ByteWidth: t.Length}
	case Date:
		return arrow.FixedWidthTypes.Date32
	case Time:
		switch {
		case t.Precision <= 3:
			return arrow.FixedWidthTypes.Time32ms
		case t.Precision <= 6:
			return arrow.FixedWidthTypes.Time64us
		default:
			return arrow.FixedWidthTypes.Time64ns
		}
	case Timestamp:
		return &arrow.TimestampType{Unit: TimestampUnit(t.Precision)}
	case TimestampTZ:
		return &arrow.TimestampType{Unit: TimestampUnit(t.Precision), TimeZone: "UTC"}
	case Interval:
		return IntervalArrowType
	case Array:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: t.Elem.ArrowType(), Nullable: !t.Elem.NotNull})
	case Map:
		m := arrow.MapOf(t.Key.ArrowType(), t.Elem.ArrowType())
		m.SetItemNullable(!t.Elem.NotNull)
		return m
	case Row:
		fs := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = arrow.Field{Name: f.Name, Type: f.Type.ArrowType(), Nullable: !f.Type.NotNull}
		}
		return arrow.StructOf(fs...)
	}
	panic(fmt.Sprintf("types: no Arrow type for kind %d", t.Kind))
}

// TimestampUnit returns the Arrow unit that holds fractional-second precision p:
// microseconds up to 6 digits (PostgreSQL's resolution), nanoseconds above.
func TimestampUnit(p int) arrow.TimeUnit {
	if p > 6 {
		return arrow.Nanosecond
	}
	return arrow.Microsecond
}
