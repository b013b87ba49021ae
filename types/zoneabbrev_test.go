package types

import (
	"testing"
	"time"
)

// TestZoneByNamePOSIX checks pg_tzset's POSIX zones as AT TIME ZONE reads
// them: empty, one-letter and blank-holding names, hours beyond 24, and
// the default DST rule, by their offset at two instants.
func TestZoneByNamePOSIX(t *testing.T) {
	winter := time.Date(2011, 1, 15, 12, 0, 0, 0, time.UTC)
	summer := time.Date(2011, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name         string
		winter, summ int // seconds east
		bad          bool
	}{
		{name: "+25", winter: -25 * 3600, summ: -25 * 3600},
		{name: "<>5", winter: -5 * 3600, summ: -5 * 3600},
		{name: "A5", winter: -5 * 3600, summ: -5 * 3600},
		{name: "A5B", winter: -5 * 3600, summ: -4 * 3600},
		{name: "EST5EDT bc", winter: -5 * 3600, summ: -4 * 3600},
		{name: "ABC5 DEF6", winter: -5 * 3600, summ: -6 * 3600},
		{name: ":UTC"},
		{name: "7:30:30:30", winter: -(7*3600 + 30*60 + 30), summ: -30 * 3600},
		{name: "+168", bad: true},
		{name: " UTC", bad: true},
		{name: ":abc+3", bad: true},
		{name: "<abc", bad: true},
	} {
		loc, err := ZoneByName(c.name)
		if c.bad {
			if err == nil {
				t.Errorf("%q: read as a zone, want 22023", c.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.name, err)
			continue
		}
		_, w := winter.In(loc).Zone()
		_, s := summer.In(loc).Zone()
		if w != c.winter || s != c.summ {
			t.Errorf("%q: offsets %d, %d; want %d, %d", c.name, w, s, c.winter, c.summ)
		}
	}
}

// TestDynamicAbbrev checks a dynamic abbreviation read at an instant:
// MSK was +04 from 2011 to 2014 and +03 after, and the zone's own
// offset stands for an abbreviation it never uses.
func TestDynamicAbbrev(t *testing.T) {
	for _, c := range []struct {
		abbr string
		at   time.Time
		east int
	}{
		{"MSK", time.Date(2012, 7, 1, 0, 0, 0, 0, time.UTC), 4 * 3600},
		{"MSK", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), 3 * 3600},
		{"MSK", time.Date(1995, 1, 1, 0, 0, 0, 0, time.UTC), 3 * 3600},
		{"IRKT", time.Date(2012, 7, 1, 0, 0, 0, 0, time.UTC), 9 * 3600},
	} {
		loc, err := ZoneByName(c.abbr)
		if err != nil {
			t.Fatal(err)
		}
		if _, east := c.at.In(loc).Zone(); east != c.east {
			t.Errorf("%s at %v: %d, want %d", c.abbr, c.at, east, c.east)
		}
	}
}

// TestFixedZoneLoc checks pg_get_timezone_offset's test: one offset in
// every period, however many periods.
func TestFixedZoneLoc(t *testing.T) {
	for _, c := range []struct {
		name  string
		fixed bool
	}{
		{"Etc/GMT+3", true}, {"UTC", true}, {"JUN.06.06", true}, {"A5B", false}, {"America/New_York", false},
		{"Asia/Kolkata", false}, {"abc+3", true},
	} {
		loc, err := ZoneByName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := fixedZoneLoc(loc); got != c.fixed {
			t.Errorf("%s: fixed %v, want %v", c.name, got, c.fixed)
		}
	}
}
