package pgtypes

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestMultidimArraysAgainstPostgres builds random rectangular arrays of
// two and three dimensions (integers, and text with NULLs, empty strings,
// "NULL", quotes, backslashes, braces and blanks), has PostgreSQL 15 read
// each (from a literal quoting every element) and compares array_out's
// text and array_send's bytes with sqlgate's encoders of the same value
// held as an Arrow list of lists.
func TestMultidimArraysAgainstPostgres(t *testing.T) {
	ctx, conn := pgConn(t)
	rng := rand.New(rand.NewPCG(36, 2))
	texts := []string{"a", "", "NULL", "null", `say "hi"`, `back\slash`, "{x}", "a,b", " lead", "tab\there", "é", "x y"}
	for _, c := range []struct {
		pgType string
		leaf   types.T
		gen    func() any
	}{
		{"int4", types.Int32Type, func() any { return int64(rng.IntN(2001) - 1000) }},
		{"text", types.StringType, func() any { return texts[rng.IntN(len(texts))] }},
	} {
		var lits []string
		var vals []any
		var typs []types.T
		for i := 0; i < 300; i++ {
			ndim := 2 + rng.IntN(2)
			dims := make([]int, ndim)
			for k := range dims {
				dims[k] = 1 + rng.IntN(3)
			}
			v := randomMD(rng, dims, c.gen)
			t := c.leaf
			for k := 0; k < ndim; k++ {
				t = types.ArrayOf(t)
			}
			lits = append(lits, quotedLiteral(v))
			vals = append(vals, v)
			typs = append(typs, t)
		}
		want := pgTextAndBinary(t, ctx, conn, "SELECT (s::"+c.pgType+"[])::text, array_send(s::"+c.pgType+"[]) FROM unnest($1::text[]) WITH ORDINALITY AS u(s, i) ORDER BY i", lits)
		bad := 0
		for i, w := range want {
			arr, err := types.ConstArray(memory.DefaultAllocator, vals[i], typs[i], 1)
			if err != nil {
				t.Fatal(err)
			}
			text, _, err := AppendValue(nil, typs[i], FormatText, arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			bin, _, err := AppendValue(nil, typs[i], FormatBinary, arr, 0)
			if err != nil {
				t.Fatal(err)
			}
			arr.Release()
			if (string(text) != w.Text || !bytes.Equal(bin, w.Binary)) && bad < 10 {
				bad++
				t.Errorf("%s %s: sqlgate %s %x, PostgreSQL %s %x", c.pgType, lits[i], text, bin, w.Text, w.Binary)
			}
		}
	}
}

// randomMD is a rectangular nested []any of the given dimensions, about
// one element in eight NULL.
func randomMD(rng *rand.Rand, dims []int, gen func() any) []any {
	out := make([]any, dims[0])
	for i := range out {
		switch {
		case len(dims) > 1:
			out[i] = randomMD(rng, dims[1:], gen)
		case rng.IntN(8) == 0:
			out[i] = nil
		default:
			out[i] = gen()
		}
	}
	return out
}

// quotedLiteral writes v as array input with every element quoted (an
// independent writer: the test must not use the encoder it checks).
func quotedLiteral(v []any) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, e := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		switch x := e.(type) {
		case nil:
			b.WriteString("NULL")
		case []any:
			b.WriteString(quotedLiteral(x))
		default:
			s := fmt.Sprint(x)
			b.WriteString(`"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`)
		}
	}
	b.WriteByte('}')
	return b.String()
}
