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

// reserveRegion reserves n bytes of address space as read-only zero pages
// (no memory is used until a file is mapped over it), or returns nil.
func reserveRegion(n int64) []byte {
	if n <= 0 || int64(int(n)) != n {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	return b
}

// mapFileInto maps f from its start read-only over b, which must lie in a
// region reserveRegion returned, reporting whether it could.
func mapFileInto(f *os.File, b []byte) bool {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	r, _, errno := syscall.Syscall6(syscall.SYS_MMAP, addr, uintptr(len(b)), syscall.PROT_READ,
		syscall.MAP_SHARED|syscall.MAP_FIXED, f.Fd(), 0)
	return errno == 0 && r == addr
}

// dropPages lets the kernel take the pages of b (a part of a read-only
// file mapping) out of the process: they stay in the page cache, and a
// later read of them faults them back in with the same bytes.
func dropPages(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
}
