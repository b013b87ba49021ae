package functions

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// PostgreSQL's one-dimensional arrays. An array value is a []any of its
// elements' physical values (types.ValueAt's form), 1-based in SQL.
// Multi-dimensional arrays exist only as arrays of arrays
// (ARRAY[ARRAY[1,2]] is array<array<int>>); the text form of a nested
// array nests its braces, as PostgreSQL's does.

// ParseArray reads PostgreSQL's array text input ('{a,"b c",NULL}') for
// an array of elem, converting each element with elem's input function
// (in TimeZone loc, nil meaning UTC).
func ParseArray(s string, elem types.T, loc *time.Location) ([]any, error) {
	return ParseArrayOrder(s, elem, loc, types.OrderMDY)
}

// ParseArrayOrder is ParseArray in a session whose DateStyle reads a
// date element written in numbers only (1/2/2020) in order.
func ParseArrayOrder(s string, elem types.T, loc *time.Location, order types.DateOrder) ([]any, error) {
	return parseArrayStyle(s, elem, loc, types.Style{Date: types.DateStyle{Order: order}})
}

func parseArrayStyle(s string, elem types.T, loc *time.Location, st types.Style) ([]any, error) {
	p := arrayParser{src: s, elem: elem, loc: loc, style: st}
	p.skipSpace()
	if p.i < len(s) && s[p.i] == '[' {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "array literals with explicit bounds are not supported: %q", s)
	}
	if p.i >= len(s) || s[p.i] != '{' {
		return nil, p.malformed(`Array value must start with "{" or dimension information.`)
	}
	if err := checkArrayStructure(s, p.i); err != nil {
		return nil, err
	}
	v, err := p.array()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(s) {
		return nil, p.malformed("Junk after closing right brace.")
	}
	if p.dimErr != nil {
		return nil, p.dimErr
	}
	return v, nil
}

// ParseArrayText reads an unknown or text value as a value of the array
// type t: PostgreSQL's array text, braces nesting for an array of arrays
// ('{{1,2},{3,4}}' for integer[][], which must be rectangular as
// PostgreSQL's multidimensional arrays are); an array of MAP or ROW
// values, or an array of arrays written as JSON, is read as its JSON text.
// A record's array fields read by array_in (types.ParseRecord).
func init() { types.ArrayInput = ParseArrayTextOrder }

func ParseArrayText(s string, t types.T, loc *time.Location) (any, error) {
	return ParseArrayTextOrder(s, t, loc, types.OrderMDY)
}

// ParseArrayTextOrder is ParseArrayText in a session whose DateStyle
// reads a date element written in numbers only in order.
func ParseArrayTextOrder(s string, t types.T, loc *time.Location, order types.DateOrder) (any, error) {
	return ParseArrayTextStyle(s, t, loc, types.Style{Date: types.DateStyle{Order: order}})
}

