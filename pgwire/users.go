package pgwire

import (
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/internal/atomicfile"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The users file: who may log in and the secrets that prove it. It holds
// SCRAM-SHA-256 verifiers in PostgreSQL's rolpassword format
// ("SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey", base64), never a
// password; an md5 hash ("md5" + md5(password + user)) is stored only when
// asked for, because it is password-equivalent for md5 authentication. The
// file is JSON, written with mode 0600, and refused when others can read it.
// The server imports it into the metadata store (package meta), where
// CREATE ROLE keeps its roles too, and looks users up there (UserLookup):
//
//	{"users": {"alice": {"scram": "SCRAM-SHA-256$4096:...$...:..."}}}

// scramIterations is PostgreSQL's default scram_iterations.
const scramIterations = 4096

// UserEntry is one user's secrets.
type UserEntry struct {
	SCRAM string `json:"scram"`
	MD5   string `json:"md5,omitempty"`
	// Superuser bypasses table privileges (GRANT/REVOKE) and may create
	// and drop tables.
	Superuser bool `json:"superuser,omitempty"`
	// NoLogin: the role may not log in (CREATE ROLE without LOGIN).
	NoLogin bool `json:"nologin,omitempty"`
}

// NotPermittedToLogIn is the FATAL error of a login as a role without
// LOGIN, whatever the authentication: PostgreSQL checks rolcanlogin when
// it starts the session (InitializeSessionUserId), after the password.
func NotPermittedToLogIn(user string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidAuthorizationSpec, "role \"%s\" is not permitted to log in", user)
}

// Users is the content of a users file. It is read-only once handed to a
// Server.
type Users struct {
	Users map[string]UserEntry `json:"users"`
}

// UserLookup finds a user's secrets: a *Users, or the metadata store
// (package meta), which CREATE ROLE changes.
type UserLookup interface {
	LookupUser(ctx context.Context, name string) (UserEntry, bool)
}

// LookupUser implements UserLookup.
func (u *Users) LookupUser(_ context.Context, name string) (UserEntry, bool) {
	e, ok := u.Users[name]
	return e, ok
}

// LoadUsers reads a users file.
func LoadUsers(path string) (*Users, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("users file %s has permissions %#o; it must not be readable by others (chmod 600 %s)", path, st.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var u Users
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, fmt.Errorf("users file %s: %v", path, err)
	}
	if u.Users == nil {
		u.Users = map[string]UserEntry{}
	}
	for name, e := range u.Users {
		if _, err := parseSCRAMVerifier(e.SCRAM); err != nil {
			return nil, fmt.Errorf("users file %s: user %q: %v", path, name, err)
		}
	}
	return &u, nil
}

// Save writes the file atomically with mode 0600.
func (u *Users) Save(path string) error {
	b, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// Names lists the users, sorted.
func (u *Users) Names() []string {
	names := make([]string, 0, len(u.Users))
	for n := range u.Users {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SetPassword stores user's SCRAM verifier for password (and the md5 hash
// when withMD5).
func (u *Users) SetPassword(user, password string, withMD5 bool) error {
	if user == "" {
		return errors.New("empty user name")
	}
	if password == "" {
		return errors.New("empty password")
	}
	v, err := NewSCRAMVerifier(password)
	if err != nil {
		return err
	}
	e := UserEntry{SCRAM: v}
	if withMD5 {
		e.MD5 = md5Secret(user, password)
	}
	if u.Users == nil {
		u.Users = map[string]UserEntry{}
	}
	u.Users[user] = e
	return nil
}

func md5Secret(user, password string) string {
	sum := md5.Sum([]byte(password + user))
	return "md5" + hex.EncodeToString(sum[:])
}

// NewSCRAMVerifier returns a SCRAM-SHA-256 verifier for password with a
// random salt, in PostgreSQL's format.
func NewSCRAMVerifier(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	storedKey, serverKey, err := scramKeys(password, salt, scramIterations)
	if err != nil {
		return "", err
	}
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", scramIterations, b64(salt), b64(storedKey), b64(serverKey)), nil
}

// scramKeys derives StoredKey and ServerKey (RFC 5802).
func scramKeys(password string, salt []byte, iter int) (storedKey, serverKey []byte, err error) {
	salted, err := pbkdf2.Key(sha256.New, password, salt, iter, sha256.Size)
	if err != nil {
		return nil, nil, err
	}
	clientKey := hmacSHA256(salted, []byte("Client Key"))
	sk := sha256.Sum256(clientKey)
	return sk[:], hmacSHA256(salted, []byte("Server Key")), nil
}

func hmacSHA256(key, msg []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(msg)
	return h.Sum(nil)
}

// scramVerifier is a parsed SCRAM-SHA-256 verifier.
type scramVerifier struct {
	iterations int
	salt       []byte
	storedKey  []byte
	serverKey  []byte
}

func parseSCRAMVerifier(s string) (*scramVerifier, error) {
	bad := errors.New("not a SCRAM-SHA-256 verifier")
	rest, ok := strings.CutPrefix(s, "SCRAM-SHA-256$")
	if !ok {
		return nil, bad
	}
	iterSalt, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return nil, bad
	}
	iterText, saltText, ok1 := strings.Cut(iterSalt, ":")
	storedText, serverText, ok2 := strings.Cut(keys, ":")
	if !ok1 || !ok2 {
		return nil, bad
	}
	iter, err := strconv.Atoi(iterText)
	if err != nil || iter < 1 || iter > 1<<24 {
		return nil, bad
	}
	v := &scramVerifier{iterations: iter}
	dec := base64.StdEncoding.DecodeString
	if v.salt, err = dec(saltText); err != nil || len(v.salt) == 0 {
		return nil, bad
	}
	if v.storedKey, err = dec(storedText); err != nil || len(v.storedKey) != sha256.Size {
		return nil, bad
	}
	if v.serverKey, err = dec(serverText); err != nil || len(v.serverKey) != sha256.Size {
		return nil, bad
	}
	return v, nil
}

// checkPassword reports whether password matches the verifier, in constant
// time in the comparison.
func (v *scramVerifier) checkPassword(password string) bool {
	stored, _, err := scramKeys(password, v.salt, v.iterations)
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare(stored, v.storedKey) == 1
}
