package types

import (
	"fmt"
	"math/rand"
	"net/netip"
	"strings"
	"testing"
)

// networkCmp is PostgreSQL's network_cmp written as network.c has it:
// family, then the first min(bits) bits, then the mask length, then the
// whole address.
func networkCmp(a, b Net) int {
	if a.Family() != b.Family() {
		return a.Family() - b.Family()
	}
	prefix := func(bits int) int {
		x, y := a.Addr.AsSlice(), b.Addr.AsSlice()
		m := mask16(bits, len(x))
		for i := range x {
			if d := int(x[i]&m[i]) - int(y[i]&m[i]); d != 0 {
				return d
			}
		}
		return 0
	}
	if d := prefix(min(a.Bits, b.Bits)); d != 0 {
		return d
	}
	if a.Bits != b.Bits {
		return a.Bits - b.Bits
	}
	return prefix(a.MaxBits())
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// TestInetKeyOrder holds InetKey's byte order to network_cmp over random
// addresses sharing prefixes, and InetOfKey to its inverse.
func TestInetKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(869))
	var texts []string
	for i := 0; i < 300; i++ {
		var addr string
		max := 32
		if rng.Intn(3) == 0 {
			max = 128
			addr = fmt.Sprintf("%x::%x:%x", []int{0, 0x2001, 0xffff}[rng.Intn(3)], rng.Intn(4), rng.Intn(4))
		} else {
			addr = fmt.Sprintf("10.%d.%d.%d", rng.Intn(3)*127, rng.Intn(3)*127, rng.Intn(3))
		}
		texts = append(texts, fmt.Sprintf("%s/%d", addr, rng.Intn(max+1)))
	}
	for _, x := range texts {
		a, _ := ParseNet(x)
		ka, err := InetKey(x)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := InetOfKey(ka); err != nil || back != a.Text() {
			t.Errorf("InetOfKey(InetKey(%s)) = %q, %v", x, back, err)
		}
		for _, y := range texts[:60] {
			b, _ := ParseNet(y)
			kb, _ := InetKey(y)
			if got, want := strings.Compare(ka, kb), sign(networkCmp(a, b)); got != want {
				t.Errorf("%s vs %s: key order %d, network_cmp %d", x, y, got, want)
			}
		}
	}
}

// TestNetParts checks the masks and addresses inet's functions are made of
// against PostgreSQL 15's answers.
func TestNetParts(t *testing.T) {
	for _, c := range []struct{ in, netmask, hostmask, network, broadcast string }{
		{"10.1.2.3/8", "255.0.0.0", "0.255.255.255", "10.0.0.0", "10.255.255.255"},
		{"10.1.2.3", "255.255.255.255", "0.0.0.0", "10.1.2.3", "10.1.2.3"},
		{"::1/20", "ffff:f000::", "0:fff:ffff:ffff:ffff:ffff:ffff:ffff", "::", "0:fff:ffff:ffff:ffff:ffff:ffff:ffff"},
		{"192.168.1.77/0", "0.0.0.0", "255.255.255.255", "0.0.0.0", "255.255.255.255"},
	} {
		n, err := ParseNet(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got := []netip.Addr{n.Netmask(), n.Hostmask(), n.Network(), n.Broadcast()}
		for i, want := range []string{c.netmask, c.hostmask, c.network, c.broadcast} {
			if got[i].String() != want {
				t.Errorf("%s: part %d = %s, want %s", c.in, i, got[i], want)
			}
		}
	}
}
