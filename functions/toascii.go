package functions

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// to_ascii(text [, encoding]) replaces each byte of 128 or more by an ASCII
// look-alike from the table of a single-byte encoding, as PostgreSQL's
// ascii.c does. Only LATIN1, LATIN2, LATIN9 and WIN1250 have a table; any
// other encoding, and so the one-argument form in a UTF8 database, is
// refused. The bytes are those of the text as stored (UTF-8): PostgreSQL
// reads them as the named encoding's without converting, so
// to_ascii('é', 'LATIN1') is 'AC'.

// asciiTables maps an encoding to the replacements of bytes 128..255.
var asciiTables = map[string]string{
	"LATIN1":  "                                  cL Y  \"Ca  -R     'u .,      ?AAAAAAACEEEEIIII NOOOOOxOUUUUYTBaaaaaaaceeeeiiii nooooo/ouuuuyty",
	"LATIN2":  "                                 A L LS \"SSTZ-ZZ a,l'ls ,sstz\"zzRAAAALCCCEEEEIIDDNNOOOOxRUUUUYTBraaaalccceeeeiiddnnoooo/ruuuuyt.",
	"LATIN9":  "                                  cL YS sCa  -R     Zu .z   EeY?AAAAAAACEEEEIIII NOOOOOxOUUUUYTBaaaaaaaceeeeiiii nooooo/ouuuuyty",
	"WIN1250": "  ' \"    %S<STZZ `'\"\".--  s>stzz   L A  \"CS  -RZ  ,l'u .,as L\"lzRAAAALCCCEEEEIIDDNNOOOOxRUUUUYTBraaaalccceeeeiiddnnoooo/ruuuuyt ",
}

// pgEncodingsByCode are PostgreSQL's server and client encodings by number
// (pg_enc), the numbers to_ascii(text, int) takes.
var pgEncodingsByCode = []string{
	"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8", "MULE_INTERNAL",
	"LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10",
	"WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252",
	"ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8",
	"WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U",
	"SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004",
}

// encodingAliases are the names pg_char_to_encoding knows besides the
// canonical ones (compared after cleanEncodingName).
var encodingAliases = map[string]string{
	"abc": "WIN1258", "alt": "WIN866", "koi8": "KOI8R", "mskanji": "SJIS", "shiftjis": "SJIS",
	"tcvn": "WIN1258", "tcvn5712": "WIN1258", "vscii": "WIN1258", "unicode": "UTF8", "win": "WIN1251",
	"iso88591": "LATIN1", "iso88592": "LATIN2", "iso88593": "LATIN3", "iso88594": "LATIN4",
	"iso88599": "LATIN5", "iso885910": "LATIN6", "iso885913": "LATIN7", "iso885914": "LATIN8",
	"iso885915": "LATIN9", "iso885916": "LATIN10",
	"win932": "SJIS", "win936": "GBK", "win949": "UHC", "win950": "BIG5",
}

// cleanEncodingName is PostgreSQL's clean_encoding_name: letters and
// digits only, lower-cased ("ISO-8859-1" and "iso8859_1" are one name).
func cleanEncodingName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteByte(c)
		}
	}
	return b.String()
}

// encodingByName is pg_char_to_encoding: the canonical name of an encoding
// name or alias (with windowsNNNN for winNNNN), or false.
func encodingByName(s string) (string, bool) {
	c := cleanEncodingName(s)
	if strings.HasPrefix(c, "windows") && len(c) > len("windows") {
		c = "win" + c[len("windows"):]
	}
	if e, ok := encodingAliases[c]; ok {
		return e, true
	}
	for _, e := range pgEncodingsByCode {
		if cleanEncodingName(e) == c {
			return e, true
		}
	}
	return "", false
}

// toASCII is pg_to_ascii over the bytes of s read as encoding enc.
func toASCII(s, enc string) (string, error) {
	table, ok := asciiTables[enc]
	if !ok {
		return "", sqlerr.New(sqlerr.FeatureNotSupported, "encoding conversion from %s to ASCII not supported", enc)
	}
	out := []byte(s)
	for i, c := range out {
		if c >= 128 {
			out[i] = table[c-128]
		}
	}
	return string(out), nil
}

func toASCIIFuncs() []*Func {
	return []*Func{
		// the database encoding is UTF8 (getdatabaseencoding), which has no table
		{Name: "to_ascii", Args: []types.T{tText}, Ret: tText, Strict: true, Kernel: rawRowFunc(tText, func(a []arrow.Array, i int) (any, error) {
			return toASCII(strArg(a, 0, i), "UTF8")
		})},
		{Name: "to_ascii", Args: []types.T{tText, tName}, Ret: tText, Strict: true, Kernel: rawRowFunc(tText, func(a []arrow.Array, i int) (any, error) {
			name := strArg(a, 1, i)
			enc, ok := encodingByName(name)
			if !ok {
				return nil, sqlerr.New(sqlerr.UndefinedObject, "%s is not a valid encoding name", name)
			}
			return toASCII(strArg(a, 0, i), enc)
		})},
		{Name: "to_ascii", Args: []types.T{tText, tInt4}, Ret: tText, Strict: true, Kernel: rawRowFunc(tText, func(a []arrow.Array, i int) (any, error) {
			code := intArg(a, 1, i)
			if code < 0 || code >= int64(len(pgEncodingsByCode)) {
				return nil, sqlerr.New(sqlerr.UndefinedObject, "%d is not a valid encoding code", code)
			}
			return toASCII(strArg(a, 0, i), pgEncodingsByCode[code])
		})},
	}
}
