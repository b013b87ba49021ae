package pgwire

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// FuzzStartup sends arbitrary bytes as a connection's first messages
// (startup packet, SSLRequest, CancelRequest, password and SASL messages) to
// servers under trust, SCRAM-SHA-256 and md5. Whatever they are, no
// goroutine may panic, and every answer must be well framed: the one-byte
// SSL/GSSENC answer, authentication requests, the session's startup
// messages, or an ErrorResponse whose SQLSTATE is a protocol (08xxx),
// authorization (28xxx) or feature (0Axxx) error. The seeds run in every
// `go test`; pgwire/testdata/fuzz/FuzzStartup holds more.
func FuzzStartup(f *testing.F) {
	enc := func(msgs ...pgproto3.FrontendMessage) []byte {
		var b []byte
		for _, m := range msgs {
			b, _ = m.Encode(b)
		}
		return b
	}
	startup := func(user string) *pgproto3.StartupMessage {
		return &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": user, "database": "db"}}
	}
	first := &pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("n,,n=,r=rOprNGfwEbeRWgbNEkqO")}
	f.Add(enc(startup("alice")))
	f.Add(enc(startup("alice"), first))
	f.Add(enc(startup("alice"), first, &pgproto3.SASLResponse{Data: []byte("c=biws,r=rOprNGfwEbeRWgbNEkqOxx,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")}))
	f.Add(enc(startup("alice"), &pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("p=x,a=b,m=1")}))
	f.Add(enc(startup("bob"), &pgproto3.PasswordMessage{Password: "md5000"}))
	f.Add(enc(&pgproto3.SSLRequest{}, startup("nobody")))
	f.Add(enc(&pgproto3.GSSEncRequest{}))
	f.Add(enc(&pgproto3.CancelRequest{ProcessID: 1, SecretKey: []byte{1, 2, 3, 4}}))
	f.Add(enc(&pgproto3.StartupMessage{ProtocolVersion: 196609, Parameters: map[string]string{"user": "alice", "_pq_.x": "y"}}))
	f.Add([]byte{0, 0, 0, 8, 0, 2, 0, 0})                 // protocol 2.0
	f.Add([]byte{0, 0, 0, 4})                             // length below the minimum
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff})                 // huge length
	f.Add([]byte{0, 0, 0, 12, 0, 3, 0, 0, 'u', 0, 'x'})   // missing terminator
	f.Add(append(enc(startup("alice")), 'p', 0, 0, 0, 3)) // SASL message with a bad length
	f.Add(append(enc(startup("alice")), 'Q', 0, 0, 0, 5, 0))

	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &logs}, &slog.HandlerOptions{Level: slog.LevelError}))
	users := &Users{}
	if err := users.SetPassword("alice", "pw", false); err != nil {
		f.Fatal(err)
	}
	if err := users.SetPassword("bob", "pw", true); err != nil {
		f.Fatal(err)
	}
	var addrs []string
	for _, auth := range []AuthConfig{
		{},
		{Method: AuthSCRAM, Users: users, FailureDelay: -1},
		{Method: AuthMD5, Users: users, FailureDelay: -1},
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			f.Fatal(err)
		}
		srv := NewServer(Config{Backend: newFakeBackend(), Logger: logger, Auth: auth})
		go func() { _ = srv.Serve(context.Background(), ln) }()
		f.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(ctx)
		})
		addrs = append(addrs, ln.Addr().String())
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		for _, addr := range addrs {
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
			_, _ = nc.Write(data)
			// The end of the input is the end of the client: the server
			// must notice and close rather than wait.
			_ = nc.(*net.TCPConn).CloseWrite()
			out, err := io.ReadAll(nc)
			_ = nc.Close()
			if err != nil && !isReset(err) {
				t.Fatalf("%s: reading the answer to %q: %v", addr, data, err)
			}
			if msg := checkStartupAnswer(out); msg != "" {
				t.Fatalf("%s: answer to %q: %s\n%x", addr, data, msg, out)
			}
		}
		if bytes.Contains(logs.Bytes(), []byte("panic")) {
			t.Fatalf("panic for %q:\n%s", data, logs.String())
		}
	})
}

func isReset(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

// checkStartupAnswer walks the bytes a server sent during startup and
// returns what is wrong with them, "" when nothing is.
func checkStartupAnswer(b []byte) string {
	ready := false // the session started: what follows is FuzzClientMessages' domain
	for len(b) > 0 {
		// The answer to SSLRequest / GSSENCRequest is one byte; sqlgate
		// sends no NoticeResponse, so a lone 'N' is that answer.
		if b[0] == 'N' && !ready {
			b = b[1:]
			continue
		}
		if len(b) < 5 {
			return "truncated message header"
		}
		typ, n := b[0], int(binary.BigEndian.Uint32(b[1:]))
		if n < 4 || len(b) < 1+n {
			return "bad message length"
		}
		body := b[5 : 1+n]
		b = b[1+n:]
		if ready {
			continue // framing only
		}
		switch typ {
		case 'Z':
			ready = true
		case 'R', 'S', 'K', 'v':
		case 'E':
			var e pgproto3.ErrorResponse
			if err := e.Decode(body); err != nil {
				return "undecodable ErrorResponse"
			}
			if e.Severity != "FATAL" {
				return "non-FATAL error during startup: " + e.Code
			}
			switch e.Code[:2] {
			case "08", "28", "0A":
			default:
				return "unexpected SQLSTATE " + e.Code + " " + e.Message
			}
		default:
			return "unexpected message type " + string(typ)
		}
	}
	return ""
}
