package pgwire

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// AuthMethod is how clients prove who they are, named as in pg_hba.conf.
type AuthMethod string

// The authentication methods.
const (
	// AuthTrust lets anyone in as any user: for loopback only.
	AuthTrust AuthMethod = "trust"
	// AuthPassword asks for the password in clear text (use with TLS).
	AuthPassword AuthMethod = "password"
	// AuthMD5 uses the md5 challenge for users whose md5 hash is stored and
	// SCRAM-SHA-256 for the others, as PostgreSQL does.
	AuthMD5 AuthMethod = "md5"
	// AuthSCRAM is SCRAM-SHA-256 (RFC 7677), PostgreSQL's default.
	AuthSCRAM AuthMethod = "scram-sha-256"
)

// ParseAuthMethod checks a method name.
func ParseAuthMethod(s string) (AuthMethod, bool) {
	switch m := AuthMethod(strings.ToLower(s)); m {
	case AuthTrust, AuthPassword, AuthMD5, AuthSCRAM:
		return m, true
	}
	return "", false
}

// AuthConfig configures authentication. The zero value is trust.
type AuthConfig struct {
	// Method is the authentication method; "" means trust.
	Method AuthMethod
	// Users holds the verifiers; required unless Method is trust.
	Users *Users
	// FailureDelay is how long a failed authentication waits before its
	// error, to slow down password guessing (PostgreSQL's auth_delay). 0
	// means 200ms; a negative value means none (tests).
	FailureDelay time.Duration
}

// RequiresPassword reports whether the method checks a password.
func (a AuthConfig) RequiresPassword() bool { return a.Method != "" && a.Method != AuthTrust }

// maxAuthMessage bounds a password / SASL message during startup.
const maxAuthMessage = 10000

// authenticate runs the configured exchange for user; on failure it has
// sent the FATAL error and the connection must close.
func (c *conn) authenticate(user string) bool {
	auth := c.srv.cfg.Auth
	if !auth.RequiresPassword() {
		return true
	}
	var entry UserEntry
	known := false
	if auth.Users != nil {
		entry, known = auth.Users.Users[user]
	}
	var ok bool
	var err *sqlerr.Error
	switch {
	case auth.Method == AuthPassword:
		ok, err = c.authCleartext(user, entry, known)
	case auth.Method == AuthMD5 && (!known || entry.MD5 != ""):
		ok, err = c.authMD5(user, entry, known)
	default:
		ok, err = c.authSCRAM(user, entry, known)
	}
	if err == nil && ok {
		return true
	}
	if err == nil {
		delay := auth.FailureDelay
		if delay == 0 {
			delay = 200 * time.Millisecond
		}
		if delay > 0 {
			time.Sleep(delay)
		}
		c.logger.Info("pgwire: password authentication failed", "user", user)
		err = sqlerr.New(sqlerr.InvalidPassword, "password authentication failed for user \"%s\"", user)
	}
	if err.Code != "" {
		err.Severity = "FATAL"
		c.fatal(err)
	}
	return false
}

// errClientGone marks an exchange the client abandoned (psql closes the
// connection when asked for a password it has not got yet, then prompts and
// reconnects): nothing is sent.
var errClientGone = &sqlerr.Error{}