// ParseArrayTextStyle is ParseArrayText in a session whose DateStyle and
// IntervalStyle are st: date elements read in its order, interval
// elements in its IntervalStyle (sql_standard's leading minus).
func ParseArrayTextStyle(s string, t types.T, loc *time.Location, st types.Style) (any, error) {
	if !t.Elem.IsNested() || t.Elem.IsComposite() {
		// a composite's elements read by record_in (types/composite.go)
		return parseArrayStyle(s, *t.Elem, loc, st)
	}
	if !bracedArrayOfArrays(s, t) {
		return types.ParseTextIn(s, t, loc) // JSON text, as printed
	}
	v, err := parseArrayStyle(s, *t.Elem, loc, st)
	if err != nil {
		return nil, err
	}
	if !rectangular(v, *t.Elem) {
		return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed array literal: %q", s).
			WithDetail("Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	return v, nil
}

// bracedArrayOfArrays reports an array of arrays (down to scalars) written
// in PostgreSQL's array text rather than as JSON.
func bracedArrayOfArrays(s string, t types.T) bool {
	for e := t.Elem; e != nil; e = e.Elem {
		if e.Kind == types.Map || e.Kind == types.Row {
			return false
		}
		if e.Kind != types.Array {
			break
		}
	}
	// JSON text ('[[1,2]]') is sqlgate's own form; everything else is
	// PostgreSQL's array text, whose parser names what is wrong with it
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	return !strings.HasPrefix(s, "[")
}

// rectangular reports whether every sub-array at each level of v (an
// array of arrays of elem) has the same length and none is NULL.
func rectangular(v []any, elem types.T) bool {
	if elem.Kind != types.Array {
		return true
	}
	if allNull(v) {
		// '{NULL}'::int[][]: PostgreSQL reads an array of fewer dimensions
		// with NULL elements; as NULL sub-arrays it prints the same
		return true
	}
	n := -1
	var next []any
	for _, e := range v {
		sub, ok := e.([]any)
		if !ok || n >= 0 && len(sub) != n {
			return false
		}
		n = len(sub)
		next = append(next, sub...)
	}
	return rectangular(next, *elem.Elem)
}

// allNull reports whether v is non-empty and all its elements are NULL.
func allNull(v []any) bool {
	for _, e := range v {
		if e != nil {
			return false
		}
	}
	return len(v) > 0
}

type arrayParser struct {
	src   string
	i     int
	elem  types.T
	loc   *time.Location
	style types.Style // DateStyle's order for date elements, IntervalStyle for intervals
	// dimErr is the refusal of a text whose number of dimensions differs
	// from the type's. It is raised only after every element converted,
	// because PostgreSQL (which takes any number of dimensions) reports a
	// bad element of such a text first.
	dimErr error
}

// noteDims records the dimension refusal err unless one is already noted.
func (p *arrayParser) noteDims(err error) {
	if p.dimErr == nil {
		p.dimErr = err
	}
}

func (p *arrayParser) malformed(detail string) error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed array literal: %q", p.src).WithDetail("%s", detail)
}

func (p *arrayParser) skipSpace() {
	for p.i < len(p.src) && isArraySpace(p.src[p.i]) {
		p.i++
	}
}

func isArraySpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// array reads {elem, ...} starting at the '{'.
func (p *arrayParser) array() ([]any, error) {
	p.i++ // '{'
	out := []any{}
	p.skipSpace()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		return out, nil
	}
	for {
		p.skipSpace()
		if p.i >= len(p.src) {
			return nil, p.malformed("Unexpected end of input.")
		}
		var v any
		var err error
		switch c := p.src[p.i]; {
		case c == '{':
			subElem := p.elem
			if p.elem.Kind == types.Array {
				subElem = *p.elem.Elem
			} else {
				p.noteDims(sqlerr.New(sqlerr.FeatureNotSupported, "multidimensional array literal %q for a one-dimensional array type", p.src).
					WithHint("A Fluss array has one dimension per ARRAY level: declare the type with one [] per dimension (integer[][] is ARRAY<ARRAY<INT>>)."))
			}
			sub := arrayParser{src: p.src, i: p.i, elem: subElem, loc: p.loc, style: p.style}
			v, err = sub.array()
			p.i = sub.i
			if sub.dimErr != nil {
				p.noteDims(sub.dimErr)
			}
		case c == ',' || c == '}':
			return nil, p.malformed(`Unexpected "` + string(c) + `" character.`)
		default:
			v, err = p.scalar()
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skipSpace()
		if p.i >= len(p.src) {
			return nil, p.malformed("Unexpected end of input.")
		}
		switch p.src[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return out, nil
		default:
			return nil, p.malformed(`Unexpected array element.`)
		}
	}
}

// scalar reads one element: quoted ("...", backslash escapes) or bare
// (up to , or }, trailing blanks dropped; NULL means a null element).
func (p *arrayParser) scalar() (any, error) {
	var b strings.Builder
	quoted, sawQuote := false, false
	escaped := false // a quoted or escaped NULL is the text NULL
	lastKept := 0    // length of b up to the last character that is not trailing blank
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == '\\':
			if p.i+1 >= len(p.src) {
				return nil, p.malformed("Unexpected end of input.")
			}
			b.WriteByte(p.src[p.i+1])
			p.i += 2
			lastKept = b.Len()
			escaped = true
			continue
		case c == '"':
			if !quoted && sawQuote {
				return nil, p.malformed(`Unexpected array element.`)
			}
			if !quoted && b.Len() > 0 {
				return nil, p.malformed(`Unexpected array element.`)
			}
			quoted, sawQuote = !quoted, true
			p.i++
			lastKept = b.Len()
			continue
		case quoted:
			b.WriteByte(c)
			lastKept = b.Len()
			p.i++
			continue
		case c == ',' || c == '}':
			s := b.String()[:lastKept]
			if !sawQuote && !escaped && strings.EqualFold(s, "NULL") {
				return nil, nil
			}
			return p.convert(s)
		case c == '{':
			return nil, p.malformed(`Unexpected "{" character.`)
		case isArraySpace(c):
			if sawQuote {
				p.i++ // blanks after a closing quote
				continue
			}
			b.WriteByte(c)
			p.i++
			continue
		}
		if sawQuote {
			return nil, p.malformed(`Unexpected array element.`)
		}
		b.WriteByte(c)
		lastKept = b.Len()
		p.i++
	}
	return nil, p.malformed("Unexpected end of input.")
}

