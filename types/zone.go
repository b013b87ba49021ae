package types

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// This file holds PostgreSQL's TimeZone semantics: which values the
// TimeZone setting accepts and how SHOW spells them (LoadZone), how a
// timestamptz prints its offset (ZoneOffset), how a local wall time maps to
// an instant across DST transitions (LocalToInstant), and the zone suffixes
// timestamptz input accepts. Every function takes the zone as an argument:
// the session's zone travels with the session, never in package state.

// zoneinfoDir is where the tz database lives on Debian-like systems. Only
// used to find a zone whose name was written in another letter case (PG
// accepts 'europe/paris'); exact names also load from Go's embedded tzdata
// when the binary imports time/tzdata.
const zoneinfoDir = "/usr/share/zoneinfo"

// LoadZone interprets a value of the TimeZone setting as PostgreSQL 15's
// check_timezone does and returns the zone and the value SHOW TimeZone
// reports: a number of hours east of UTC as strtod reads it, to 167
// ("-5" shows as "<-05>+05", pg_tzset_offset's name), else pg_tzset's
// zone (pgTzset): a tz database name in its canonical spelling
// ("Europe/Paris"), or a POSIX zone, upper-cased ("UTC+3", "+02:30",
// "A5B": POSIX signs count west), or "INTERVAL 'v'" (SET TIME ZONE
// INTERVAL's text: zoneInterval), named as a number of hours is. Anything
// else is 22023 invalid value for parameter "TimeZone".
func LoadZone(setting string) (*time.Location, string, error) {
	bad := func() *sqlerr.Error {
		return sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": %q", setting)
	}
	if len(setting) >= 8 && strings.EqualFold(setting[:8], "interval") {
		secs, detail, ok, err := zoneInterval(setting[8:])
		if err != nil {
			return nil, "", err
		}
		if !ok {
			e := bad()
			if detail != "" {
				e = e.WithDetail("%s", detail)
			}
			return nil, "", e
		}
		loc, name := offsetZone(secs)
		return loc, name, nil
	}
	// strtod skips leading blanks and must read the rest whole
	if num := strings.TrimLeft(setting, " \t\n\r\v\f"); num != "" && strtodPrefix(num) == len(num) {
		h, ok := strtodValue(num)
		if !ok {
			// beyond a double: strtod's HUGE_VAL (out of range below),
			// or its underflow to zero
			h, _ = strconv.ParseFloat(num, 64)
		}
		// the offset truncated to whole seconds, as a C long takes it
		west := -h * 3600
		if math.IsNaN(west) || math.Abs(west) >= 168*3600 {
			return nil, "", bad().WithDetail("UTC timezone offset is out of range.")
		}
		loc, name := offsetZone(-int(west))
		return loc, name, nil
	}
	if setting == "" {
		return nil, "", bad()
	}
	if loc, name, ok := lookupZoneName(strings.TrimPrefix(setting, ":")); ok {
		if _, ok := pgTzset(setting); ok {
			return loc, name, nil
		}
	}
	loc, ok := pgTzset(setting)
	if !ok {
		return nil, "", bad()
	}
	return loc, strings.ToUpper(setting), nil
}

// offsetZone is the zone secs east of UTC and its name as
// pg_tzset_offset spells it ("<-05>+05", "<+05:30>-05:30", "<+00>-00").
func offsetZone(secs int) (*time.Location, string) {
	posix := ZoneOffset(-secs)
	if secs == 0 {
		posix = "-00" // PostgreSQL's spelling of UTC+0 in POSIX terms
	}
	return fixedZone(secs), "<" + ZoneOffset(secs) + ">" + posix
}

