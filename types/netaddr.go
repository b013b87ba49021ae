package types

import (
	"encoding/hex"
	"math/big"
	"net/netip"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Net is an inet value taken apart: its address and its netmask length,
// as PostgreSQL's inet_struct holds them (the address may have bits set
// to the right of the mask). functions/netfuncs.go computes inet's
// functions and operators on it.
type Net struct {
	Addr netip.Addr
	Bits int
}

// ParseNet reads an inet's text (any form ParseInet takes).
func ParseNet(text string) (Net, error) {
	canonical, err := ParseInet(text)
	if err != nil {
		return Net{}, err
	}
	addrText, bitsText, hasBits := strings.Cut(canonical, "/")
	addr := netip.MustParseAddr(addrText)
	bits := addr.BitLen()
	if hasBits {
		bits, _ = strconv.Atoi(bitsText)
	}
	return Net{Addr: addr, Bits: bits}, nil
}

// Text is inet's output: the address, with /bits unless they cover it.
func (n Net) Text() string { return inetText(n.Addr, n.Bits) }

// MaxBits is the address's length in bits (32 or 128).
func (n Net) MaxBits() int { return n.Addr.BitLen() }

// Family is PostgreSQL's family(inet): 4 or 6.
func (n Net) Family() int {
	if n.Addr.Is4() {
		return 4
	}
	return 6
}

// maskBytes is the netmask of bits over an address of size bytes.
func maskBytes(bits, size int) []byte {
	m := make([]byte, size)
	for i := range m {
		switch {
		case bits >= 8:
			m[i] = 0xff
			bits -= 8
		case bits > 0:
			m[i] = byte(0xff << (8 - bits))
			bits = 0
		}
	}
	return m
}

// addrOf is the address of the bytes b (4 or 16 of them).
func addrOf(b []byte) netip.Addr {
	a, _ := netip.AddrFromSlice(b)
	return a
}

// Netmask is the netmask of n's length as an address.
func (n Net) Netmask() netip.Addr { return addrOf(maskBytes(n.Bits, n.MaxBits()/8)) }

// Hostmask is the host mask of n's length (the netmask's complement).
func (n Net) Hostmask() netip.Addr {
	m := maskBytes(n.Bits, n.MaxBits()/8)
	for i := range m {
		m[i] = ^m[i]
	}
	return addrOf(m)
}

// Network is n's address with the bits right of the mask cleared.
func (n Net) Network() netip.Addr {
	a, m := n.Addr.AsSlice(), maskBytes(n.Bits, n.MaxBits()/8)
	for i := range a {
		a[i] &= m[i]
	}
	return addrOf(a)
}

// Broadcast is n's address with the bits right of the mask set.
func (n Net) Broadcast() netip.Addr {
	a, m := n.Addr.AsSlice(), maskBytes(n.Bits, n.MaxBits()/8)
	for i := range a {
		a[i] |= ^m[i]
	}
	return addrOf(a)
}

// PrefixMatch reports whether a and b agree in their first bits bits
// (PostgreSQL's bitncmp(...) == 0); a and b are of one family.
func PrefixMatch(a, b netip.Addr, bits int) bool {
	x, y, m := a.AsSlice(), b.AsSlice(), maskBytes(bits, a.BitLen()/8)
	for i := range x {
		if x[i]&m[i] != y[i]&m[i] {
			return false
		}
	}
	return true
}

// CommonPrefix is the number of leading bits a and b (one family) share.
func CommonPrefix(a, b netip.Addr) int {
	x, y := a.AsSlice(), b.AsSlice()
	n := 0
	for i := range x {
		d := x[i] ^ y[i]
		if d == 0 {
			n += 8
			continue
		}
		for d&0x80 == 0 {
			n++
			d <<= 1
		}
		return n
	}
	return n
}

// InetKey is a key whose byte order (and equality) is PostgreSQL's order
// of inet values (network_cmp): the family (IPv4 first), then the
// network part, then the netmask length, then the whole address. The
// network part compared as network_cmp does (the first min(bits) bits,
// then the shorter mask first) orders as the masked addresses followed by
// the mask lengths: past the shorter mask the longer one's network has
// only its own bits, all at least the other's zeros. It is hex so that
// it stays valid text.
func InetKey(text string) (string, error) {
	n, err := ParseNet(text)
	if err != nil {
		return "", err
	}
	key := []byte{byte(n.Family())}
	key = append(key, n.Network().AsSlice()...)
	key = append(key, byte(n.Bits))
	key = append(key, n.Addr.AsSlice()...)
	return hex.EncodeToString(key), nil
}

// InetOfKey is the inet text of an InetKey (its inverse).
func InetOfKey(key string) (string, error) {
	b, err := hex.DecodeString(key)
	if err != nil || len(b) != 2+2*4 && len(b) != 2+2*16 {
		return "", sqlerr.New(sqlerr.InternalError, "invalid inet key %q", key)
	}
	size := (len(b) - 2) / 2
	return Net{Addr: addrOf(b[2+size:]), Bits: int(b[1+size])}.Text(), nil
}

// AddToAddr is a + by (PostgreSQL's inetpl and inetmi_int8): 22003
// "result is out of range" past either end of the family's addresses.
func AddToAddr(a netip.Addr, by *big.Int) (netip.Addr, error) {
	v := new(big.Int).SetBytes(a.AsSlice())
	v.Add(v, by)
	size := a.BitLen() / 8
	if v.Sign() < 0 || v.BitLen() > a.BitLen() {
		return netip.Addr{}, sqlerr.New(sqlerr.NumericValueOutOfRange, "result is out of range")
	}
	return addrOf(v.FillBytes(make([]byte, size))), nil
}

// AddrDiff is a - b as a bigint (PostgreSQL's inetmi), 22003 beyond it.
func AddrDiff(a, b netip.Addr) (int64, error) {
	x := new(big.Int).SetBytes(a.AsSlice())
	x.Sub(x, new(big.Int).SetBytes(b.AsSlice()))
	if !x.IsInt64() {
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "result is out of range")
	}
	return x.Int64(), nil
}
