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

// sysSend is send(2) with MSG_DONTWAIT as a raw system call: a write that
// never waits on a socket in blocking mode (blockwait_linux.go), and no
// SIGPIPE for a peer gone; p is not empty.
func sysSend(fd uintptr, p []byte) (uintptr, syscall.Errno) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)),
		syscall.MSG_DONTWAIT|syscall.MSG_NOSIGNAL, 0, 0)
	return n, e
}