func (p *arrayParser) convert(s string) (any, error) {
	if p.elem.Kind == types.Array {
		// PostgreSQL takes any number of dimensions for any array type;
		// a Fluss array has exactly one per ARRAY level
		p.noteDims(sqlerr.New(sqlerr.FeatureNotSupported, "array literal %q has fewer dimensions than its array type", p.src).
			WithHint("A Fluss array has one dimension per ARRAY level: declare the type with one [] per dimension (integer[][] is ARRAY<ARRAY<INT>>)."))
		scalar := p.elem
		for scalar.Kind == types.Array {
			scalar = *scalar.Elem
		}
		return types.ParseTextStyle(s, scalar, p.loc, time.Now(), p.style)
	}
	return types.ParseTextStyle(s, p.elem, p.loc, time.Now(), p.style)
}

// FormatArray renders an array as PostgreSQL's array_out does: elements
// with their type's output function (booleans as t/f), double-quoted when
// empty, NULL-like, or holding blanks, braces, commas, quotes or
// backslashes; NULL elements as NULL.
func FormatArray(v []any, elem types.T, loc *time.Location) string {
	return FormatArrayStyle(v, elem, loc, types.Style{})
}

// FormatArrayStyle is FormatArray in a session whose DateStyle,
// IntervalStyle and extra_float_digits are st.
func FormatArrayStyle(v []any, elem types.T, loc *time.Location, st types.Style) string {
	var b strings.Builder
	_ = formatArrayTo(&b, v, elem, &zoneText{loc, st})
	return b.String()
}

// elemTexter gives an array element's text for formatArrayTo.
type elemTexter interface {
	elemText(e any, t types.T) (string, error)
}

// zoneText is ElemText in one TimeZone and Style.
type zoneText struct {
	loc   *time.Location
	style types.Style
}

func (z *zoneText) elemText(e any, t types.T) (string, error) {
	return ElemTextStyle(e, t, z.loc, z.style), nil
}

// textFunc is a caller's element formatter (FormatArrayWith).
type textFunc func(e any, t types.T) (string, error)

func (f textFunc) elemText(e any, t types.T) (string, error) { return f(e, t) }

// FormatArrayWith is FormatArray with each scalar element's text given by
// text: a reg* array's elements name their objects through the catalog,
// which only a caller holding the statement's context can reach.
func FormatArrayWith(v []any, elem types.T, text func(e any, t types.T) (string, error)) (string, error) {
	var b strings.Builder
	err := formatArrayTo(&b, v, elem, textFunc(text))
	return b.String(), err
}

