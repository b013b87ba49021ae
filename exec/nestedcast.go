package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// castNested converts a non-NULL ROW value to another ROW type by position
// (field by field, as PostgreSQL casts a record to a composite type) and a
// MAP to another MAP type entry by entry. Text to and from ROW and MAP is
// the JSON text form, handled by castValue's string cases.
func castNested(v any, from, to types.T, env castEnv) (any, error) {
	switch {
	case from.Kind == types.Row && to.Kind == types.Row:
		in, ok := v.([]any)
		if !ok || len(in) != len(from.Fields) || len(from.Fields) != len(to.Fields) {
			break
		}
		out := make([]any, len(in))
		for i, f := range in {
			if ft, tt := from.Fields[i].Type, to.Fields[i].Type; ft.Same(&tt) {
				// a field of the same type as it is: castValue has no
				// identity for every kind (boolean to boolean), and a
				// record cast for another field's sake must keep it
				out[i] = f
				continue
			}
			c, err := castValueIn(f, from.Fields[i].Type, to.Fields[i].Type, env)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case from.Kind == types.Map && to.Kind == types.Map:
		in, ok := v.([]types.MapEntry)
		if !ok {
			break
		}
		out := make([]types.MapEntry, len(in))
		for i, e := range in {
			k, err := castValueIn(e.Key, *from.Key, *to.Key, env)
			if err != nil {
				return nil, err
			}
			if k == nil {
				return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "map key must not be null")
			}
			val, err := castValueIn(e.Value, *from.Elem, *to.Elem, env)
			if err != nil {
				return nil, err
			}
			out[i] = types.MapEntry{Key: k, Value: val}
		}
		return out, nil
	}
	return nil, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", from.PGName(), to.PGName())
}

// gatherValues copies rows sel of a value by value (for layouts such as
// MAP that arrow-go's filter kernels do not handle).
func gatherValues(mem memory.Allocator, a arrow.Array, sel []int32) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.DataType())
	defer b.Release()
	b.Reserve(len(sel))
	for _, r := range sel {
		if err := types.AppendValue(b, types.ValueAt(a, int(r))); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}
