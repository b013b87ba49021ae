package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Row comparisons: (a, b) op (c, d), ROW(...) op ROW(...) and any two
// ROW-typed values, as PostgreSQL's row-wise comparison defines them
// (functions-comparisons.html, "Row Constructor Comparison"). They expand
// into comparisons of the fields with SQL's three-valued AND/OR, which gives
// exactly PostgreSQL's NULL rules:
//
//   - = is the AND of the pairs' =: false when a pair differs, else NULL
//     when a pair is NULL, else true; <> is the OR of the pairs' <>.
//   - IS [NOT] DISTINCT FROM is the AND / OR of the pairs' own.
//   - < <= > >= compare left to right and stop at the first pair that is
//     unequal or NULL: (a1, a2) < (b1, b2) is a1 < b1 OR (a1 = b1 AND a2 < b2),
//     which is NULL as soon as the deciding pair has a NULL.
//
// x IN ((1, 2), (3, 4)) becomes an OR of row equalities before it gets here.
//
// That is the rule when both sides are row constructors. Any other ROW
// value (a column, a derived table's record, a record nested in a
// constructor) is compared whole, as record_eq and btrecordcmp compare:
// two NULL fields equal, a NULL field after every value (recordComparison).

// nullRecordComparison binds a comparison of a record, or an array of
// records, with an untyped NULL (or NULL::record), which PostgreSQL types
// as a comparison of two records (arrays): = <> < <= > >= are strict and
// NULL; IS [NOT] DISTINCT FROM NULL asks whether the value itself is NULL,
// so a row of NULL fields is distinct from it (unlike IS NULL, which tests
// the fields). ok is false for other operands.
func nullRecordComparison(op Op, l, r Expr) (Expr, bool) {
	null := func(e Expr) bool {
		c, ok := e.(*Const)
		return ok && c.Value == nil && (isUnknown(c.T) || isNullRecord(e))
	}
	record := func(t types.T) bool {
		for t.Kind == types.Array && t.Elem != nil {
			t = *t.Elem
		}
		return t.Kind == types.Row
	}
	other := l
	switch {
	case null(r) && record(l.Type()):
	case null(l) && record(r.Type()):
		other = r
	default:
		return nil, false
	}
	switch op {
	case OpIsDistinct:
		return &IsNull{X: other, Not: true}, true
	case OpIsNotDistinct:
		return &IsNull{X: other}, true
	}
	return &Const{Value: nil, T: types.BoolType}, true
}

// makeRowComparison expands a comparison of two ROW values.
func (b *binder) makeRowComparison(n sourceNode, op Op, l, r Expr) (Expr, error) {
	if (isNullRecord(l) || isNullRecord(r)) && op != OpIsDistinct && op != OpIsNotDistinct {
		// NULL::record (recordcast.go): record_eq and its kin are strict
		return &Const{Value: nil, T: types.BoolType}, nil
	}
	if b.ctors[l] == nil || b.ctors[r] == nil {
		if sameFieldTypes(l.Type(), r.Type()) {
			return recordComparison(op, l, r)
		}
		if dissimilarRecords(l.Type(), r.Type()) {
			return dissimilarRecordComparison(op, l, r)
		}
	}
	ls, rs := b.rowElements(l), b.rowElements(r)
	if len(ls) != len(rs) {
		return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "unequal number of entries in row expressions"))
	}
	if len(ls) == 0 {
		return b.emptyRowComparison(n, op, l, r)
	}
	pair := func(op Op, i int) (Expr, error) {
		// a record inside a constructor is one value: record_eq's rules
		if lt, rt := ls[i].Type(), rs[i].Type(); lt.Kind == types.Row && rt.Kind == types.Row &&
			(sameFieldTypes(lt, rt) || emptyRecord(lt) && emptyRecord(rt)) && !isNullRecord(ls[i]) && !isNullRecord(rs[i]) {
			return recordComparison(op, ls[i], rs[i])
		}
		return b.makeBinary(n, op, ls[i], rs[i])
	}
	switch op {
	case OpEq, OpNe, OpIsDistinct, OpIsNotDistinct:
		join := OpAnd
		if op == OpNe || op == OpIsDistinct {
			join = OpOr
		}
		var acc Expr
		for i := range ls {
			c, err := pair(op, i)
			if err != nil {
				return nil, err
			}
			if acc == nil {
				acc = c
			} else if acc, err = b.makeBinary(n, join, acc, c); err != nil {
				return nil, err
			}
		}
		return acc, nil
	case OpLt, OpLe, OpGt, OpGe:
		strict := OpLt
		if op == OpGt || op == OpGe {
			strict = OpGt
		}
		last := len(ls) - 1
		acc, err := pair(op, last)
		if err != nil {
			return nil, err
		}
		for i := last - 1; i >= 0; i-- {
			before, err := pair(strict, i)
			if err != nil {
				return nil, err
			}
			same, err := pair(OpEq, i)
			if err != nil {
				return nil, err
			}
			rest, err := b.makeBinary(n, OpAnd, same, acc)
			if err != nil {
				return nil, err
			}
			if acc, err = b.makeBinary(n, OpOr, before, rest); err != nil {
				return nil, err
			}
		}
		return acc, nil
	}
	return nil, b.binaryOpError(n, op, l.Type(), r.Type())
}

