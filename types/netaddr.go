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
	addr, bits, err := parseInetParts(text) // inet.go
	if err != nil {
		return Net{}, err
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

// mask16 is the netmask of bits over an address of size bytes (4 or
// 16), in the first size bytes of an array: the mask operations below
// work on arrays so that none allocates (a kernel calls them per row).
func mask16(bits, size int) (m [16]byte) {
	for i := 0; i < size; i++ {
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

// bytes16 is a's bytes in the first 4 or 16 of an array, and their count.
func bytes16(a netip.Addr) (b [16]byte, size int) {
	if a.Is4() {
		v4 := a.As4()
		copy(b[:], v4[:])
		return b, 4
	}
	return a.As16(), 16
}

// addrOf16 is the address of the first size bytes of b (4 or 16).
func addrOf16(b [16]byte, size int) netip.Addr {
	if size == 4 {
		return netip.AddrFrom4([4]byte{b[0], b[1], b[2], b[3]})
	}
	return netip.AddrFrom16(b)
}

// maskedAddr is n's address with each byte combined with its mask's by op.
func (n Net) maskedAddr(op func(a, m byte) byte) netip.Addr {
	a, size := bytes16(n.Addr)
	m := mask16(n.Bits, size)
	for i := 0; i < size; i++ {
		a[i] = op(a[i], m[i])
	}
	return addrOf16(a, size)
}

// addrOf is the address of the bytes b (4 or 16 of them).
func addrOf(b []byte) netip.Addr {
	a, _ := netip.AddrFromSlice(b)
	return a
}

// Netmask is the netmask of n's length as an address.
func (n Net) Netmask() netip.Addr {
	size := n.MaxBits() / 8
	return addrOf16(mask16(n.Bits, size), size)
}

// Hostmask is the host mask of n's length (the netmask's complement).
func (n Net) Hostmask() netip.Addr {
	size := n.MaxBits() / 8
	m := mask16(n.Bits, size)
	for i := 0; i < size; i++ {
		m[i] = ^m[i]
	}
	return addrOf16(m, size)
}

// Network is n's address with the bits right of the mask cleared.
func (n Net) Network() netip.Addr {
	return n.maskedAddr(func(a, m byte) byte { return a & m })
}

// Broadcast is n's address with the bits right of the mask set.
func (n Net) Broadcast() netip.Addr {
	return n.maskedAddr(func(a, m byte) byte { return a | ^m })
}

// PrefixMatch reports whether a and b agree in their first bits bits
// (PostgreSQL's bitncmp(...) == 0); a and b are of one family.
func PrefixMatch(a, b netip.Addr, bits int) bool {
	x, size := bytes16(a)
	y, _ := bytes16(b)
	m := mask16(bits, size)
	for i := 0; i < size; i++ {
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

// CidrText is cidr's output: the address and /bits, always.
func (n Net) CidrText() string { return AddrText(n.Addr) + "/" + strconv.Itoa(n.Bits) }

// ParseCidr reads cidr's input as PostgreSQL's cidr_in does: an inet's
// forms, and IPv4 written with fewer than four octets, whose mask
// without /bits is the classful one widened to the octets given
// (inet_cidr_pton_ipv4); bits right of the mask are 22P02 "invalid cidr
// value". The result is cidr's output text.
func ParseCidr(s string) (string, error) {
	bad := func() (string, error) {
		return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type cidr: \"%s\"", s)
	}
	n, err := ParseNet(s)
	if err != nil {
		var ok bool
		if n, ok = parseShortIPv4(s); !ok {
			return bad()
		}
	}
	if n.Network() != n.Addr {
		return "", sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid cidr value: \"%s\"", s).WithDetail("Value has bits set to right of mask.")
	}
	return n.CidrText(), nil
}

// parseShortIPv4 reads an IPv4 network of one to three decimal octets
// with an optional /bits, as inet_cidr_pton_ipv4 does.
func parseShortIPv4(s string) (Net, bool) {
	addrText, bitsText, hasBits := strings.Cut(s, "/")
	parts := strings.Split(addrText, ".")
	if len(parts) > 4 {
		return Net{}, false
	}
	var b [4]byte
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || p == "" || p[0] == '+' || p[0] == '-' || v > 255 {
			return Net{}, false
		}
		b[i] = byte(v)
	}
	bits := -1
	if hasBits {
		v, err := strconv.Atoi(bitsText)
		if err != nil || bitsText == "" || bitsText[0] == '+' || bitsText[0] == '-' || v > 32 {
			return Net{}, false
		}
		bits = v
	} else {
		switch first := b[0]; {
		case first >= 240:
			bits = 32
		case first >= 224:
			bits = 8
		case first >= 192:
			bits = 24
		case first >= 128:
			bits = 16
		default:
			bits = 8
		}
		bits = max(bits, len(parts)*8)
		if bits == 8 && b[0] == 224 {
			bits = 4
		}
	}
	return Net{Addr: netip.AddrFrom4(b), Bits: bits}, true
}

// InetToCidr is cidr(inet): the inet's network, its mask kept.
func InetToCidr(text string) (string, error) {
	n, err := ParseNet(text)
	if err != nil {
		return "", err
	}
	return Net{Addr: n.Network(), Bits: n.Bits}.CidrText(), nil
}

// CidrBytes is cidr's binary form: inet's with is_cidr 1.
func CidrBytes(text string) ([]byte, error) {
	b, err := InetBytes(text)
	if err != nil {
		return nil, err
	}
	b[2] = 1
	return b, nil
}

// CidrFromBytes is the text of cidr's binary form; bits right of the
// mask are refused as cidr_recv refuses them.
func CidrFromBytes(b []byte) (string, error) {
	text, err := InetFromBytes(b)
	if err != nil {
		return "", err
	}
	n, _ := ParseNet(text)
	if n.Network() != n.Addr {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid external \"cidr\" value").WithDetail("Value has bits set to right of mask.")
	}
	return n.CidrText(), nil
}
