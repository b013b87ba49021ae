package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// PostgreSQL reads an integer's text (int2in, int4in, int8in) as
// pg_strtoint16 / pg_strtoint32 / scanint8 do: C spaces, an optional
// sign, at least one digit, C spaces, nothing else; a value out of the
// type's range is found digit by digit, before what follows the digits,
// so '99999999999x'::int is out of range while '12x'::int is invalid
// syntax. The generator draws texts of spaces, signs, runs of digits
// around every range's bounds and junk after them (a point, an exponent,
// a sign, letters, an underscore, a space inside), cast to smallint,
// integer and bigint as constants and from a table's column: SQLSTATE and
// message, or the value, no allowance. SQLGATE_DIFF_INTINPUT sets the
// count (default 400).

// intInputText is one drawn integer text.
func intInputText(rng *rand.Rand) string {
	p := pickFrom(rng)
	var b strings.Builder
	b.WriteString(p("", "", " ", "\t", "  "))
	b.WriteString(p("", "", "-", "+", "--", "+-"))
	digits := p("", "0", "7", "12", "32767", "32768", "65536", "2147483647", "2147483648", "3000000000", "4294967296",
		"9223372036854775807", "9223372036854775808", "99999999999999999999", "00000000000000000000012")
	if digits != "" && rng.Intn(4) == 0 {
		digits += strings.Repeat("9", rng.Intn(12))
	}
	b.WriteString(digits)
	b.WriteString(p("", "", "", "x", ".5", ".", "e3", "-1", "_0", " 1", "a", "1"))
	b.WriteString(p("", "", " ", "\n"))
	return b.String()
}

// TestIntegerInputDifferential: see above.
func TestIntegerInputDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r, "CREATE TABLE ii (id int PRIMARY KEY, t text)")
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 4343))))
	n := envInt(t, "SQLGATE_DIFF_INTINPUT", 400)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		s := strings.ReplaceAll(intInputText(rng), "'", "''")
		typ := pickFrom(rng)("smallint", "integer", "bigint")
		tallyBy(t, ctx, r, fmt.Sprintf("SELECT '%s'::%s AS v", s, typ), stats, tallyRule{})
		if i%4 == 0 {
			// the same text read from a column, cast as the rows are read
			runOnBoth(t, ctx, r, fmt.Sprintf("INSERT INTO ii VALUES (%d, '%s')", i, s))
			tallyBy(t, ctx, r, fmt.Sprintf("SELECT t::%s AS v FROM ii WHERE id = %d", typ, i), stats, tallyRule{})
		}
	}
	t.Logf("%d texts: %v", n, stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/10 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