// rowElements are the fields of ROW value e: a constructor's arguments as
// written (so that an unknown literal is typed by the other row's field,
// as PostgreSQL types (a, b) = (1, '2')), else a field selection per field.
func (b *binder) rowElements(e Expr) []Expr {
	if info := b.ctors[e]; info != nil && len(info.args) == len(e.Type().Fields) {
		return info.args
	}
	fs := e.Type().Fields
	out := make([]Expr, len(fs))
	for k, f := range fs {
		ft := f.Type.Nullable()
		out[k] = &FuncCall{Name: "fieldselect", Args: []Expr{e}, T: ft, Kernel: functions.FieldSelectKernel(ft, k)}
	}
	return out
}

// emptyRecord reports whether t is the record of row(), which has no
// fields.
func emptyRecord(t types.T) bool {
	return t.IsAnonRecord() && len(t.Fields) == 0
}

// emptyRowComparison compares two rows of no fields. Two constructors
// (row() = row()) compare as the AND / OR of no pairs for IS [NOT]
// DISTINCT FROM (make_row_distinct_op) and are refused for the other
// operators (make_row_comparison_op); other record values compare whole,
// as record_eq and btrecordcmp compare: equal.
func (b *binder) emptyRowComparison(n sourceNode, op Op, l, r Expr) (Expr, error) {
	if b.ctors[l] == nil || b.ctors[r] == nil {
		return recordComparison(op, l, r)
	}
	switch op {
	case OpIsDistinct:
		return &Const{Value: false, T: types.BoolType}, nil
	case OpIsNotDistinct:
		return &Const{Value: true, T: types.BoolType}, nil
	}
	return nil, b.errAtOperator(n, op.String(), sqlerr.New(sqlerr.FeatureNotSupported, "cannot compare rows of zero length"))
}

// sameFieldTypes reports whether ROW types a and b have as many fields of
// the same types (names and nullability aside), so that their values
// compare as records without converting a field.
func sameFieldTypes(a, b types.T) bool {
	if len(a.Fields) != len(b.Fields) || len(a.Fields) == 0 {
		return false
	}
	for i := range a.Fields {
		if !a.Fields[i].Type.Nullable().Equal(b.Fields[i].Type.Nullable()) {
			return false
		}
	}
	return true
}

// recordComparison compares two ROW values that are not both constructors
// as PostgreSQL's record operators do (functions.RecordCompareKernel): two
// NULL fields are equal and a NULL field sorts after every value, so
// x = y over record columns is true for (1,NULL) and (1,NULL) where
// ROW(1, NULL) = ROW(1, NULL) is NULL.
func recordComparison(op Op, l, r Expr) (Expr, error) {
	if err := recordFieldsError(l.Type(), r.Type(), equalityOp(op), true); err != nil {
		return nil, err
	}
	k, err := functions.RecordCompareKernel(l.Type(), op.String())
	if err != nil {
		return nil, err
	}
	return &FuncCall{Name: "record " + op.String(), Args: []Expr{l, r}, T: types.BoolType, Kernel: k}, nil
}

