package binder

import (
	"fmt"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// NOT NULL inside a column's type: a ROW field, an ARRAY element or a MAP
// value declared NOT NULL. The store (fluss.ValidateRecord) refuses a batch
// holding such a null, naming the path column.field.field; the binder
// refuses the same value when the statement is bound if the null is
// already visible there (a constant, whatever its text form, or a NULL
// argument of a ROW, ARRAY or MAP constructor), so INSERT VALUES, UPDATE
// SET and ON CONFLICT DO UPDATE fail before any row is read, with the
// store's message. A null computed per row is left to the store, which
// checks the first batch before writing anything.

// nestedNotNull checks e, assigned to column col (of type t) of table.
func (b *binder) nestedNotNull(node sourceNode, e Expr, t types.T, col, table string) error {
	if e == nil || !hasNestedNotNull(t) {
		return nil
	}
	path, detail, ok := nullInExpr(e, t, col)
	if ok {
		return nil
	}
	err := nestedNotNullError(path, table)
	if detail != "" {
		err = err.WithDetail("%s", detail)
	}
	if node != nil {
		return b.errAt(node, err)
	}
	return err
}

// nestedNotNullError is the store's message for a null in a NOT NULL
// column or field (fluss.ValidateRecord builds the same text).
func nestedNotNullError(path, table string) *sqlerr.Error {
	return sqlerr.NullInNotNull(path, table)
}

// hasNestedNotNull reports whether t holds a NOT NULL field, element or
// map value at any depth.
func hasNestedNotNull(t types.T) bool {
	switch t.Kind {
	case types.Array:
		return t.Elem.NotNull || hasNestedNotNull(*t.Elem)
	case types.Map:
		return t.Elem.NotNull || hasNestedNotNull(*t.Key) || hasNestedNotNull(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			if f.Type.NotNull || hasNestedNotNull(f.Type) {
				return true
			}
		}
	}
	return false
}

// nullInExpr looks for a null at a NOT NULL place of t in e; ok is false
// when it finds one, with the path (as the store names it) and a detail
// naming the array element when the null is one.
func nullInExpr(e Expr, t types.T, path string) (string, string, bool) {
	switch x := e.(type) {
	case *Const:
		return nullInValue(x.Value, t, path)
	case *Cast:
		return nullInExpr(x.X, t, path)
	case *FuncCall:
		switch {
		case x.Name == "row" && t.Kind == types.Row && len(x.Args) == len(t.Fields):
			for i, a := range x.Args {
				f := t.Fields[i]
				p := path + "." + f.Name
				if c, isConst := a.(*Const); isConst && c.Value == nil && f.Type.NotNull {
					return p, "", false
				}
				if p, d, ok := nullInExpr(a, f.Type, p); !ok {
					return p, d, false
				}
			}
		case x.Name == "array" && t.Kind == types.Array:
			for i, a := range x.Args {
				if c, isConst := a.(*Const); isConst && c.Value == nil && t.Elem.NotNull {
					return path, elementDetail(i, t), false
				}
				if p, d, ok := nullInExpr(a, *t.Elem, path); !ok {
					return p, d, false
				}
			}
		case x.Name == "map" && t.Kind == types.Map:
			for i := 1; i < len(x.Args); i += 2 {
				if c, isConst := x.Args[i].(*Const); isConst && c.Value == nil && t.Elem.NotNull {
					return path, "A value of the map is null.", false
				}
				if p, d, ok := nullInExpr(x.Args[i], *t.Elem, path); !ok {
					return p, d, false
				}
			}
		}
	}
	return "", "", true
}

// nullInValue is nullInExpr for a constant in types/value.go's
// representation ([]any for ARRAY and ROW, []types.MapEntry for MAP).
func nullInValue(v any, t types.T, path string) (string, string, bool) {
	if v == nil {
		return "", "", true // the column's own NOT NULL is checked elsewhere
	}
	switch t.Kind {
	case types.Array:
		items, _ := v.([]any)
		for i, it := range items {
			if it == nil && t.Elem.NotNull {
				return path, elementDetail(i, t), false
			}
			if p, d, ok := nullInValue(it, *t.Elem, path); !ok {
				return p, d, false
			}
		}
	case types.Map:
		entries, _ := v.([]types.MapEntry)
		for _, en := range entries {
			if en.Value == nil && t.Elem.NotNull {
				return path, "A value of the map is null.", false
			}
			if p, d, ok := nullInValue(en.Value, *t.Elem, path); !ok {
				return p, d, false
			}
		}
	case types.Row:
		fields, _ := v.([]any)
		for i, f := range t.Fields {
			if i >= len(fields) {
				break
			}
			p := path + "." + f.Name
			if fields[i] == nil && f.Type.NotNull {
				return p, "", false
			}
			if p, d, ok := nullInValue(fields[i], f.Type, p); !ok {
				return p, d, false
			}
		}
	}
	return "", "", true
}

// elementDetail names the null element (1-based, as SQL subscripts are).
func elementDetail(i int, t types.T) string {
	return fmt.Sprintf("Element %d of the array is null, and the elements of %s are NOT NULL.", i+1, t.String())
}
