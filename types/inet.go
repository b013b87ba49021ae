package types

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// inet and pg_lsn are catalog types (pg_stat_activity.client_addr,
// pg_replication_slots.restart_lsn): Strings holding PostgreSQL's text
// form, with PostgreSQL's binary forms on the wire.

// ParseInet reads inet's input as PostgreSQL's inet_in does for the forms
// an address takes: an IPv4 or IPv6 address, optionally with /bits; the
// result is PostgreSQL's output text (the /bits left out when they cover
// the whole address). Anything else is 22P02.
func ParseInet(s string) (string, error) {
	addr, bits, err := parseInetParts(s)
	if err != nil {
		return "", err
	}
	return inetText(addr, bits), nil
}

// parseInetParts is ParseInet's reading: the address and its bits.
func parseInetParts(s string) (netip.Addr, int, error) {
	bad := func() (netip.Addr, int, error) {
		return netip.Addr{}, 0, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type inet: \"%s\"", s)
	}
	addrText, bitsText, hasBits := strings.Cut(s, "/")
	addr, err := netip.ParseAddr(addrText)
	if err != nil || addr.Zone() != "" {
		return bad()
	}
	bits := addr.BitLen()
	if hasBits {
		n, err := strconv.Atoi(bitsText)
		if err != nil || n < 0 || n > addr.BitLen() || bitsText == "" || bitsText[0] == '+' {
			return bad()
		}
		bits = n
	}
	return addr, bits, nil
}

func inetText(addr netip.Addr, bits int) string {
	if bits == addr.BitLen() {
		return AddrText(addr)
	}
	return AddrText(addr) + "/" + strconv.Itoa(bits)
}

// AddrText is PostgreSQL's text of an address (inet_net_ntop): Go's
// form, which compresses the first longest run of two or more zero
// groups as PostgreSQL does and writes an IPv4-mapped address as
// ::ffff:a.b.c.d, except for an IPv4-compatible one: the first 96 bits
// zero and the seventh group not (PostgreSQL's run of exactly six zero
// groups at the start), which PostgreSQL writes ::a.b.c.d (::1:2 is
// ::0.1.0.2), where ::2 and :: stay hexadecimal.
func AddrText(addr netip.Addr) string {
	if addr.Is6() && !addr.Is4In6() {
		b := addr.As16()
		if b[12]|b[13] != 0 && [12]byte(b[:12]) == [12]byte{} {
			return "::" + netip.AddrFrom4([4]byte(b[12:])).String()
		}
	}
	return addr.String()
}

// InetWithMask is PostgreSQL's text(inet) of an inet's text: the address
// with its /bits even when they cover it all ("127.0.0.1/32").
func InetWithMask(text string) string {
	if strings.Contains(text, "/") {
		return text
	}
	if addr, err := netip.ParseAddr(text); err == nil {
		return text + "/" + strconv.Itoa(addr.BitLen())
	}
	return text
}

// InetBytes is inet's binary form of its text: family (2 for IPv4, 3 for
// IPv6, as PostgreSQL numbers them), bits, is_cidr 0, the address length
// and the address.
func InetBytes(text string) ([]byte, error) {
	addr, bits, err := parseInetParts(text)
	if err != nil {
		return nil, err
	}
	family := byte(2)
	if addr.Is6() {
		family = 3
	}
	raw := addr.AsSlice()
	return append([]byte{family, byte(bits), 0, byte(len(raw))}, raw...), nil
}

// InetFromBytes is the text of inet's (or cidr's) binary form.
func InetFromBytes(b []byte) (string, error) {
	if len(b) < 4 || int(b[3]) != len(b)-4 {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid length in external \"inet\" value")
	}
	addr, ok := netip.AddrFromSlice(b[4:])
	if !ok || (b[0] == 2) != addr.Is4() || (b[0] != 2 && b[0] != 3) {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid address family in external \"inet\" value")
	}
	if int(b[1]) > addr.BitLen() {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "invalid bits in external \"inet\" value")
	}
	return inetText(addr, int(b[1])), nil
}

// ParseLSN reads pg_lsn's input (two hexadecimal numbers of up to 8 digits
// around a slash) and returns PostgreSQL's output text (upper case, no
// leading zeros).
func ParseLSN(s string) (string, error) {
	v, err := lsnValue(s)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%X/%X", v>>32, uint32(v)), nil
}

func lsnValue(s string) (uint64, error) {
	hi, lo, ok := strings.Cut(s, "/")
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if !ok || err1 != nil || err2 != nil || len(hi) > 8 || len(lo) > 8 || hi == "" || lo == "" || hi[0] == '+' || lo[0] == '+' {
		return 0, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type pg_lsn: \"%s\"", s)
	}
	return h<<32 | l, nil
}

// LSNBytes is pg_lsn's binary form (8 bytes, big-endian) of its text.
func LSNBytes(text string) ([]byte, error) {
	v, err := lsnValue(text)
	if err != nil {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(nil, v), nil
}

// LSNFromBytes is the text of pg_lsn's binary form.
func LSNFromBytes(b []byte) (string, error) {
	if len(b) != 8 {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format")
	}
	v := binary.BigEndian.Uint64(b)
	return fmt.Sprintf("%X/%X", v>>32, uint32(v)), nil
}

// LSNKey is pg_lsn's ordering key: its value as 16 hexadecimal digits,
// text whose byte order is the numbers' (the text "0/10" sorts before
// "0/9").
func LSNKey(text string) (string, error) {
	v, err := lsnValue(text)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%016X", v), nil
}

// LSNOfKey is the pg_lsn text of an LSNKey (its inverse).
func LSNOfKey(key string) (string, error) {
	v, err := strconv.ParseUint(key, 16, 64)
	if err != nil {
		return "", sqlerr.New(sqlerr.InternalError, "invalid pg_lsn key %q", key)
	}
	return fmt.Sprintf("%X/%X", v>>32, uint32(v)), nil
}

// ParseXid reads xid's input as PostgreSQL 15's xidin does: C's strtoul
// in base 0 (decimal, 0x hexadecimal, 0 octal) after optional blanks and
// sign, ignoring what follows the digits, a negative number wrapping and
// one past the range saturating, and the result truncated to 32 bits;
// text without digits is 0. It never fails.
func ParseXid(s string) int64 {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	switch {
	case i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && hexDigit(s[i+2]) >= 0:
		base, i = 16, i+2
	case i < len(s) && s[i] == '0':
		base = 8
	}
	var v uint64
	overflow := false
	for ; i < len(s); i++ {
		d := hexDigit(s[i])
		if d < 0 || uint64(d) >= base {
			break
		}
		if v > (^uint64(0)-uint64(d))/base {
			overflow = true
		}
		v = v*base + uint64(d)
	}
	switch {
	case overflow:
		v = ^uint64(0)
	case neg:
		v = -v
	}
	return int64(uint32(v))
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