// dissimilarRecords reports whether a and b are records whose field types
// are known and differ (int and text, int and bigint, or another count):
// PostgreSQL compares such values with record_eq/record_cmp, which fail at
// run time on the first pair of different types they reach, rather than
// casting a field. Unknown fields (an untyped literal in a constructor)
// keep the field-by-field expansion, which resolves them.
func dissimilarRecords(a, b types.T) bool {
	if !a.IsAnonRecord() || !b.IsAnonRecord() || len(a.Fields) == 0 || len(b.Fields) == 0 {
		return false
	}
	for _, t := range []types.T{a, b} {
		for _, f := range t.Fields {
			if f.Type.Kind == types.Unknown {
				return false
			}
		}
	}
	return true
}

// dissimilarRecordComparison is recordComparison for records of different
// field types (functions.DissimilarRecordCompareKernel).
func dissimilarRecordComparison(op Op, l, r Expr) (Expr, error) {
	// the fields before the first dissimilar pair, which the kernel
	// refuses itself
	if err := recordFieldsError(l.Type(), r.Type(), equalityOp(op), false); err != nil {
		return nil, err
	}
	k, err := functions.DissimilarRecordCompareKernel(l.Type(), r.Type(), op.String())
	if err != nil {
		return nil, err
	}
	return &FuncCall{Name: "record " + op.String(), Args: []Expr{l, r}, T: types.BoolType, Kernel: k}, nil
}

// equalityOp reports whether op compares for equality only (record_eq's
// operators), not order (record_cmp's).
func equalityOp(op Op) bool {
	return op == OpEq || op == OpNe || op == OpIsDistinct || op == OpIsNotDistinct
}

// recordFieldsError is the first error record_eq (eq) or record_cmp
// gives comparing records a and c, field by field as they do: a pair of
// fields of different types (42804 "dissimilar column types", when
// dissimilar is set; else the walk stops there, for a kernel that refuses
// them itself), then a field type without an equality operator (record_eq)
// or comparison function (record_cmp), as typeSortOps says (json has
// neither: 42883), and last records of different lengths. Fields that are
// records of one type (or arrays of them) are compared by record_eq
// itself, so their fields are walked in turn; another array field is
// named whole (json[]), as the type cache names it. PostgreSQL stops at
// the first pair of unequal values, so it may answer where this refuses:
// the binder refuses what a comparison of equal leading fields would.
func recordFieldsError(a, c types.T, eq, dissimilar bool) error {
	n := min(len(a.Fields), len(c.Fields))
	for i := 0; i < n; i++ {
		fa, fc := a.Fields[i].Type, c.Fields[i].Type
		la, lc := fa, fc
		for la.Kind == types.Array && lc.Kind == types.Array && la.Elem != nil && lc.Elem != nil {
			la, lc = *la.Elem, *lc.Elem
		}
		if la.Kind == types.Row && lc.Kind == types.Row && compositeOID(la) == compositeOID(lc) &&
			arrayDims(fa) == arrayDims(fc) {
			// the kernels see two fields of one record type; their
			// fields are record_eq's to refuse
			if err := recordFieldsError(la, lc, eq, true); err != nil {
				return err
			}
			continue
		}
		if !functions.SameRecordFieldType(fa, fc) {
			if dissimilar {
				return functions.DissimilarColumns(fa, fc, i)
			}
			return nil
		}
		switch ord, equal := typeSortOps(fa); {
		case eq && !equal:
			return errNoEquality(fa)
		case !eq && !ord:
			return errNoComparison(fa)
		}
	}
	if len(a.Fields) != len(c.Fields) && dissimilar {
		return functions.DifferentRecordLengths()
	}
	return nil
}
