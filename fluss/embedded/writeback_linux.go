package embedded

import (
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
