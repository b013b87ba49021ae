package exec

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// The AVX2 kernels (simd_amd64.s) against the pure-Go loops and a
// row-at-a-time reference. With -tags purego, or on a CPU without AVX2,
// the same tests check the pure-Go paths alone; TestSIMDKernelsRun says
// which of the two ran.

// simdValues is n int64 values mixing extremes, x*c's overflow boundaries
// for c, small values and random bits.
func simdValues(rng *rand.Rand, n int, c int64) []int64 {
	lo, hi := mulRange(c)
	special := []int64{math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1, 0, 1, -1, 19, 20, 21,
		lo, hi, lo - 1, hi + 1, lo + 1, hi - 1}
	out := make([]int64, n)
	for i := range out {
		switch rng.IntN(4) {
		case 0:
			out[i] = special[rng.IntN(len(special))]
		case 1:
			out[i] = int64(rng.Uint64())
		default:
			out[i] = int64(rng.IntN(80)) - 40
		}
	}
	return out
}

// refMulAdd is x*c ± y row by row, exactly: the wrapped results and
// whether any row's product or sum overflowed.
func refMulAdd(x, y []int64, c int64, sub bool) ([]int64, bool) {
	out := make([]int64, len(x))
	overflow := false
	minI, maxI := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	for i := range x {
		p := new(big.Int).Mul(big.NewInt(x[i]), big.NewInt(c))
		if p.Cmp(minI) < 0 || p.Cmp(maxI) > 0 {
			overflow = true
		}
		pw := x[i] * c
		r := new(big.Int).Add(big.NewInt(pw), big.NewInt(y[i]))
		out[i] = pw + y[i]
		if sub {
			r = new(big.Int).Sub(big.NewInt(pw), big.NewInt(y[i]))
			out[i] = pw - y[i]
		}
		if r.Cmp(minI) < 0 || r.Cmp(maxI) > 0 {
			overflow = true
		}
	}
	return out, overflow
}

var simdConsts = []int64{-1, 0, 1, 2, 3, 4, 8, -2, -3, 7, 1 << 31, 1<<32 + 5, -(1 << 33) - 7, 1 << 62, -1 << 62,
	3 << 40, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, math.MaxUint32, -math.MaxUint32}

// TestSIMDMulConstAdd: every length 0..67 (whole iterations and every tail)
// at three alignments of the slices, each constant, add and subtract, on
// values with and without overflows: the result and the overflow flag
// match the reference and the pure-Go loop.
func TestSIMDMulConstAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range simdConsts {
		for _, sub := range []bool{false, true} {
			for n := 0; n <= 67; n++ {
				for off := 0; off < 3; off++ {
					xs, ys := simdValues(rng, n+off, c), simdValues(rng, n+off, c)
					if off == 1 {
						// small values: usually no overflow at all
						for i := range xs {
							xs[i], ys[i] = int64(rng.IntN(1000))-500, int64(rng.IntN(1000))-500
						}
					}
					x, y := xs[off:], ys[off:]
					out := make([]int64, n+2*off+1)[2*off:]
					want, wantOver := refMulAdd(x, y, c, sub)
					over := mulConstAdd(x, y, c, sub, out)
					desc := fmt.Sprintf("c=%d sub=%v n=%d off=%d", c, sub, n, off)
					if over != wantOver {
						t.Fatalf("%s: overflow %v, want %v (x=%v y=%v)", desc, over, wantOver, x, y)
					}
					if !slices.Equal(out[:n], want) {
						t.Fatalf("%s: got %v, want %v", desc, out[:n], want)
					}
					lo, hi := mulRange(c)
					goOut := make([]int64, n)
					if goOver := mulConstAddGo(x, y, c, lo, hi, sub, goOut); goOver != wantOver || !slices.Equal(goOut, want) {
						t.Fatalf("%s: pure Go: overflow %v, %v; want %v, %v", desc, goOver, goOut, wantOver, want)
					}
				}
			}
		}
	}
}

