package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/internal/testtls"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func testUsers(t *testing.T) *Users {
	t.Helper()
	u := &Users{}
	if err := u.SetPassword("alice", "s3cret pässword", false); err != nil {
		t.Fatal(err)
	}
	if err := u.SetPassword("bob", "bobpw", true); err != nil { // md5 hash too
		t.Fatal(err)
	}
	return u
}

func connectAs(ctx context.Context, addr, user, password, sslmode string) error {
	cfg, err := pgx.ParseConfig(fmt.Sprintf("postgres://%s@%s/db?sslmode=%s", user, addr, sslmode))
	if err != nil {
		return err
	}
	cfg.Password = password
	cfg.TLSConfig = nil
	if sslmode == "require" {
		cfg.TLSConfig = &tls.Config{InsecureSkipVerify: true}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var one int
	return conn.QueryRow(ctx, "SELECT series 1").Scan(&one)
}

func TestAuthentication(t *testing.T) {
	users := testUsers(t)
	tests := []struct {
		method         AuthMethod
		user, password string
		wantCode       string // "" = success
	}{
		{AuthTrust, "anyone", "", ""},
		{AuthSCRAM, "alice", "s3cret pässword", ""},
		{AuthSCRAM, "alice", "wrong", "28P01"},
		{AuthSCRAM, "nobody", "x", "28P01"},
		{AuthSCRAM, "bob", "bobpw", ""},
		{AuthPassword, "alice", "s3cret pässword", ""},
		{AuthPassword, "alice", "wrong", "28P01"},
		{AuthPassword, "nobody", "x", "28P01"},
		{AuthMD5, "bob", "bobpw", ""},             // md5 hash stored: md5 challenge
		{AuthMD5, "bob", "wrong", "28P01"},        //
		{AuthMD5, "alice", "s3cret pässword", ""}, // SCRAM only: falls back to SCRAM
		{AuthMD5, "alice", "wrong", "28P01"},
		{AuthMD5, "nobody", "x", "28P01"},
	}
	servers := map[AuthMethod]*testServer{}
	for _, tt := range tests {
		ts := servers[tt.method]
		if ts == nil {
			m := tt.method
			ts = startServer(t, func(c *Config) { c.Auth = AuthConfig{Method: m, Users: users, FailureDelay: -1} })
			servers[m] = ts
		}
		err := connectAs(testCtx(t), ts.addr, tt.user, tt.password, "disable")
		switch {
		case tt.wantCode == "" && err != nil:
			t.Errorf("%s %s: %v", tt.method, tt.user, err)
		case tt.wantCode != "":
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != tt.wantCode || pe.Severity != "FATAL" ||
				pe.Message != fmt.Sprintf("password authentication failed for user \"%s\"", tt.user) {
				t.Errorf("%s %s/%s: got %v, want FATAL %s", tt.method, tt.user, tt.password, err, tt.wantCode)
			}
		}
	}
}

func TestAuthFailureDelay(t *testing.T) {
	ts := startServer(t, func(c *Config) {
		c.Auth = AuthConfig{Method: AuthSCRAM, Users: testUsers(t), FailureDelay: 300 * time.Millisecond}
	})
	start := time.Now()
	if err := connectAs(testCtx(t), ts.addr, "alice", "wrong", "disable"); err == nil {
		t.Fatal("wrong password accepted")
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("failure answered after %v, before the delay", d)
	}
}

func TestTLS(t *testing.T) {
	cfg := testtls.SelfSigned(t)
	ts := startServer(t, func(c *Config) {
		c.TLS = cfg
		c.RequireTLS = true
		c.Auth = AuthConfig{Method: AuthPassword, Users: testUsers(t), FailureDelay: -1}
	})
	if err := connectAs(testCtx(t), ts.addr, "alice", "s3cret pässword", "require"); err != nil {
		t.Fatalf("TLS connection: %v", err)
	}
	err := connectAs(testCtx(t), ts.addr, "alice", "s3cret pässword", "disable")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28000" {
		t.Fatalf("plaintext with RequireTLS: got %v", err)
	}
	// Without TLS configured, SSLRequest is answered 'N' and sslmode=require fails.
	plain := startServer(t, nil)
	if err := connectAs(testCtx(t), plain.addr, "x", "", "require"); err == nil {
		t.Fatal("sslmode=require succeeded against a server without TLS")
	}
}

func TestUsersFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "users.json")
	u := testUsers(t)
	if err := u.Save(path); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("users file mode %v, %v", st.Mode(), err)
	}
	got, err := LoadUsers(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Users) != 2 || got.Users["alice"].MD5 != "" || got.Users["bob"].MD5 == "" {
		t.Fatalf("loaded %+v", got.Users)
	}
	v, err := parseSCRAMVerifier(got.Users["alice"].SCRAM)
	if err != nil || !v.checkPassword("s3cret pässword") || v.checkPassword("other") {
		t.Fatalf("verifier %v %v", v, err)
	}
	b, _ := os.ReadFile(path)
	for _, secret := range []string{"s3cret", "bobpw"} {
		if strings.Contains(string(b), secret) {
			t.Fatalf("users file contains the password %q", secret)
		}
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadUsers(path); err == nil {
		t.Fatal("a world-readable users file was accepted")
	}
	if err := os.WriteFile(path, []byte(`{"users":{"x":{"scram":"plaintext"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadUsers(path); err == nil {
		t.Fatal("a users file with a bad verifier was accepted")
	}
}

// A NOLOGIN role is refused with 28000 once its password is proven, as
// PostgreSQL checks rolcanlogin after authentication; with a wrong
// password it fails as any other user (no hint that it exists).
func TestAuthNoLogin(t *testing.T) {
	users := testUsers(t)
	e := users.Users["alice"]
	e.NoLogin = true
	users.Users["alice"] = e
	ts := startServer(t, func(c *Config) { c.Auth = AuthConfig{Method: AuthSCRAM, Users: users, FailureDelay: -1} })
	for _, c := range []struct{ password, code, msg string }{
		{"s3cret pässword", "28000", `role "alice" is not permitted to log in`},
		{"wrong", "28P01", `password authentication failed for user "alice"`},
	} {
		err := connectAs(testCtx(t), ts.addr, "alice", c.password, "disable")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != c.code || pe.Message != c.msg || pe.Severity != "FATAL" {
			t.Errorf("password %q: %v, want FATAL %s %s", c.password, err, c.code, c.msg)
		}
	}
}
