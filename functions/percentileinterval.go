package functions

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// percentile_cont over interval: PostgreSQL's interval_lerp between the
// values around fraction*(n-1), lo + (hi - lo) * proportion with
// interval arithmetic (interval_mi, interval_mul, interval_pl), so months
// and days interpolate as interval multiplication cascades them.
func percentileIntervalFuncs() []*Func {
	ivArr, f8arr := types.ArrayOf(ivT), types.ArrayOf(tFloat8)
	return []*Func{
		{Name: "pg__percentile_cont_interval", Args: []types.T{ivArr, tFloat8}, Ret: ivT, Strict: true,
			Kernel: rowFunc(ivT, true, func(_ context.Context, v []any) (any, error) {
				return percentileContInterval(nonNull(v[0]), v[1].(float64))
			})},
		{Name: "pg__percentile_cont_interval_multi", Args: []types.T{ivArr, f8arr}, Ret: ivArr, Strict: true,
			Kernel: rowFunc(ivArr, true, func(_ context.Context, v []any) (any, error) {
				return eachFraction(nonNull(v[0]), v[1], percentileContInterval)
			})},
	}
}

func percentileContInterval(vals []any, f float64) (any, error) {
	return percentileLerp(vals, f, func(lo, hi any, t float64) (any, error) {
		diff, err := types.SubIntervals(hi.(arrow.MonthDayNanoInterval), lo.(arrow.MonthDayNanoInterval))
		if err != nil {
			return nil, err
		}
		step, err := types.MulInterval(diff, t)
		if err != nil {
			return nil, err
		}
		return types.AddIntervals(lo.(arrow.MonthDayNanoInterval), step)
	})
}
