package embedded

import (
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps n bytes of f from its start read-only (n may pass the end
// of the file), or returns nil when it cannot.
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

// retireMapping replaces the mapping b in place by read-only zero pages
// (logMaps says why it is not unmapped). Should that fail, the file stays
// mapped: better than a fault.
func retireMapping(b []byte) {
	_, _, _ = syscall.Syscall6(syscall.SYS_MMAP, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)),
		syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_FIXED, ^uintptr(0), 0)
}
