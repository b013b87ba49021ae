//go:build linux && race

package pgwire

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Under the race detector the socket goes through syscall.Read and
// syscall.Write: they tell the detector that what a goroutine did before
// writing to a socket happens before what another does after reading from
// one (the runtime's I/O synchronisation), which raw system calls would
// not, and tests that check a server's log after reading its reply would
// report false races.

func sysRead(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	return uintptr(max(n, 0)), errnoOf(err)
}

func sysWrite(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, err := syscall.Write(int(fd), p)
	return uintptr(max(n, 0)), errnoOf(err)
}

// sysSend: a write of nothing through syscall.Write first, for the
// detector's release that syscall.Write makes before every write (sendmsg
// makes none); it sends nothing.
func sysSend(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	_, _ = syscall.Write(int(fd), p[:0])
	n, err := unix.SendmsgN(int(fd), p, nil, nil, unix.MSG_DONTWAIT|unix.MSG_NOSIGNAL)
	return uintptr(max(n, 0)), errnoOf(err)
}

func errnoOf(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EIO
}