// zoneInterval reads the rest of a TimeZone value "INTERVAL 'v'" (SET TIME
// ZONE INTERVAL's text) as check_timezone does: blanks, v quoted to the
// end, read as interval input (its errors are the input's); months or
// days refuse it with a detail; the offset east is its time in whole
// seconds, truncated toward zero. ok is false for a value of another shape.
func zoneInterval(rest string) (secs int, detail string, ok bool, err error) {
	rest = strings.TrimLeft(rest, " \t\n\r\v\f")
	if !strings.HasPrefix(rest, "'") {
		return 0, "", false, nil
	}
	v, tail, found := strings.Cut(rest[1:], "'")
	if !found || tail != "" {
		return 0, "", false, nil
	}
	iv, err := ParseInterval(v)
	if err != nil {
		return 0, "", false, err
	}
	switch {
	case iv.Months != 0:
		return 0, "Cannot specify months in time zone interval.", false, nil
	case iv.Days != 0:
		return 0, "Cannot specify days in time zone interval.", false, nil
	}
	return int(iv.Nanoseconds / int64(time.Second)), "", true, nil
}

// fixedZone is a zone at secs east of UTC named as PostgreSQL names the
// abbreviation of a numeric zone ("+05:30").
func fixedZone(secs int) *time.Location {
	return time.FixedZone(ZoneOffset(secs), secs)
}

// ZoneOffset renders an offset east of UTC as PostgreSQL's ISO output does:
// "+01", "+05:30", "-03:30", and seconds only when present ("+00:09:21",
// Paris local mean time).
func ZoneOffset(secs int) string {
	sign := byte('+')
	if secs < 0 {
		sign = '-'
		secs = -secs
	}
	b := []byte{sign}
	b = append2(b, secs/3600)
	if m, s := secs/60%60, secs%60; m != 0 || s != 0 {
		b = append(b, ':')
		b = append2(b, m)
		if s != 0 {
			b = append(b, ':')
			b = append2(b, s)
		}
	}
	return string(b)
}

func append2(b []byte, v int) []byte {
	if v < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// lookupZoneName finds a tz database zone by name, ignoring letter case as
// PostgreSQL does, and returns its canonical spelling.
func lookupZoneName(s string) (*time.Location, string, bool) {
	if s == "" || strings.Contains(s, "..") || strings.HasPrefix(s, "/") || strings.EqualFold(s, "local") || strings.EqualFold(s, "localtime") {
		return nil, "", false
	}
	for _, name := range []string{s, zoneTitle(s), strings.ToUpper(s)} {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc, name, true
		}
	}
	// Another spelling (e.g. "america/port-au-prince"): look the name up in
	// the system's tz database, part by part.
	dir, name := zoneinfoDir, ""
	for _, part := range strings.Split(s, "/") {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, "", false
		}
		found := ""
		for _, e := range ents {
			if strings.EqualFold(e.Name(), part) {
				found = e.Name()
				break
			}
		}
		if found == "" {
			return nil, "", false
		}
		dir = filepath.Join(dir, found)
		if name != "" {
			name += "/"
		}
		name += found
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc, name, true
	}
	return nil, "", false
}

