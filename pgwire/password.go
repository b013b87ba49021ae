package pgwire

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// CheckPassword proves a password a client sent in clear, outside the
// PostgreSQL exchanges (Arrow Flight SQL's basic authentication, package
// flightsql), against the same users as a PostgreSQL connection: the user's
// SCRAM verifier, or its md5 hash when it has only that. It fails as
// authenticate does: after FailureDelay with 28P01 "password authentication
// failed for user", or 28000 for a role that may not log in. An unknown
// user is checked against a verifier that matches nothing, so that it
// takes as long as a known one. With trust every password passes.
func (a AuthConfig) CheckPassword(ctx context.Context, user, password string) *sqlerr.Error {
	if !a.RequiresPassword() {
		return nil
	}
	var entry UserEntry
	known := false
	if a.Users != nil {
		entry, known = a.Users.LookupUser(ctx, user)
	}
	ok := false
	if v, err := parseSCRAMVerifier(entry.SCRAM); known && err == nil {
		ok = v.checkPassword(password)
	} else if known && entry.MD5 != "" {
		want := md5Secret(user, password)
		ok = subtle.ConstantTimeCompare([]byte(want), []byte(entry.MD5)) == 1
	} else {
		nobody := &scramVerifier{iterations: scramIterations, salt: make([]byte, 16), storedKey: make([]byte, sha256.Size), serverKey: make([]byte, sha256.Size)}
		nobody.checkPassword(password) // the same work as for a known user
	}
	if ok && entry.NoLogin {
		return NotPermittedToLogIn(user)
	}
	if ok {
		return nil
	}
	delay := a.FailureDelay
	if delay == 0 {
		delay = 200 * time.Millisecond
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	return sqlerr.New(sqlerr.InvalidPassword, "password authentication failed for user \"%s\"", user)
}
