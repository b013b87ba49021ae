//go:build !linux

package pgwire

import "syscall"

// rawSock is linux-only (rawsock_linux.go); elsewhere the socket is read and
// written through net.Conn.
type rawSock struct{}

func newRawSock(syscall.RawConn) *rawSock { return nil }

func (*rawSock) Read([]byte) (int, error)  { panic("pgwire: rawSock unavailable") }
func (*rawSock) Write([]byte) (int, error) { panic("pgwire: rawSock unavailable") }