// zoneTitle capitalises each word of a zone name the way the tz database
// mostly spells them: "america/new_york" -> "America/New_York".
func zoneTitle(s string) string {
	b := []byte(strings.ToLower(s))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// LocalToInstant converts a wall-clock time (its fields read as UTC) to the
// instant it denotes in loc, resolving DST gaps and overlaps as
// PostgreSQL's DetermineTimeZoneOffset does: a time skipped by a
// spring-forward transition takes the offset from before it (02:30 in
// Paris on 2024-03-31 is 03:30+02), an ambiguous time the offset from after
// the transition (02:30 on 2024-10-27 is 02:30+01).
func LocalToInstant(wall time.Time, loc *time.Location) time.Time {
	if loc == nil || loc == time.UTC {
		return wall
	}
	my := wall.Unix()
	prec := time.Unix(my-86400, 0).In(loc)
	_, before := prec.Zone()
	_, end := prec.ZoneBounds()
	off := before
	if !end.IsZero() {
		boundary := end.Unix()
		_, after := end.In(loc).Zone()
		bt, at := my-int64(before), my-int64(after)
		switch {
		case bt < boundary && at < boundary:
		case bt >= boundary && at >= boundary:
			off = after
		case bt > at:
		default:
			off = after
		}
	}
	return wall.Add(-time.Duration(off) * time.Second)
}

// WallClock returns the wall-clock time of instant t in loc, with its
// fields in a UTC time (what timestamptz -> timestamp yields).
func WallClock(t time.Time, loc *time.Location) time.Time {
	if loc == nil || loc == time.UTC {
		return t.UTC()
	}
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// zoneAbbrevs are the abbreviations of PostgreSQL 15's Default
// timezone_abbreviations set (seconds east of UTC, as its
// pg_timezone_abbrevs view lists them; the few whose offset has changed
// over the years are dynamicAbbrevs, zoneabbrev.go).
var zoneAbbrevs = map[string]int{
	"ACDT": 37800, "ACSST": 37800, "ACST": 34200, "ACT": -18000, "ACWST": 31500, "ADT": -10800, "AEDT": 39600,
	"AESST": 39600, "AEST": 36000, "AFT": 16200, "AKDT": -28800, "AKST": -32400, "ALMST": 25200, "ALMT": 21600,
	"AMT": -14400, "AST": -14400, "AWSST": 32400, "AWST": 28800, "AZOST": 0, "AZOT": -3600, "BDST": 7200,
	"BDT": 21600, "BNT": 28800, "BORT": 28800, "BOT": -14400, "BRA": -10800, "BRST": -7200, "BRT": -10800,
	"BST": 3600, "BTT": 21600, "CADT": 37800, "CAST": 34200, "CCT": 28800, "CDT": -18000, "CEST": 7200,
	"CET": 3600, "CETDST": 7200, "CHADT": 49500, "CHAST": 45900, "CHUT": 36000, "CLST": -10800, "COT": -18000,
	"CST": -21600, "CXT": 25200, "DDUT": 36000, "EAT": 10800, "EDT": -14400, "EEST": 10800, "EET": 7200,
	"EETDST": 10800, "EGST": 0, "EGT": -3600, "EST": -18000, "FET": 10800, "FJST": 46800, "FJT": 43200,
	"FNST": -3600, "FNT": -7200, "GALT": -21600, "GAMT": -32400, "GFT": -10800, "GILT": 43200, "GMT": 0,
	"HKT": 28800, "HST": -36000, "ICT": 25200, "IDT": 10800, "IRT": 12600, "IST": 7200, "JAYT": 32400,
	"JST": 32400, "KDT": 36000, "KGST": 21600, "KST": 32400, "LHST": 37800, "LIGT": 36000, "MART": -34200,
	"MDT": -21600, "MEST": 7200, "MESZ": 7200, "MET": 3600, "METDST": 7200, "MEZ": 3600, "MHT": 43200,
	"MMT": 23400, "MPT": 36000, "MSD": 14400, "MST": -25200, "MUST": 18000, "MUT": 14400, "MVT": 18000,
	"MYT": 28800, "NDT": -9000, "NFT": -12600, "NPT": 20700, "NST": -12600, "NZDT": 46800, "NZST": 43200,
	"NZT": 43200, "PDT": -25200, "PET": -18000, "PGT": 36000, "PHT": 28800, "PKST": 21600, "PKT": 18000,
	"PMDT": -7200, "PMST": -10800, "PONT": 39600, "PST": -28800, "PWT": 32400, "PYST": -10800, "RET": 14400,
	"SADT": 37800, "SAST": 7200, "SCT": 14400, "TAHT": -36000, "TFT": 18000, "TJT": 18000, "TOT": 46800,
	"TRUT": 36000, "TVT": 43200, "UCT": 0, "ULAST": 32400, "UT": 0, "UTC": 0, "UYST": -7200, "UYT": -10800,
	"UZST": 21600, "UZT": 18000, "VUT": 39600, "WADT": 28800, "WAKT": 43200, "WAST": 25200, "WAT": 3600,
	"WDT": 32400, "WET": 0, "WETDST": 3600, "WFT": 43200, "WGST": -7200, "WGT": -10800, "XJT": 21600,
	"YAPT": 36000, "YEKST": 21600, "Z": 0, "ZULU": 0,
}
