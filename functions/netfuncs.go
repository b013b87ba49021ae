package functions

import (
	"context"
	"math/big"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's inet functions and operators (network.c), over inet
// values held as their text (types/inet.go) and taken apart as types.Net.
// network and inet_merge give cidr, which converts implicitly to inet,
// so the inet functions take it too. The binder calls the
// operator functions for the operators its grammar has (binder/netops.go):
// << >> & | as network_sub, network_sup, inetand, inetor; <<= >>= as
// network_subeq, network_supeq; + and - as pg__inet_plus and
// pg__inet_minus, whose overloads are inetpl/int8pl_inet and
// inetmi_int8/inetmi; && and prefix ~ arrive as pg__op_overlap and
// pg__op_not.

var tInet, tCidr = types.InetType, types.CidrType

func netFuncs() []*Func {
	fn := func(name string, args []types.T, ret types.T, body func(n []types.Net, v []any) (any, error)) *Func {
		return &Func{Name: name, Args: args, Ret: ret, Strict: true, Kernel: rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
			nets := make([]types.Net, len(v))
			for i, x := range v {
				if args[i].Variant != types.Inet && args[i].Variant != types.Cidr {
					continue
				}
				n, err := types.ParseNet(x.(string))
				if err != nil {
					return nil, err
				}
				nets[i] = n
			}
			return body(nets, v)
		})}
	}
	one, two := []types.T{tInet}, []types.T{tInet, tInet}
	inet := func(a netip.Addr, bits int) string { return types.Net{Addr: a, Bits: bits}.Text() }
	sameFamily := func(what string, body func(a, b types.Net) (any, error)) func(n []types.Net, _ []any) (any, error) {
		return func(n []types.Net, _ []any) (any, error) {
			if n[0].Family() != n[1].Family() {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot %s inet values of different sizes", what)
			}
			return body(n[0], n[1])
		}
	}
	contains := func(strict, sub bool) func(n []types.Net, _ []any) (any, error) {
		return func(n []types.Net, _ []any) (any, error) {
			a, b := n[0], n[1]
			if !sub {
				a, b = b, a
			}
			// a is inside b
			if a.Family() != b.Family() || a.Bits < b.Bits || strict && a.Bits == b.Bits {
				return false, nil
			}
			return types.PrefixMatch(a.Addr, b.Addr, b.Bits), nil
		}
	}
	bitwise := func(op byte) func(a, b types.Net) (any, error) {
		return func(a, b types.Net) (any, error) {
			x, y := a.Addr.AsSlice(), b.Addr.AsSlice()
			for i := range x {
				if op == '&' {
					x[i] &= y[i]
				} else {
					x[i] |= y[i]
				}
			}
			addr, _ := netip.AddrFromSlice(x)
			return inet(addr, max(a.Bits, b.Bits)), nil
		}
	}
	plus := func(n types.Net, by *big.Int) (any, error) {
		a, err := types.AddToAddr(n.Addr, by)
		if err != nil {
			return nil, err
		}
		return inet(a, n.Bits), nil
	}
	return append(connectionFuncs(), []*Func{
		fn("host", one, tText, func(n []types.Net, _ []any) (any, error) { return types.AddrText(n[0].Addr), nil }),
		fn("abbrev", one, tText, func(n []types.Net, _ []any) (any, error) { return n[0].Text(), nil }),
		fn("masklen", one, tInt4, func(n []types.Net, _ []any) (any, error) { return int64(n[0].Bits), nil }),
		fn("family", one, tInt4, func(n []types.Net, _ []any) (any, error) { return int64(n[0].Family()), nil }),
		fn("netmask", one, tInet, func(n []types.Net, _ []any) (any, error) { return types.AddrText(n[0].Netmask()), nil }),
		fn("hostmask", one, tInet, func(n []types.Net, _ []any) (any, error) { return types.AddrText(n[0].Hostmask()), nil }),
		fn("network", one, tCidr, func(n []types.Net, _ []any) (any, error) {
			return types.Net{Addr: n[0].Network(), Bits: n[0].Bits}.CidrText(), nil
		}),
		fn("abbrev", []types.T{tCidr}, tText, abbrevCidr),
		fn("set_masklen", []types.T{tCidr, tInt4}, tCidr, func(n []types.Net, v []any) (any, error) {
			bits := v[1].(int64)
			if bits == -1 {
				bits = int64(n[0].MaxBits())
			}
			if bits < 0 || bits > int64(n[0].MaxBits()) {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid mask length: %d", v[1].(int64))
			}
			return types.Net{Addr: types.Net{Addr: n[0].Addr, Bits: int(bits)}.Network(), Bits: int(bits)}.CidrText(), nil
		}),
		fn("broadcast", one, tInet, func(n []types.Net, _ []any) (any, error) { return inet(n[0].Broadcast(), n[0].Bits), nil }),
		fn("set_masklen", []types.T{tInet, tInt4}, tInet, func(n []types.Net, v []any) (any, error) {
			bits := v[1].(int64)
			if bits == -1 {
				bits = int64(n[0].MaxBits())
			}
			if bits < 0 || bits > int64(n[0].MaxBits()) {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid mask length: %d", v[1].(int64))
			}
			return inet(n[0].Addr, int(bits)), nil
		}),
		fn("inet_same_family", two, tBool, func(n []types.Net, _ []any) (any, error) { return n[0].Family() == n[1].Family(), nil }),
		fn("inet_merge", two, tCidr, func(n []types.Net, _ []any) (any, error) {
			a, b := n[0], n[1]
			if a.Family() != b.Family() {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "cannot merge addresses from different families")
			}
			bits := min(a.Bits, b.Bits, types.CommonPrefix(a.Addr, b.Addr))
			return types.Net{Addr: types.Net{Addr: a.Addr, Bits: bits}.Network(), Bits: bits}.CidrText(), nil
		}),
		fn("network_sub", two, tBool, contains(true, true)),
		fn("network_subeq", two, tBool, contains(false, true)),
		fn("network_sup", two, tBool, contains(true, false)),
		fn("network_supeq", two, tBool, contains(false, false)),
		fn("network_overlap", two, tBool, overlapNets),
		fn("pg__op_overlap", two, tBool, overlapNets),
		fn("inetand", two, tInet, sameFamily("AND", bitwise('&'))),
		fn("inetor", two, tInet, sameFamily("OR", bitwise('|'))),
		fn("inetnot", one, tInet, inetNot),
		fn("pg__op_not", one, tInet, inetNot),
		fn("pg__inet_plus", []types.T{tInet, tInt8}, tInet, func(n []types.Net, v []any) (any, error) { return plus(n[0], big.NewInt(v[1].(int64))) }),
		fn("pg__inet_plus", []types.T{tInt8, tInet}, tInet, func(n []types.Net, v []any) (any, error) { return plus(n[1], big.NewInt(v[0].(int64))) }),
		fn("pg__inet_minus", []types.T{tInet, tInt8}, tInet, func(n []types.Net, v []any) (any, error) {
			return plus(n[0], new(big.Int).Neg(big.NewInt(v[1].(int64))))
		}),
		fn("pg__inet_minus", two, tInt8, sameFamily("subtract", func(a, b types.Net) (any, error) { return types.AddrDiff(a.Addr, b.Addr) })),
	}...)
}

