package coverage

import (
	"math/big"
	"regexp"
	"strings"

	"github.com/sqlgate/sqlgate/tests/difftest"
)

// Restriction is a documented class of calls that sqlgate refuses, by
// design, where PostgreSQL 15 answers: what it is, why, and which
// functions meet it. The differential test does not count a call that
// differs only by a restriction (Applies says when it does), and
// docs/functions.md lists every restriction with its reason, so a
// restriction is a rule anyone can read and check, not an exception
// hidden in known_differences.tsv.
type Restriction struct {
	Name   string
	Reason string
	// Affects names the functions and operators whose results can meet it.
	Affects string
	// Applies reports whether sqlgate's outcome differs from PostgreSQL's
	// only by this restriction.
	Applies func(sg, pg difftest.Outcome) bool
}

// intervalOID is pg_type's interval.
const intervalOID = 1186

// maxIntervalMicros is the largest time part, in microseconds, that an
// Arrow month-day-nanosecond interval holds (math.MaxInt64 nanoseconds).
var maxIntervalMicros = big.NewInt(9223372036854775)

// intervalClock finds the time part of an interval in IntervalStyle
// postgres ("... 2147483647:03:02.5").
var intervalClock = regexp.MustCompile(`([-+]?)(\d+):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$`)

// intervalBeyondNanos reports whether an interval's text (IntervalStyle
// postgres) has a time part beyond what nanoseconds in an int64 hold.
func intervalBeyondNanos(text string) bool {
	m := intervalClock.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	us := new(big.Int)
	h, _ := new(big.Int).SetString(m[2], 10)
	mi, _ := new(big.Int).SetString(m[3], 10)
	s, _ := new(big.Int).SetString(m[4], 10)
	us.Mul(h, big.NewInt(3600))
	us.Add(us, new(big.Int).Mul(mi, big.NewInt(60)))
	us.Add(us, s)
	us.Mul(us, big.NewInt(1e6))
	if frac := m[5]; frac != "" {
		f, _ := new(big.Int).SetString(frac+strings.Repeat("0", 6-len(frac)), 10)
		us.Add(us, f)
	}
	return us.Cmp(maxIntervalMicros) > 0
}

// Restrictions are sqlgate's documented restrictions against PostgreSQL 15.
var Restrictions = []Restriction{{
	Name: "interval time part beyond ±2,562,047:47:16.854775",
	Reason: "An interval is Arrow's month-day-nanosecond value (the type Flight SQL and Arrow clients receive), " +
		"whose time part is an int64 of nanoseconds; PostgreSQL keeps an int64 of microseconds, so its time part " +
		"reaches 1000 times further (±2,562,047,788 hours). Every computation that would produce a time part " +
		"beyond the nanosecond range, or pass through one, fails with 22008 \"interval out of range\" instead of " +
		"wrapping or answering differently.",
	Affects: "make_interval, interval input, interval + - * /, timestamp - timestamp, justify_hours/_days/_interval, " +
		"date_trunc and percentile_cont over interval, sum/avg(interval)",
	Applies: func(sg, pg difftest.Outcome) bool {
		if sg.Err == nil || sg.Err.Code != "22008" || sg.Err.Message != "interval out of range" || pg.Err != nil {
			return false
		}
		for c, oid := range pg.OIDs {
			if oid != intervalOID {
				continue
			}
			for _, row := range pg.Rows {
				if c < len(row) && !row[c].Null && intervalBeyondNanos(row[c].Text) {
					return true
				}
			}
		}
		return false
	},
}}

// restricted returns the restriction a differing call falls under.
func restricted(sg, pg difftest.Outcome) (*Restriction, bool) {
	for i := range Restrictions {
		if Restrictions[i].Applies(sg, pg) {
			return &Restrictions[i], true
		}
	}
	return nil, false
}
