//go:build linux

package pgwire

import (
	"bytes"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"
)

// tcpPair returns both ends of a loopback TCP connection.
func tcpPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return client, server
}

// TestRawSock: the raw reads and writes move every byte both ways, a
// write larger than the socket buffers waits for the reader instead of
// failing or spinning, a read waits for data, read deadlines still end a
// read with a timeout (the idle timeouts and shutdown rely on it), and
// end of stream and a dead peer are errors.
func TestRawSock(t *testing.T) {
	client, server := tcpPair(t)
	s := newRawSock(server, rawConnOf(server), nil)

	// Larger than loopback's socket buffers: the write must wait.
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(client, int64(len(big))))
		got <- b
	}()
	if n, err := s.Write(big); n != len(big) || err != nil {
		t.Fatalf("Write: %d, %v; want %d, nil", n, err, len(big))
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("the client read %d bytes, not what was written", len(b))
	}

	// A read waits for data written later.
	go func() {
		time.Sleep(20 * time.Millisecond)
		_, _ = client.Write([]byte("hello"))
	}()
	buf := make([]byte, 16)
	n, err := io.ReadFull(s, buf[:5])
	if err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("Read: %q, %v", buf[:n], err)
	}

	// A read deadline ends a waiting read with a timeout.
	if err := server.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	var ne net.Error
	if _, err := s.Read(buf); !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Read past the deadline: %v, want a timeout", err)
	}
	_ = server.SetReadDeadline(time.Time{})

	// End of stream, then writes to the closed peer fail.
	client.Close()
	if _, err := s.Read(buf); err != io.EOF {
		t.Fatalf("Read after the peer closed: %v, want EOF", err)
	}
	var werr error
	for i := 0; i < 100 && werr == nil; i++ {
		_, werr = s.Write([]byte("x"))
		time.Sleep(time.Millisecond)
	}
	if !errors.Is(werr, syscall.EPIPE) && !errors.Is(werr, syscall.ECONNRESET) {
		t.Fatalf("Write to a closed peer: %v, want EPIPE or ECONNRESET", werr)
	}
}

// TestRawSockNoAllocs: a read or a write of a ready socket allocates
// nothing (a query does one of each), on the netpoller and in the blocking
// wait (blockwait_linux.go).
func TestRawSockNoAllocs(t *testing.T) {
	for _, blocking := range []bool{false, true} {
		client, server := tcpPair(t)
		s := newRawSock(server, rawConnOf(server), nil)
		if blocking && !s.enterBlock() {
			t.Fatal("enterBlock failed")
		}
		rawSockRoundTripAllocs(t, client, s)
	}
}

func rawSockRoundTripAllocs(t *testing.T, client net.Conn, s *rawSock) {
	msg := []byte("ping")
	buf := make([]byte, 4)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := client.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(s, buf); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(client, buf); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per round trip, want 0", allocs)
	}
}
