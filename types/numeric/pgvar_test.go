package numeric

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// randVar is a random nvar of 1 to n digits (zeros and 9999s likelier than
// at random: the carries' edge cases), weight in [-w, w].
func randVar(rng *rand.Rand, n, w int) *nvar {
	ds := make([]int32, 1+rng.IntN(n))
	for i := range ds {
		switch rng.IntN(6) {
		case 0:
			ds[i] = 0
		case 1:
			ds[i] = nbase - 1
		default:
			ds[i] = rng.Int32N(nbase)
		}
	}
	ds[0] = 1 + rng.Int32N(nbase-1)
	v := &nvar{digits: ds, weight: rng.IntN(2*w+1) - w, neg: rng.IntN(2) == 0}
	v.dscale = max(0, (len(ds)-v.weight-1)*decDigits-rng.IntN(4))
	v.strip()
	return v
}

func sameVar(a, b *nvar) bool {
	return slices.Equal(a.digits, b.digits) && a.weight == b.weight && a.neg == b.neg && a.dscale == b.dscale
}

// TestMulDigitsKronIsSchool: the big.Int product's words are mul_var's
// accumulator, dropped products included, for every truncation resN.
func TestMulDigitsKronIsSchool(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 300; it++ {
		n := 40
		if it%30 == 0 {
			n = 1500
		}
		a, b := randVar(rng, n, 0).digits, randVar(rng, n, 0).digits
		resN := 3 + rng.IntN(len(a)+len(b)-1)
		a, b = a[:min(len(a), resN-2)], b[:min(len(b), resN-2)]
		if got, want := mulDigitsKron(a, b, resN), mulDigitsSchool(a, b, resN); !slices.Equal(got, want) {
			t.Fatalf("%d×%d digits, resN %d: Kronecker and schoolbook differ", len(a), len(b), resN)
		}
	}
}

// refDivVarFast is div_var_fast as PostgreSQL runs it, the long division
// always.
func refDivVarFast(v1, v2 *nvar, rscale int, round bool) *nvar {
	resWeight, divN := divShape(v1, v2, rscale)
	r := divQuotientDigits(v1, v2, resWeight, divN)
	if round {
		r.round(rscale)
	} else {
		r.trunc(rscale)
	}
	r.strip()
	return r
}

// TestDivVarFastIsTheLoop: divVarFast's shortcut (an exact big.Int
// quotient within divSlackPerDigit of the loop's) answers as the loop
// does, on random operands and on exact quotients (truncated, the loop's
// quotient may sit just below the boundary: the shortcut must give way);
// and the loop's unrounded quotient is within the bound the slack is 50
// times, (divN+2) × 2×NBASE units of its last digit, of the exact one.
func TestDivVarFastIsTheLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shortcut, worst := 0, 0.0
	const iters = 1500
	for it := 0; it < iters; it++ {
		n := 30
		if it%50 == 0 {
			n = 700
		}
		v2 := randVar(rng, n, 20)
		if len(v2.digits) < 3 {
			continue
		}
		var v1 *nvar
		switch it % 4 {
		case 0: // an exact quotient, maybe short of a digit
			v1 = mulVar(v2, randVar(rng, n, 20), 1<<20)
			if it%8 == 0 {
				v1 = subVar(v1, &nvar{digits: []int32{1}, weight: v1.weight - len(v1.digits) - rng.IntN(3)})
			}
		default:
			v1 = randVar(rng, n, 20)
		}
		if len(v1.digits) == 0 {
			continue
		}
		rscale := rng.IntN(120)
		round := rng.IntN(2) == 0
		resWeight, divN := divShape(v1, v2, rscale)

		q := divQuotientDigits(v1, v2, resWeight, divN)
		load := min(divN, len(v1.digits))
		num := digitsBig(v1.digits[:load])
		num.Mul(num, pow10Big(decDigits*(divN-load+len(v2.digits)-1)))
		e := num.Quo(num, digitsBig(v2.digits))
		diff := new(big.Int).Sub(digitsBig(q.digits), e)
		perDigit, _ := new(big.Float).Quo(new(big.Float).SetInt(diff.Abs(diff)), big.NewFloat(float64(divN+2))).Float64()
		worst = max(worst, perDigit)
		if perDigit > 2*nbase {
			t.Errorf("%v / %v: the loop's quotient is %.0f units per digit from the exact one", v1, v2, perDigit)
		}

		want := refDivVarFast(v1, v2, rscale, round)
		if got, ok := divVarFastBounded(v1, v2, resWeight, divN, rscale, round); ok {
			shortcut++
			if !sameVar(got, want) {
				t.Fatalf("%v / %v at %d (round %v): shortcut %v, loop %v", v1, v2, rscale, round, got, want)
			}
		}
		if got, err := divVarFast(v1, v2, rscale, round); err != nil || !sameVar(got, want) {
			t.Fatalf("%v / %v at %d (round %v): divVarFast %v (%v), loop %v", v1, v2, rscale, round, got, err, want)
		}
	}
	t.Logf("shortcut taken %d of %d; worst distance %.1f units per quotient digit", shortcut, iters, worst)
	if shortcut < iters/2 {
		t.Errorf("the shortcut answered only %d of %d divisions", shortcut, iters)
	}
}

