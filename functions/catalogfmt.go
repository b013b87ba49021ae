package functions

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// textArgsKernel renders every argument with its type's output function
// (nil for NULL) and hands the row to body.
func textArgsKernel(argTypes []types.T, body func(vals []*string) (any, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		if len(args) != len(argTypes) {
			return nil, sqlerr.New(sqlerr.InternalError, "%d arguments for %d types", len(args), len(argTypes))
		}
		loc, st := LocationOf(ctx), StyleOf(ctx)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		vals := make([]*string, len(args))
		for i := 0; i < n; i++ {
			for k, a := range args {
				if a.IsNull(i) {
					vals[k] = nil
					continue
				}
				s, err := outputText(ctx, a, i, argTypes[k], loc, st)
				if err != nil {
					return nil, err
				}
				vals[k] = &s
			}
			v, err := body(vals)
			if err != nil {
				return nil, err
			}
			if err := appendValue(b, v); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// formatSpecialize is format(fmt, args...): %s, %I, %L and %%, with
// optional n$ positions, "-" flags and widths, given or taken from an
// argument (* or *m$, read as int4; a negative one left-aligns).
func formatSpecialize(argTypes []types.T, _ []any) (types.T, Kernel) {
	return tText, textArgsKernel(argTypes, func(vals []*string) (any, error) {
		if vals[0] == nil {
			return nil, nil
		}
		return pgFormat(*vals[0], vals[1:])
	})
}

func pgFormat(f string, args []*string) (any, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return nil, unterminatedFormat()
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		spec, end, err := parseFormatSpec(f, i)
		if err != nil {
			return nil, err
		}
		i = end
		if c := f[i]; c != 's' && c != 'I' && c != 'L' {
			_, size := utf8.DecodeRuneInString(f[i:])
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized format() type specifier \"%s\"", f[i:i+size]).
				WithHint("%s", `For a single "%" use "%%".`)
		}
		width := spec.width
		if spec.widthPos >= 0 {
			// the width argument comes before the value's, as in text_format
			if spec.widthPos > 0 {
				next = spec.widthPos - 1
			}
			if next >= len(args) {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "too few arguments for format()")
			}
			width = 0 // a NULL width is no width
			if w := args[next]; w != nil {
				v, err := types.ParseText(*w, types.Int32Type)
				if err != nil {
					return nil, err
				}
				width = int(v.(int64))
			}
			next++
		}
		if spec.argPos > 0 {
			next = spec.argPos - 1
		}
		if next >= len(args) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "too few arguments for format()")
		}
		v := args[next]
		next++
		var s string
		switch f[i] {
		case 's':
			if v != nil {
				s = *v
			}
		case 'I':
			if v == nil {
				return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
			}
			s = QuoteIdent(*v)
		case 'L':
			if v == nil {
				s = "NULL"
			} else {
				s = quoteLiteral(*v)
			}
		}
		if err := appendFormatted(&b, s, width, spec.left); err != nil {
			return nil, err
		}
	}
	return b.String(), nil
}

// formatSpec is one format() specifier's [n$][-...][width|*[m$]]: argPos
// and widthPos are 1-based positions (widthPos 0: the width is the next
// argument; -1: no width argument).
type formatSpec struct {
	argPos, widthPos, width int
	left                    bool
}

// parseFormatSpec parses the specifier after a '%' at f[i:] as
// text_format_parse_format does and returns the index of its type
// character. Running out of text anywhere is "unterminated"; a position 0
// is refused as soon as it is read.
func parseFormatSpec(f string, i int) (formatSpec, int, error) {
	spec := formatSpec{argPos: -1, widthPos: -1}
	advance := func() error {
		if i++; i >= len(f) {
			return unterminatedFormat()
		}
		return nil
	}
	n, found, err := formatDigits(f, &i)
	if err != nil {
		return spec, i, err
	}
	if found {
		if f[i] != '$' {
			spec.width = n // just a width and a type
			return spec, i, nil
		}
		if n == 0 {
			return spec, i, formatArgZero()
		}
		spec.argPos = n
		if err := advance(); err != nil {
			return spec, i, err
		}
	}
	for f[i] == '-' {
		spec.left = true
		if err := advance(); err != nil {
			return spec, i, err
		}
	}
	if f[i] == '*' {
		if err := advance(); err != nil {
			return spec, i, err
		}
		n, found, err := formatDigits(f, &i)
		if err != nil {
			return spec, i, err
		}
		spec.widthPos = 0
		if found {
			if f[i] != '$' {
				return spec, i, sqlerr.New(sqlerr.InvalidParameterValue, "width argument position must be ended by \"$\"")
			}
			if n == 0 {
				return spec, i, formatArgZero()
			}
			spec.widthPos = n
			if err := advance(); err != nil {
				return spec, i, err
			}
		}
		return spec, i, nil
	}
	n, found, err = formatDigits(f, &i)
	if found {
		spec.width = n
	}
	return spec, i, err
}

