package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// dtTokenClasses are the token classes of PostgreSQL's date/time input
// (datetime.c's datetktbl, the zone abbreviations and pg_tzset's names)
// that tokenRun strings together.
var dtTokenClasses = [][]string{
	// labels of ISO fields and Julian days, alone or with their numbers
	{"y", "m", "d", "h", "mm", "s", "j", "jd", "julian", "doy", "dow", "isoyear", "y1941", "m07", "d27", "h04", "mm05",
		"s06", "s06.5", "j2451187", "J2451187.25", "jd0", "j-1"},
	// T joining a date and a time, and run-together times after it
	{"T", "t", "T07:08:05", "t070805", "T0708", "T070805.5", "T07", "T07:08:05-05", "T070805-0530"},
	// special words
	{"allballs", "epoch", "infinity", "-infinity", "+infinity", "today", "tomorrow", "yesterday", "zulu", "z"},
	// zone abbreviations: fixed, daylight, dynamic (MSK, IRKT), DST
	{"EST", "edt", "CEST", "MET", "DST", "MSK", "irkt", "VOLT", "GMT", "UTC", "IST", "NZDT", "ACDT", "LHDT", "z"},
	// zone names: tz database, POSIX (with DST, one-letter and empty
	// names), unknown
	{"EST5EDT", "Europe/Moscow", "america/new_york", "Etc/GMT+3", "abc+3", "A5B", "XYZ5ABC6", "pst8pdt", "Mars/Base",
		"UTC+3", "utc-15", "abc+167", "abc+168", "Japan", "Navajo", "eet"},
	// eras and meridians, and the ignored words
	{"BC", "bc", "AD", "am", "PM", "at", "on"},
	// dates, numbers and times
	{"2024-01-02", "1941-07-27", "07/27/1941", "27.07.1941", "1941.208", "19410727", "410727", "27", "1941", "7",
		"07:08:05", "07:08", "7:8:5.25", "070805", "0708", "12", "Jul", "july", "Sun", "+02", "-05:30", "+0530"},
}

// dtTokenSeps are what comes between two tokens, odd ones included
// (ParseDateTime skips punctuation between fields).
var dtTokenSeps = []string{" ", " ", " ", "", "", "@", ",", "/", "-", ".", ":", "+", "  ", "'", "_", ";"}

// dtShapes are the parts of a shaped token run: a date (labelled,
// Julian, special, concatenated), a join, a time (labelled, run
// together, special), a zone and an era.
var dtShapes = [5][]string{
	{"y1941m7d27", "y1941 m7 d27", "J2451187", "j2451187.5", "julian 2451187", "1941-07-27", "19410727", "Jul 27 1941",
		"27 July 1941", "today", "epoch", "allballs", "1941.208", "y1941m@d27", "d27", "y1941", "y2011m07d01", "2011-07-01",
		"2014-10-26", "m7d27", "jd 2455744"},
	{"T", " T", "t", " ", "", " T ", " at ", "@", "_"},
	{"07:08:05", "070805", "0708", "070805.5", "07:08:05.123", "h07mm08s05", "allballs", "7:8", "12:00 pm", "07", "h7",
		"mm8 s5", "T07"},
	{"", " MSK", " irkt", "+03", "-0530", " EST5EDT", " A5B", " Europe/Moscow", " z", " MET DST", " abc+3", "Z", " msk dst",
		" VOLT", " UTC"},
	{"", " BC", " ad", " bc", ""},
}

// tokenRun is, half the time, two to six tokens of date/time input from
// dtTokenClasses joined by dtTokenSeps; else a shaped run (dtShapes): a
// date, a join, a time, a zone and an era, now and then shuffled.
func (g dtGen) tokenRun() string {
	if g.r.IntN(2) == 0 {
		var parts []string
		for _, class := range dtShapes {
			parts = append(parts, class[g.r.IntN(len(class))])
		}
		if g.r.IntN(4) != 0 {
			return strings.Join(parts, "")
		}
		join := parts[1]
		parts = []string{parts[0], parts[2], strings.TrimSpace(parts[3]), strings.TrimSpace(parts[4])}
		g.r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		var kept []string
		for _, p := range parts {
			if p != "" {
				kept = append(kept, p)
			}
		}
		return strings.Join(kept, join)
	}
	var b strings.Builder
	n := 2 + g.r.IntN(5)
	for i := range n {
		if i > 0 {
			b.WriteString(dtTokenSeps[g.r.IntN(len(dtTokenSeps))])
		}
		class := dtTokenClasses[g.r.IntN(len(dtTokenClasses))]
		b.WriteString(class[g.r.IntN(len(class))])
	}
	return b.String()
}

