package types

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMatchPlainTimestamp: whatever text matchPlainTimestamp accepts,
// tsLiteral matches with the same submatches; it accepts the plain shapes
// (date, then space or T and a time) and leaves the rest to tsLiteral.
func TestMatchPlainTimestamp(t *testing.T) {
	for _, s := range []string{
		"2024-01-01", "2024-1-2", "12024-01-01", "2024-01-01 00:00", "2024-01-01T10:20:30",
		"2024-01-01 10:20:30.123456", "2024-01-01 10:20:30.", "2024-01-01 1:2:3.0000000001",
	} {
		got, ok := matchPlainTimestamp(s)
		if want := tsLiteral.FindStringSubmatch(s); !ok || !slices.Equal(got[:], want) {
			t.Errorf("%q: %q (%v), tsLiteral %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"2024-01-01 10:20:30+02", "2024-01-01  10:20", "2024-01-01 10:20 UTC", "24-01-01", "2024-01-01 10"} {
		if got, ok := matchPlainTimestamp(s); ok {
			t.Errorf("%q: accepted as %q; tsLiteral's to match", s, got)
		}
	}
	// Random texts near the shape: digits, separators, spaces, letters.
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789-:. T+Z\ta"
	parts := []string{"2024", "-", "01", "1", ":", ".", " ", "T", "123", "59", "+02", "UTC", "0"}
	accepted := 0
	for range 200_000 {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			for range rng.IntN(24) {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
		} else {
			b.WriteString("2024-01-01")
			for range rng.IntN(8) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
		}
		s := b.String()
		got, ok := matchPlainTimestamp(s)
		if !ok {
			continue
		}
		accepted++
		if want := tsLiteral.FindStringSubmatch(s); !slices.Equal(got[:], want) {
			t.Fatalf("%q: %q, tsLiteral %q", s, got, want)
		}
	}
	if accepted < 1000 {
		t.Fatalf("only %d random texts took the plain path", accepted)
	}
}

// tsLiteral is the shape of the timestamp literals sqlgate read before its date/time decoder (dtinput.go): ISO date,
// optional time (space or T), then an optional zone and era.
var tsLiteral = regexp.MustCompile(`^(\d{4,})-(\d{1,2})-(\d{1,2})(?:(?:\s+|T)(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d*))?)?)?(?:\s*([+-][\d:]+|[A-Za-z][A-Za-z0-9_/+\-]*))?$`)
