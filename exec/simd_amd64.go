//go:build amd64 && !purego

package exec

import (
	"math/bits"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The AVX2 versions of the hottest bigint kernels (simd_amd64.s): the
// fused checked x*c ± y, checked column ± column, the comparison of a column with a scalar, and the
// compaction of a filtered column. Go's compiler does not vectorize, and
// its scalar loops stop at ~4 cycles a row (bench/LEDGER.md); these do 4
// rows an instruction. Each wrapper hands the assembly a prefix of whole
// iterations whose bounds it checked, and reports how much it did; the
// caller runs the rest (and every row on a CPU without AVX2, or when built
// with -tags purego or for another architecture: simd_other.go) through
// the pure-Go loop, which stays the reference the tests compare against.

// simdKernels says whether the assembly runs on this machine.
func simdKernels() bool { return cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT }

//go:noescape
func mulConstAddAVX2(x, y, out []int64, c, lo, hi, shift int64, sub, nt bool) (overflow bool)

//go:noescape
func addSubInt64AVX2(a, b, out []int64, sub bool) (overflow bool)

//go:noescape
func cmpInt64VSAVX2(a []int64, y int64, op int64, flip uint32, out []byte)

//go:noescape
func compactInt64AVX2(src []int64, keep []uint64, out []int64) (k int)

// mulConstAddSIMD computes out = x*c ± y for the leading rows of x (len(y)
// and len(out) at least len(x)) and returns how many it did, and whether x
// fell outside [lo, hi] or the sum overflowed in any of them. An output of
// ntStoreBytes or more is written with non-temporal stores (the Go loop
// does the rows before its first 32-byte boundary).
func mulConstAddSIMD(x, y []int64, c, lo, hi int64, sub bool, out []int64) (int, bool) {
	if len(x) < 8 || !simdKernels() {
		return 0, false
	}
	shift := int64(-1) // a power of two multiplies by a shift
	if c > 0 && c&(c-1) == 0 {
		shift = int64(bits.TrailingZeros64(uint64(c)))
	}
	head, nt := 0, false
	if addr := uintptr(unsafe.Pointer(unsafe.SliceData(out))); len(x)*8 >= ntStoreBytes && addr%8 == 0 {
		head, nt = int(-addr%32/8), true
	}
	overflow := head > 0 && mulConstAddGo(x[:head], y[:head], c, lo, hi, sub, out[:head])
	n := head + (len(x)-head)&^7
	if n == head {
		return head, overflow
	}
	return n, mulConstAddAVX2(x[head:n], y[head:n], out[head:n], c, lo, hi, shift, sub, nt) || overflow
}

// addSubInt64SIMD computes out = a ± b for the leading rows of a (a
// multiple of 8; len(b) and len(out) at least len(a)) and returns how many
// it did and whether any of them overflowed.
func addSubInt64SIMD(a, b, out []int64, sub bool) (int, bool) {
	n := len(a) &^ 7
	if n == 0 || !simdKernels() {
		return 0, false
	}
	return n, addSubInt64AVX2(a[:n], b[:n], out[:n], sub)
}

// cmpInt64VSSIMD writes the result bits of a[i] op y (op Lt, Gt or Eq),
// XORed with flip, for the leading rows of a (a multiple of 32) into out,
// eight rows a byte, and returns how many rows it did.
func cmpInt64VSSIMD(op CmpOp, a []int64, y int64, flip byte, out []byte) int {
	n := len(a) &^ 31
	if n == 0 || !simdKernels() {
		return 0
	}
	code := int64(0) // the assembly's: 0 <, 1 >, 2 =
	switch op {
	case Gt:
		code = 1
	case Eq:
		code = 2
	}
	f := uint32(flip) * 0x01010101
	cmpInt64VSAVX2(a[:n], y, code, f, out[:n/8])
	return n
}

// compactInt64SIMD stores the rows of src whose bit is set in keep at the
// start of out, for the whole 64-row words of src, and returns how many
// words it did and how many rows it stored. It does nothing when out has
// no room for the 3 lanes past the last kept row that it writes.
func compactInt64SIMD(src []int64, keep []uint64, out []int64) (words, k int) {
	words = min(len(src)/64, len(keep))
	if words == 0 || !simdKernels() {
		return 0, 0
	}
	count := 0
	for _, w := range keep[:words] {
		count += bits.OnesCount64(w)
	}
	if len(out) < count+4 {
		return 0, 0
	}
	return words, compactInt64AVX2(src[:words*64], keep[:words], out)
}
