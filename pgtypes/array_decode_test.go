package pgtypes

import (
	"encoding/binary"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// binArray builds PostgreSQL's binary array format.
func binArray(elem uint32, dims []int32, elems [][]byte) []byte {
	be := binary.BigEndian
	var b []byte
	b = be.AppendUint32(b, uint32(len(dims)))
	b = be.AppendUint32(b, 0)
	b = be.AppendUint32(b, elem)
	for _, d := range dims {
		b = be.AppendUint32(b, uint32(d))
		b = be.AppendUint32(b, 1)
	}
	for _, e := range elems {
		if e == nil {
			b = be.AppendUint32(b, 0xFFFFFFFF)
			continue
		}
		b = be.AppendUint32(b, uint32(len(e)))
		b = append(b, e...)
	}
	return b
}

func i4(v int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }

func TestDecodeBinaryArrays(t *testing.T) {
	tests := []struct {
		name string
		oid  uint32
		data []byte
		want string
		code sqlerr.Code
	}{
		{"int4 with a null", 1007, binArray(23, []int32{3}, [][]byte{i4(1), nil, i4(-3)}), "{1,NULL,-3}", ""},
		{"two dimensions", 1007, binArray(23, []int32{2, 2}, [][]byte{i4(1), i4(2), i4(3), i4(4)}), "{{1,2},{3,4}}", ""},
		{"empty", 1007, binArray(23, nil, nil), "{}", ""},
		{"text quoted", 1009, binArray(25, []int32{2}, [][]byte{[]byte(`a"b\c`), []byte("NULL")}), `{"a\"b\\c","NULL"}`, ""},
		// int2vectorsend('2 1'): lower bound 0
		{"int2vector", 22, []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 21, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 2, 0, 1}, "{2,1}", ""},
		{"oidvector", 30, binArray(26, []int32{1}, [][]byte{i4(1978)}), "{1978}", ""},
		{"\"char\"", 18, []byte("r"), "r", ""},
		{"wrong element type", 1007, binArray(20, []int32{1}, [][]byte{i4(1)}), "", sqlerr.DatatypeMismatch},
		{"truncated", 1007, binArray(23, []int32{2}, [][]byte{i4(1)}), "", sqlerr.ProtocolViolation},
		{"huge dimension", 1007, binArray(23, []int32{1 << 30}, nil), "", sqlerr.ProgramLimitExceeded},
	}
	for _, tc := range tests {
		v, err := DecodeParam(1, tc.oid, FormatBinary, tc.data)
		if tc.code != "" {
			if sqlerr.CodeOf(err) != tc.code {
				t.Errorf("%s: got %v, want %s", tc.name, err, tc.code)
			}
			continue
		}
		if err != nil || v != tc.want {
			t.Errorf("%s: got %v %v, want %q", tc.name, v, err, tc.want)
		}
	}
}