func formatArrayTo(b *strings.Builder, v []any, elem types.T, text elemTexter) error {
	b.WriteByte('{')
	for i, e := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		if e == nil {
			b.WriteString("NULL")
			continue
		}
		if sub, ok := e.([]any); ok && elem.Kind == types.Array {
			if err := formatArrayTo(b, sub, *elem.Elem, text); err != nil {
				return err
			}
			continue
		}
		s, err := text.elemText(e, elem)
		if err != nil {
			return err
		}
		writeArrayElem(b, s)
	}
	b.WriteByte('}')
	return nil
}

// ElemText is an array element's text as array_out writes it (before
// quoting): booleans are t and f, other types print as their cast to text.
func ElemText(v any, t types.T, loc *time.Location) string {
	return ElemTextStyle(v, t, loc, types.Style{})
}

// ElemTextStyle is ElemText in a session whose DateStyle,
// IntervalStyle and extra_float_digits are st.
func ElemTextStyle(v any, t types.T, loc *time.Location, st types.Style) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "t"
		}
		return "f"
	case []any:
		if t.Kind == types.Array {
			return FormatArrayStyle(x, *t.Elem, loc, st)
		}
	}
	return types.FormatTextStyle(v, t, loc, st)
}

func writeArrayElem(b *strings.Builder, s string) {
	need := s == "" || strings.EqualFold(s, "NULL")
	for i := 0; i < len(s) && !need; i++ {
		switch c := s[i]; c {
		case '{', '}', ',', '"', '\\':
			need = true
		default:
			need = isArraySpace(c)
		}
	}
	if !need {
		b.WriteString(s)
		return
	}
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
}

// CompareValues orders two non-NULL physical values of the same type as
// PostgreSQL's btree operators do: NaN equals NaN and sorts above every
// number, text compares bytewise (the C collation), arrays element by
// element (a NULL element sorts above any value) and then by length.
func CompareValues(a, b any) (int, error) {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmpArr(x, y), nil
		}
	case float64:
		if y, ok := b.(float64); ok {
			xn, yn := math.IsNaN(x), math.IsNaN(y)
			switch {
			case xn && yn:
				return 0, nil
			case xn:
				return 1, nil
			case yn:
				return -1, nil
			}
			return cmpArr(x, y), nil
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, nil
			case !x:
				return -1, nil
			}
			return 1, nil
		}
	case int32:
		if y, ok := b.(int32); ok {
			return cmpArr(x, y), nil
		}
	case decimal128.Num:
		if y, ok := b.(decimal128.Num); ok {
			return x.Cmp(y), nil
		}
	case *apd.Decimal:
		// unconstrained numeric: by value whatever the scales (1.0 = 1.00)
		if y, ok := b.(*apd.Decimal); ok {
			return numeric.Cmp(x, y), nil
		}
	case arrow.MonthDayNanoInterval:
		if y, ok := b.(arrow.MonthDayNanoInterval); ok {
			// PostgreSQL compares intervals as 30-day months and 24-hour days
			span := func(v arrow.MonthDayNanoInterval) float64 {
				return (float64(v.Months)*30+float64(v.Days))*86400e9 + float64(v.Nanoseconds)
			}
			return cmpArr(span(x), span(y)), nil
		}
	case []any:
		if y, ok := b.([]any); ok {
			return compareElements(x, y, CompareValues)
		}
	}
	return 0, sqlerr.New(sqlerr.InternalError, "cannot compare %T with %T", a, b)
}