// TestSIMDAddSubInt64: checked column + column and column - column at
// every length 0..67 and three alignments, on extremes and small values:
// the result and the overflow flag match a row-by-row reference, through
// the AVX2 loop and through intKernelVV (which finishes the tail).
func TestSIMDAddSubInt64(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	minI, maxI := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	for _, sub := range []bool{false, true} {
		for n := 0; n <= 67; n++ {
			for off := 0; off < 3; off++ {
				xs, ys := simdValues(rng, n+off, 3), simdValues(rng, n+off, 3)
				if off == 1 {
					for i := range xs {
						xs[i], ys[i] = int64(rng.IntN(1000))-500, int64(rng.IntN(1000))-500
					}
				}
				x, y := xs[off:], ys[off:]
				want, wantOver := make([]int64, n), false
				for i := range x {
					r := new(big.Int).Add(big.NewInt(x[i]), big.NewInt(y[i]))
					want[i] = x[i] + y[i]
					if sub {
						r = new(big.Int).Sub(big.NewInt(x[i]), big.NewInt(y[i]))
						want[i] = x[i] - y[i]
					}
					if r.Cmp(minI) < 0 || r.Cmp(maxI) > 0 {
						wantOver = true
					}
				}
				desc := fmt.Sprintf("sub=%v n=%d off=%d", sub, n, off)
				out := make([]int64, n+2*off+1)[2*off:]
				done, over := addSubInt64SIMD(x, y, out, sub)
				simdOver := false
				for i := range done {
					r := new(big.Int).Add(big.NewInt(x[i]), big.NewInt(y[i]))
					if sub {
						r = new(big.Int).Sub(big.NewInt(x[i]), big.NewInt(y[i]))
					}
					simdOver = simdOver || r.Cmp(minI) < 0 || r.Cmp(maxI) > 0
				}
				if over != simdOver || !slices.Equal(out[:done], want[:done]) {
					t.Fatalf("%s: AVX2 rows 0..%d: overflow %v, want %v; %v, want %v", desc, done, over, simdOver, out[:done], want[:done])
				}
				op := Add
				if sub {
					op = Sub
				}
				out = make([]int64, n)
				if bad := intKernelVV(op, types.Int64Type, x, y, out) != 0; bad != wantOver || !slices.Equal(out, want) {
					t.Fatalf("%s: intKernelVV: overflow %v, want %v; %v, want %v", desc, bad, wantOver, out, want)
				}
			}
		}
	}
}

// TestSIMDMulConstAddLarge: outputs of ntStoreBytes and more, which the
// AVX2 loop writes with non-temporal stores after the Go loop has done the
// rows before the output's first 32-byte boundary, at each of the four
// 8-byte alignments, match the pure-Go loop, and an overflow is seen in
// the leading rows and in the tail.
func TestSIMDMulConstAddLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	n := ntStoreBytes/8 + 13
	x, y := make([]int64, n), make([]int64, n)
	for i := range x {
		x[i], y[i] = int64(rng.IntN(2000))-1000, int64(rng.IntN(2000))-1000
	}
	buf := make([]int64, n+4)
	goOut := make([]int64, n)
	for _, c := range []int64{2, -3} { // by a shift, by partial products
		lo, hi := mulRange(c)
		for _, sub := range []bool{false, true} {
			for off := range 4 {
				for _, bad := range []int{-1, 1, n - 2} {
					desc := fmt.Sprintf("c=%d sub=%v off=%d overflow at %d", c, sub, off, bad)
					if bad >= 0 {
						x[bad] = hi + 1
					}
					out := buf[off : off+n]
					clear(out)
					over := mulConstAdd(x, y, c, sub, out)
					goOver := mulConstAddGo(x, y, c, lo, hi, sub, goOut)
					if over != (bad >= 0) || goOver != over {
						t.Fatalf("%s: overflow %v, pure Go %v", desc, over, goOver)
					}
					if !slices.Equal(out, goOut) {
						t.Fatalf("%s: results differ from the pure-Go loop", desc)
					}
					if bad >= 0 {
						x[bad] = 7
					}
				}
			}
		}
	}
}

