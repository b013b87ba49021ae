package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// dtFuncGen generates arguments for the date/time and text functions of
// dtfuncs: timestamps across PostgreSQL's range (4713 BC to 9999 AD and
// the edges of the range, with and without fractions, infinities), zone
// names with and without DST changes, abbreviations, POSIX specs and
// unknown names, units (every field, aliases, unknown) and texts for
// to_ascii.
type dtFuncGen struct{ r *rand.Rand }

func (g dtFuncGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// stamp is timestamp text (no zone); years past 9999 are left out
// (sqlgate's timestamps end before PostgreSQL's).
func (g dtFuncGen) stamp() string {
	if g.r.IntN(20) == 0 {
		return g.pick("infinity", "-infinity", "4714-11-24 00:00:00 BC", "4714-11-24 23:59:59.999999 BC",
			"0001-01-01 00:00:00 BC", "0001-12-31 23:59:59.999999 BC", "0001-01-01", "2000-01-01", "1970-01-01", "9999-12-31 23:59:59.999999")
	}
	y := 1 + g.r.IntN(4712)
	bc := g.r.IntN(4) == 0
	if !bc && g.r.IntN(3) != 0 {
		y = 1900 + g.r.IntN(200)
	}
	s := fmt.Sprintf("%04d-%02d-%02d", y, 1+g.r.IntN(12), 1+g.r.IntN(28))
	switch g.r.IntN(4) {
	case 0:
	case 1:
		s += fmt.Sprintf(" %02d:%02d:%02d", g.r.IntN(24), g.r.IntN(60), g.r.IntN(60))
	default:
		s += fmt.Sprintf(" %02d:%02d:%02d.%0*d", g.r.IntN(24), g.r.IntN(60), g.r.IntN(60), 1+g.r.IntN(6), g.r.IntN(1000000))
	}
	if bc {
		s += " BC"
	}
	return s
}

// dstStamp is a timestamptz text near a DST change of the zones in
// dtFuncZones (March, October, November), where date_trunc's offsets move.
func (g dtFuncGen) dstStamp() string {
	return fmt.Sprintf("%d-%s %02d:%02d:00+00", 1990+g.r.IntN(40), g.pick("03-08", "03-10", "03-12", "03-26", "03-29", "03-31", "10-25",
		"10-27", "10-29", "11-01", "11-03", "11-05", "04-05", "10-04"), g.r.IntN(24), 15*g.r.IntN(4))
}

var (
	dtFuncZones = []string{"UTC", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo",
		"Pacific/Chatham", "Europe/London", "Asia/Tokyo", "America/St_Johns", "EST", "est", "PST", "CEST", "Z", "EST5EDT",
		"UTC+3", "<+0330>-3:30", "+5", "Etc/GMT-14", "nope", "Mars/Olympus", "", "america/new_york"}
	dtFuncUnits = []string{"microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month", "quarter", "year",
		"decade", "century", "millennium", "us", "ms", "s", "min", "h", "d", "w", "mon", "qtr", "y", "dec", "c", "mil", "MONTH",
		" Day ", "epoch", "timezone", "julian", "dow", "fortnight"}
	dtFuncEncodings = []string{"LATIN1", "latin2", "LATIN9", "WIN1250", "windows1250", "iso-8859-1", "ISO_8859_15", "Latin-2",
		"UTF8", "SQL_ASCII", "SJIS", "KOI8R", "latin3", "bogus", "", "windows", "iso88599"}
	dtFuncRunes = []rune("aZ09 ~'\x7féÉàçøßŁłŠšŽžŤťČčŇňŐőŰűÆæÞþÐð¿¡©®°±µ¶·¼½¾×÷€‚„†‡‰‹›''\"\"•–—™日本語😀\u00a0\u0080\u009f")
)

func (g dtFuncGen) zone() string { return dtFuncZones[g.r.IntN(len(dtFuncZones))] }

// zoneInterval is an interval for AT TIME ZONE: hours, minutes and
// seconds with fractions, either sign, now and then days or months.
func (g dtFuncGen) zoneInterval() string {
	switch g.r.IntN(8) {
	case 0:
		return g.pick("1 day", "-1 mon", "1 day -24 hours", "0", "1 year", "100 hours", "-3.7 seconds", "00:00:00.999999")
	}
	return fmt.Sprintf("%s%02d:%02d:%02d.%d", g.pick("", "-", "+"), g.r.IntN(16), g.r.IntN(60), g.r.IntN(60), g.r.IntN(10))
}

// timeTZ is a timetz literal (or NULL) from a few hours and zones, so
// that ends coincide, and coincide in UTC with another zone, often.
func (g dtFuncGen) timeTZ() string {
	if g.r.IntN(10) == 0 {
		return "NULL::timetz"
	}
	return fmt.Sprintf("timetz '%02d:%s%s'", g.r.IntN(24), g.pick("00", "30"), g.pick("+00", "+01", "+02", "-05", "+05:30", "-12", "+14"))
}

func (g dtFuncGen) text() string {
	var b strings.Builder
	for range g.r.IntN(12) {
		b.WriteRune(dtFuncRunes[g.r.IntN(len(dtFuncRunes))])
	}
	return b.String()
}

// TestDateTimeFuncsDifferential compares, over SQLGATE_DIFF_DTFUNCS
// (default 400) generated inputs per function family and session zone,
// extract(julian ...) and date_part('julian', ...) of date, timestamp and
// timestamptz; date_trunc(unit, timestamptz, zone); timezone(interval,
// timestamp[tz]) (AT TIME ZONE an interval); OVERLAPS of timetz values;
// and to_ascii with an
// encoding name or number, on sqlgate and PostgreSQL 15: the same text,
// or the same SQLSTATE and message.
func TestDateTimeFuncsDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_DTFUNCS", 400)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	g := dtFuncGen{r: rand.New(rand.NewPCG(uint64(seed), 25))}
	setZone := func(z string) {
		for _, s := range []Executor{rp.SQLGate, rp.Postgres} {
			if o := s.Run(ctx, "SET TimeZone = "+sqlQuote(z)); o.Err != nil {
				t.Fatal(o.Err.Message)
			}
		}
	}
	stats := map[string]map[string]int{"julian": {}, "date_trunc zone": {}, "to_ascii": {}, "timezone interval": {}, "overlaps timetz": {}}
	for _, session := range []string{"UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"} {
		setZone(session)
		for range n / 4 {
			ts := g.stamp()
			d := ts
			if i := strings.IndexByte(d, ' '); i > 0 && !strings.HasSuffix(d, "BC") {
				d = d[:i]
			}
			q := fmt.Sprintf("SELECT extract(julian from x.ts), date_part('julian', x.ts), extract(julian from x.tz), "+
				"date_part('julian', x.tz), extract(julian from x.d), date_part('julian', x.d), extract(j from x.ts) "+
				"FROM (SELECT %s::timestamp ts, %s::timestamptz tz, %s::date d) x", sqlQuote(ts), sqlQuote(ts), sqlQuote(d))
			tallyBy(t, ctx, rp, q, stats["julian"], tallyRule{})
		}
		for range n / 4 {
			ts := g.stamp()
			if g.r.IntN(2) == 0 {
				ts = g.dstStamp()
			}
			unit := dtFuncUnits[g.r.IntN(len(dtFuncUnits))]
			q := fmt.Sprintf("SELECT date_trunc(%s, %s::timestamptz, %s)", sqlQuote(unit), sqlQuote(ts), sqlQuote(g.zone()))
			tallyBy(t, ctx, rp, q, stats["date_trunc zone"], tallyRule{})
		}
		for range n / 4 {
			q := fmt.Sprintf("SELECT timezone(%s::interval, %s::%s)", sqlQuote(g.zoneInterval()), sqlQuote(g.stamp()), g.pick("timestamp", "timestamptz"))
			tallyBy(t, ctx, rp, q, stats["timezone interval"], tallyRule{})
		}
	}
	for range n {
		q := fmt.Sprintf("SELECT (%s, %s) OVERLAPS (%s, %s)", g.timeTZ(), g.timeTZ(), g.timeTZ(), g.timeTZ())
		tallyBy(t, ctx, rp, q, stats["overlaps timetz"], tallyRule{})
	}
	for range n {
		var q string
		switch g.r.IntN(4) {
		case 0:
			q = fmt.Sprintf("SELECT to_ascii(%s, %d)", sqlQuote(g.text()), g.r.IntN(46)-2)
		case 1:
			q = fmt.Sprintf("SELECT to_ascii(%s)", sqlQuote(g.text()))
		default:
			q = fmt.Sprintf("SELECT to_ascii(%s, %s)", sqlQuote(g.text()), sqlQuote(dtFuncEncodings[g.r.IntN(len(dtFuncEncodings))]))
		}
		tallyBy(t, ctx, rp, q, stats["to_ascii"], tallyRule{})
	}
	for fam, st := range stats {
		t.Logf("%s (seed %d): %v", fam, seed, st)
		if st["same"] == 0 {
			t.Errorf("%s: the generator reached too few shapes: %v", fam, st)
		}
	}
}