// TestDateTimeTokenDifferential is TestDateTimeInputDifferential with
// half the texts runs of date/time tokens (tokenRun): labelled fields,
// T joins, special words, zone names and abbreviations (dynamic ones
// too), eras, Julian days and odd separators, in any order.
func TestDateTimeTokenDifferential(t *testing.T) {
	t.Parallel()
	dateTimeInputCompare(t, false, true, "ISO, MDY", dateTimeTokenCeiling)
}

// dateTimeTokenCeiling is the most token-run inputs in 1000 that may
// still differ from PostgreSQL.
const dateTimeTokenCeiling = 0

// dtZoneArgs are zone arguments of AT TIME ZONE: abbreviations (fixed,
// daylight, dynamic), tz database names in any letter case, POSIX zones
// (with DST, empty and one-letter names, blanks inside names, hours to
// 167 and beyond), and texts that name no zone.
var dtZoneArgs = []string{"UTC", "utc", "EST", "msk", "MSK", "IRKT", "volt", "CEST", "NZDT", "Europe/Moscow",
	"america/new_york", "EST5EDT", "EST5EDT bc", "XYZ5ABC", "A5B", "A5BC6", "ABC5 DEF6", "<>5", "+25", "25", "-3",
	"+168", "utc+3", "UTC-15:30", "A5B,M3.2.0,M11.1.0", ":UTC", ":Europe/Paris", " UTC", "UTC ", "x", "Mars", "foo/bar",
	"", "+", "abc", "Etc/GMT+3", "<abc>-2", "<abc", "a.b+3", "JST-9", "zulu", "z"}

// TestAtTimeZoneDifferential applies AT TIME ZONE with each zone of
// dtZoneArgs (and, at SQLGATE_DIFF_DTINPUT/10 more, random ones built
// from their pieces) to a timestamp, timestamptz, time and timetz, on
// sqlgate and PostgreSQL 15: the same values, or the same SQLSTATE and
// message (22023 time zone "x" not recognized).
func TestAtTimeZoneDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_DTINPUT", 1500) / 10
	seed := diffSeed(t, 1)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{rp.SQLGate, rp.Postgres} {
		if o := s.Run(ctx, "SET TimeZone = 'America/New_York'"); o.Err != nil {
			t.Fatal(o.Err.Message)
		}
	}
	r := rand.New(rand.NewPCG(uint64(seed), 24))
	zones := append([]string(nil), dtZoneArgs...)
	pieces := []string{"abc", "A", "XYZ", "<q>", "5", "+3", "-12", "25", ":30", "DEF", " ", "7", ",M3.2.0,M11.1.0", "dst"}
	for range n {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		zones = append(zones, b.String())
	}
	values := []string{"timestamp '2011-07-01 10:00'", "timestamptz '2011-07-01 10:00+00'", "timestamp '1990-01-15 23:30'",
		"timestamptz '2014-10-26 12:00+00'", "time '10:00'", "timetz '10:00+02'"}
	stats := map[string]int{}
	for _, z := range zones {
		for _, v := range values {
			q := fmt.Sprintf("SELECT %s AT TIME ZONE '%s'", v, strings.ReplaceAll(z, "'", "''"))
			if strings.HasPrefix(v, "time") && !strings.HasPrefix(v, "timestamp") {
				// a time's zone is read today; an offset beyond
				// 15:59:59 is sqlgate's timetz's limit (22009)
				pg := rp.Postgres.Run(ctx, q)
				if pg.Err == nil && len(pg.Rows) == 1 && wideTimeTZZone.MatchString(pg.Rows[0][0].Text) {
					stats["zone beyond timetz's"]++
					continue
				}
			}
			tally(t, ctx, rp, q, stats)
		}
	}
	t.Logf("AT TIME ZONE: %d zones (seed %d): %v", len(zones), seed, stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("the generator reached too few shapes: %v", stats)
	}
}
