package binder

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestLiteralCellAgreesWithAssign: literalCell, the VALUES fast path, gives
// what the general path (bind the literal, then assign it to the column)
// gives: the same constant, or, where the general path leaves an
// assignment cast of a constant for lower to fold, the constant that cast
// makes (want); the same error, code and position; and it declines what it
// does not read the general path's way.
func TestLiteralCellAgreesWithAssign(t *testing.T) {
	varchar3 := types.T{Kind: types.String, Length: 3}
	cases := []struct {
		lit     string
		t       types.T
		taken   bool
		want    any // the folded value where the general path casts
		errCode sqlerr.Code
	}{
		{lit: "7", t: types.Int32Type, taken: true},
		{lit: "7", t: types.Int64Type, taken: true, want: int64(7)},
		{lit: "9999999999", t: types.Int64Type, taken: true},
		{lit: "9999999999", t: types.Int32Type}, // out of range: the general path's 22003
		{lit: "7", t: types.Int16Type},          // a narrowing the general path checks
		{lit: "7", t: types.Float64Type, taken: true, want: float64(7)},
		{lit: "12.25", t: types.Float64Type, taken: true, want: 12.25},
		{lit: "0.1", t: types.Float64Type, taken: true, want: 0.1},
		{lit: "12.25", t: types.Int32Type}, // numeric to integer rounds: general path
		{lit: "NULL", t: types.Int32Type, taken: true},
		{lit: "NULL", t: types.StringType, taken: true},
		{lit: "'x'", t: types.StringType, taken: true},
		{lit: "'abc'", t: varchar3, taken: true},
		{lit: "'abcd'", t: varchar3, taken: true, errCode: sqlerr.StringDataRightTruncation},
		{lit: "'42'", t: types.Int32Type, taken: true},
		{lit: "'4x2'", t: types.Int32Type, taken: true, errCode: sqlerr.InvalidTextRepresentation},
		{lit: "'99999999999'", t: types.Int32Type, taken: true, errCode: sqlerr.NumericValueOutOfRange},
		{lit: "'2024-01-02 03:04:05.123456'", t: types.TimestampType(6), taken: true},
		{lit: "'2024-13-02'", t: types.DateType, taken: true, errCode: sqlerr.DatetimeFieldOverflow},
		{lit: "'1.5'", t: types.Float64Type, taken: true},
		{lit: "'t'", t: types.BoolType},
		{lit: "'{1,2}'", t: types.ArrayOf(types.Int32Type)},
		{lit: "'1 day'", t: types.T{Kind: types.Interval}},
	}
	p := sql.NewParser()
	for _, c := range cases {
		name := fmt.Sprintf("%s as %s", c.lit, c.t.PGName())
		text := "INSERT INTO x VALUES (" + c.lit + ")"
		stmts, err := p.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tree, err := sql.DMLToTree(stmts[0], nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lit := tree.(*pt.Insert).Rows[0][0].(*pt.Literal)
		target := c.t.Nullable()
		b := &binder{ctx: context.Background(), stmt: stmts[0]}
		var lc literalCells
		fast, taken, fastErr := b.literalCell(lit, target, &lc)
		if taken != c.taken {
			t.Errorf("%s: taken %v, want %v", name, taken, c.taken)
			continue
		}
		if !taken {
			continue
		}
		g := &binder{ctx: context.Background(), stmt: stmts[0]}
		general, genErr := g.bindTree(nil, lit)
		if genErr == nil {
			general, genErr = g.assign(lit, general, "c", c.t, "x")
		}
		if c.errCode != "" || fastErr != nil || genErr != nil {
			fe, ge := sqlerr.As(fastErr), sqlerr.As(genErr)
			if fe == nil || ge == nil || fe.Code != c.errCode || ge.Code != fe.Code || fe.Message != ge.Message || fe.Position != ge.Position {
				t.Errorf("%s: fast path's error %v, general path's %v, want code %s", name, fastErr, genErr, c.errCode)
			}
			continue
		}
		fc, ok := fast.(*Const)
		if !ok {
			t.Errorf("%s: fast path gave %T", name, fast)
			continue
		}
		if !fc.T.Same(&target) {
			t.Errorf("%s: fast path's type %s", name, fc.T.PGName())
		}
		switch x := general.(type) {
		case *Const:
			if c.want != nil || !reflect.DeepEqual(x.Value, fc.Value) || !x.T.Same(&fc.T) {
				t.Errorf("%s: fast %#v (%s), general %#v (%s)", name, fc.Value, fc.T.PGName(), x.Value, x.T.PGName())
			}
		case *Cast:
			if _, isConst := x.X.(*Const); !isConst || c.want == nil || !x.T.Same(&fc.T) || !reflect.DeepEqual(fc.Value, c.want) {
				t.Errorf("%s: fast %#v (%s), general a cast to %s of %T (want %#v)", name, fc.Value, fc.T.PGName(), x.T.PGName(), x.X, c.want)
			}
		default:
			t.Errorf("%s: general path gave %T", name, general)
		}
	}
}
