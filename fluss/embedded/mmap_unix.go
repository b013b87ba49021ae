//go:build unix

package embedded

import (
	"os"
	"syscall"
)

// mapFile maps the first n bytes of f read-only, or returns nil when it
// cannot (the caller then reads with pread).
func mapFile(f *os.File, n int64) []byte {
	if n <= 0 || int64(int(n)) != n {
		return nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return b
}

func unmapFile(b []byte) {
	if b != nil {
		_ = syscall.Munmap(b)
	}
}