// connectionFuncs are inet_client_addr, inet_client_port,
// inet_server_addr and inet_server_port: the session's connection's ends,
// NULL over a Unix socket as in PostgreSQL.
func connectionFuncs() []*Func {
	end := func(name string, ret types.T, server, port bool) *Func {
		return &Func{Name: name, Ret: ret, Volatile: true, Kernel: rowFunc(ret, false, func(ctx context.Context, _ []any) (any, error) {
			s := sessionOf(ctx)
			addr := s.ClientAddr
			if server {
				addr = s.ServerAddr
			}
			host, portText, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, nil
			}
			if port {
				p, err := strconv.Atoi(portText)
				if err != nil {
					return nil, nil
				}
				return int64(p), nil
			}
			text, err := types.ParseInet(host)
			if err != nil {
				return nil, nil
			}
			return text, nil
		})}
	}
	return []*Func{
		end("inet_client_addr", tInet, false, false),
		end("inet_client_port", tInt4, false, true),
		end("inet_server_addr", tInet, true, false),
		end("inet_server_port", tInt4, true, true),
	}
}

// overlapNets is network_overlap (&&): one family, and the addresses
// agree over the shorter of the two masks.
func overlapNets(n []types.Net, _ []any) (any, error) {
	a, b := n[0], n[1]
	if a.Family() != b.Family() {
		return false, nil
	}
	return types.PrefixMatch(a.Addr, b.Addr, min(a.Bits, b.Bits)), nil
}

