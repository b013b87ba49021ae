//go:build !amd64 || purego

package exec

// Without the AVX2 assembly (another architecture, or -tags purego) every
// row runs through the pure-Go loops; see simd_amd64.go.

func simdKernels() bool { return false }

func mulConstAddSIMD(x, y []int64, c, lo, hi int64, sub bool, out []int64) (int, bool) {
	return 0, false
}

func addSubInt64SIMD(a, b, out []int64, sub bool) (int, bool) { return 0, false }

func cmpInt64VSSIMD(op CmpOp, a []int64, y int64, flip byte, out []byte) int { return 0 }

func compactInt64SIMD(src []int64, keep []uint64, out []int64) (words, k int) { return 0, 0 }
