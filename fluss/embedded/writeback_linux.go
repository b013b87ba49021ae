package embedded

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback starts the write-back of f's dirty pages in [off, off+n)
// without waiting for it (sync_file_range(2), SYNC_FILE_RANGE_WRITE): not
// durable, it only leaves less for a later fsync to write.
func startWriteback(f *os.File, off, n int64) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
	}); err != nil {
		return err
	}
	return serr
}

// copyRange copies n bytes of src at srcOff to dst at dstOff inside the
// kernel (copy_file_range(2): no trip through user memory), falling back
// to reads and writes where the kernel refuses.
func copyRange(dst, src *os.File, dstOff, srcOff, n int64) error {
	for n > 0 {
		m, err := unix.CopyFileRange(int(src.Fd()), &srcOff, int(dst.Fd()), &dstOff, int(min(n, 1<<30)), 0)
		if err != nil {
			return copyRangeRW(dst, src, dstOff, srcOff, n)
		}
		if m == 0 {
			return io.ErrUnexpectedEOF
		}
		n -= int64(m)
	}
	return nil
}
