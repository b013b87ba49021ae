package functions

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// json_populate_record, jsonb_populate_record, json_populate_recordset
// and jsonb_populate_recordset: a JSON object (or an array of them) as a
// value of a row type, the first argument's (a table's row type, a
// composite, or in FROM the record a column definition list describes).
//
// Each field takes its value as PostgreSQL's populate_record_field gives
// it: a key the object lacks keeps the base row's value (NULL when the
// base is NULL), a JSON null is NULL; a composite field reads an object
// field by field (its own base the base row's field) or a string by
// record_in; an array field reads a JSON array element by element, its
// dimensions checked as populate_array checks them, or a string by
// array_in; a json or jsonb field takes the JSON text itself; any other
// field reads a string's contents, or the text of any other JSON value,
// with its type's input function in the session's TimeZone and DateStyle.

// IsPopulateRecord reports whether name is one of the populate_record
// family, whose result is the row type of their first argument.
func IsPopulateRecord(name string) bool {
	switch strings.ToLower(name) {
	case "json_populate_record", "jsonb_populate_record", "json_populate_recordset", "jsonb_populate_recordset":
		return true
	}
	return false
}

// PopulateArgs are the types a populate_record call's arguments are cast
// to, base the row type: base, then json or jsonb, then (json's only, and
// ignored as PostgreSQL ignores it) use_json_as_text boolean. False when
// the function takes no nargs arguments.
func PopulateArgs(name string, base types.T, nargs int) ([]types.T, bool) {
	lname := strings.ToLower(name)
	jt := tJSON
	if strings.HasPrefix(lname, "jsonb_") {
		jt = tJSONB
	}
	switch {
	case nargs == 2:
		return []types.T{base, jt}, true
	case nargs == 3 && jt.Variant == types.JSON:
		return []types.T{base, jt, types.BoolType}, true
	}
	return nil, false
}

// ResolvePopulate checks a populate_record call's arguments, their types
// args, as PostgreSQL does for a call whose row type comes from its first
// argument (the select list's, or FROM's without a column definition
// list), and returns the row type and the types to cast the arguments to.
func ResolvePopulate(name string, args []types.T) (types.T, []types.T, error) {
	lname := strings.ToLower(name)
	if len(args) == 0 {
		return types.T{}, nil, undefinedFunction(lname, args)
	}
	base := args[0]
	switch {
	case base.Kind == types.Null || pgTypeOf(base) == pgUnknown:
		return types.T{}, nil, sqlerr.New(sqlerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	case base.Kind != types.Row:
		return types.T{}, nil, sqlerr.New(sqlerr.DatatypeMismatch, "first argument of %s must be a row type", lname)
	}
	want, err := PopulateArgsFor(lname, base.Nullable(), args)
	if err != nil {
		return types.T{}, nil, err
	}
	if !base.IsComposite() && len(base.Fields) == 0 {
		return types.T{}, nil, NoRowType(lname)
	}
	return base.Nullable(), want, nil
}

// NoRowType is PostgreSQL's error for a function returning record whose
// columns nothing describes.
func NoRowType(name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "could not determine row type for result of %s", name).
		WithHint("Provide a non-null record argument, or call the function in the FROM clause using a column definition list.")
}

// PopulateArgsFor is PopulateArgs for arguments of types args, 42883
// when they do not fit.
func PopulateArgsFor(name string, row types.T, args []types.T) ([]types.T, error) {
	want, ok := PopulateArgs(name, row, len(args))
	if !ok || !canCoerce(pgTypeOf(args[1]), pgTypeOf(want[1])) || len(args) == 3 && !canCoerce(pgTypeOf(args[2]), pgBool) {
		return nil, undefinedFunction(strings.ToLower(name), args)
	}
	return want, nil
}

// PopulateRecordKernel is json[b]_populate_record(base, doc) returning a
// value of the row type row.
func PopulateRecordKernel(name string, row types.T) Kernel {
	lname := strings.ToLower(name)
	return rowFunc(row, false, func(ctx context.Context, args []any) (any, error) {
		p := newPopulator(ctx)
		base, _ := args[0].([]any)
		if args[1] == nil {
			if base == nil {
				return make([]any, len(row.Fields)), nil
			}
			return base, nil
		}
		return p.record(args[1].(string), row, base, lname)
	})
}

