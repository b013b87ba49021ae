package difftest

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// intervalWordGen builds interval input in the postgres form PostgreSQL's
// ParseDateTime and DecodeInterval read: numbers signed, with the sign
// apart from them, fractional, with a bare point; clocks with minutes or
// seconds at and past their bounds, empty parts ("1:", "1::2") and
// fractions; SQL-standard years-months; unit words in every spelling,
// "ago" and "@" anywhere, words PostgreSQL knows but gives no number to
// (quarter); punctuation that only separates fields, and characters that
// refuse the text. Counts stay inside what sqlgate's nanosecond intervals
// hold (2562047 hours), its documented restriction.
type intervalWordGen struct{ r *rand.Rand }

func (g intervalWordGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g intervalWordGen) number() string {
	return g.pick("0", "1", "2", "5", "12", "59", "60", "61", "99", "123", "0.5", "1.5", ".25", "3.", "007", ".", "1.2.3", "1/2", "1e")
}

func (g intervalWordGen) piece() string {
	switch g.r.IntN(10) {
	case 0, 1, 2:
		return g.pick("", "", "+", "-", "- ", "+  ") + g.number()
	case 3:
		h := strings.Split(g.number(), ".")[0]
		return g.pick("", "", "+", "-", "- ") + h + ":" +
			g.pick("", "00", "30", "59", "60", "61", "5.5", "1:", ":", "30:45", "59:60", "59:61", "05.123456789", "0:0.5", "1:2:3", "1.", "1:.5")
	case 4:
		return g.pick("", "-", "+") + g.pick("1", "0", "12") + "-" + g.pick("", "0", "11", "12", "2-3", "x")
	case 5, 6, 7:
		return g.pick("year", "years", "mon", "months", "month", "day", "days", "d", "h", "hour", "hours", "min", "minute", "m",
			"s", "sec", "second", "ms", "us", "week", "w", "decade", "century", "millennium", "y", "yr", "ago", "@", "millisecon",
			"microseconds", "quarter", "qtr", "mons", "cent", "hr", "DAY", "Hours", "fortnight", "days2", "jan",
			"sept", "at", "thurs", "x") // datetktbl's words (jan ... thurs) end before a digit, others not
	case 8:
		return g.pick(",", ";", "/", "!", "(", ")", "_", "#", "$", "é", "@", "\t", "~")
	}
	return ""
}

// text is one input: one to five pieces, mostly separated by spaces.
// Pieces joined without a space can make one long number, a count of
// hours past what sqlgate holds (-6112123 under DAY TO HOUR): a text with
// a run of seven digits is drawn again.
func (g intervalWordGen) text() string {
	for {
		parts := make([]string, 1+g.r.IntN(5))
		for i := range parts {
			parts[i] = g.piece()
		}
		sep := " "
		if g.r.IntN(3) == 0 {
			sep = g.pick("", " ", "  ")
		}
		if s := strings.Join(parts, sep); !sevenDigits.MatchString(s) {
			return s
		}
	}
}

// sevenDigits finds a number of seven digits or more.
var sevenDigits = regexp.MustCompile(`\d{7}`)

// TestIntervalWordsDifferential reads SQLGATE_DIFF_DTINPUT (default 1500)
// generated postgres-form interval texts (intervalWordGen), without a
// field qualifier and under the qualifiers that change what a bare number
// or a two-part clock means, on sqlgate and PostgreSQL 15: the same
// interval, or the same SQLSTATE (22007 malformed, 22015 a field out of
// range, 22008 a sum out of range) and message.
func TestIntervalWordsDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_DTINPUT", 1500)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	g := intervalWordGen{r: rand.New(rand.NewPCG(uint64(seed), 41))}
	stats := map[string]int{}
	for range n {
		q := "SELECT interval '" + strings.ReplaceAll(g.text(), "'", "''") + "'" +
			g.pick("", "", "", " minute to second", " day to hour", " year", " hour", " day to second", " month", " second")
		tally(t, ctx, rp, q, stats)
	}
	t.Logf("interval words: %d inputs (seed %d): %v", n, seed, stats)
	if stats["same"] < n/5 || stats["refused alike"] < n/10 {
		t.Errorf("the generator reached too few shapes: %v", stats)
	}
}
