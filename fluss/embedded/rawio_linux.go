//go:build linux && !race

package embedded

import (
	"os"
	"syscall"
	"unsafe"
)

// Raw system calls for the commit path. A system call made through os.File
// or package syscall enters the runtime's syscall bookkeeping
// (entersyscall), which wakes the runtime's monitor thread (sysmon) when
// the process had gone idle, as it has between the round trips of one
// client; sysmon then polls every 20 µs until the process idles again. A
// raw call skips that; its goroutine keeps its P while the kernel works,
// which is why only short calls, or calls made when nothing else waits to
// run, are made raw. Under the race detector everything goes through
// os.File (rawio_other.go).

// rawCalls: filledWAL may make its write and sync raw.
const rawCalls = true

// writeAt writes p at off: a small write (a commit's few records) is one
// raw pwrite(2), which copies into the page cache and returns; a large one
// goes through os.File, so that the scheduler can run other goroutines if
// the kernel makes it wait (dirty-page throttling under a big load). The
// committer alone writes a bucket log, so its descriptor is not closed
// under us.
func writeAt(f *os.File, p []byte, off int64) error {
	if len(p) > rawWriteMax { // fsys.go
		_, err := f.WriteAt(p, off)
		return err
	}
	fd := f.Fd()
	for len(p) > 0 {
		n, _, e := syscall.RawSyscall6(syscall.SYS_PWRITE64, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), uintptr(off), 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return &os.PathError{Op: "write", Path: f.Name(), Err: e}
		case n == 0:
			return &os.PathError{Op: "write", Path: f.Name(), Err: syscall.EIO}
		}
		p, off = p[n:], off+int64(n)
	}
	return nil
}

// rawWrite is write(2) of all of p at the descriptor's offset.
func rawWrite(fd uintptr, name string, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return n, &os.PathError{Op: "write", Path: name, Err: e}
		case m == 0:
			return n, &os.PathError{Op: "write", Path: name, Err: syscall.EIO}
		}
		n += int(m)
	}
	return n, nil
}

// fdatasync is f's fdatasync(2), a raw call (the commit log's, made for a
// lone group with nothing queued: commitlog.go).
func fdatasync(f *os.File) error { return rawFdatasync(f.Fd(), f.Name()) }

// ordinaryFdatasync is f's fdatasync(2) through the runtime's syscall path
// (entersyscall): the goroutine's P goes to the other goroutines while the
// kernel waits for the disk. The commit log's sync for a group of several
// writers, whose connections' goroutines would otherwise wait out the
// sync behind a P held in a raw call.
func ordinaryFdatasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		switch err {
		case nil:
			return nil
		case syscall.EINTR:
			continue
		default:
			return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
		}
	}
}

// rawFdatasync is fdatasync(2).
func rawFdatasync(fd uintptr, name string) error {
	for {
		_, _, e := syscall.RawSyscall(syscall.SYS_FDATASYNC, fd, 0, 0)
		switch e {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		default:
			return &os.PathError{Op: "fdatasync", Path: name, Err: e}
		}
	}
}
