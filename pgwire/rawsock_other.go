//go:build !linux

package pgwire

import (
	"net"
	"sync/atomic"
	"syscall"
	"time"
)

// rawSock is linux-only (rawsock_linux.go, blockwait_linux.go); elsewhere
// the socket is read and written through net.Conn and newRawSock returns
// nil.
type rawSock struct {
	shared atomic.Bool
}

func newRawSock(net.Conn, syscall.RawConn, *Server) *rawSock { return nil }

func (*rawSock) Read([]byte) (int, error)   { panic("pgwire: rawSock unavailable") }
func (*rawSock) Write([]byte) (int, error)  { panic("pgwire: rawSock unavailable") }
func (*rawSock) settle()                    {}
func (*rawSock) leaveBlock()                {}
func (*rawSock) SetReadDeadline(time.Time)  {}
func (*rawSock) SetWriteDeadline(time.Time) {}
func (*rawSock) interrupt()                 {}
func (*rawSock) abort()                     {}
func (*rawSock) close()                     {}
func (*rawSock) peerGone() bool             { return false }