// readAuthMessage reads the client's next startup-phase message, which must
// be a password / SASL message ('p').
func (c *conn) readAuthMessage() ([]byte, *sqlerr.Error) {
	if err := c.flush(); err != nil {
		return nil, errClientGone
	}
	var hdr [5]byte
	if _, err := io.ReadFull(c.br, hdr[:]); err != nil {
		return nil, errClientGone
	}
	if hdr[0] != 'p' {
		return nil, sqlerr.New(sqlerr.ProtocolViolation, "expected password response, got message type %d", hdr[0])
	}
	n := int64(int32(binary.BigEndian.Uint32(hdr[1:])))
	if n < 4 || n-4 > maxAuthMessage {
		return nil, sqlerr.New(sqlerr.ProtocolViolation, "invalid password packet size")
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(c.br, body); err != nil {
		return nil, errClientGone
	}
	return body, nil
}

// mockVerifier stands in for an unknown user so that the exchange looks
// the same as for a known one (PostgreSQL's scram_mock_salt): its salt is
// derived from the user name with a per-server secret.
func (c *conn) mockVerifier(user string) *scramVerifier {
	salt := hmacSHA256(c.srv.mockKey[:], []byte(user))[:16]
	return &scramVerifier{iterations: scramIterations, salt: salt, storedKey: make([]byte, sha256.Size), serverKey: make([]byte, sha256.Size)}
}

func (c *conn) verifierOf(user string, entry UserEntry, known bool) (*scramVerifier, bool) {
	if known {
		if v, err := parseSCRAMVerifier(entry.SCRAM); err == nil {
			return v, true
		}
	}
	return c.mockVerifier(user), false
}

func (c *conn) authCleartext(user string, entry UserEntry, known bool) (bool, *sqlerr.Error) {
	c.send(&pgproto3.AuthenticationCleartextPassword{})
	body, err := c.readAuthMessage()
	if err != nil {
		return false, err
	}
	pw, perr := cString(body)
	if perr != nil {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid password packet")
	}
	v, real := c.verifierOf(user, entry, known)
	ok := v.checkPassword(pw) // run even for unknown users: same timing
	return ok && real, nil
}

func (c *conn) authMD5(user string, entry UserEntry, known bool) (bool, *sqlerr.Error) {
	var salt [4]byte
	_, _ = rand.Read(salt[:])
	c.send(&pgproto3.AuthenticationMD5Password{Salt: salt})
	body, err := c.readAuthMessage()
	if err != nil {
		return false, err
	}
	got, perr := cString(body)
	if perr != nil {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid password packet")
	}
	secret := entry.MD5
	if !known || secret == "" {
		secret = "md5" + strings.Repeat("0", 32)
	}
	sum := md5.Sum(append([]byte(strings.TrimPrefix(secret, "md5")), salt[:]...))
	want := "md5" + hex.EncodeToString(sum[:])
	ok := subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
	return ok && known && entry.MD5 != "", nil
}

// authSCRAM runs SCRAM-SHA-256 (RFC 5802 / 7677) without channel binding.
func (c *conn) authSCRAM(user string, entry UserEntry, known bool) (bool, *sqlerr.Error) {
	malformed := func(what string) *sqlerr.Error {
		return sqlerr.New(sqlerr.ProtocolViolation, "malformed SCRAM message (%s)", what)
	}
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	body, err := c.readAuthMessage()
	if err != nil {
		return false, err
	}
	var first pgproto3.SASLInitialResponse
	if first.Decode(body) != nil {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid SASL initial response")
	}
	if first.AuthMechanism != "SCRAM-SHA-256" {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	msg := string(first.Data)
	// gs2-header: channel-binding flag, authzid, then client-first-bare.
	var gs2 string
	switch {
	case strings.HasPrefix(msg, "n,"), strings.HasPrefix(msg, "y,"):
	case strings.HasPrefix(msg, "p="):
		return false, sqlerr.New(sqlerr.ProtocolViolation, "channel binding is not supported by this server")
	default:
		return false, malformed("unexpected channel-binding flag")
	}
	rest := msg[2:]
	if !strings.HasPrefix(rest, ",") {
		return false, malformed("authorization identities are not supported")
	}
	gs2 = msg[:3]
	clientFirstBare := rest[1:]
	var clientNonce string
	for _, attr := range strings.Split(clientFirstBare, ",") {
		switch {
		case strings.HasPrefix(attr, "r="):
			clientNonce = attr[2:]
		case strings.HasPrefix(attr, "n="):
		default:
			return false, malformed("unexpected attribute")
		}
	}
	if clientNonce == "" || strings.ContainsAny(clientNonce, ",") {
		return false, malformed("missing nonce")
	}
	v, real := c.verifierOf(user, entry, known)
	var nb [18]byte
	_, _ = rand.Read(nb[:])
	nonce := clientNonce + base64.StdEncoding.EncodeToString(nb[:])
	serverFirst := "r=" + nonce + ",s=" + base64.StdEncoding.EncodeToString(v.salt) + ",i=" + strconv.Itoa(v.iterations)
	c.send(&pgproto3.AuthenticationSASLContinue{Data: []byte(serverFirst)})

	body, err = c.readAuthMessage()
	if err != nil {
		return false, err
	}
	var resp pgproto3.SASLResponse
	if resp.Decode(body) != nil {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid SASL response")
	}
	final := string(resp.Data)
	at := strings.LastIndex(final, ",p=")
	if at < 0 {
		return false, malformed("missing proof")
	}
	withoutProof := final[:at]
	proof, derr := base64.StdEncoding.DecodeString(final[at+3:])
	if derr != nil || len(proof) != sha256.Size {
		return false, malformed("invalid proof")
	}
	var gotBinding, gotNonce string
	for _, attr := range strings.Split(withoutProof, ",") {
		switch {
		case strings.HasPrefix(attr, "c="):
			gotBinding = attr[2:]
		case strings.HasPrefix(attr, "r="):
			gotNonce = attr[2:]
		default:
			return false, malformed("unexpected attribute")
		}
	}
	if gotBinding != base64.StdEncoding.EncodeToString([]byte(gs2)) {
		return false, malformed("unexpected channel binding")
	}
	if gotNonce != nonce {
		return false, malformed("nonce does not match")
	}
	authMessage := []byte(clientFirstBare + "," + serverFirst + "," + withoutProof)
	clientSig := hmacSHA256(v.storedKey, authMessage)
	clientKey := make([]byte, sha256.Size)
	for i := range clientKey {
		clientKey[i] = proof[i] ^ clientSig[i]
	}
	sum := sha256.Sum256(clientKey)
	if subtle.ConstantTimeCompare(sum[:], v.storedKey) != 1 || !real {
		return false, nil
	}
	serverSig := hmacSHA256(v.serverKey, authMessage)
	c.send(&pgproto3.AuthenticationSASLFinal{Data: []byte("v=" + base64.StdEncoding.EncodeToString(serverSig))})
	return true, nil
}
