package pgtypes

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// Expected strings from PostgreSQL 15 (SET TIME ZONE zone; SELECT
// '<instant>+00'::timestamptz, to_json(...)).
func TestTimestampTZInZone(t *testing.T) {
	load := func(name string) *time.Location {
		loc, _, err := types.LoadZone(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	for _, c := range []struct {
		zone, utc, text, json string
	}{
		{"UTC", "2024-01-02T03:04:05Z", "2024-01-02 03:04:05+00", `"2024-01-02T03:04:05+00:00"`},
		{"Europe/Paris", "2024-01-01T00:00:00Z", "2024-01-01 01:00:00+01", `"2024-01-01T01:00:00+01:00"`},
		{"Europe/Paris", "2024-07-02T03:04:05.25Z", "2024-07-02 05:04:05.25+02", `"2024-07-02T05:04:05.25+02:00"`},
		{"Europe/Paris", "1850-01-01T00:00:00Z", "1850-01-01 00:09:21+00:09:21", `"1850-01-01T00:09:21+00:09:21"`},
		{"Asia/Kolkata", "2024-07-02T03:04:05Z", "2024-07-02 08:34:05+05:30", `"2024-07-02T08:34:05+05:30"`},
		{"America/St_Johns", "2024-01-02T03:04:05Z", "2024-01-01 23:34:05-03:30", `"2024-01-01T23:34:05-03:30"`},
		{"-5", "2024-01-02T03:04:05Z", "2024-01-01 22:04:05-05", `"2024-01-01T22:04:05-05:00"`},
		{"Europe/Paris", "-0043-03-15T12:00:00Z", "0044-03-15 12:09:21+00:09:21 BC", `"0044-03-15T12:09:21+00:09:21 BC"`},
	} {
		loc := load(c.zone)
		at, err := time.Parse(time.RFC3339Nano, c.utc)
		if c.utc[0] == '-' { // time.Parse reads no negative years
			at, err = time.Parse(time.RFC3339Nano, "0000"+c.utc[5:])
			at = at.AddDate(-43, 0, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		us := at.UnixMicro()
		if got := string(AppendTimestampTZ(nil, us, loc)); got != c.text {
			t.Errorf("%s in %s: %q, want %q", c.utc, c.zone, got, c.text)
		}
		if got := types.FormatTextIn(us, types.TimestampTZType(6), loc); got != c.text {
			t.Errorf("types.FormatTextIn %s in %s: %q, want %q", c.utc, c.zone, got, c.text)
		}
		b := array.NewTimestampBuilder(memory.NewGoAllocator(), &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
		b.Append(arrow.Timestamp(us))
		arr := b.NewArray()
		got, _, err := AppendValueIn(nil, types.TimestampTZType(6), FormatText, arr, 0, loc)
		if err != nil || string(got) != c.text {
			t.Errorf("AppendValueIn text %s in %s: %q %v", c.utc, c.zone, got, err)
		}
		// binary stays UTC microseconds since 2000-01-01, whatever the zone
		bin, _, err := AppendValueIn(nil, types.TimestampTZType(6), FormatBinary, arr, 0, loc)
		if err != nil || int64(binary.BigEndian.Uint64(bin)) != us-unixToPGEpochUs {
			t.Errorf("binary %s in %s: %x %v", c.utc, c.zone, bin, err)
		}
		enc, err := newEncoder(types.TimestampTZType(6), modeJSON, loc, types.Style{})
		if err != nil {
			t.Fatal(err)
		}
		if err := enc.reset(arr); err != nil {
			t.Fatal(err)
		}
		if got := string(enc.appendValue(nil, 0)); got != c.json {
			t.Errorf("json %s in %s: %s, want %s", c.utc, c.zone, got, c.json)
		}
		arr.Release()
	}
	// infinity is not shifted
	if got := string(AppendTimestampTZ(nil, math.MaxInt64, load("Europe/Paris"))); got != "infinity" {
		t.Errorf("infinity: %q", got)
	}
}

// A column crossing DST transitions gets each value's own offset (the
// encoder caches the offset's span).
func TestTimestampTZEncoderAcrossDST(t *testing.T) {
	loc, _, _ := types.LoadZone("Europe/Paris")
	b := array.NewTimestampBuilder(memory.NewGoAllocator(), &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	want := []string{}
	for _, s := range []string{"2024-03-31T00:59:59Z", "2024-03-31T01:00:00Z", "2024-10-27T00:59:59Z", "2024-10-27T01:00:00Z", "2024-03-31T00:00:00Z"} {
		at, _ := time.Parse(time.RFC3339, s)
		b.Append(arrow.Timestamp(at.UnixMicro()))
	}
	want = append(want, "2024-03-31 01:59:59+01", "2024-03-31 03:00:00+02", "2024-10-27 02:59:59+02", "2024-10-27 02:00:00+01", "2024-03-31 01:00:00+01")
	arr := b.NewArray()
	defer arr.Release()
	enc, err := newEncoder(types.TimestampTZType(6), modeText, loc, types.Style{})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.reset(arr); err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if got := string(enc.appendValue(nil, i)); got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}
}

// BenchmarkTimestampTZText measures text encoding of a timestamptz column
// in UTC and in a zone with DST (the offset span cache keeps the zone
// lookup off the per-row path).
func BenchmarkTimestampTZText(b *testing.B) {
	paris, _, err := types.LoadZone("Europe/Paris")
	if err != nil {
		b.Fatal(err)
	}
	bld := array.NewTimestampBuilder(memory.NewGoAllocator(), &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	for i := 0; i < 4096; i++ {
		bld.Append(arrow.Timestamp(start + int64(i)*3_600_000_000)) // hourly: crosses both 2024 transitions
	}
	arr := bld.NewArray()
	defer arr.Release()
	for _, z := range []struct {
		name string
		loc  *time.Location
	}{{"UTC", nil}, {"Europe/Paris", paris}} {
		b.Run(z.name, func(b *testing.B) {
			enc, err := newEncoder(types.TimestampTZType(6), modeText, z.loc, types.Style{})
			if err != nil {
				b.Fatal(err)
			}
			if err := enc.reset(arr); err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 0, 64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = enc.appendValue(buf[:0], i%4096)
			}
		})
	}
}
