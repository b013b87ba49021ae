//go:build !linux

package embedded

import "os"

// startWriteback does nothing where sync_file_range(2) is missing: the
// commit's fsync writes everything.
func startWriteback(*os.File, int64, int64) error { return nil }

// copyRange copies n bytes of src at srcOff to dst at dstOff.
func copyRange(dst, src *os.File, dstOff, srcOff, n int64) error {
	return copyRangeRW(dst, src, dstOff, srcOff, n)
}
