package pgtypes

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestDecodeParam(t *testing.T) {
	be := binary.BigEndian
	ts := time.Date(2024, 1, 2, 3, 4, 5, 500000000, time.UTC)
	pgUs := ts.UnixMicro() - unixToPGEpochUs
	tests := []struct {
		name   string
		oid    uint32
		format int16
		data   []byte
		want   any
		code   sqlerr.Code
	}{
		{"null", OIDInt4, FormatText, nil, nil, ""},
		{"unknown text", OIDUnknown, FormatText, []byte("5"), "5", ""},
		{"bool t", OIDBool, FormatText, []byte("t"), true, ""},
		{"bool yes", OIDBool, FormatText, []byte(" YES "), true, ""},
		{"bool off", OIDBool, FormatText, []byte("off"), false, ""},
		{"bool bad", OIDBool, FormatText, []byte("maybe"), nil, sqlerr.InvalidTextRepresentation},
		{"int4 text", OIDInt4, FormatText, []byte(" 42 "), int64(42), ""},
		{"int4 bad", OIDInt4, FormatText, []byte("4x"), nil, sqlerr.InvalidTextRepresentation},
		{"int2 range", OIDInt2, FormatText, []byte("40000"), nil, sqlerr.NumericValueOutOfRange},
		{"int8 text", OIDInt8, FormatText, []byte("-9223372036854775808"), int64(math.MinInt64), ""},
		{"float8 text", OIDFloat8, FormatText, []byte("1.5"), 1.5, ""},
		{"float8 inf", OIDFloat8, FormatText, []byte("-Infinity"), math.Inf(-1), ""},
		{"float8 bad", OIDFloat8, FormatText, []byte("0x10"), nil, sqlerr.InvalidTextRepresentation},
		{"numeric text", OIDNumeric, FormatText, []byte("-12.50"), "-12.50", ""},
		{"numeric bad", OIDNumeric, FormatText, []byte("12..5"), nil, sqlerr.InvalidTextRepresentation},
		{"text", OIDText, FormatText, []byte("héllo"), "héllo", ""},
		{"text bad utf8", OIDText, FormatText, []byte{0xff}, nil, sqlerr.CharacterNotInRepertoire},
		{"bytea hex", OIDBytea, FormatText, []byte(`\x00ff`), []byte{0, 0xff}, ""},
		{"bytea escape", OIDBytea, FormatText, []byte(`a\\b\001`), []byte{'a', '\\', 'b', 1}, ""},
		{"bytea bad hex", OIDBytea, FormatText, []byte(`\x0g`), nil, sqlerr.InvalidTextRepresentation},
		{"date text", OIDDate, FormatText, []byte("2024-01-02"), time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), ""},
		{"date bad", OIDDate, FormatText, []byte("2024-13-02"), nil, sqlerr.InvalidDatetimeFormat},
		{"timestamp text", OIDTimestamp, FormatText, []byte("2024-01-02 03:04:05.5"), ts, ""},
		{"timestamp T", OIDTimestamp, FormatText, []byte("2024-01-02T03:04:05.5"), ts, ""},
		{"timestamptz offset", OIDTimestampTZ, FormatText, []byte("2024-01-02 05:04:05.5+02"), ts, ""},
		{"timestamptz Z", OIDTimestampTZ, FormatText, []byte("2024-01-02 03:04:05.5Z"), ts, ""},
		{"timestamptz minutes", OIDTimestampTZ, FormatText, []byte("2024-01-02 08:34:05.5+05:30"), ts, ""},
		{"timestamp garbage", OIDTimestamp, FormatText, []byte("yesterday"), nil, sqlerr.InvalidDatetimeFormat},
		{"bool bin", OIDBool, FormatBinary, []byte{1}, true, ""},
		{"int2 bin", OIDInt2, FormatBinary, []byte{0xff, 0xfe}, int64(-2), ""},
		{"int4 bin", OIDInt4, FormatBinary, be.AppendUint32(nil, 7), int64(7), ""},
		{"int4 bin short", OIDInt4, FormatBinary, []byte{0, 0, 7}, nil, sqlerr.ProtocolViolation},
		{"int4 bin long", OIDInt4, FormatBinary, []byte{0, 0, 0, 0, 7}, nil, sqlerr.InvalidBinaryRepresentation},
		{"int8 bin", OIDInt8, FormatBinary, be.AppendUint64(nil, uint64(1)<<40), int64(1) << 40, ""},
		{"float4 bin", OIDFloat4, FormatBinary, be.AppendUint32(nil, math.Float32bits(1.5)), 1.5, ""},
		{"float8 bin", OIDFloat8, FormatBinary, be.AppendUint64(nil, math.Float64bits(-2.25)), -2.25, ""},
		{"text bin", OIDText, FormatBinary, []byte("abc"), "abc", ""},
		{"bytea bin", OIDBytea, FormatBinary, []byte{1, 2}, []byte{1, 2}, ""},
		{"date bin", OIDDate, FormatBinary, be.AppendUint32(nil, 0), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), ""},
		{"timestamp bin", OIDTimestamp, FormatBinary, be.AppendUint64(nil, uint64(pgUs)), ts, ""},
		{"timestamptz bin", OIDTimestampTZ, FormatBinary, be.AppendUint64(nil, uint64(pgUs)), ts, ""},
		{"numeric bin", OIDNumeric, FormatBinary, []byte{0, 2, 0, 0, 0x40, 0, 0, 2, 0, 12, 0x13, 0x88}, "-12.50", ""},
		{"numeric bin short", OIDNumeric, FormatBinary, []byte{0, 2, 0, 0}, nil, sqlerr.ProtocolViolation},
		{"bad format", OIDText, 7, []byte("x"), nil, sqlerr.ProtocolViolation},
	}
	for _, tt := range tests {
		got, err := DecodeParam(1, tt.oid, tt.format, tt.data)
		if tt.code != "" {
			if sqlerr.CodeOf(err) != tt.code {
				t.Errorf("%s: error %v (code %s), want code %s", tt.name, err, sqlerr.CodeOf(err), tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if tm, ok := tt.want.(time.Time); ok {
			if g, ok := got.(time.Time); !ok || !g.Equal(tm) {
				t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
			}
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v, want %#v", tt.name, got, tt.want)
		}
	}
}
