package difftest

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand"
	"testing"
)

// TestByteaLikeDifferential matches random bytea values with random bytea
// patterns (wildcards, backslash and custom escapes, the bytes of a UTF-8
// character, NUL) by LIKE, NOT LIKE, ~~ and like_escape, written as typed
// values and as untyped literals, against PostgreSQL 15. bytea has its
// own LIKE (bytealike: _ is one byte, not one character); sqlgate had
// none and refused every such query.
func TestByteaLikeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261205))))
	// 0xc3 0xa9 is é in UTF-8: _ matches one of its bytes in bytea
	alphabet := []byte{'a', 'b', '%', '_', '\\', '#', 0xc3, 0xa9, 0x00}
	bytesOf := func(max int) []byte {
		b := make([]byte, rng.Intn(max+1))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		return b
	}
	lit := func(b []byte) string { return `'\x` + hex.EncodeToString(b) + `'` }
	stats := map[string]int{}
	for range 400 {
		v, p := bytesOf(4), bytesOf(4)
		var q string
		switch rng.Intn(5) {
		case 0:
			q = fmt.Sprintf("SELECT %s::bytea LIKE %s::bytea, %s::bytea NOT LIKE %s::bytea", lit(v), lit(p), lit(v), lit(p))
		case 1:
			q = fmt.Sprintf("SELECT %s::bytea ~~ %s, %s !~~ %s::bytea", lit(v), lit(p), lit(v), lit(p))
		case 2:
			q = fmt.Sprintf("SELECT %s::bytea LIKE %s::bytea ESCAPE '#', %s::bytea LIKE %s::bytea ESCAPE ''", lit(v), lit(p), lit(v), lit(p))
		case 3:
			q = fmt.Sprintf("SELECT like_escape(%s::bytea, '#'::bytea), like_escape(%s::bytea, ''::bytea)", lit(p), lit(p))
		default:
			q = fmt.Sprintf("SELECT x LIKE %s::bytea FROM (VALUES (%s::bytea), (%s::bytea), (NULL)) v(x) ORDER BY 1", lit(p), lit(v), lit(p))
		}
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] < 300 {
		t.Errorf("outcomes: %v", stats)
	}
}
