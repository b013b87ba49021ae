package main

import (
	"os"
	"testing"
)

func TestPgbenchConnMovesSettingsToOptions(t *testing.T) {
	for _, tc := range []struct{ in, url, options string }{
		{"postgres://sqlgate@127.0.0.1:5/sqlgate?sslmode=disable", "postgres://sqlgate@127.0.0.1:5/sqlgate?sslmode=disable", ""},
		{"postgres://postgres@127.0.0.1:6/postgres?sslmode=disable&synchronous_commit=off", "postgres://postgres@127.0.0.1:6/postgres?sslmode=disable", "-c synchronous_commit=off"},
	} {
		url, options, err := pgbenchConn(tc.in)
		if err != nil || url != tc.url || options != tc.options {
			t.Errorf("pgbenchConn(%q) = %q, %q, %v; want %q, %q", tc.in, url, options, err, tc.url, tc.options)
		}
	}
}

func TestPgbenchFigures(t *testing.T) {
	out := `transaction type: /tmp/w10.pgb
scaling factor: 1
query mode: prepared
number of clients: 8
number of threads: 2
duration: 3 s
number of transactions actually processed: 49310
latency average = 0.486 ms
initial connection time = 5.150 ms
tps = 16447.826514 (without initial connection time)
`
	n, rate, err := pgbenchFigures(out)
	if err != nil || n != 49310 || rate != 16447.826514 {
		t.Fatalf("pgbenchFigures = %d, %v, %v", n, rate, err)
	}
	if _, _, err := pgbenchFigures("pgbench: error: connection refused\n"); err == nil {
		t.Fatal("a report without figures was accepted")
	}
}

// TestClusterCPUCountsChildren reads this process as a "postmaster": its
// own threads at least, so the sum is positive and grows with work.
func TestClusterCPUCountsChildren(t *testing.T) {
	a, err := clusterCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := range 20_000_000 {
		x += i
	}
	b, err := clusterCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if a <= 0 || b <= a {
		t.Fatalf("cluster CPU %v then %v (work %d): want positive and growing", a, b, x)
	}
}
