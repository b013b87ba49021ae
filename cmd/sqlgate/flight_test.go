package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestServeFlightSecurity: the Flight SQL address follows the PostgreSQL
// side's rules: plaintext or trust off loopback is refused.
func TestServeFlightSecurity(t *testing.T) {
	withUsers := dataDirWithUser(t)
	empty := t.TempDir()
	tests := []struct {
		flight, data string
		args         []string
		errPart      string
	}{
		{"127.0.0.1:32010", empty, nil, ""},
		{"localhost:32010", withUsers, nil, ""},
		{"[::1]:32010", empty, nil, ""},
		{"0.0.0.0:32010", empty, nil, "without authentication"},
		{"0.0.0.0:32010", withUsers, nil, "without TLS"},
		{"192.0.2.1:32010", withUsers, nil, "without TLS"},
		{"0.0.0.0:32010", withUsers, []string{"--insecure"}, ""},
		{"no-port", empty, nil, "--flight-listen"},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		f := registerSecurityFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		sec, err := f.resolve("127.0.0.1:5433", tt.data)
		if err != nil {
			t.Fatal(err)
		}
		err = f.checkFlight(tt.flight, sec)
		if tt.errPart == "" && err != nil {
			t.Errorf("%s %v: %v", tt.flight, tt.args, err)
		}
		if tt.errPart != "" && (err == nil || !strings.Contains(err.Error(), tt.errPart)) {
			t.Errorf("%s %v: got %v, want an error about %q", tt.flight, tt.args, err, tt.errPart)
		}
	}
	// serve refuses to start with such an address
	var out, errOut bytes.Buffer
	if rc := serve([]string{"--data", empty, "--flight-listen", "0.0.0.0:0"}, &out, &errOut); rc != 2 || !strings.Contains(errOut.String(), "Flight SQL") {
		t.Fatalf("serve with a plaintext non-loopback Flight address: rc %d, %s", rc, errOut.String())
	}
}
