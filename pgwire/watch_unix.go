//go:build linux || darwin || freebsd

package pgwire

import "syscall"

// canPeek: the platform has recv(MSG_PEEK | MSG_DONTWAIT).
const canPeek = true

// peek reads one byte of fd without consuming it or waiting.
func peek(fd uintptr) (int, error) {
	var b [1]byte
	n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	return n, err
}
