package lower

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// mixedRecordSpec is a set operation's check of records of dissimilar
// field types (binder.MixedRecords), as PostgreSQL meets them: it sorts
// both sides' rows and compares neighbours for equality.
//
//   - The sort compares rows column by column, and record_cmp a record's
//     fields in order: a left row and a right row that agree on every
//     column before the records' (the prefix) and on their leading
//     fields of alike types reach the first dissimilar pair and fail.
//   - Unique (UNION) and SetOp (INTERSECT, EXCEPT) then compare each two
//     neighbours in the sorted rows with record_eq and the other
//     columns' =, the last column first (ExecBuildGroupingEqual): a left
//     and a right neighbour that agree on the columns after the records'
//     and on the leading fields fail there, whatever their prefix.
//
// Rows whose record is NULL reach neither record function.
//
// PostgreSQL's insertion sort of so few rows meets them in its input's
// order, the left input first but for an INTERSECT whose left input is
// the larger (it puts the smaller first): that decides the order of the
// two types in the sort's message.
type mixedRecordSpec struct {
	m         binder.MixedRecords
	types     []types.T // the set operation's (common) column types
	intersect bool
}

// mixedCheckOf is x's check, nil when its records are alike.
func mixedCheckOf(x *binder.SetOp) *mixedRecordSpec {
	if x.Mixed == nil {
		return nil
	}
	cols := x.Columns()
	ts := make([]types.T, len(cols))
	for i, c := range cols {
		ts[i] = c.T.Nullable()
	}
	return &mixedRecordSpec{m: *x.Mixed, types: ts, intersect: x.Kind == binder.Intersect}
}

// wrap gives a set operation's inputs one shared check: every row is
// kept (both set operations read their left input first), and when the
// right input ends, the sort's comparisons and then the neighbours' are
// checked.
func (s *mixedRecordSpec) wrap(l, r exec.Operator) (exec.Operator, exec.Operator) {
	st := &mixedRecordState{spec: s, left: map[string][][]any{}}
	return &mixedRecordOp{Operator: l, st: st, right: false}, &mixedRecordOp{Operator: r, st: st, right: true}
}

// mixedRow is one kept row: its side, the columns before the records',
// the record (nil when NULL) and the columns after it.
type mixedRow struct {
	right         bool
	before, after []any
	rec           []any
}

// mixedRecordState is one execution's kept rows, and the left rows'
// prefixes with their leading fields by a coarse key (prefixKey) whose
// equal values always share it.
type mixedRecordState struct {
	spec *mixedRecordSpec
	left map[string][][]any
	rows []mixedRow
}

// row is row i of batch b as mixedRow.
func (st *mixedRecordState) row(b arrow.RecordBatch, i int, right bool) mixedRow {
	m := st.spec.m
	r := mixedRow{right: right}
	for c := 0; c < int(b.NumCols()); c++ {
		v := types.ValueAt(b.Column(c), i)
		switch {
		case c < m.Col:
			r.before = append(r.before, v)
		case c == m.Col:
			r.rec, _ = v.([]any)
		default:
			r.after = append(r.after, v)
		}
	}
	return r
}

// lead is record r's leading fields of alike types.
func (st *mixedRecordState) lead(r mixedRow) []any {
	out := make([]any, st.spec.m.Fields)
	copy(out, r.rec)
	return out
}

// fieldType is the (common) type of the records' field f.
func (st *mixedRecordState) fieldType(f int) types.T {
	return st.spec.types[st.spec.m.Col].Fields[f].Type.Nullable()
}

// compareAll orders two lists of values of types typ(k) as a sort key of
// them does: NULL after every value, equal to NULL.
func compareAll(x, y []any, typ func(int) types.T) int {
	for k := range x {
		if k >= len(y) {
			return 1
		}
		switch {
		case x[k] == nil && y[k] == nil:
			continue
		case x[k] == nil:
			return 1
		case y[k] == nil:
			return -1
		}
		if c, err := functions.CompareValuesAs(typ(k), x[k], y[k]); err == nil && c != 0 {
			return c
		}
	}
	if len(x) < len(y) {
		return -1
	}
	return 0
}

// prefix is the values the sort compares before the dissimilar pair.
func (st *mixedRecordState) prefix(r mixedRow) []any {
	return append(append([]any(nil), r.before...), st.lead(r)...)
}

// typeAt is the type of prefix value k.
func (st *mixedRecordState) typeAt(k int) types.T {
	m := st.spec.m
	if k < m.Col {
		return st.spec.types[k]
	}
	return st.fieldType(k - m.Col)
}

