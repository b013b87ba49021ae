//go:build !linux || race

package embedded

import "os"

// The commit path's system calls made the ordinary way (rawio_linux.go says
// why Linux makes some raw; the race detector does not see raw calls).
const rawCalls = false

func writeAt(f *os.File, p []byte, off int64) error {
	_, err := f.WriteAt(p, off)
	return err
}

func rawWrite(uintptr, string, []byte) (int, error) { panic("embedded: raw calls unavailable") }
func rawFdatasync(uintptr, string) error            { panic("embedded: raw calls unavailable") }

// fdatasync syncs f the ordinary way (fsync where fdatasync is not offered).
func fdatasync(f *os.File) error { return f.Sync() }

// ordinaryFdatasync is fdatasync: every call here is ordinary.
func ordinaryFdatasync(f *os.File) error { return f.Sync() }