// formatDigits reads the digits at f[*i:] as an int4 (text_format_parse_digits):
// past the end of f is unterminated, more than an int4 is out of range.
func formatDigits(f string, i *int) (int, bool, error) {
	n, found := 0, false
	for f[*i] >= '0' && f[*i] <= '9' {
		n = n*10 + int(f[*i]-'0')
		if n > math.MaxInt32 {
			return 0, false, sqlerr.New(sqlerr.NumericValueOutOfRange, "number is out of range")
		}
		found = true
		if *i++; *i >= len(f) {
			return 0, false, unterminatedFormat()
		}
	}
	return n, found, nil
}

// appendFormatted pads s with spaces to width characters (text_format_append_string):
// a negative width aligns left as the '-' flag does.
func appendFormatted(b *strings.Builder, s string, width int, left bool) error {
	if width < 0 {
		if width <= math.MinInt32 {
			return sqlerr.New(sqlerr.NumericValueOutOfRange, "number is out of range")
		}
		left, width = true, -width
	}
	pad := width - utf8.RuneCountInString(s)
	if pad >= maxFormatPad-b.Len() {
		// PostgreSQL's string buffer cannot grow past 1GB
		return sqlerr.New(sqlerr.ProgramLimitExceeded, "out of memory").
			WithDetail("Cannot enlarge string buffer containing %d bytes by %d more bytes.", b.Len(), pad)
	}
	if pad <= 0 {
		b.WriteString(s)
		return nil
	}
	if left {
		b.WriteString(s)
		b.WriteString(strings.Repeat(" ", pad))
	} else {
		b.WriteString(strings.Repeat(" ", pad))
		b.WriteString(s)
	}
	return nil
}

// maxFormatPad is the padding past which PostgreSQL's 1GB StringInfo
// limit refuses a format() width.
const maxFormatPad = 1<<30 - 1

func unterminatedFormat() error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "unterminated format() type specifier").
		WithHint("%s", `For a single "%" use "%%".`)
}

func formatArgZero() error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1")
}

// jsonBuildObjectSpecialize is json_build_object(k1, v1, ...); the result
// is json.
func jsonBuildObjectSpecialize(argTypes []types.T, _ []any) (types.T, Kernel) {
	return tJSON, rowFunc(tJSON, false, func(ctx context.Context, vals []any) (any, error) {
		if len(vals)%2 != 0 {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "argument list must have even number of elements").
				WithHint("The arguments of json_build_object() must consist of alternating keys and values.")
		}
		loc := LocationOf(ctx)
		var b strings.Builder
		b.WriteByte('{')
		for k := 0; k < len(vals); k += 2 {
			if vals[k] == nil {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "null value not allowed for object key")
			}
			if k > 0 {
				b.WriteString(", ")
			}
			key, err := CastText(ctx, vals[k], argTypes[k], loc)
			if err != nil {
				return nil, err
			}
			b.WriteString(jsonQuote(key))
			b.WriteString(" : ")
			writeJSONValue(ctx, &b, vals[k+1], argTypes[k+1], loc)
		}
		b.WriteByte('}')
		return b.String(), nil
	})
}

// jsonQuote quotes s as a JSON string the way PostgreSQL's escape_json
// does.
func jsonQuote(s string) string { return types.QuoteJSON(s) }

// isOwnDatabase reports whether name is the one database: the catalog's
// name, or the name the session connected with (sqlgate accepts any
// database name at startup and current_database() returns it, so that a
// tool connecting to "postgres" works).
func isOwnDatabase(ctx context.Context, c CatalogInfo, name string) bool {
	return name == c.Database() || name == sessionOf(ctx).Database
}

// DatabaseOID is the OID of the database named name, in pg_database and
// wherever a database's OID appears: a hash of the name in [2^30, 2^31),
// so that every session computes the same OID for a name (sqlgate accepts
// any database name at startup), it is above the system range like a
// database PostgreSQL users create (pgAdmin lists the databases with an
// OID above 16383, and "postgres"), far from the tables' OIDs, and it
// still fits the signed 32-bit integers some clients read OIDs into.
func DatabaseOID(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte("database:" + name))
	return 1<<30 | h.Sum32()>>2
}

// isOwnDatabaseOID reports whether oid is the one database's (by either
// of its names, see isOwnDatabase).
func isOwnDatabaseOID(ctx context.Context, c CatalogInfo, oid uint32) bool {
	return oid == DatabaseOID(c.Database()) || oid == DatabaseOID(sessionOf(ctx).Database)
}
