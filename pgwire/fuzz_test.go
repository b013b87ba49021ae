package pgwire

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// FuzzClientMessages sends arbitrary bytes after a valid startup. Whatever
// they are, the server must neither crash nor wedge: afterwards a fresh
// connection still runs a query.
func FuzzClientMessages(f *testing.F) {
	seed := func(msgs ...pgproto3.FrontendMessage) []byte {
		var b []byte
		for _, m := range msgs {
			b, _ = m.Encode(b)
		}
		return b
	}
	f.Add(seed(&pgproto3.Query{String: "SELECT series 3"}))
	f.Add(seed(&pgproto3.Parse{Query: "ECHO int4"}, &pgproto3.Bind{Parameters: [][]byte{{1}}, ParameterFormatCodes: []int16{1}}, &pgproto3.Execute{}, &pgproto3.Sync{}))
	f.Add([]byte{'B', 0, 0, 0, 6, 0, 0})                     // truncated Bind
	f.Add([]byte{'P', 0, 0, 0, 4})                           // empty Parse
	f.Add([]byte{'Z', 0, 0, 0, 4})                           // unknown type
	f.Add([]byte{'Q', 0, 0, 0, 3})                           // length below 4
	f.Add([]byte{'E', 0, 0, 0, 9, 'x', 0, 0xff, 0xff, 0xff}) // Execute of a missing portal
	f.Add(seed(&pgproto3.Query{String: "PANIC"}, &pgproto3.Query{String: "SELECT series 1"}))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	srv := NewServer(Config{Backend: newFakeBackend(), MaxMessageSize: 1 << 16})
	go func() { _ = srv.Serve(context.Background(), ln) }()
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	addr := ln.Addr().String()

	f.Fuzz(func(t *testing.T, data []byte) {
		rc := dialRaw(t, addr, "tester")
		rc.until("ReadyForQuery")
		_, _ = rc.nc.Write(data)
		// Read whatever comes back until the server closes or goes quiet.
		_ = rc.nc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		_, _ = io.Copy(io.Discard, rc.nc)
		_ = rc.nc.Close()

		check := dialRaw(t, addr, "tester")
		check.until("ReadyForQuery")
		check.send(&pgproto3.Query{String: "SELECT series 1"})
		if got := check.until("ReadyForQuery"); len(got) != 4 || got[1] != "DataRow 1" {
			t.Fatalf("server unhealthy after %q: %v", data, got)
		}
	})
}
