//go:build linux && !race

package pgwire

import (
	"syscall"
	"unsafe"
)

// sysRead is read(2) as a raw system call (see rawSock); p is not empty.
func sysRead(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return n, e
}

// sysWrite is write(2) as a raw system call; p is not empty.
func sysWrite(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return n, e
}