// CompareValuesAs is CompareValues for two values of type t, where the
// physical value alone does not say how PostgreSQL orders them: jsonb (a
// String) in jsonb's order ({"b": 1} < {"a": 1, "c": 2}: objects by their
// number of pairs first), bpchar without its trailing blanks (bpcharcmp:
// ARRAY['a'::bpchar] = ARRAY['a  '::bpchar]), "char" by its byte
// ('\377' after 'a'), and so the elements of their arrays.
func CompareValuesAs(t types.T, a, b any) (int, error) {
	switch {
	case t.Kind == types.Array && t.Elem != nil:
		x, xok := a.([]any)
		y, yok := b.([]any)
		if !xok || !yok {
			break
		}
		elem := *t.Elem
		if elem.Kind == types.Array {
			// one array of several dimensions, not an array of arrays
			// (mdarray.go)
			leaf := arrayLeaf(t)
			return compareMD(x, y, arrayDepth(t), func(a, b any) (int, error) { return CompareValuesAs(leaf, a, b) })
		}
		return compareElements(x, y, func(a, b any) (int, error) { return CompareValuesAs(elem, a, b) })
	case t.Kind == types.Row && len(t.Fields) > 0:
		// record_cmp: field by field in each field's own order, a NULL
		// field equal to another NULL and after every value
		x, xok := a.([]any)
		y, yok := b.([]any)
		if !xok || !yok || len(x) != len(t.Fields) || len(y) != len(t.Fields) {
			break
		}
		return CompareDissimilarRecords(t, t, x, y)
	case t.Kind == types.Char:
		// bpchar compares without its trailing blanks (bpcharcmp)
		x, xok := a.(string)
		y, yok := b.(string)
		if xok && yok {
			return strings.Compare(strings.TrimRight(x, " "), strings.TrimRight(y, " ")), nil
		}
	case t.Kind == types.String && t.Variant == types.JSONB:
		x, xok := a.(string)
		y, yok := b.(string)
		if xok && yok {
			return CompareJSONB(x, y)
		}
	case t.Kind == types.String && t.Variant == types.QChar:
		// "char" by its byte, unsigned (btcharcmp), not its kept text
		x, xok := a.(string)
		y, yok := b.(string)
		if xok && yok {
			return cmpArr(int(types.QCharByte(x)), int(types.QCharByte(y))), nil
		}
	}
	return CompareValues(a, b)
}

// compareElements orders two arrays element by element as PostgreSQL's
// array_cmp does: a NULL element sorts after every value, and a shorter
// array whose elements all equal the longer one's sorts first.
func compareElements(x, y []any, cmp func(a, b any) (int, error)) (int, error) {
	for i := 0; i < len(x) && i < len(y); i++ {
		switch {
		case x[i] == nil && y[i] == nil:
			continue
		case x[i] == nil:
			return 1, nil
		case y[i] == nil:
			return -1, nil
		}
		c, err := cmp(x[i], y[i])
		if err != nil || c != 0 {
			return c, err
		}
	}
	return cmpArr(len(x), len(y)), nil
}

func cmpArr[T int | int32 | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CompareOp applies a comparison operator ("=", "<>", "!=", "<", "<=",
// ">", ">=") to CompareValues' result; ok is false for another operator.
func CompareOp(op string) (func(c int) bool, bool) {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }, true
	case "<>", "!=":
		return func(c int) bool { return c != 0 }, true
	case "<":
		return func(c int) bool { return c < 0 }, true
	case "<=":
		return func(c int) bool { return c <= 0 }, true
	case ">":
		return func(c int) bool { return c > 0 }, true
	case ">=":
		return func(c int) bool { return c >= 0 }, true
	}
	return nil, false
}

// valueKernel builds a kernel from a per-row body over the arguments'
// physical values (NULLs included: body decides), returning values of ret:
// rowFunc, not strict.
func valueKernel(ret types.T, body func(args []any) (any, error)) Kernel {
	return rowFunc(ret, false, func(_ context.Context, args []any) (any, error) { return body(args) }) // catalog.go
}

