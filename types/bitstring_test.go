package types

import (
	"bytes"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestParseBitTyped(t *testing.T) {
	for _, c := range []struct {
		in   string
		t    T
		want string
		code sqlerr.Code
	}{
		{"101", BitType(3), "101", ""},
		{"b101", BitType(0), "101", ""},
		{"B", VarBitType(0), "", ""},
		{"x1F", BitType(8), "00011111", ""},
		{"Xa", VarBitType(4), "1010", ""},
		{"10", BitType(3), "", "22026"},
		{"1010", VarBitType(3), "", sqlerr.StringDataRightTruncation},
		{"102", BitType(0), "", sqlerr.InvalidTextRepresentation},
		{"xg", BitType(0), "", sqlerr.InvalidTextRepresentation},
		{"1é", VarBitType(0), "", sqlerr.InvalidTextRepresentation},
	} {
		got, err := ParseBitTyped(c.in, c.t)
		if code := sqlerr.CodeOf(err); err != nil && code != c.code || err == nil && (c.code != "" || got != c.want) {
			t.Errorf("ParseBitTyped(%q, %s) = %q, %v; want %q, %s", c.in, c.t, got, err, c.want, c.code)
		}
	}
}

func TestCoerceBit(t *testing.T) {
	for _, c := range []struct {
		in       string
		t        T
		explicit bool
		want     string
		fails    bool
	}{
		{"1010", BitType(3), true, "101", false},
		{"10", BitType(4), true, "1000", false},
		{"1010", VarBitType(3), true, "101", false},
		{"10", VarBitType(3), true, "10", false},
		{"1010", BitType(3), false, "", true},
		{"1010", VarBitType(3), false, "", true},
		{"1010", BitType(0), false, "1010", false},
	} {
		got, err := CoerceBit(c.in, c.t, c.explicit)
		if (err != nil) != c.fails || err == nil && got != c.want {
			t.Errorf("CoerceBit(%q, %s, %v) = %q, %v", c.in, c.t, c.explicit, got, err)
		}
	}
}

func TestBitIntegers(t *testing.T) {
	for _, c := range []struct {
		v     int64
		width int
		n     int
		want  string
	}{
		{5, 32, 3, "101"},
		{-5, 32, 3, "011"},
		{5, 32, 40, "0000000000000000000000000000000000000101"},
		{-1, 32, 34, "1111111111111111111111111111111111"},
		{5, 64, 0, "1"},
	} {
		if got := BitFromInt(c.v, c.width, c.n); got != c.want {
			t.Errorf("BitFromInt(%d, %d, %d) = %q, want %q", c.v, c.width, c.n, got, c.want)
		}
	}
	if v, err := BitToInt("11111111111111111111111111111111", 32); err != nil || v != -1 {
		t.Errorf("32 ones as int4 = %d, %v", v, err)
	}
	if _, err := BitToInt("111111111111111111111111111111111", 32); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
		t.Errorf("33 bits as int4: %v", err)
	}
}

func TestBitBinary(t *testing.T) {
	for _, c := range []struct {
		bits string
		wire []byte
	}{
		{"", []byte{0, 0, 0, 0}},
		{"1", []byte{0, 0, 0, 1, 0x80}},
		{"101000001", []byte{0, 0, 0, 9, 0xa0, 0x80}},
	} {
		if got := BitBytes(c.bits); !bytes.Equal(got, c.wire) {
			t.Errorf("BitBytes(%q) = %x, want %x", c.bits, got, c.wire)
		}
		if got, err := BitFromBytes(c.wire); err != nil || got != c.bits {
			t.Errorf("BitFromBytes(%x) = %q, %v", c.wire, got, err)
		}
	}
	if _, err := BitFromBytes([]byte{0, 0, 0, 9, 0xa0}); sqlerr.CodeOf(err) != sqlerr.InvalidBinaryRepresentation {
		t.Errorf("short bit payload: %v", err)
	}
}
