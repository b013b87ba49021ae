package functions

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// lit is a typed argument literal in the tests' small notation:
// "t:abc" text, "i:5" integer, "s:5" smallint, "b:5" bigint, "n:1.50"
// numeric (scale from the text), "f:2.5" double, "r:2.5" real, "d:..."
// date, "ts:..." timestamp, "tz:..." timestamptz, "bool:true", "u:abc" an
// unknown literal, "c3:ab" char(3). "null:i" is a NULL of that type.
type lit string

func (l lit) parse() (types.T, string, bool) {
	tag, v, _ := strings.Cut(string(l), ":")
	null := false
	if tag == "null" {
		tag, v, null = v, "", true
	}
	var t types.T
	switch tag {
	case "t":
		t = types.StringType
	case "i":
		t = types.Int32Type
	case "s":
		t = types.Int16Type
	case "b":
		t = types.Int64Type
	case "n":
		scale := 0
		if _, frac, ok := strings.Cut(v, "."); ok {
			scale = len(frac)
		}
		t = types.T{Kind: types.Decimal, Scale: scale}
	case "f":
		t = types.Float64Type
	case "r":
		t = types.Float32Type
	case "d":
		t = types.DateType
	case "ts":
		t = types.TimestampType(6)
	case "tz":
		t = types.TimestampTZType(6)
	case "bool":
		t = types.BoolType
	case "u":
		t = types.UnknownType
	case "c3":
		t = types.T{Kind: types.Char, Length: 3}
	default:
		panic("bad literal tag " + tag)
	}
	return t, v, null
}

// pgLiteral is the literal as PostgreSQL SQL text.
func (l lit) pgLiteral() string {
	t, v, null := l.parse()
	name := t.PGName()
	switch t.Kind {
	case types.Char:
		name = "char(3)"
	case types.Float32:
		name = "real"
	}
	if null {
		if t.Kind == types.Unknown {
			return "NULL"
		}
		return "NULL::" + name
	}
	q := "'" + strings.ReplaceAll(v, "'", "''") + "'"
	if t.Kind == types.Unknown {
		return q
	}
	return q + "::" + name
}

// result of evaluating a call with sqlgate's functions.
type result struct {
	text    string // row 0 as PostgreSQL text, "NULL" for NULL
	typName string // PostgreSQL name of the result type
	code    sqlerr.Code
	msg     string
}

// evalCall resolves fn over the literals, converts each literal to the
// type Resolve asked for (as the binder's cast would), broadcasts them to
// n rows and runs the kernel. All rows must agree; row 0 is returned.
func evalCall(t *testing.T, fn string, args []lit, n int) result {
	t.Helper()
	argTypes := make([]types.T, len(args))
	for i, a := range args {
		argTypes[i], _, _ = a.parse()
	}
	f, castTo, err := Resolve(fn, argTypes)
	if err != nil {
		e := sqlerr.As(err)
		return result{code: e.Code, msg: e.Message}
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	arrays := make([]arrow.Array, len(args))
	consts := make([]any, len(args))
	for i, a := range args {
		_, v, null := a.parse()
		target := castTo[i]
		if target.Kind == types.Decimal && argTypes[i].Kind == types.Unknown {
			if _, frac, ok := strings.Cut(v, "."); ok {
				target.Scale = len(frac)
			}
		}
		castTo[i] = target
		var val any
		if !null {
			if argTypes[i].Kind == types.Char && target.Kind == types.String {
				v = strings.TrimRight(v, " ")
			}
			val, err = types.ParseText(v, target)
			if err != nil {
				t.Fatalf("%s: cannot convert %s to %s: %v", fn, a, target, err)
			}
		}
		consts[i] = val
		arrays[i] = constArray(t, mem, val, target, n)
		defer arrays[i].Release()
	}
	ret, kernel := f.Bind(castTo, consts)
	out, err := kernel(context.Background(), mem, arrays, n)
	if err != nil {
		e := sqlerr.As(err)
		if e == nil {
			t.Fatalf("%s: error without SQLSTATE: %v", fn, err)
		}
		return result{code: e.Code, msg: e.Message}
	}
	defer out.Release()
	if out.Len() != n {
		t.Fatalf("%s: %d rows out for %d in", fn, out.Len(), n)
	}
	if !arrow.TypeEqual(out.DataType(), ret.ArrowType()) {
		t.Fatalf("%s: result Arrow type %s, Bind said %s", fn, out.DataType(), ret.ArrowType())
	}
	texts := make([]string, n)
	for i := range texts {
		texts[i] = renderText(out, i, ret)
		if texts[i] != texts[0] {
			t.Fatalf("%s: row %d = %q differs from row 0 = %q", fn, i, texts[i], texts[0])
		}
	}
	r := result{typName: ret.PGName()}
	if n > 0 {
		r.text = texts[0]
	}
	return r
}

func renderText(a arrow.Array, i int, t types.T) string {
	if a.IsNull(i) {
		return "NULL"
	}
	if iv, ok := a.(*array.MonthDayNanoInterval); ok {
		return formatInterval(iv.Value(i))
	}
	return types.FormatText(physicalValue(a, i), t)
}

// formatInterval renders an interval in PostgreSQL's default style.
func formatInterval(v arrow.MonthDayNanoInterval) string {
	var parts []string
	unit := func(n int64, one string) {
		if n == 0 {
			return
		}
		s := fmt.Sprintf("%d %s", n, one)
		if n != 1 {
			s += "s"
		}
		parts = append(parts, s)
	}
	unit(int64(v.Months/12), "year")
	if m := int64(v.Months % 12); m != 0 {
		s := fmt.Sprintf("%d mon", m)
		if m != 1 {
			s += "s"
		}
		parts = append(parts, s)
	}
	unit(int64(v.Days), "day")
	if ns := v.Nanoseconds; ns != 0 || len(parts) == 0 {
		sign := ""
		if ns < 0 {
			sign, ns = "-", -ns
		}
		us := ns / 1000
		s := fmt.Sprintf("%s%02d:%02d:%02d", sign, us/3600e6, us/60e6%60, us/1e6%60)
		if frac := us % 1e6; frac != 0 {
			s += strings.TrimRight(fmt.Sprintf(".%06d", frac), "0")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// constArray builds n copies of a physical value of type t.
func constArray(t *testing.T, mem memory.Allocator, v any, typ types.T, n int) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, typ.ArrowType())
	defer b.Release()
	for i := 0; i < n; i++ {
		var err error
		switch x := v.(type) {
		case nil:
			b.AppendNull()
		case bool:
			b.(*array.BooleanBuilder).Append(x)
		case int64:
			switch bb := b.(type) {
			case *array.Int16Builder:
				bb.Append(int16(x))
			case *array.Int32Builder:
				bb.Append(int32(x))
			default:
				err = appendValue(b, x)
			}
		case int32:
			err = appendValue(b, x)
		default:
			err = appendValue(b, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.NewArray()
}

func decimalOf(v int64) decimal128.Num { return decimal128.FromI64(v) }
