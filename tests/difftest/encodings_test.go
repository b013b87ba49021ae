package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// singleByteEncodings are PostgreSQL's single-byte server encodings,
// which sqlgate's convert, convert_from, convert_to and length(bytea,
// name) read and write (functions/encodings.go).
var singleByteEncodings = []string{
	"LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10",
	"ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN866", "WIN874", "WIN1250", "WIN1251",
	"WIN1252", "WIN1253", "WIN1254", "WIN1255", "WIN1256", "WIN1257", "WIN1258", "KOI8R", "KOI8U",
}

// TestEncodingsMatchPostgres converts every byte 0x01..0xFF of each
// single-byte encoding to UTF8 and back (convert_from, convert_to), and
// random byte strings between random pairs of encodings (convert, with
// SQL_ASCII and UTF8 among them: pass-through, verification, the pairs
// PostgreSQL converts with tables of its own and the pairs it has no
// conversion for), comparing values and errors with PostgreSQL 15.
func TestEncodingsMatchPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, enc := range singleByteEncodings {
		for b := 1; b < 256; b++ {
			// one byte a query: an untranslatable byte is an error
			q := fmt.Sprintf(`SELECT encode(convert_to(convert_from(b, '%s'), 'UTF8'), 'hex'), encode(convert_to(convert_from(b, '%s'), '%s'), 'hex'), length(b, '%s') FROM (VALUES ('\x%02x'::bytea)) v(b)`,
				enc, enc, enc, enc, b)
			tally(t, ctx, r, q, stats)
		}
	}
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261206))))
	names := append([]string{"UTF8", "SQL_ASCII", "utf-8", "koi8", "win", "iso-8859-5"}, singleByteEncodings...)
	for range 400 {
		b := make([]string, rng.Intn(4))
		for i := range b {
			switch rng.Intn(4) {
			case 0:
				b[i] = fmt.Sprintf("%02x", 0x20+rng.Intn(0x60))
			case 1:
				b[i] = "c3a9" // é in UTF-8
			default:
				b[i] = fmt.Sprintf("%02x", 0x80+rng.Intn(0x80))
			}
		}
		src, dst := names[rng.Intn(len(names))], names[rng.Intn(len(names))]
		q := fmt.Sprintf(`SELECT encode("convert"('\x%s'::bytea, '%s', '%s'), 'hex')`, strings.Join(b, ""), src, dst)
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] < 5000 {
		t.Errorf("outcomes: %v", stats)
	}
}
