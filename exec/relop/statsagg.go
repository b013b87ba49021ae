package relop

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// pairStatsAcc is the aggregates over (Y, X) pairs of float8: corr,
// covar_pop, covar_samp and the regr_* family. It keeps PostgreSQL's
// transition state (N, Sx, Sxx, Sy, Syy, Sxy) and updates it exactly as
// float8_regr_accum does (Youngs-Cramer, with its overflow and NaN rules),
// and each final function is PostgreSQL's, so results match to the last
// bit. Rows where Y or X is NULL are skipped (the functions are strict).
type pairStatsAcc struct {
	y, x int
	fn   string
	st   [][6]float64 // N, Sx, Sxx, Sy, Syy, Sxy per group
}

func (a *pairStatsAcc) resize(n int) { a.st = grow(a.st, n) }
func (a *pairStatsAcc) size() int64  { return int64(cap(a.st)) * 48 }

func (a *pairStatsAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	ys, ok1 := cols[a.y].(*array.Float64)
	xs, ok2 := cols[a.x].(*array.Float64)
	if !ok1 || !ok2 {
		return sqlerr.New(sqlerr.InternalError, "%s: unexpected argument types", a.fn)
	}
	var err error
	forRows(len(groups), rows, func(i int) {
		if err != nil || ys.IsNull(i) || xs.IsNull(i) {
			return
		}
		if a.fn == "regr_count" {
			// int8inc_float8_float8: a count alone, which no value can
			// overflow (float8_regr_accum's sums can)
			a.st[groups[i]][0]++
			return
		}
		if e := regrAccum(&a.st[groups[i]], ys.Value(i), xs.Value(i)); e != nil {
			err = e
		}
	})
	return err
}

// regrAccum is float8_regr_accum.
func regrAccum(t *[6]float64, y, x float64) error {
	n0, sx0, sy0 := t[0], t[1], t[3]
	n, sx, sxx, sy, syy, sxy := n0+1, sx0+x, t[2], sy0+y, t[4], t[5]
	if n0 > 0 {
		tmpX := float64(x*n) - sx
		tmpY := float64(y*n) - sy
		scale := 1.0 / float64(n*n0)
		sxx += float64(float64(tmpX*tmpX) * scale)
		syy += float64(float64(tmpY*tmpY) * scale)
		sxy += float64(float64(tmpX*tmpY) * scale)
		if math.IsInf(sx, 0) || math.IsInf(sxx, 0) || math.IsInf(sy, 0) || math.IsInf(syy, 0) || math.IsInf(sxy, 0) {
			if (math.IsInf(sx, 0) || math.IsInf(sxx, 0)) && !math.IsInf(sx0, 0) && !math.IsInf(x, 0) ||
				(math.IsInf(sy, 0) || math.IsInf(syy, 0)) && !math.IsInf(sy0, 0) && !math.IsInf(y, 0) ||
				math.IsInf(sxy, 0) && !math.IsInf(sx0, 0) && !math.IsInf(x, 0) && !math.IsInf(sy0, 0) && !math.IsInf(y, 0) {
				return floatOverflow()
			}
			if math.IsInf(sxx, 0) {
				sxx = math.NaN()
			}
			if math.IsInf(syy, 0) {
				syy = math.NaN()
			}
			if math.IsInf(sxy, 0) {
				sxy = math.NaN()
			}
		}
	} else {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			sxx, sxy = math.NaN(), math.NaN()
		}
		if math.IsNaN(y) || math.IsInf(y, 0) {
			syy, sxy = math.NaN(), math.NaN()
		}
	}
	*t = [6]float64{n, sx, sxx, sy, syy, sxy}
	return nil
}

// regrFinal is PostgreSQL's final function of fn; ok false for NULL.
func regrFinal(fn string, t [6]float64) (float64, bool) {
	n, sx, sxx, sy, syy, sxy := t[0], t[1], t[2], t[3], t[4], t[5]
	if n < 1 {
		return 0, false
	}
	switch fn {
	case "regr_sxx":
		return sxx, true
	case "regr_syy":
		return syy, true
	case "regr_sxy":
		return sxy, true
	case "regr_avgx":
		return sx / n, true
	case "regr_avgy":
		return sy / n, true
	case "covar_pop":
		return sxy / n, true
	case "covar_samp":
		if n < 2 {
			return 0, false
		}
		return sxy / (n - 1), true
	case "corr":
		if sxx == 0 || syy == 0 {
			return 0, false
		}
		return sxy / math.Sqrt(float64(sxx*syy)), true
	case "regr_r2":
		if sxx == 0 {
			return 0, false
		}
		if syy == 0 {
			return 1, true
		}
		return float64(sxy*sxy) / float64(sxx*syy), true
	case "regr_slope":
		if sxx == 0 {
			return 0, false
		}
		return sxy / sxx, true
	case "regr_intercept":
		if sxx == 0 {
			return 0, false
		}
		return (sy - float64(sx*sxy)/sxx) / n, true
	}
	return 0, false
}

func (a *pairStatsAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	if a.fn == "regr_count" {
		b := array.NewInt64Builder(mem)
		defer b.Release()
		for _, g := range groups {
			b.Append(int64(a.st[g][0]))
		}
		return b.NewArray(), nil
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	for _, g := range groups {
		if v, ok := regrFinal(a.fn, a.st[g]); ok {
			b.Append(v)
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray(), nil
}
