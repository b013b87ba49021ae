package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// castArray converts a non-NULL value to or from an array type: text to
// an array with PostgreSQL's array input ('{1,2}'), an array to text with
// its output, and an array to another array element by element (so
// ARRAY[1,2]::text[] casts each integer).
func castArray(v any, from, to types.T, env castEnv) (any, error) {
	loc := env.loc
	switch {
	case to.Variant.IsVector() && (from.Kind == types.Unknown || from.IsString() || from.Kind == types.Name) &&
		!strings.HasPrefix(strings.TrimSpace(v.(string)), "{"):
		// int2vector/oidvector text ("2 1"); array text ('{2,1}', which a
		// binary vector parameter decodes to) is read as an array below
		return functions.ParseVector(v.(string), *to.Elem, loc)
	case from.Variant.IsVector() && (to.IsString() || to.Kind == types.Name):
		parts := make([]string, 0, len(v.([]any)))
		for _, e := range v.([]any) {
			if e != nil {
				parts = append(parts, types.FormatTextStyle(e, *from.Elem, loc, env.style))
			}
		}
		return strings.Join(parts, " "), nil
	case to.Kind == types.Array && (from.Kind == types.Unknown || from.IsString() || from.Kind == types.Name):
		return functions.ParseArrayTextStyle(v.(string), to, loc, env.style) // nested arrays in braces or JSON
	case from.Kind == types.Array && (to.IsString() || to.Kind == types.Name):
		return functions.FormatArrayStyle(v.([]any), *from.Elem, loc, env.style), nil
	case from.Kind == types.Array && to.Kind == types.Array:
		in := v.([]any)
		out := make([]any, len(in))
		for i, e := range in {
			c, err := castValueIn(e, *from.Elem, *to.Elem, env)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return nil, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", from.PGName(), to.PGName())
}

// isRegArray reports an array (of any depth) of a reg* type, whose text
// names the objects (array_out calls regclass_out, ...), which takes the
// catalog that CastValueIn has no access to.
func isRegArray(t types.T) bool {
	if t.Kind != types.Array {
		return false
	}
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
	}
	return t.Variant.IsReg()
}

// regArrayToText casts a reg* array column to text: '{pg_class,pg_type}',
// each element as its type's output function prints it.
func regArrayToText(ec *EvalContext, xa arrow.Array, from, to types.T) (arrow.Array, error) {
	b := array.NewBuilder(ec.Mem, to.ArrowType())
	defer b.Release()
	n := xa.Len()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		v := valueAt(xa, i)
		if v == nil {
			b.AppendNull()
			continue
		}
		s, err := functions.ValueText(ec.Ctx, v, from, nil)
		if err != nil {
			return nil, err
		}
		appendValue(b, s)
	}
	return b.NewArray(), nil
}
