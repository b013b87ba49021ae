package pgwire

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
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
	// Users holds the verifiers (a users file, or the metadata store);
	// required unless Method is trust.
	Users UserLookup
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
		entry, known = auth.Users.LookupUser(c.ctx, user)
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
	if err == nil && ok && entry.NoLogin {
		// PostgreSQL checks rolcanlogin once the password is proven.
		err = NotPermittedToLogIn(user)
	} else if err == nil && ok {
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
// Malformed messages get PostgreSQL 15's errors (auth-scram.c), in the same
// order of checks.
func (c *conn) authSCRAM(user string, entry UserEntry, known bool) (bool, *sqlerr.Error) {
	malformed := func(detail string, args ...any) *sqlerr.Error {
		return sqlerr.New(sqlerr.ProtocolViolation, "malformed SCRAM message").WithDetail(detail, args...)
	}
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	body, err := c.readAuthMessage()
	if err != nil {
		return false, err
	}
	// SASLInitialResponse, read field by field as PostgreSQL does: the
	// mechanism is checked before the rest is decoded.
	mech, perr := cString(body)
	if perr != nil {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid string in message")
	}
	if mech != "SCRAM-SHA-256" {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	data := body[len(mech)+1:]
	if len(data) < 4 {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "insufficient data left in message")
	}
	n := int32(binary.BigEndian.Uint32(data))
	data = data[4:]
	if n < -1 || int(n) > len(data) {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "insufficient data left in message")
	}
	if n >= 0 && int(n) != len(data) || n == -1 && len(data) != 0 {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid message format")
	}
	if n <= 0 {
		return false, malformed("The message is empty.")
	}
	msg := string(data)
	// gs2-header: channel-binding flag, ',', optional authzid, ','.
	at := func(i int) byte {
		if i < len(msg) {
			return msg[i]
		}
		return 0
	}
	switch at(0) {
	case 'n', 'y':
	case 'p':
		return false, malformed("The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes channel binding data.")
	default:
		return false, malformed("Unexpected channel-binding flag \"%s\".", sanitizeChar(at(0)))
	}
	if at(1) != ',' {
		return false, malformed("Comma expected, but found character \"%s\".", sanitizeChar(at(1)))
	}
	switch at(2) {
	case ',':
	case 'a':
		return false, sqlerr.New(sqlerr.FeatureNotSupported, "client uses authorization identity, but it is not supported")
	default:
		return false, malformed("Unexpected attribute \"%s\" in client-first-message.", sanitizeChar(at(2)))
	}
	gs2 := msg[:3]
	clientFirstBare := msg[3:]
	if strings.HasPrefix(clientFirstBare, "m") {
		return false, sqlerr.New(sqlerr.FeatureNotSupported, "client requires an unsupported SCRAM extension")
	}
	rest := clientFirstBare
	if _, e := readSCRAMAttr(&rest, 'n'); e != nil {
		return false, e
	}
	clientNonce, e := readSCRAMAttr(&rest, 'r')
	if e != nil {
		return false, e
	}
	for _, ch := range []byte(clientNonce) {
		if ch < 0x21 || ch > 0x7e {
			return false, sqlerr.New(sqlerr.ProtocolViolation, "non-printable characters in SCRAM nonce")
		}
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
	rest = final
	binding, e := readSCRAMAttr(&rest, 'c')
	if e != nil {
		return false, e
	}
	if binding != base64.StdEncoding.EncodeToString([]byte(gs2)) {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "unexpected SCRAM channel-binding attribute in client-final-message")
	}
	gotNonce, e := readSCRAMAttr(&rest, 'r')
	if e != nil {
		return false, e
	}
	// Extensions are ignored up to the proof.
	var proofText string
	withoutProof := ""
	for {
		begin := len(final) - len(rest)
		attr, value, e := readAnySCRAMAttr(&rest)
		if e != nil {
			return false, e
		}
		if attr == 'p' {
			withoutProof = final[:max(begin-1, 0)]
			proofText = value
			break
		}
	}
	proof, derr := base64.StdEncoding.DecodeString(proofText)
	if derr != nil || len(proof) != sha256.Size {
		return false, malformed("Malformed proof in client-final-message.")
	}
	if rest != "" {
		return false, malformed("Garbage found at the end of client-final-message.")
	}
	if gotNonce != nonce {
		return false, sqlerr.New(sqlerr.ProtocolViolation, "invalid SCRAM response").WithDetail("Nonce does not match.")
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

// sanitizeChar shows a byte in an error as PostgreSQL's sanitize_char does.
func sanitizeChar(c byte) string {
	if c >= 0x21 && c <= 0x7e {
		return "'" + string(rune(c)) + "'"
	}
	return fmt.Sprintf("0x%02x", c)
}

// readSCRAMAttr reads "attr=value" followed by ',' or the end from *s, as
// PostgreSQL's read_attr_value.
func readSCRAMAttr(s *string, attr byte) (string, *sqlerr.Error) {
	in := *s
	if len(in) == 0 || in[0] != attr {
		var found byte
		if len(in) > 0 {
			found = in[0]
		}
		return "", sqlerr.New(sqlerr.ProtocolViolation, "malformed SCRAM message").
			WithDetail("Expected attribute \"%c\" but found \"%s\".", attr, sanitizeChar(found))
	}
	if len(in) < 2 || in[1] != '=' {
		return "", sqlerr.New(sqlerr.ProtocolViolation, "malformed SCRAM message").
			WithDetail("Expected character \"=\" for attribute \"%c\".", attr)
	}
	value, rest, found := strings.Cut(in[2:], ",")
	if !found {
		rest = ""
	}
	*s = rest
	return value, nil
}

// readAnySCRAMAttr reads the next "x=value" attribute, as PostgreSQL's
// read_any_attr.
func readAnySCRAMAttr(s *string) (byte, string, *sqlerr.Error) {
	in := *s
	bad := func(detail string) (byte, string, *sqlerr.Error) {
		return 0, "", sqlerr.New(sqlerr.ProtocolViolation, "malformed SCRAM message").WithDetail("%s", detail)
	}
	if len(in) == 0 {
		return bad("Attribute expected, but found end of string.")
	}
	attr := in[0]
	if !(attr >= 'A' && attr <= 'Z') && !(attr >= 'a' && attr <= 'z') {
		return bad(fmt.Sprintf("Attribute expected, but found invalid character \"%s\".", sanitizeChar(attr)))
	}
	if len(in) < 2 || in[1] != '=' {
		return bad(fmt.Sprintf("Expected character \"=\" for attribute \"%c\".", attr))
	}
	value, rest, found := strings.Cut(in[2:], ",")
	if !found {
		rest = ""
	}
	*s = rest
	return attr, value, nil
}