// TestDigitsBigAndCmpAbs: digitsBig is the Horner sum of the digits, and
// cmpAbs2 orders as the values do, leading and trailing zero digits apart.
func TestDigitsBigAndCmpAbs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 300; it++ {
		v := randVar(rng, 300, 3)
		want := new(big.Int)
		for _, d := range v.digits {
			want.Mul(want, big.NewInt(nbase))
			want.Add(want, big.NewInt(int64(d)))
		}
		if digitsBig(v.digits).Cmp(want) != 0 {
			t.Fatalf("digitsBig of %d digits", len(v.digits))
		}
		w := randVar(rng, 4, 3)
		if it%3 == 0 {
			w = v.clone()
			w.digits[len(w.digits)-1] += int32(rng.IntN(3)) - 1
		}
		if it%5 == 0 { // unstripped
			w.digits = append([]int32{0, 0}, append(w.digits, 0)...)
			w.weight += 2
		}
		a, ae := v.scaled()
		b, be := w.scaled()
		if ae > be {
			a.Mul(a, pow10Big(ae-be))
		} else {
			b.Mul(b, pow10Big(be-ae))
		}
		if got, want := cmpAbs2(v, w), a.Cmp(b); got != want {
			t.Fatalf("cmpAbs2(%v, %v) = %d, want %d", v, w, got, want)
		}
	}
}

// TestDivVarIntIsExact: div_var_int's short division, rounded or
// truncated at rscale, is the exact quotient rounded or truncated there
// (as divVar computes it).
func TestDivVarIntIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 2000; it++ {
		a := randVar(rng, 40, 10)
		ival := rng.Int64N(100_000_000) + 1
		if it%3 == 0 {
			ival = rng.Int64N(20) + 1
		}
		if rng.IntN(2) == 0 {
			ival = -ival
		}
		w := rng.IntN(5) - 2
		rscale := rng.IntN(60)
		round := rng.IntN(2) == 0
		b := toVar(MustParse(fmt.Sprintf("%de%d", ival, decDigits*w)))
		want, err := divVar(a, b, rscale, round)
		if got := divVarInt(a, ival, w, rscale, round); err != nil || !sameVar(got, want) {
			t.Fatalf("%v / %d×10000^%d at %d (round %v): %v, exact %v (%v)", a, ival, w, rscale, round, got, want, err)
		}
	}
}

// TestIsqrt: isqrt is big.Int's Sqrt, at the squares and beside them.
func TestIsqrt(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 500; it++ {
		buf := make([]byte, 1+rng.IntN(750))
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		n := new(big.Int).SetBytes(buf)
		switch it % 3 {
		case 1: // a square
			n.Mul(n, n)
		case 2: // just below one
			n.Mul(n, n)
			n.Sub(n, big.NewInt(1))
		}
		if got, want := isqrt(n), new(big.Int).Sqrt(n); got.Cmp(want) != 0 {
			t.Fatalf("isqrt of a %d-bit value: %v, want %v", n.BitLen(), got, want)
		}
	}
}
