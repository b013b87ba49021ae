package types

import (
	"encoding/binary"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Dynamic zone abbreviations and pg_tzset: PostgreSQL 15's Default
// abbreviation set names some abbreviations by a zone rather than an
// offset (DYNTZ: "MSK Europe/Moscow"), and reads them at the time they
// qualify — the offset the zone gave that abbreviation in its latest
// period using it at or before the time, else in its first period after
// (pg_interpret_timezone_abbrev), else the zone's own offset then
// (DetermineTimeZoneAbbrevOffset). Both date/time input and AT TIME ZONE
// read them so; pgTzset is pg_tzset, which both use for zone names.

// dynamicAbbrevs are the Default set's dynamic abbreviations and their
// zones.
var dynamicAbbrevs = map[string]string{
	"AMST": "Asia/Yerevan", "ANAST": "Asia/Anadyr", "ANAT": "Asia/Anadyr", "ARST": "America/Argentina/Buenos_Aires",
	"ART": "America/Argentina/Buenos_Aires", "AZST": "Asia/Baku", "AZT": "Asia/Baku", "CKT": "Pacific/Rarotonga",
	"CLT": "America/Santiago", "DAVT": "Antarctica/Davis", "EASST": "Pacific/Easter", "EAST": "Pacific/Easter",
	"FKST": "Atlantic/Stanley", "FKT": "Atlantic/Stanley", "GEST": "Asia/Tbilisi", "GET": "Asia/Tbilisi",
	"GYT": "America/Guyana", "IOT": "Indian/Chagos", "IRKST": "Asia/Irkutsk", "IRKT": "Asia/Irkutsk",
	"KGT": "Asia/Bishkek", "KOST": "Pacific/Kosrae", "KRAST": "Asia/Krasnoyarsk", "KRAT": "Asia/Krasnoyarsk",
	"LHDT": "Australia/Lord_Howe", "LINT": "Pacific/Kiritimati", "LKT": "Asia/Colombo", "MAGST": "Asia/Magadan",
	"MAGT": "Asia/Magadan", "MAWT": "Antarctica/Mawson", "MSK": "Europe/Moscow", "NOVST": "Asia/Novosibirsk",
	"NOVT": "Asia/Novosibirsk", "NUT": "Pacific/Niue", "OMSST": "Asia/Omsk", "OMST": "Asia/Omsk",
	"PETST": "Asia/Kamchatka", "PETT": "Asia/Kamchatka", "PYT": "America/Asuncion", "SGT": "Asia/Singapore",
	"TKT": "Pacific/Fakaofo", "TMT": "Asia/Ashgabat", "ULAT": "Asia/Ulaanbaatar", "VET": "America/Caracas",
	"VLAST": "Asia/Vladivostok", "VLAT": "Asia/Vladivostok", "VOLT": "Europe/Volgograd", "YAKST": "Asia/Yakutsk",
	"YAKT": "Asia/Yakutsk", "YEKT": "Asia/Yekaterinburg",
}

// dynamicAbbrevZone is the zone of a dynamic abbreviation (upper case).
func dynamicAbbrevZone(up string) (*time.Location, bool) {
	name, ok := dynamicAbbrevs[up]
	if !ok {
		return nil, false
	}
	loc, _, ok := lookupZoneName(name)
	return loc, ok
}

// abbrevPeriod is one period of a zone that begins at a transition.
type abbrevPeriod struct {
	start time.Time
	name  string
	east  int
}

// maxAbbrevScan bounds the periods scanned either way (a zone's rule
// repeats forever after its last transition).
const maxAbbrevScan = 2000

// abbrevOffsetAt is pg_interpret_timezone_abbrev: the offset east of UTC
// that loc gave the abbreviation up (upper case) in the latest period
// begun by a transition at or before t, else in the first after.
func abbrevOffsetAt(t time.Time, up string, loc *time.Location) (int, bool) {
	cur := t.In(loc)
	for range maxAbbrevScan {
		start, _ := cur.ZoneBounds()
		if start.IsZero() {
			break // before the first transition: no period of its own
		}
		if name, east := cur.Zone(); name == up {
			return east, true
		}
		cur = start.Add(-time.Second).In(loc)
	}
	_, end := t.In(loc).ZoneBounds()
	for range maxAbbrevScan {
		if end.IsZero() {
			break
		}
		cur = end.In(loc)
		if name, east := cur.Zone(); name == up {
			return east, true
		}
		_, end = cur.ZoneBounds()
	}
	return 0, false
}

// determineTimeZoneAbbrevOffset is DetermineTimeZoneAbbrevOffset: the
// offset (seconds west) of the dynamic abbreviation up at the wall-clock
// time tm in loc; a date beyond the Julian range is probed at the epoch.
func determineTimeZoneAbbrevOffset(tm *pgTm, up string, loc *time.Location) int {
	probe := time.Unix(0, 0)
	west := 0
	if isValidJulian(tm.year, tm.mon) {
		wall := time.Date(tm.year, time.Month(tm.mon), tm.mday, tm.hour, tm.min, tm.sec, 0, time.UTC)
		probe = LocalToInstant(wall, loc)
		west = int(probe.Unix() - wall.Unix())
	}
	if east, ok := abbrevOffsetAt(probe, up, loc); ok {
		return -east
	}
	return west
}

// dynamicAbbrevLocation is a Location that reads a dynamic abbreviation
// at each instant as abbrevOffsetAt does: its offset changes where a
// period of the abbreviation begins, and before the first it is the
// first's. An abbreviation its zone never uses is the zone itself.
func dynamicAbbrevLocation(up string, loc *time.Location) *time.Location {
	var periods []abbrevPeriod
	cur := time.Unix(0, 0).In(loc)
	// back to the first transition, then forward over all of them
	for range maxAbbrevScan {
		start, _ := cur.ZoneBounds()
		if start.IsZero() {
			break
		}
		cur = start.Add(-time.Second).In(loc)
	}
	_, end := cur.ZoneBounds()
	for range maxAbbrevScan {
		if end.IsZero() || end.Year() > 2100 {
			break
		}
		cur = end.In(loc)
		if name, east := cur.Zone(); name == up && (len(periods) == 0 || periods[len(periods)-1].east != east) {
			periods = append(periods, abbrevPeriod{start: end, name: name, east: east})
		}
		_, end = cur.ZoneBounds()
	}
	if len(periods) == 0 {
		return loc
	}
	l, err := time.LoadLocationFromTZData(up, tzifData(up, periods, ""))
	if err != nil {
		return loc
	}
	return l
}

// tzifData is a TZif (version 2) file whose zone starts in periods[0]'s
// offset (or, with none, the footer's rule alone, named name), changes
// at each later period's start, and follows footer after the last.
func tzifData(name string, periods []abbrevPeriod, footer string) []byte {
	u32 := func(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }
	types := []int{}
	index := map[int]int{}
	if len(periods) == 0 {
		types = append(types, 0)
	}
	for _, p := range periods {
		if _, ok := index[p.east]; !ok {
			index[p.east] = len(types)
			types = append(types, p.east)
		}
	}
	header := func(b []byte, timecnt, typecnt, charcnt int) []byte {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		for _, n := range []int{0, 0, 0, timecnt, typecnt, charcnt} {
			b = u32(b, uint32(n))
		}
		return b
	}
	var b []byte
	b = header(b, 0, 1, len(name)+1) // the version 1 block, which readers skip
	b = u32(b, 0)
	b = append(b, 0, 0)
	b = append(b, name...)
	b = append(b, 0)
	b = header(b, len(periods), len(types), len(name)+1)
	for _, p := range periods {
		b = binary.BigEndian.AppendUint64(b, uint64(p.start.Unix()))
	}
	for _, p := range periods {
		b = append(b, byte(index[p.east]))
	}
	for _, east := range types {
		b = u32(b, uint32(int32(east)))
		b = append(b, 0, 0)
	}
	b = append(b, name...)
	b = append(b, 0)
	b = append(b, '\n')
	b = append(b, footer...)
	return append(b, '\n')
}

// pgTzset is pg_tzset: a tz database zone in any letter case (a leading
// ':' dropped), or a POSIX zone specification; names longer than 255
// bytes name none.
func pgTzset(name string) (*time.Location, bool) {
	if len(name) > 255 {
		return nil, false
	}
	file := strings.TrimPrefix(name, ":")
	// a tz database name is found file by file: an empty part
	// (america//new_york) names none
	if loc, _, ok := lookupZoneName(file); ok && !strings.Contains(file, "//") && !strings.HasSuffix(file, "/") {
		return loc, true
	}
	if strings.HasPrefix(name, ":") {
		return nil, false
	}
	return posixZone(name)
}

// ZoneByName resolves the zone argument of timezone(zone, ts) (x AT TIME
// ZONE zone) as PostgreSQL's timestamptz_zone does: a time zone
// abbreviation of the Default set, in any letter case ("EST", a fixed
// offset; "MSK", read at each instant as its zone gave it), else pg_tzset's
// zone: a tz database name in any letter case or a POSIX zone
// specification ("UTC+3", "+05", "EST5EDT", "A5B,M3.2.0,M11.1.0": POSIX
// signs count west). The text is taken as it is (no blanks trimmed).
// Anything else is 22023 time zone "x" not recognized.
func ZoneByName(name string) (*time.Location, error) {
	return zoneByName(name, false)
}

// TruncZoneByName is ZoneByName for date_trunc's zone, which PostgreSQL's
// timestamptz_trunc_zone reads alike but for a dynamic abbreviation:
// there it is the abbreviation's zone itself (MSK is Europe/Moscow).
func TruncZoneByName(name string) (*time.Location, error) {
	return zoneByName(name, true)
}

func zoneByName(name string, dynamicAsZone bool) (*time.Location, error) {
	up := strings.ToUpper(name)
	if off, ok := zoneAbbrevs[up]; ok {
		return time.FixedZone(up, off), nil
	}
	if loc, ok := dynamicAbbrevZone(up); ok {
		if dynamicAsZone {
			return loc, nil
		}
		return dynamicAbbrevLocation(up, loc), nil
	}
	if loc, ok := pgTzset(name); ok {
		return loc, nil
	}
	return nil, sqlerr.New(sqlerr.InvalidParameterValue, "time zone %q not recognized", name)
}