// equal reports whether two prefixes are equal as the sort's comparisons
// see them: NULL equal to NULL, values by their type's ordering.
func (st *mixedRecordState) equal(x, y []any) (bool, error) {
	for k := range x {
		switch {
		case x[k] == nil && y[k] == nil:
			continue
		case x[k] == nil || y[k] == nil:
			return false, nil
		}
		c, err := functions.CompareValuesAs(st.typeAt(k), x[k], y[k])
		if err != nil || c != 0 {
			return false, err
		}
	}
	return true, nil
}

// neighbours sorts the kept rows as PostgreSQL's sort orders them (the
// sort having met no dissimilar pair, a left and a right row differ in
// their prefix or leading fields) and reports record_eq's failure on a
// left and a right neighbour that agree on the columns after the records'
// and on the leading fields.
func (st *mixedRecordState) neighbours() error {
	m := st.spec.m
	before := func(k int) types.T { return st.spec.types[k] }
	after := func(k int) types.T { return st.spec.types[m.Col+1+k] }
	recType := st.spec.types[m.Col]
	rest := func(k int) types.T { return recType.Fields[k].Type.Nullable() }
	sort.SliceStable(st.rows, func(i, j int) bool {
		x, y := st.rows[i], st.rows[j]
		if c := compareAll(x.before, y.before, before); c != 0 {
			return c < 0
		}
		if (x.rec == nil) != (y.rec == nil) {
			return y.rec == nil
		}
		if x.rec != nil {
			if c := compareAll(st.lead(x), st.lead(y), st.fieldType); c != 0 {
				return c < 0
			}
			if x.right != y.right {
				return false // told apart before the leading fields' end
			}
			if c := compareAll(x.rec, y.rec, rest); c != 0 {
				return c < 0
			}
		}
		return compareAll(x.after, y.after, after) < 0
	})
	for i := 1; i < len(st.rows); i++ {
		x, y := st.rows[i-1], st.rows[i]
		if x.right == y.right || x.rec == nil || y.rec == nil {
			continue
		}
		if compareAll(x.after, y.after, after) == 0 && compareAll(st.lead(x), st.lead(y), st.fieldType) == 0 {
			// record_eq(the later row, the earlier one)
			if y.right {
				return m.Flip
			}
			return m.Err
		}
	}
	return nil
}

// sorted reports the sort's failure: a left and a right row of alike
// prefixes and leading fields.
func (st *mixedRecordState) sorted() error {
	lefts := 0
	for _, r := range st.rows {
		if !r.right {
			lefts++
		}
	}
	fail := st.spec.m.Err
	if st.spec.intersect && lefts > len(st.rows)-lefts {
		fail = st.spec.m.Flip
	}
	for _, right := range []bool{false, true} {
		for _, r := range st.rows {
			if r.right != right || r.rec == nil {
				continue
			}
			p := st.prefix(r)
			key := prefixKey(p)
			found, err := st.kept(key, p)
			switch {
			case err != nil:
				return err
			case !right && !found:
				st.left[key] = append(st.left[key], p)
			case right && found:
				return fail
			}
		}
	}
	return nil
}

// kept reports whether a left prefix equal to p is kept under key.
func (st *mixedRecordState) kept(key string, p []any) (bool, error) {
	for _, q := range st.left[key] {
		if same, err := st.equal(q, p); same || err != nil {
			return same, err
		}
	}
	return false, nil
}

// prefixKey is a coarse key of a prefix: equal values give equal keys
// (a float's -0 is 0, a string without its trailing blanks, values of
// other kinds, whose equal values may print differently, one mark).
func prefixKey(vals []any) string {
	var sb strings.Builder
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			sb.WriteString("N")
		case bool, int8, int16, int32, int64, uint32, arrow.Date32, arrow.Timestamp:
			fmt.Fprint(&sb, x)
		case float64:
			if x == 0 {
				x = 0
			}
			sb.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		case string:
			sb.WriteString(strconv.Quote(strings.TrimRight(x, " ")))
		default:
			sb.WriteString("?")
		}
		sb.WriteByte('|')
	}
	return sb.String()
}

// mixedRecordOp passes its input's batches on after the check.
type mixedRecordOp struct {
	exec.Operator
	st    *mixedRecordState
	right bool
	done  bool // the right input's end was checked
}

func (o *mixedRecordOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.Operator.Next(ctx)
	if err != nil {
		return nil, err
	}
	if b == nil {
		if o.right && !o.done {
			o.done = true
			if err := o.st.sorted(); err != nil {
				return nil, err
			}
			return nil, o.st.neighbours()
		}
		return nil, nil
	}
	for i := 0; i < int(b.NumRows()); i++ {
		o.st.rows = append(o.st.rows, o.st.row(b, i, o.right))
	}
	return b, nil
}
