package types

import (
	"math/big"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// NumericArrowType is the Arrow type of an unconstrained NUMERIC: an
// extension type over binary whose values hold numeric.Encode's compact
// form (a kind byte, the display scale, the coefficient's bytes).
//
// Why this shape: PostgreSQL's numeric has one display scale per value and
// no bound on its digits, which no fixed-width Arrow type holds (decimal128
// has one scale per column and 38 digits; decimal256 76). Binary keeps a
// typical value in 3–10 bytes, copies, filters, takes and concatenates with
// arrow-go's own kernels (which handle extension arrays through their
// storage), and decodes into an apd.Decimal without parsing text. Stored
// DECIMAL(p,s) columns stay decimal128(p,s): a value computed here reaches
// them through numeric.ApplyTypmod.
type NumericArrowType struct {
	arrow.ExtensionBase
}

// NewNumericArrowType returns the numeric extension type.
func NewNumericArrowType() *NumericArrowType {
	return &NumericArrowType{ExtensionBase: arrow.ExtensionBase{Storage: arrow.BinaryTypes.Binary}}
}

// ArrayType is the array type arrow-go builds for this extension.
func (*NumericArrowType) ArrayType() reflect.Type { return reflect.TypeOf(NumericArray{}) }

// ExtensionName names the type.
func (*NumericArrowType) ExtensionName() string { return "sqlgate.numeric" }

// Serialize has nothing to say: the type has no parameters.
func (*NumericArrowType) Serialize() string { return "" }

// Deserialize returns the type itself.
func (*NumericArrowType) Deserialize(storage arrow.DataType, _ string) (arrow.ExtensionType, error) {
	return NewNumericArrowType(), nil
}

// ExtensionEquals reports whether o is the numeric type.
func (*NumericArrowType) ExtensionEquals(o arrow.ExtensionType) bool {
	_, ok := o.(*NumericArrowType)
	return ok
}

// NumericArray is a column of unconstrained numeric values.
type NumericArray struct {
	array.ExtensionArrayBase
}

// Value decodes row i (which must not be NULL).
func (a *NumericArray) Value(i int) *apd.Decimal {
	d := new(apd.Decimal)
	a.ValueInto(i, d)
	return d
}

// ValueInto decodes row i into d, allocating nothing for small values.
func (a *NumericArray) ValueInto(i int, d *apd.Decimal) {
	if err := numeric.Decode(a.Storage().(*array.Binary).Value(i), d); err != nil {
		*d = *numeric.NaN() // only a corrupt column gets here; arrays are built by NumericBuilder
	}
}

// RawValue is row i's compact form.
func (a *NumericArray) RawValue(i int) []byte { return a.Storage().(*array.Binary).Value(i) }

// NumericReader reads row i of a numeric-valued array (an unconstrained
// numeric column, or a DECIMAL(p,s) one at its scale) as a numeric; d is
// scratch space the result may live in.
type NumericReader func(i int, d *apd.Decimal) *apd.Decimal

// NewNumericReader returns the reader of a (decimal128 or numeric).
func NewNumericReader(a arrow.Array) (NumericReader, error) {
	switch x := a.(type) {
	case *NumericArray:
		return func(i int, d *apd.Decimal) *apd.Decimal { x.ValueInto(i, d); return d }, nil
	case *array.Decimal128:
		s := int(x.DataType().(*arrow.Decimal128Type).Scale)
		return func(i int, _ *apd.Decimal) *apd.Decimal { return NumericFromDecimal128(x.Value(i), s) }, nil
	}
	return nil, sqlerr.New(sqlerr.InternalError, "numeric operand of Arrow type %s", a.DataType())
}

// IsNumericArrow reports whether dt is the numeric extension type.
func IsNumericArrow(dt arrow.DataType) bool {
	_, ok := dt.(*NumericArrowType)
	return ok
}

// NumericBuilder appends numerics to an extension builder of the numeric
// type, reusing one encoding buffer.
type NumericBuilder struct {
	b   *array.ExtensionBuilder
	buf []byte
}

// NewNumericAppender wraps b (built by array.NewBuilder for NumericArrowType).
func NewNumericAppender(b *array.ExtensionBuilder) *NumericBuilder { return &NumericBuilder{b: b} }

// Append appends d.
func (n *NumericBuilder) Append(d *apd.Decimal) {
	n.buf = numeric.Encode(n.buf[:0], d)
	n.b.Builder.(*array.BinaryBuilder).Append(n.buf)
}

// AppendNull appends NULL.
func (n *NumericBuilder) AppendNull() { n.b.AppendNull() }

// errNaNDecimal: a numeric(p,s) is a Fluss DECIMAL(p,s) (decimal128),
// which has no NaN; PostgreSQL's numeric(p,s) holds one.
func errNaNDecimal(p, s int) error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "cannot convert NaN to numeric(%d,%d)", p, s).
		WithHint("A numeric with a precision is a Fluss DECIMAL, which has no NaN; numeric without one holds it.")
}

// NumericFromDecimal128 is a decimal128 value of scale s as a numeric.
func NumericFromDecimal128(v decimal128.Num, scale int) *apd.Decimal {
	if v.HighBits() == 0 && v.LowBits() <= 1<<63-1 {
		return numeric.FromUnscaled64(int64(v.LowBits()), scale)
	}
	if v.HighBits() == -1 && v.LowBits() >= 1<<63 {
		return numeric.FromUnscaled64(int64(v.LowBits()), scale)
	}
	return numeric.FromUnscaled(v.BigInt(), scale)
}

// NumericToDecimal128 rounds d to DECIMAL(p,s) (22003 when it does not
// fit, as numeric's typmod check says; NaN has no DECIMAL form: 22003).
func NumericToDecimal128(d *apd.Decimal, p, s int) (decimal128.Num, error) {
	if numeric.IsNaN(d) {
		return decimal128.Num{}, errNaNDecimal(p, s)
	}
	r, err := numeric.ApplyTypmod(d, p, s)
	if err != nil {
		return decimal128.Num{}, err
	}
	u := numeric.Unscaled(r)
	if u.IsInt64() {
		return decimal128.FromI64(u.Int64()), nil
	}
	return decimal128.FromBigInt(u), nil
}

// DecimalToNumeric reads a value of a Decimal-kind type t (decimal128 for
// DECIMAL(p,s), *apd.Decimal for numeric) as a numeric.
func DecimalToNumeric(v any, t T) *apd.Decimal {
	switch x := v.(type) {
	case *apd.Decimal:
		return x
	case decimal128.Num:
		return NumericFromDecimal128(x, t.Scale)
	case int64:
		return numeric.FromInt64(x)
	case *big.Int:
		return numeric.FromUnscaled(x, t.Scale)
	}
	return numeric.NaN()
}

// ValueStr is row i's numeric_out text (arrow-go's generic printing).
func (a *NumericArray) ValueStr(i int) string {
	if a.IsNull(i) {
		return array.NullValueStr
	}
	return numeric.String(a.Value(i))
}

// GetOneForMarshal is row i's text, for arrow-go's JSON output.
func (a *NumericArray) GetOneForMarshal(i int) interface{} {
	if a.IsNull(i) {
		return nil
	}
	return numeric.String(a.Value(i))
}

// String prints the column as arrow-go prints arrays.
func (a *NumericArray) String() string {
	s := "["
	for i := 0; i < a.Len(); i++ {
		if i > 0 {
			s += " "
		}
		s += a.ValueStr(i)
	}
	return s + "]"
}