// PopulateRecordSet is json[b]_populate_record (set false: one row) or
// json[b]_populate_recordset (set: a row per object of the array) as a
// set-returning function of the row type row, for FROM, where the row's
// fields become columns.
func PopulateRecordSet(name string, row types.T, set bool, nargs int) *SetFunc {
	lname := strings.ToLower(name)
	args, ok := PopulateArgs(lname, row, nargs)
	if !ok {
		return nil
	}
	jsonb := args[1].Variant == types.JSONB
	return &SetFunc{Name: lname, Args: args, Ret: row, Rows: func(ctx context.Context, v []any) (func() (any, bool, error), error) {
		p := newPopulator(ctx)
		base, _ := v[0].([]any)
		if v[1] == nil {
			if set {
				return none, nil
			}
			if base == nil {
				base = make([]any, len(row.Fields))
			}
			return listRows([]any{base}), nil
		}
		doc := v[1].(string)
		if !set {
			r, err := p.record(doc, row, base, lname)
			if err != nil {
				return nil, err
			}
			return listRows([]any{r}), nil
		}
		els, ok, err := jsonElements(doc)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, notAnArray(lname, doc, jsonb)
		}
		k := 0
		return func() (any, bool, error) {
			if k >= len(els) {
				return nil, false, nil
			}
			el := els[k]
			k++
			if JSONKind(el) != "object" {
				return nil, false, sqlerr.New(sqlerr.InvalidParameterValue, "argument of %s must be an array of objects", lname)
			}
			r, err := p.record(el, row, base, lname)
			return r, err == nil, err
		}, nil
	}}
}

// notAnArray is the recordset functions' error for a document that is no
// array: json's parser names what it met, jsonb's check does not.
func notAnArray(name, doc string, jsonb bool) error {
	what := "a non-array"
	if !jsonb {
		what = "a scalar"
		if JSONKind(doc) == "object" {
			what = "an object"
		}
	}
	return sqlerr.New(sqlerr.InvalidParameterValue, "cannot call %s on %s", name, what)
}

// populator reads JSON values as values of SQL types in one session's
// settings.
type populator struct {
	loc   *time.Location
	style types.Style
	now   time.Time
}

func newPopulator(ctx context.Context) *populator {
	return &populator{loc: LocationOf(ctx), style: StyleOf(ctx), now: time.Now()}
}

