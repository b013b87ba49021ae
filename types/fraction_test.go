package types

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestFractionNanos: the in-place reading of a fraction's digits gives what
// ParseInt of the fraction padded to nine digits gives, for digits, signs,
// other bytes and every length.
func TestFractionNanos(t *testing.T) {
	padded := func(frac string) int64 {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		v, _ := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		return v
	}
	cases := []string{"", "0", "5", "123456", "000001", "999999999", "1234567891", "-5", "+5", "1a", " 1", "12.3"}
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "0123456789+-.a "
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(12) {
			if rng.IntN(8) == 0 {
				b.WriteByte(alphabet[10+rng.IntN(len(alphabet)-10)])
			} else {
				b.WriteByte(alphabet[rng.IntN(10)])
			}
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := fractionNanos(s), padded(s); got != want {
			t.Fatalf("fractionNanos(%q) = %d, want %d", s, got, want)
		}
	}
}