// ArrayConstructorKernel builds ARRAY[a, b, ...] of arrays of elem from
// its arguments (already cast to elem); NULL arguments are NULL elements.
// When elem is an array, the arguments are the sub-arrays of one array of
// one more dimension (mdarray.go), as PostgreSQL's ExecEvalArrayExpr
// builds it: they must have the same dimensions (2202E), NULL and empty
// ones count only when every one is (the result is then empty).
func ArrayConstructorKernel(elem types.T) Kernel {
	depth := arrayDepth(elem)
	return valueKernel(types.ArrayOf(elem), func(args []any) (any, error) {
		if depth > 0 {
			return mdConstruct(args, depth)
		}
		out := make([]any, len(args))
		copy(out, args)
		return out, nil
	})
}

// SubscriptKernel answers array[i] (1-based; NULL when out of range or
// when either side is NULL) for arrays of elem; the index is int64.
func SubscriptKernel(elem types.T) Kernel {
	return valueKernel(elem, func(args []any) (any, error) {
		arr, ok := args[0].([]any)
		i, ok2 := args[1].(int64)
		if !ok || !ok2 || i < 1 || i > int64(len(arr)) {
			return nil, nil
		}
		return arr[i-1], nil
	})
}

// ParseVector reads int2vector/oidvector text input: elements of type elem
// separated by white space ("2 1").
func ParseVector(s string, elem types.T, loc *time.Location) ([]any, error) {
	fs := strings.Fields(s)
	out := make([]any, len(fs))
	for i, f := range fs {
		e, err := types.ParseTextIn(f, elem, loc)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// FieldSelectKernel answers (row).field for field number k of a ROW
// value whose field has type field (NULL when the row is NULL).
func FieldSelectKernel(field types.T, k int) Kernel {
	return valueKernel(field, func(args []any) (any, error) {
		fs, ok := args[0].([]any)
		if !ok || k < 0 || k >= len(fs) {
			return nil, nil
		}
		return fs[k], nil
	})
}

// BitwiseKernel answers PostgreSQL's integer operators a & b, a | b,
// a << b and a >> b over integers of type t (the shift count is int4;
// PostgreSQL shifts by the count modulo the type's width, as C does on
// its platforms: a smallint is promoted to int first, so its count is
// taken modulo 32 and the result wrapped to 16 bits, 3::int2 << -7 = 0);
// NULL in, NULL out.
func BitwiseKernel(op string, t types.T) Kernel {
	bits, shiftBits := int64(64), int64(64)
	switch t.Kind {
	case types.Int8, types.Int16:
		bits, shiftBits = 16, 32
	case types.Int32:
		bits, shiftBits = 32, 32
	}
	lo, hi := types.IntRange(t.Kind)
	return valueKernel(t, func(args []any) (any, error) {
		a, ok := args[0].(int64)
		c, ok2 := args[1].(int64)
		if !ok || !ok2 {
			return nil, nil
		}
		var v int64
		switch op {
		case "&":
			v = a & c
		case "|":
			v = a | c
		case "#":
			v = a ^ c
		case "<<":
			v = a << uint64(c&(shiftBits-1))
		case ">>":
			v = a >> uint64(c&(shiftBits-1))
		}
		// wrap to t's width, as the C operators on int16/int32 do
		switch bits {
		case 16:
			v = int64(int16(v))
		case 32:
			v = int64(int32(v))
		}
		if v < lo || v > hi {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "%s out of range", t.PGName())
		}
		return v, nil
	})
}

// SliceKernel answers array[lo:hi] for arrays of type arr. hasLo/hasHi
// say whether each bound was written (an omitted bound is the array's
// own); the bound arguments follow the array in that order. A NULL array
// or bound gives NULL, an empty range an empty array.
func SliceKernel(arr types.T, hasLo, hasHi bool) Kernel {
	return valueKernel(arr, func(args []any) (any, error) {
		a, ok := args[0].([]any)
		if !ok {
			return nil, nil
		}
		lo, hi := int64(1), int64(len(a))
		k := 1
		if hasLo {
			v, ok := args[k].(int64)
			if !ok {
				return nil, nil
			}
			lo, k = max(v, 1), k+1
		}
		if hasHi {
			v, ok := args[k].(int64)
			if !ok {
				return nil, nil
			}
			hi = min(v, int64(len(a)))
		}
		if lo > hi {
			return []any{}, nil
		}
		out := make([]any, hi-lo+1)
		copy(out, a[lo-1:hi])
		return out, nil
	})
}

// QuantifiedKernel answers x op ANY (array) (all: op ALL) over x and an
// array of x's type, with SQL's three-valued logic: ANY is true if some
// comparison is true, else NULL if some is NULL, else false; ALL is false
// if some is false, else NULL if some is NULL, else true. A NULL array
// gives NULL; an empty one false (ANY) or true (ALL). elem is x's type,
// the array's element type (CompareValuesAs).
func QuantifiedKernel(op string, all bool, elem types.T) (Kernel, error) {
	test, ok := CompareOp(op)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "operator %s ANY/ALL (array) is not supported", op)
	}
	return valueKernel(types.BoolType, func(args []any) (any, error) {
		arr, ok := args[1].([]any)
		if !ok {
			return nil, nil
		}
		if len(arr) == 0 {
			return all, nil
		}
		if args[0] == nil {
			return nil, nil
		}
		sawNull := false
		for _, e := range arr {
			if e == nil {
				sawNull = true
				continue
			}
			c, err := CompareValuesAs(elem, args[0], e)
			if err != nil {
				return nil, err
			}
			if r := test(c); r != all {
				return r, nil
			}
		}
		if sawNull {
			return nil, nil
		}
		return all, nil
	}), nil
}

