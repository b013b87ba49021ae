package pgwire

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestProtocolErrorFailsTransaction: an error pgwire raises itself (here a
// Bind of a missing statement) fails an open transaction block, as any
// error does in PostgreSQL; outside a block the status stays I.
func TestProtocolErrorFailsTransaction(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	for _, tc := range []struct {
		begin bool
		want  string
	}{{false, "ReadyForQuery I"}, {true, "ReadyForQuery E"}} {
		if tc.begin {
			rc.send(&pgproto3.Query{String: "BEGIN"})
			rc.until("ReadyForQuery")
		}
		rc.send(&pgproto3.Bind{PreparedStatement: "missing"}, &pgproto3.Execute{}, &pgproto3.Sync{})
		got := rc.until("ReadyForQuery")
		if len(got) != 2 || got[0] != "ErrorResponse ERROR 26000" || got[1] != tc.want {
			t.Errorf("begin=%v: %v", tc.begin, got)
		}
	}
	rc.send(&pgproto3.Query{String: "COMMIT"})
	if got := rc.until("ReadyForQuery"); len(got) != 2 || got[0] != "CommandComplete ROLLBACK" || got[1] != "ReadyForQuery I" {
		t.Errorf("COMMIT of the failed block: %v", got)
	}
}

func TestProtocolOptions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"user\x00u\x00_pq_.b\x00\x00_pq_.a\x001\x00\x00", "_pq_.b,_pq_.a"},
		{"user\x00u\x00\x00", ""},
		{"_pq_.x\x00", ""}, // no value: malformed, parseStartupParams refuses it
	} {
		if got := strings.Join(protocolOptions([]byte(tc.in)), ","); got != tc.want {
			t.Errorf("protocolOptions(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSCRAMMalformed: malformed SCRAM messages get PostgreSQL 15's errors
// (tests/protocol/testdata/scram.txt checks them against PostgreSQL).
func TestSCRAMMalformed(t *testing.T) {
	users := &Users{}
	if err := users.SetPassword("alice", "pw", false); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, func(c *Config) { c.Auth = AuthConfig{Method: AuthSCRAM, Users: users, FailureDelay: -1} })
	const nonce = "rOprNGfwEbeRWgbNEkqO"
	for _, tc := range []struct {
		mech, first, final string
		code, msg, detail  string
	}{
		{"SCRAM-SHA-1", "n,,n=,r=" + nonce, "", "08P01", "client selected an invalid SASL authentication mechanism", ""},
		{"SCRAM-SHA-256", "p=tls-server-end-point,,n=,r=" + nonce, "", "08P01", "malformed SCRAM message", "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data."},
		{"SCRAM-SHA-256", "x,,n=,r=" + nonce, "", "08P01", "malformed SCRAM message", `Unexpected channel-binding flag "'x'".`},
		{"SCRAM-SHA-256", "n;,n=,r=" + nonce, "", "08P01", "malformed SCRAM message", `Comma expected, but found character "';'".`},
		{"SCRAM-SHA-256", "n,a=bob,n=,r=" + nonce, "", "0A000", "client uses authorization identity, but it is not supported", ""},
		{"SCRAM-SHA-256", "n,,m=ext,n=,r=" + nonce, "", "0A000", "client requires an unsupported SCRAM extension", ""},
		{"SCRAM-SHA-256", "n,,r=" + nonce, "", "08P01", "malformed SCRAM message", `Expected attribute "n" but found "'r'".`},
		{"SCRAM-SHA-256", "n,,n=,r=a\x01b", "", "08P01", "non-printable characters in SCRAM nonce", ""},
		{"SCRAM-SHA-256", "n,,n=,r=" + nonce, "c=eSws,r=" + nonce, "08P01", "unexpected SCRAM channel-binding attribute in client-final-message", ""},
		{"SCRAM-SHA-256", "n,,n=,r=" + nonce, "c=biws,r=" + nonce, "08P01", "malformed SCRAM message", "Attribute expected, but found end of string."},
		{"SCRAM-SHA-256", "n,,n=,r=" + nonce, "c=biws,r=" + nonce + ",p=AAAA", "08P01", "malformed SCRAM message", "Malformed proof in client-final-message."},
		{"SCRAM-SHA-256", "n,,n=,r=" + nonce, "c=biws,r=" + nonce + "x,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", "08P01", "invalid SCRAM response", "Nonce does not match."},
		{"SCRAM-SHA-256", "n,,n=,r=" + nonce, "c=biws,r=" + nonce + "x,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=,z", "08P01", "malformed SCRAM message", "Garbage found at the end of client-final-message."},
	} {
		rc := dialRaw(t, ts.addr, "alice")
		if _, err := rc.fe.Receive(); err != nil { // AuthenticationSASL
			t.Fatal(err)
		}
		rc.send(&pgproto3.SASLInitialResponse{AuthMechanism: tc.mech, Data: []byte(tc.first)})
		if tc.final != "" {
			msg, err := rc.fe.Receive()
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := msg.(*pgproto3.AuthenticationSASLContinue); !ok {
				t.Fatalf("%q: got %#v, want AuthenticationSASLContinue", tc.first, msg)
			}
			rc.send(&pgproto3.SASLResponse{Data: []byte(tc.final)})
		}
		e := receiveError(t, rc)
		if e.Severity != "FATAL" || e.Code != tc.code || e.Message != tc.msg || e.Detail != tc.detail {
			t.Errorf("%q / %q: got %s %s %q %q", tc.first, tc.final, e.Severity, e.Code, e.Message, e.Detail)
		}
	}
}