// refCmp is the bitmap of a[i] op y, inverted when invert is set.
func refCmp(op CmpOp, a []int64, y int64, invert bool) []byte {
	out := make([]byte, (len(a)+7)/8)
	for i, v := range a {
		bit := (op == Lt && v < y) || (op == Gt && v > y) || (op == Eq && v == y)
		if bit != invert {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

// TestSIMDCmpInt64: <, > and = against a scalar, inverted or not, at
// every length 0..200 and three alignments, scalars at the extremes.
func TestSIMDCmpInt64(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, y := range []int64{20, 19, 0, -1, math.MinInt64, math.MaxInt64} {
		for _, op := range []CmpOp{Lt, Gt, Eq} {
			for _, invert := range []bool{false, true} {
				for n := 0; n <= 200; n++ {
					off := n % 3
					a := simdValues(rng, n+off, 2)[off:]
					want := refCmp(op, a, y, invert)
					got := make([]byte, len(want))
					cmpVSInvert(op, a, y, invert, got)
					if n%8 != 0 {
						got[len(got)-1] &= byte(1)<<(n%8) - 1
					}
					if !slices.Equal(got, want) {
						t.Fatalf("op=%v y=%d invert=%v n=%d: got %08b, want %08b", op, y, invert, n, got, want)
					}
				}
			}
		}
	}
}

// refCompact is the rows of src whose bit is set in keep.
func refCompact(src []int64, keep []uint64) []int64 {
	var out []int64
	for i, v := range src {
		if keep[i/64]>>(i%64)&1 == 1 {
			out = append(out, v)
		}
	}
	return out
}

// compactInt64 is compactColumn's bigint path: whole words through the
// AVX2 loop where it runs, the rest through compactWords.
func compactInt64(src []int64, keep []uint64, out []int64) {
	words, k := compactInt64SIMD(src, keep, out)
	compactWords(src[words*64:], keep[words:], out[k:])
}

// TestSIMDCompactInt64: masks of every kind (all kept, none, random,
// sparse, dense, each 4-row pattern in turn) over lengths 0..67 and
// several whole words plus a tail, at three alignments.
func TestSIMDCompactInt64(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	masks := map[string]func(i int) bool{
		"all":    func(int) bool { return true },
		"none":   func(int) bool { return false },
		"half":   func(int) bool { return rng.IntN(2) == 0 },
		"sparse": func(int) bool { return rng.IntN(16) == 0 },
		"dense":  func(int) bool { return rng.IntN(16) != 0 },
		"nibble": func(i int) bool { return (i/4)%16>>(i%4)&1 == 1 }, // group g keeps the bits of g%16
		"words":  func(i int) bool { return (i/64)%3 != 1 },          // full, empty and full words
	}
	var lengths []int
	for n := 0; n <= 67; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 128, 191, 64*5+3, 64*16+63)
	for name, m := range masks {
		for _, n := range lengths {
			for off := 0; off < 3; off++ {
				src := simdValues(rng, n+off, 2)[off:]
				keep := make([]uint64, (n+63)/64)
				for i := 0; i < n; i++ {
					if m(i) {
						keep[i/64] |= 1 << (i % 64)
					}
				}
				want := refCompact(src, keep)
				out := make([]int64, len(want)+64+off)[off:]
				compactInt64(src, keep, out)
				if !slices.Equal(out[:len(want)], want) {
					t.Fatalf("%s n=%d off=%d: got %v, want %v", name, n, off, out[:len(want)], want)
				}
			}
		}
	}
}

// TestSIMDKernelsRun: where the assembly runs it takes every whole
// iteration (so the tests above compared it), and it declines an output
// without room for the lanes it writes past the last kept row.
func TestSIMDKernelsRun(t *testing.T) {
	x := make([]int64, 70)
	keep := []uint64{1, 0}
	t.Logf("AVX2 kernels: %v", simdKernels())
	wantMul, wantCmp, wantWords := 0, 0, 0
	if simdKernels() {
		wantMul, wantCmp, wantWords = 64, 64, 1
	}
	if done, _ := mulConstAddSIMD(x, x, 3, -5, 5, false, make([]int64, 70)); done != wantMul {
		t.Errorf("mulConstAddSIMD did %d rows of 70, want %d", done, wantMul)
	}
	if done, _ := addSubInt64SIMD(x, x, make([]int64, 70), true); done != wantMul {
		t.Errorf("addSubInt64SIMD did %d rows of 70, want %d", done, wantMul)
	}
	if done := cmpInt64VSSIMD(Lt, x, 1, 0, make([]byte, 9)); done != wantCmp {
		t.Errorf("cmpInt64VSSIMD did %d rows of 70, want %d", done, wantCmp)
	}
	if words, k := compactInt64SIMD(x, keep, make([]int64, 5)); words != wantWords || k != wantWords {
		t.Errorf("compactInt64SIMD did %d words (%d rows), want %d", words, k, wantWords)
	}
	if words, _ := compactInt64SIMD(x, keep, make([]int64, 4)); words != 0 {
		t.Errorf("compactInt64SIMD wrote into an output without room for 3 spare lanes")
	}
}

// FuzzSIMDKernels runs the three kernels on arbitrary values, constant,
// scalar and mask against the references.
func FuzzSIMDKernels(f *testing.F) {
	seed := make([]byte, 8*70)
	for i := range seed {
		seed[i] = byte(i * 37)
	}
	f.Add(seed, int64(2), int64(20), uint64(0xaaaa5555f0f00ff0), false)
	f.Add(seed[:8*9], int64(math.MinInt64), int64(math.MaxInt64), uint64(math.MaxUint64), true)
	f.Add([]byte{}, int64(-1), int64(math.MinInt64), uint64(0), false)
	f.Fuzz(func(t *testing.T, data []byte, c, y int64, mask uint64, sub bool) {
		n := len(data) / 8
		x := make([]int64, n)
		for i := range x {
			x[i] = int64(binary.LittleEndian.Uint64(data[i*8:]))
		}
		ys := slices.Clone(x)
		slices.Reverse(ys)
		want, wantOver := refMulAdd(x, ys, c, sub)
		out := make([]int64, n)
		if over := mulConstAdd(x, ys, c, sub, out); over != wantOver || !slices.Equal(out, want) {
			t.Fatalf("x*%d±y (sub %v): overflow %v, %v; want %v, %v", c, sub, over, out, wantOver, want)
		}
		for _, op := range []CmpOp{Lt, Gt, Eq} {
			for _, invert := range []bool{false, true} {
				wantBits := refCmp(op, x, y, invert)
				got := make([]byte, len(wantBits))
				cmpVSInvert(op, x, y, invert, got)
				if n%8 != 0 {
					got[len(got)-1] &= byte(1)<<(n%8) - 1
				}
				if !slices.Equal(got, wantBits) {
					t.Fatalf("op %v y %d invert %v: got %08b, want %08b", op, y, invert, got, wantBits)
				}
			}
		}
		keep := make([]uint64, (n+63)/64)
		for w := range keep {
			keep[w] = bits.RotateLeft64(mask, w*7)
		}
		if n%64 != 0 {
			keep[len(keep)-1] &= 1<<(n%64) - 1
		}
		wantRows := refCompact(x, keep)
		got := make([]int64, len(wantRows)+64)
		compactInt64(x, keep, got)
		if !slices.Equal(got[:len(wantRows)], wantRows) {
			t.Fatalf("compact by %x: got %v, want %v", mask, got[:len(wantRows)], wantRows)
		}
	})
}
