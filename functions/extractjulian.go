package functions

import (
	"math/big"
	"time"

	"github.com/sqlgate/sqlgate/types"
)

// julianDivisor is a day in microseconds, the divisor of extract(julian)'s
// fraction of a day.
const julianDivisor = 86400 * 1000000

// julianDay is PostgreSQL's date2j of t's wall-clock date: the Julian day
// number (4714-11-24 BC is day 0).
func julianDay(t time.Time) int64 {
	y, m, d := t.Date()
	return int64(types.Date2J(y, int(m), d))
}

// microsOfDay is t's wall-clock time of day in microseconds.
func microsOfDay(t time.Time) int64 {
	return int64(t.Hour()*3600+t.Minute()*60+t.Second())*1e6 + int64(t.Nanosecond()/1e3)
}

// julianNumeric is extract(julian from timestamp[tz]): PostgreSQL 15 adds
// the day number to the numeric quotient microseconds/86400000000, so the
// result carries the division's scale (select_div_scale: 16 significant
// digits of the quotient, 28 places for midnight) rounded half away from
// zero.
func julianNumeric(t time.Time) (any, error) {
	us := microsOfDay(t)
	scale := julianDivScale(us)
	q := new(big.Int).Mul(big.NewInt(us), pow10(scale))
	q.Add(q, big.NewInt(julianDivisor/2)) // us >= 0: half up is half away from zero
	q.Quo(q, big.NewInt(julianDivisor))
	q.Add(q, new(big.Int).Mul(big.NewInt(julianDay(t)), pow10(scale)))
	return numericFromBig(q, scale)
}

// julianDivScale is numeric division's result scale for us / 86400000000
// (PostgreSQL's select_div_scale over base-10000 digits): the quotient's
// estimated weight is the dividend's weight less the divisor's (2, first
// digit 864), one less when the dividend's first digit is not larger.
func julianDivScale(us int64) int {
	weight, first := 0, int64(0)
	if us > 0 {
		for first = us; first >= 10000; first /= 10000 {
			weight++
		}
	}
	q := weight - 2
	if first <= 864 {
		q--
	}
	scale := 16 - q*4
	if scale < 0 {
		scale = 0
	}
	return scale
}

// julianFloat is date_part('julian', timestamp[tz]) as timestamp_part
// computes it in double: the day number plus the seconds of the day over
// 86400, in the same order of operations.
func julianFloat(t time.Time) float64 {
	secs := float64(t.Hour()*3600+t.Minute()*60+t.Second()) + float64(t.Nanosecond()/1e3)/1000000.0
	return float64(julianDay(t)) + secs/86400.0
}
