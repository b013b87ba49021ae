//go:build !race

package types

import (
	"net/netip"
	"testing"
)

// TestNetMaskAllocations: the mask operations inet's kernels run per row
// (network, broadcast, netmask, hostmask, the containment operators'
// PrefixMatch) allocate nothing, and give PostgreSQL's answers. (Without
// -race: instrumented code escapes more.)
func TestNetMaskAllocations(t *testing.T) {
	cases := []struct {
		text                                  string
		network, broadcast, netmask, hostmask string
	}{
		{"192.168.1.5/24", "192.168.1.0", "192.168.1.255", "255.255.255.0", "0.0.0.255"},
		{"10.1.2.3/13", "10.0.0.0", "10.7.255.255", "255.248.0.0", "0.7.255.255"},
		{"10.1.2.3", "10.1.2.3", "10.1.2.3", "255.255.255.255", "0.0.0.0"},
		{"0.0.0.0/0", "0.0.0.0", "255.255.255.255", "0.0.0.0", "255.255.255.255"},
		{"2001:db8::1/64", "2001:db8::", "2001:db8::ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff::", "::ffff:ffff:ffff:ffff"},
	}
	for _, c := range cases {
		n, err := ParseNet(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		for _, g := range []struct {
			name      string
			got, want string
		}{
			{"network", n.Network().String(), c.network}, {"broadcast", n.Broadcast().String(), c.broadcast},
			{"netmask", n.Netmask().String(), c.netmask}, {"hostmask", n.Hostmask().String(), c.hostmask},
		} {
			if g.got != g.want {
				t.Errorf("%s(%s) = %s, want %s", g.name, c.text, g.got, g.want)
			}
		}
		if !PrefixMatch(n.Addr, n.Network(), n.Bits) || !PrefixMatch(n.Addr, n.Broadcast(), n.Bits) {
			t.Errorf("%s: its network and broadcast do not match its prefix", c.text)
		}
		allocs := testing.AllocsPerRun(100, func() {
			_ = n.Network()
			_ = n.Broadcast()
			_ = n.Netmask()
			_ = n.Hostmask()
			_ = PrefixMatch(n.Addr, n.Network(), n.Bits)
		})
		if allocs != 0 {
			t.Errorf("%s: the mask operations take %.0f allocations, want 0", c.text, allocs)
		}
	}
	if PrefixMatch(netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("11.0.0.1"), 8) {
		t.Error("10.0.0.1 and 11.0.0.1 share their first 8 bits")
	}
	if !PrefixMatch(netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("11.0.0.1"), 7) {
		t.Error("10.0.0.1 and 11.0.0.1 differ in their first 7 bits")
	}
}
