package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
)

func TestUserCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if rc := userCommand([]string{"add", "--data", dir, "alice"}, strings.NewReader("pw1\n"), &out, &errOut); rc != 0 {
		t.Fatalf("add: rc %d: %s", rc, errOut.String())
	}
	if rc := userCommand([]string{"add", "--data", dir, "--md5", "bob"}, strings.NewReader("pw2"), &out, &errOut); rc != 0 {
		t.Fatalf("add bob: rc %d: %s", rc, errOut.String())
	}
	path := filepath.Join(dir, "users.json")
	users, err := pgwire.LoadUsers(path)
	if err != nil {
		t.Fatal(err)
	}
	if users.Users["alice"].SCRAM == "" || users.Users["alice"].MD5 != "" || users.Users["bob"].MD5 == "" {
		t.Fatalf("users: %+v", users.Users)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "pw1") {
		t.Fatal("password stored in clear")
	}
	out.Reset()
	if rc := userCommand([]string{"list", "--users", path}, nil, &out, &errOut); rc != 0 || out.String() != "alice\nbob\n" {
		t.Fatalf("list: rc %d, %q", rc, out.String())
	}
	if rc := userCommand([]string{"remove", "--users", path, "bob"}, nil, &out, &errOut); rc != 0 {
		t.Fatalf("remove: rc %d: %s", rc, errOut.String())
	}
	if rc := userCommand([]string{"remove", "--users", path, "bob"}, nil, &out, &errOut); rc != 1 {
		t.Fatalf("removing a missing user: rc %d", rc)
	}
	if rc := userCommand([]string{"add", "--users", path, "carol"}, strings.NewReader(""), &out, &errOut); rc != 1 {
		t.Fatalf("empty password accepted: rc %d", rc)
	}
	if rc := userCommand([]string{"frob"}, nil, &out, &errOut); rc != 2 {
		t.Fatalf("unknown verb: rc %d", rc)
	}
}

// dataDirWithUser is a data directory whose users file has alice.
func dataDirWithUser(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var sink bytes.Buffer
	if rc := userCommand([]string{"add", "--data", dir, "alice"}, strings.NewReader("pw\n"), &sink, &sink); rc != 0 {
		t.Fatal(sink.String())
	}
	return dir
}

func TestServeSecurity(t *testing.T) {
	withUsers := dataDirWithUser(t)
	empty := t.TempDir()
	tests := []struct {
		listen, data string
		args         []string
		method       pgwire.AuthMethod
		requireTLS   bool
		errPart      string
	}{
		{"127.0.0.1:5433", empty, nil, pgwire.AuthTrust, false, ""},
		{"localhost:5433", withUsers, nil, pgwire.AuthSCRAM, false, ""},
		{"127.0.0.1:5433", withUsers, []string{"--auth", "md5"}, pgwire.AuthMD5, false, ""},
		{"127.0.0.1:5433", empty, []string{"--auth", "scram-sha-256"}, "", false, "needs a users file"},
		{"127.0.0.1:5433", empty, []string{"--auth", "kerberos"}, "", false, "--auth"},
		{"0.0.0.0:5433", empty, nil, "", false, "without authentication"},
		{"0.0.0.0:5433", withUsers, nil, "", false, "without TLS"},
		{"0.0.0.0:5433", withUsers, []string{"--insecure"}, pgwire.AuthSCRAM, false, ""},
		{"0.0.0.0:5433", withUsers, []string{"--auth", "trust", "--insecure"}, "", false, "without authentication"},
		{"127.0.0.1:5433", empty, []string{"--tls-cert", "x.pem"}, "", false, "go together"},
		{"127.0.0.1:5433", empty, []string{"--tls-cert", "x.pem", "--tls-key", "y.pem"}, "", false, "TLS certificate"},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		f := registerSecurityFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		sec, err := f.resolve(tt.listen, tt.data)
		if tt.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("%s %v: got %v, want an error about %q", tt.listen, tt.args, err, tt.errPart)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", tt.listen, tt.args, err)
			continue
		}
		m := sec.Auth.Method
		if m == "" {
			m = pgwire.AuthTrust
		}
		if m != tt.method || sec.RequireTLS != tt.requireTLS {
			t.Errorf("%s %v: got %s requireTLS=%v", tt.listen, tt.args, m, sec.RequireTLS)
		}
	}
}