// record is populate_composite: the object doc as a value of row, base
// (nil: none) giving the fields the object lacks.
func (p *populator) record(doc string, row types.T, base []any, _ string) ([]any, error) {
	fs, ok, err := jsonFields(doc)
	if err != nil {
		return nil, err
	}
	if !ok {
		what := "a scalar"
		if JSONKind(doc) == "array" {
			what = "an array"
		}
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot call populate_composite on %s", what)
	}
	byKey := make(map[string]string, len(fs))
	for _, f := range fs {
		byKey[f.key] = f.value // of duplicate keys (json) the last wins
	}
	out := make([]any, len(row.Fields))
	for k, f := range row.Fields {
		var def any
		if k < len(base) {
			def = base[k]
		}
		val, found := byKey[f.Name]
		if !found {
			out[k] = def
			continue
		}
		if out[k], err = p.field(val, f.Type, f.Name, def); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// field is populate_record_field: the JSON value val as a value of t,
// for key (named in array errors' hints); def is the base's value, the
// base of a composite field.
func (p *populator) field(val string, t types.T, key string, def any) (any, error) {
	kind := JSONKind(val)
	switch {
	case kind == "null":
		return nil, nil
	case t.Variant.IsJSON():
		return types.ParseJSON(strings.TrimSpace(val), t.Variant == types.JSONB)
	case t.Kind == types.Row && kind != "string":
		if kind != "object" {
			what := "a scalar"
			if kind == "array" {
				what = "an array"
			}
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot call populate_composite on %s", what)
		}
		base, _ := def.([]any)
		return p.record(val, t, base, key)
	case t.Kind == types.Array && kind != "string":
		if kind != "array" {
			return nil, expectedJSONArray(key)
		}
		return p.array(val, t, key)
	}
	s, err := jsonAsText(val)
	if err != nil || s == nil {
		return nil, err
	}
	return p.input(s.(string), t)
}

// input is t's input function reading s.
func (p *populator) input(s string, t types.T) (any, error) {
	switch {
	case t.Kind == types.Array:
		return ParseArrayTextStyle(s, t, p.loc, p.style)
	case t.IsComposite():
		return types.ParseRecord(s, t, p.loc)
	}
	return types.ParseTextStyle(s, t, p.loc, p.now, p.style)
}

// array is populate_array: the JSON array doc as a value of the array
// type t. The depth of the first element that is no array fixes the
// dimensions; every sub-array of a dimension must have the same length.
func (p *populator) array(doc string, t types.T, key string) (any, error) {
	a := &jsonArrayReader{p: p, key: key, elem: arrayLeaf(t)}
	if err := a.dim(doc, 1); err != nil {
		return nil, err
	}
	if a.elem.Kind == types.Row {
		if a.ndims > 1 {
			return nil, sqlerr.NotSupported("multidimensional arrays of composite values from JSON")
		}
		if a.rows == nil {
			return []any{}, nil
		}
		return a.rows, nil
	}
	for _, d := range a.dims {
		if d == 0 {
			return []any{}, nil // an empty dimension: the empty array
		}
	}
	return p.input(a.text.String(), t)
}

// jsonArrayReader walks a JSON array as PostgreSQL's populate_array_dim_jsonb
// does, writing the array's text (or, for composite elements, the
// elements) as it goes.
type jsonArrayReader struct {
	p     *populator
	key   string
	elem  types.T
	ndims int
	dims  []int // the length of each dimension, -1 until known
	sizes []int // elements seen so far in the current sub-array of each
	text  strings.Builder
	rows  []any
}

func (a *jsonArrayReader) dim(doc string, ndim int) error {
	els, ok, err := jsonElements(doc)
	if err != nil {
		return err
	}
	if !ok {
		return a.expectedArray(ndim - 1)
	}
	if a.ndims <= 0 && (len(els) == 0 || JSONKind(els[0]) != "array") {
		a.ndims = ndim
		a.dims, a.sizes = make([]int, ndim), make([]int, ndim)
		for i := range a.dims {
			a.dims[i] = -1
		}
	}
	a.text.WriteByte('{')
	for i, el := range els {
		if i > 0 {
			a.text.WriteByte(',')
		}
		if a.ndims > 0 && ndim >= a.ndims {
			if err := a.element(el); err != nil {
				return err
			}
			a.sizes[ndim-1]++
			continue
		}
		if err := a.dim(el, ndim+1); err != nil {
			return err
		}
	}
	a.text.WriteByte('}')
	return a.checkDimension(ndim - 1)
}

// checkDimension closes a sub-array of dimension ndim (0-based): its
// length must be the dimension's.
func (a *jsonArrayReader) checkDimension(ndim int) error {
	n := a.sizes[ndim]
	if a.dims[ndim] == -1 {
		a.dims[ndim] = n
	} else if a.dims[ndim] != n {
		return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed JSON array").
			WithDetail("Multidimensional arrays must have sub-arrays with matching dimensions.")
	}
	a.sizes[ndim] = 0
	if ndim > 0 {
		a.sizes[ndim-1]++
	}
	return nil
}

// expectedArray is populate_array_report_expected_array: a value that is
// no array where dimension ndim (0: the value of the key) wants one.
func (a *jsonArrayReader) expectedArray(ndim int) error {
	if ndim <= 0 {
		return expectedJSONArray(a.key)
	}
	var idx strings.Builder
	for i := 0; i < ndim; i++ {
		fmt.Fprintf(&idx, "[%d]", a.sizes[i])
	}
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "expected JSON array").
		WithHint("See the array element %s of key %q.", idx.String(), a.key)
}

// element writes one innermost element: NULL, a composite read from an
// object, or the text its type's input reads (json's own text for json
// elements).
func (a *jsonArrayReader) element(el string) error {
	if a.elem.Kind == types.Row {
		v, err := a.p.field(el, a.elem, a.key, nil)
		if err != nil {
			return err
		}
		a.rows = append(a.rows, v)
		return nil
	}
	kind := JSONKind(el)
	if kind == "null" {
		a.text.WriteString("NULL")
		return nil
	}
	s := strings.TrimSpace(el)
	if !a.elem.Variant.IsJSON() {
		t, err := jsonAsText(el)
		if err != nil {
			return err
		}
		s = t.(string)
		// the element's input runs now, as populate_array_element runs
		// it, so that a bad element fails before a later shape error
		if _, err := a.p.input(s, a.elem); err != nil {
			return err
		}
	}
	a.text.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			a.text.WriteByte('\\')
		}
		a.text.WriteRune(r)
	}
	a.text.WriteByte('"')
	return nil
}
