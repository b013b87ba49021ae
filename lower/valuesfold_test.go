package lower

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestFoldConstCastMatchesEvalIfConst: for random constants of the types
// literals bind to, cast to random column types, foldExpr (which takes
// foldConstCast's shortcut) gives what evalIfConst gives on the same cast:
// the same constant, or the same error, or the cast left unfolded.
func TestFoldConstCastMatchesEvalIfConst(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 4))
	texts := []string{"0", "1", "-1", "7", "32767", "32768", "-32769", "2147483647", "2147483648", "-2147483649",
		"9223372036854775807", "9223372036854775808", "-9223372036854775809", "1.5", "2.5", "-2.5", "0.5", "-0.5",
		"123.25", "1e300", "3.4028236e38", "1e-50", "0.1", "99999999999999999999.99", "NaN", "Infinity", "-Infinity",
		"12345678901234567890123456789012345678901234567890", "1.0000000000000000000001"}
	from := []types.T{types.Int32Type, types.Int64Type, types.NumericType, types.Float64Type, types.Int16Type}
	to := []types.T{types.Int16Type, types.Int32Type, types.Int64Type, types.Float32Type, types.Float64Type, types.NumericType,
		{Kind: types.Decimal, Precision: 5, Scale: 2}, {Kind: types.Decimal, Precision: 38, Scale: 10}, types.StringType,
		{Kind: types.String, Length: 3}, {Kind: types.Char, Length: 4}, types.BoolType}
	folded, compared := 0, 0
	fo := newFolder(nil)
	for range 4000 {
		ft, tt := from[rng.IntN(len(from))], to[rng.IntN(len(to))]
		v, err := exec.CastValue(texts[rng.IntN(len(texts))], types.StringType, ft)
		if err != nil || v == nil {
			continue
		}
		cast := &binder.Cast{X: &binder.Const{Value: v, T: ft}, T: tt}
		want, wantErr := fo.evalIfConst(cast, cast.X)
		if !immutableCast(ft, tt) { // a cast PostgreSQL leaves to execution
			want, wantErr = cast, nil
		}
		got, gotErr := fo.foldExpr(cast)
		compared++
		if _, ok := fo.foldConstCast(cast.X, tt, false); ok {
			folded++
		}
		name := fmt.Sprintf("CAST(%v::%s AS %s)", v, ft.PGName(), tt.PGName())
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%s: error %v, want %v", name, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			we, ge := sqlerr.As(wantErr), sqlerr.As(gotErr)
			if we == nil || ge == nil || *we != *ge {
				t.Errorf("%s: error %v, want %v", name, gotErr, wantErr)
			}
			continue
		}
		// %#v as well: NaN is not DeepEqual to itself
		if !reflect.DeepEqual(got, want) && fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Errorf("%s: %#v, want %#v", name, got, want)
		}
	}
	t.Logf("%d casts compared, %d taken by the shortcut", compared, folded)
	if folded < compared/4 {
		t.Errorf("the shortcut took only %d of %d casts", folded, compared)
	}
}
