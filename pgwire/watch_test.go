package pgwire

import (
	"net"
	"testing"
	"time"
)

// TestPeerGone: the watcher's peek tells a live socket (with or without
// pending data) from one whose client closed, and consumes nothing.
func TestPeerGone(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	rc := rawConnOf(server)
	if rc == nil {
		t.Fatal("no raw socket under a TCP connection")
	}
	if peerGone(rc) {
		t.Error("idle live socket reported gone")
	}
	if _, err := client.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return !peerGone(rc) })
	if peerGone(rc) {
		t.Error("socket with pending data reported gone")
	}
	var b [1]byte
	if n, err := server.Read(b[:]); n != 1 || b[0] != 'x' || err != nil {
		t.Fatalf("the peek consumed data: read %d %q %v", n, b[:n], err)
	}
	client.Close()
	waitFor(t, func() bool { return peerGone(rc) })
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 5 s")
		}
	}
}

// TestRawConnOf: TLS and in-memory connections keep the reader goroutine.
func TestRawConnOf(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if rawConnOf(a) != nil {
		t.Error("a pipe has no socket to peek at")
	}
}
