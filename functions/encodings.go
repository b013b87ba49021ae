package functions

import (
	"encoding/hex"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/text/encoding/charmap"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// convert, convert_from, convert_to and length(bytea, name) read and write
// the bytes of PostgreSQL's server encodings as PostgreSQL 15's pg_convert
// does (mbutils.c): the names are pg_char_to_encoding's (encodingByName,
// toascii.go); the source bytes are verified first (22021 names the first
// invalid character); equal encodings, a SQL_ASCII destination and a
// SQL_ASCII source (verified as the destination) convert nothing; a pair
// PostgreSQL has no default conversion for is 42883; a character the
// destination lacks is 22P05. The database encoding is UTF8.
//
// The single-byte encodings are decoded through a 256-entry table taken
// from golang.org/x/text/encoding/charmap, corrected where PostgreSQL's
// conversion tables (src/backend/utils/mb/Unicode) say otherwise:
// PostgreSQL's ISO 8859 tables map bytes 0x80..0x9F to the C1 controls,
// its KOI8U is RFC 2319's (0xAE and 0xBE are box drawings, not Belarusian
// letters), and its WIN1255 leaves 0xCA unassigned. Every byte of every
// table was compared with PostgreSQL 15 (tests/difftest's
// TestEncodingsMatchPostgres converts every byte of each). PostgreSQL converts between two single-byte
// encodings with tables of its own (encpairs.go), not through Unicode. The multi-byte encodings other than UTF8 (EUC_*, SJIS,
// BIG5, GBK, UHC, GB18030, JOHAB, SHIFT_JIS_2004, MULE_INTERNAL) are
// refused with 0A000: their verification rules and tables are not here.

// singleByteCharmaps are the x/text tables of PostgreSQL's single-byte
// encodings.
var singleByteCharmaps = map[string]*charmap.Charmap{
	"LATIN1": charmap.ISO8859_1, "LATIN2": charmap.ISO8859_2, "LATIN3": charmap.ISO8859_3, "LATIN4": charmap.ISO8859_4,
	"LATIN5": charmap.ISO8859_9, "LATIN6": charmap.ISO8859_10, "LATIN7": charmap.ISO8859_13, "LATIN8": charmap.ISO8859_14,
	"LATIN9": charmap.ISO8859_15, "LATIN10": charmap.ISO8859_16, "ISO_8859_5": charmap.ISO8859_5, "ISO_8859_6": charmap.ISO8859_6,
	"ISO_8859_7": charmap.ISO8859_7, "ISO_8859_8": charmap.ISO8859_8, "WIN866": charmap.CodePage866, "WIN874": charmap.Windows874,
	"WIN1250": charmap.Windows1250, "WIN1251": charmap.Windows1251, "WIN1252": charmap.Windows1252, "WIN1253": charmap.Windows1253,
	"WIN1254": charmap.Windows1254, "WIN1255": charmap.Windows1255, "WIN1256": charmap.Windows1256, "WIN1257": charmap.Windows1257,
	"WIN1258": charmap.Windows1258, "KOI8R": charmap.KOI8R, "KOI8U": charmap.KOI8U,
}

// singleByteFixes are PostgreSQL's mappings where x/text's differ (-1:
// the byte has no character).
var singleByteFixes = map[string]map[byte]rune{
	"KOI8U":   {0xAE: 0x255D, 0xBE: 0x256C},
	"WIN1255": {0xCA: -1},
}

// singleByteTable is one encoding's decoding (bytes 0x80..0xFF; -1: no
// character) and encoding.
type singleByteTable struct {
	decode [128]rune
	encode map[rune]byte
}

// singleByteTableOf is enc's table; ok false for an encoding that is not
// single-byte.
func singleByteTableOf(enc string) (*singleByteTable, bool) {
	t, ok := singleByteTables()[enc]
	return t, ok
}

// singleByteTables are the single-byte encodings' tables, built together
// at the first conversion that needs one (read-only afterwards: the
// charmaps never change) instead of at each row's.
var singleByteTables = sync.OnceValue(func() map[string]*singleByteTable {
	out := make(map[string]*singleByteTable, len(singleByteCharmaps))
	for enc := range singleByteCharmaps {
		out[enc] = buildSingleByteTable(enc)
	}
	return out
})

func buildSingleByteTable(enc string) *singleByteTable {
	m := singleByteCharmaps[enc]
	t := &singleByteTable{encode: make(map[rune]byte, 128)}
	iso := strings.HasPrefix(enc, "LATIN") || strings.HasPrefix(enc, "ISO_8859")
	for i := range t.decode {
		b := byte(0x80 + i)
		r := m.DecodeByte(b)
		if r == utf8.RuneError {
			r = -1
		}
		if iso && b < 0xA0 {
			r = rune(b) // the C1 controls
		}
		if f, ok := singleByteFixes[enc][b]; ok {
			r = f
		}
		t.decode[i] = r
		if r >= 0 {
			t.encode[r] = b
		}
	}
	return t
}

// encodingNamed is pg_char_to_encoding for a function argument: 22023
// for a name PostgreSQL does not know (role: "source ", "destination "
// or "" as its message says), 0A000 for a multi-byte encoding sqlgate
// does not convert.
func encodingNamed(name, role string) (string, error) {
	e, ok := encodingByName(name)
	if !ok {
		return "", sqlerr.New(sqlerr.InvalidParameterValue, "invalid %sencoding name \"%s\"", role, name)
	}
	if _, single := singleByteCharmaps[e]; !single && e != "UTF8" && e != "SQL_ASCII" {
		return "", sqlerr.New(sqlerr.FeatureNotSupported, "conversion with encoding \"%s\" is not supported", e)
	}
	return e, nil
}

// verifyEncoding is pg_verify_mbstr_len: the number of characters of data
// in enc, or 22021 at the first invalid one (NUL is invalid in every
// encoding; UTF-8 must be well formed).
func verifyEncoding(data []byte, enc string) (int64, error) {
	if enc == "UTF8" {
		n := int64(0)
		for k := 0; k < len(data); n++ {
			r, size := utf8.DecodeRune(data[k:])
			if r == utf8.RuneError && size <= 1 || r == 0 {
				return 0, sqlerr.InvalidByteSequence("UTF8", data[k:])
			}
			k += size
		}
		return n, nil
	}
	for k, c := range data {
		if c == 0 {
			return 0, sqlerr.InvalidByteSequence(enc, data[k:])
		}
	}
	return int64(len(data)), nil
}

func untranslatable(seq []byte, from, to string) error {
	parts := make([]string, len(seq))
	for k, c := range seq {
		parts[k] = "0x" + hex.EncodeToString([]byte{c})
	}
	return sqlerr.New(sqlerr.Code("22P05"), "character with byte sequence %s in encoding \"%s\" has no equivalent in encoding \"%s\"",
		strings.Join(parts, " "), from, to)
}

// convertEncoding is pg_convert(data, src, dst).
func convertEncoding(data []byte, src, dst string) ([]byte, error) {
	if _, err := verifyEncoding(data, src); err != nil {
		return nil, err
	}
	switch {
	case len(data) == 0, src == dst, dst == "SQL_ASCII":
		return data, nil
	case src == "SQL_ASCII":
		// nothing to convert, but the result must be valid in dst
		if _, err := verifyEncoding(data, dst); err != nil {
			return nil, err
		}
		return data, nil
	case src != "UTF8" && dst != "UTF8":
		table, ok := directConversions[[2]string{src, dst}] // encpairs.go
		if !ok {
			return nil, sqlerr.New(sqlerr.UndefinedFunction, "default conversion function for encoding \"%s\" to \"%s\" does not exist", src, dst)
		}
		out := make([]byte, len(data))
		for k, c := range data {
			switch v := table[c&0x7f]; {
			case c < 0x80:
				out[k] = c
			case v < 0:
				return nil, untranslatable(data[k:k+1], src, dst)
			default:
				out[k] = byte(v)
			}
		}
		return out, nil
	}
	var runes []rune
	if src == "UTF8" {
		runes = []rune(string(data))
	} else {
		t, _ := singleByteTableOf(src)
		runes = make([]rune, len(data))
		for k, c := range data {
			switch r := t.decode[c&0x7f]; {
			case c < 0x80:
				runes[k] = rune(c)
			case r < 0:
				return nil, untranslatable(data[k:k+1], src, dst)
			default:
				runes[k] = r
			}
		}
	}
	// one of them is UTF8 here
	if dst == "UTF8" {
		return []byte(string(runes)), nil
	}
	t, _ := singleByteTableOf(dst)
	out := make([]byte, len(runes))
	for k, r := range runes {
		if r < 0x80 {
			out[k] = byte(r)
			continue
		}
		b, ok := t.encode[r]
		if !ok { // src is UTF8 here
			return nil, untranslatable([]byte(string(r)), src, dst)
		}
		out[k] = b
	}
	return out, nil
}

func convertToRow(a []arrow.Array, i int) (any, error) {
	enc, err := encodingNamed(strArg(a, 1, i), "destination ")
	if err != nil {
		return nil, err
	}
	return convertEncoding([]byte(strArg(a, 0, i)), "UTF8", enc)
}

func convertFromRow(a []arrow.Array, i int) (any, error) {
	enc, err := encodingNamed(strArg(a, 1, i), "source ")
	if err != nil {
		return nil, err
	}
	out, err := convertEncoding(byteArg(a, 0, i), enc, "UTF8")
	if err != nil {
		return nil, err
	}
	return string(out), nil
}

func convertRow(a []arrow.Array, i int) (any, error) {
	src, err := encodingNamed(strArg(a, 1, i), "source ")
	if err != nil {
		return nil, err
	}
	dst, err := encodingNamed(strArg(a, 2, i), "destination ")
	if err != nil {
		return nil, err
	}
	return convertEncoding(byteArg(a, 0, i), src, dst)
}

// lengthInEncodingRow is length(bytea, name): the number of characters of
// the bytes read in the named encoding, verified as pg_verify_mbstr_len
// verifies them.
func lengthInEncodingRow(a []arrow.Array, i int) (any, error) {
	enc, err := encodingNamed(strArg(a, 1, i), "")
	if err != nil {
		return nil, err
	}
	return verifyEncoding(byteArg(a, 0, i), enc)
}