// inetNot is inetnot (prefix ~): every address bit flipped, the mask kept.
func inetNot(n []types.Net, _ []any) (any, error) {
	x := n[0].Addr.AsSlice()
	for i := range x {
		x[i] = ^x[i]
	}
	a, _ := netip.AddrFromSlice(x)
	return types.Net{Addr: a, Bits: n[0].Bits}.Text(), nil
}

// abbrevCidr is abbrev(cidr): inet_cidr_ntop's text. IPv4 shows the
// octets the mask reaches (at least one) and /bits (10.1.0.0/16 is
// 10.1/16); IPv6 is abbrevCidr6.
func abbrevCidr(n []types.Net, _ []any) (any, error) {
	c := n[0]
	b := c.Addr.AsSlice()
	if c.Family() != 4 {
		return abbrevCidr6(b, c.Bits) + "/" + strconv.Itoa(c.Bits), nil
	}
	octets := max(1, (c.Bits+7)/8)
	parts := make([]string, octets)
	for i := range parts {
		parts[i] = strconv.Itoa(int(b[i]))
	}
	return strings.Join(parts, ".") + "/" + strconv.Itoa(c.Bits), nil
}

// abbrevCidr6 is inet_cidr_ntop_ipv6 without its /bits, step for step:
// the 16-bit words the mask reaches (at least two); a run of zero words
// written :: (the first longest, even a run of one; as in PostgreSQL, a
// run that does not win keeps counting into the next run, from its own
// start: 0:1:2:3:0:5:0:7 is 0:1:2:3::0:7); and the last 32 bits of an
// address whose leading words are zero, or ::ffff:, written as IPv4
// octets (the last only when the mask passes 120 bits).
func abbrevCidr6(s []byte, bits int) string {
	if bits == 0 {
		return "::"
	}
	words := (bits + 15) / 16
	if words == 1 {
		words = 2
	}
	zeroS, zeroL, tmpS, tmpL := 0, 0, 0, 0
	for i := 0; i < words*2; i += 2 {
		if s[i]|s[i+1] == 0 {
			if tmpL == 0 {
				tmpS = i / 2
			}
			tmpL++
		} else if tmpL != 0 && zeroL < tmpL {
			zeroS, zeroL, tmpL = tmpS, tmpL, 0
		}
	}
	if tmpL != 0 && zeroL < tmpL {
		zeroS, zeroL = tmpS, tmpL
	}
	isIPv4 := zeroL != words && zeroS == 0 &&
		(zeroL == 6 || zeroL == 5 && s[10] == 0xff && s[11] == 0xff || zeroL == 7 && s[14] != 0 && s[15] != 1)
	var sb strings.Builder
	for p := 0; p < words; p++ {
		if zeroL != 0 && p >= zeroS && p < zeroS+zeroL {
			if p == zeroS {
				sb.WriteByte(':')
			}
			if p == words-1 {
				sb.WriteByte(':')
			}
			continue
		}
		if isIPv4 && p > 5 {
			sb.WriteByte(":."[min(p-6, 1)])
			sb.WriteString(strconv.Itoa(int(s[2*p])))
			if p != 7 || bits > 120 {
				sb.WriteByte('.')
				sb.WriteString(strconv.Itoa(int(s[2*p+1])))
			}
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte(':')
		}
		sb.WriteString(strconv.FormatInt(int64(s[2*p])<<8|int64(s[2*p+1]), 16))
	}
	return sb.String()
}
