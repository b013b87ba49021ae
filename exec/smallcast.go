package exec

import (
	"time"

	"github.com/sqlgate/sqlgate/types"
)

// castSmallType is a cast to or from money, macaddr or macaddr8
// (types/money.go, types/macaddr.go): money from text by cash_in, from
// int4 and int8 as whole amounts (int4_cash, int8_cash), from numeric
// rounded to cents (numeric_cash), to numeric with two fraction digits
// (cash_numeric); macaddr to macaddr8 with ff:fe in the middle, back only
// when the middle is ff:fe; the mac types from text by their input. ok
// is false for a cast it leaves to castValue's other rules (to text).
func castSmallType(v any, from, to types.T, loc *time.Location) (out any, ok bool, err error) {
	switch {
	case to.IsMoney() && from.IsMoney(), to.IsMacAddr() && from.Variant == to.Variant:
		return v, true, nil
	case to.IsMoney() && (from.Kind == types.Int32 || from.Kind == types.Int64):
		out, err = types.MoneyFromInt(v.(int64))
		return out, true, err
	case to.IsMoney() && from.Kind == types.Decimal:
		out, err = types.MoneyFromNumeric(types.DecimalToNumeric(v, from))
		return out, true, err
	case to.IsMoney():
		out, err = types.ParseMoney(types.FormatTextIn(v, from, loc))
		return out, true, err
	case from.IsMoney() && to.Kind == types.Decimal:
		out, err = numericTo(types.MoneyToNumeric(v.(int64)), to)
		return out, true, err
	case to.Variant == types.MacAddr && from.Variant == types.MacAddr8:
		out, err = types.MacAddr8ToMacAddr(v.(string))
		return out, true, err
	case to.Variant == types.MacAddr8 && from.Variant == types.MacAddr:
		return types.MacAddrToMacAddr8(v.(string)), true, nil
	case to.Variant == types.MacAddr:
		out, err = types.ParseMacAddr(types.FormatTextIn(v, from, loc))
		return out, true, err
	case to.Variant == types.MacAddr8:
		out, err = types.ParseMacAddr8(types.FormatTextIn(v, from, loc))
		return out, true, err
	}
	return nil, false, nil
}
