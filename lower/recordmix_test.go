package lower

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// TestMixedRecordChecks runs the set operation's checks of records of
// dissimilar field types over rows (k, ROW(f1, f2)) whose f2 is integer on
// the left and numeric on the right (kept in the common type, numeric
// written as float here): a failure when a left and a right row agree on
// k and f1 (the sort's comparison reaches f2), or are neighbours in the
// sorted rows agreeing on f1 (record_eq, compared before k, reaches f2).
func TestMixedRecordChecks(t *testing.T) {
	rec := types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{
		{Name: "f1", Type: types.Int32Type}, {Name: "f2", Type: types.Float64Type}}}
	m := binder.MixedRecords{Col: 1, Fields: 1,
		Err:  functions.DissimilarColumns(types.Int32Type, types.NumericType, 1),
		Flip: functions.DissimilarColumns(types.NumericType, types.Int32Type, 1)}
	row := func(right bool, k int32, f1 any) mixedRow {
		r := mixedRow{right: right, before: []any{k}}
		if f1 != "null record" {
			r.rec = []any{f1, 2.0}
		}
		return r
	}
	cases := []struct {
		name      string
		rows      []mixedRow
		intersect bool
		want      error // nil: no failure
	}{
		{"same k and f1", []mixedRow{row(false, 1, int32(1)), row(true, 1, int32(1))}, false, m.Err},
		{"NULL f1 on both", []mixedRow{row(false, 1, nil), row(true, 1, nil)}, false, m.Err},
		{"intersect, smaller right first", []mixedRow{row(false, 1, int32(1)), row(false, 2, int32(5)), row(true, 1, int32(1))}, true, m.Flip},
		{"f1 differs", []mixedRow{row(false, 1, int32(1)), row(true, 1, int32(2))}, false, nil},
		{"neighbours, k differs", []mixedRow{row(false, 1, int32(1)), row(true, 2, int32(1))}, false, m.Flip},
		{"not neighbours", []mixedRow{row(false, 1, int32(1)), row(false, 2, int32(3)), row(true, 3, int32(1))}, false, nil},
		{"NULL record", []mixedRow{row(false, 1, "null record"), row(true, 1, int32(1))}, false, nil},
	}
	for _, c := range cases {
		st := &mixedRecordState{spec: &mixedRecordSpec{m: m, types: []types.T{types.Int32Type, rec}, intersect: c.intersect},
			left: map[string][][]any{}, rows: c.rows}
		err := st.sorted()
		if err == nil {
			err = st.neighbours()
		}
		if (err == nil) != (c.want == nil) || err != nil && err.Error() != c.want.Error() {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}