// ArrayCompareKernel compares two arrays of the same type with op (=, <>,
// <, <=, >, >=, IS [NOT] DISTINCT FROM) as PostgreSQL's array operators do: NULL when either array
// is NULL, else element by element with NULL elements equal to each other
// and above any value. elem is the arrays' element type
// (CompareValuesAs).
func ArrayCompareKernel(op string, elem types.T) (Kernel, error) {
	// IS [NOT] DISTINCT FROM is array_eq (NULL elements equal to each
	// other) made NULL-safe at the top: a NULL array is not distinct from
	// another NULL array only, and the answer is never NULL.
	nullSafe := false
	switch op {
	case "IS DISTINCT FROM":
		nullSafe, op = true, "<>"
	case "IS NOT DISTINCT FROM":
		nullSafe, op = true, "="
	}
	test, ok := CompareOp(op)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "operator %s on arrays is not supported", op)
	}
	at := types.ArrayOf(elem)
	return valueKernel(types.BoolType, func(args []any) (any, error) {
		if args[0] == nil || args[1] == nil {
			if nullSafe {
				return test(boolToCmp(args[0] == nil && args[1] == nil)), nil
			}
			return nil, nil
		}
		c, err := CompareValuesAs(at, args[0], args[1])
		if err != nil {
			return nil, err
		}
		return test(c), nil
	}), nil
}

// boolToCmp is a comparison result saying whether two values are equal.
func boolToCmp(equal bool) int {
	if equal {
		return 0
	}
	return 1
}

// NameSubscriptKernel answers name[i]: PostgreSQL's name is a fixed array
// of NAMEDATALEN (64) chars, subscripted from 0, so name[i] is the "char"
// of byte i of the name ("" past its end, NULL outside 0..63). A byte
// above 127 is "char"'s text for it, a backslash and three octal digits.
// pg_dump asks typname[0] = '_' for array types.
func NameSubscriptKernel() Kernel {
	return valueKernel(types.QCharType, func(args []any) (any, error) {
		s, ok := args[0].(string)
		i, ok2 := args[1].(int64)
		if !ok || !ok2 || i < 0 || i >= 64 {
			return nil, nil
		}
		if i >= int64(len(s)) {
			return "", nil
		}
		if c := s[i]; c >= 0x80 {
			return "\\" + strconv.FormatInt(int64(c), 8), nil
		}
		return s[i : i+1], nil
	})
}
