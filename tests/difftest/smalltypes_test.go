package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomMoneyText is a text money's input is given: an amount with or
// without a '$', a sign in front ('-', '+', '(') or behind ('-', ')'),
// thousands separators anywhere, fraction digits past the second (which
// round), blanks around, amounts at and past int64's cents, and junk.
func randomMoneyText(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	var digits string
	switch rng.Intn(6) {
	case 0:
		digits = pick("92233720368547758", "92233720368547757", "92233720368547759", "922337203685477580", "9999999999999999999")
	case 1:
		digits = pick("0", "1", "12", "")
	default:
		n := 1 + rng.Intn(12)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte(byte('0' + rng.Intn(10)))
			if rng.Intn(5) == 0 {
				b.WriteByte(',')
			}
		}
		digits = b.String()
	}
	frac := pick("", ".", ".5", ".07", ".08", ".075", ".005", ".004", ".0099", ".999", ".1.2", ".5x")
	s := pick("", "", " ", "$", " $ ") + pick("", "", "-", "+", "(", "$") + pick("", " ") + digits + frac +
		pick("", "", "", " ", ")", "-", "+", "$", " x", "e5", "USD")
	return strings.ReplaceAll(s, "'", "''")
}

// moneyValues are money operands: amounts at both ends of the range, 0,
// one cent, and a few plain ones.
var moneyValues = []string{
	"'92233720368547758.07'::money", "'-92233720368547758.08'::money", "'0'::money", "'0.01'::money",
	"'-0.01'::money", "'1'::money", "'-1.5'::money", "'1234.56'::money", "'46116860184273879.04'::money", "NULL::money",
}

// moneyOperands are the other side of money's * and /: every integer
// and float type, with 0, -1, their ends, fractions, NaN and infinity.
var moneyOperands = []string{
	"0", "1", "-1", "2", "3::int2", "(-1)::int2", "0::int2", "2147483647", "9223372036854775807", "(-9223372036854775808)::int8", "-1::int8",
	"0.5", "1.5::float4", "0.333::float4", "-2.5::float8", "1e-3::float8", "1e17::float8", "1e300::float8", "1e308::float8",
	"'nan'::float8", "'infinity'::float8", "'-infinity'::float4", "0::float8", "0.0::float4", "'2'",
}

// moneyUses are queries over two money values $1 and $2 and another
// operand $n.
var moneyUses = []string{
	"SELECT $1 + $2, $1 - $2",
	"SELECT $1 * $n, $n * $1",
	"SELECT $1 / $n",
	"SELECT $1 / $2, pg_typeof($1 / $2)",
	"SELECT $1 = $2, $1 <> $2, $1 < $2, $1 <= $2, $1 > $2, $1 >= $2, cash_cmp($1, $2)",
	"SELECT cashlarger($1, $2), cashsmaller($1, $2), cash_words($1)",
	"SELECT $1::numeric, ($1::numeric * $n)::money, $1::text::money",
	"SELECT x FROM (VALUES ($1), ($2), ('5'::money)) v(x) ORDER BY x",
	"SELECT sum(x), min(x), max(x), count(x) FROM (VALUES ($1), ($2), ($1)) v(x)",
	"SELECT $n::money",
	"SELECT $1 + $n",
	"SELECT $1 % $n",
}

// TestMoneyDifferential: money's input (random texts, valid and not,
// past the range and rounding into it), then every operator, function
// and cast over pairs of amounts and every operand type, on sqlgate and
// PostgreSQL 15: the same values of the same types, or refused with the
// same SQLSTATE and message.
func TestMoneyDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 790))))
	stats := map[string]int{}
	for i := 0; i < 120; i++ {
		in := randomMoneyText(rng)
		tally(t, ctx, r, fmt.Sprintf("SELECT '%s'::money, '%s'::money::numeric", in, in), stats)
	}
	for _, use := range moneyUses {
		for _, x := range moneyValues {
			for k := 0; k < 4; k++ {
				y := moneyValues[rng.Intn(len(moneyValues))]
				n := moneyOperands[rng.Intn(len(moneyOperands))]
				q := strings.NewReplacer("$1", x, "$2", y, "$n", n).Replace(use)
				tally(t, ctx, r, q, stats)
			}
		}
	}
	for _, n := range []string{"1e30", "-92233720368547758.08", "-92233720368547758.085", "92233720368547758.07", "92233720368547758.075", "'nan'::numeric", "1.005", "-1.005", "12345678901.234567"} {
		tally(t, ctx, r, "SELECT ("+n+")::numeric::money", stats)
	}
	t.Logf("%d uses × %d values: %v", len(moneyUses), len(moneyValues), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// randomMacText is a text macaddr's or macaddr8's input is given: 6 or
// 8 bytes in one of the notations (colons, hyphens, dots between groups
// of 2 bytes, groups of 3, none), in either case, with blanks, a stray
// separator, a short or long field, a non-hex digit or a byte too many.
func randomMacText(rng *rand.Rand) string {
	n := 6
	if rng.Intn(2) == 0 {
		n = 8
	}
	if rng.Intn(8) == 0 {
		n += []int{-1, 1}[rng.Intn(2)]
	}
	bytes := make([]string, n)
	for i := range bytes {
		b := fmt.Sprintf("%02x", []int{0, 255, rng.Intn(256)}[rng.Intn(3)])
		if rng.Intn(3) == 0 {
			b = strings.ToUpper(b)
		}
		bytes[i] = b
	}
	if rng.Intn(10) == 0 {
		bytes[rng.Intn(n)] = []string{"1", "100", "g0", "-1", " 1", "0x1"}[rng.Intn(6)]
	}
	var s string
	switch rng.Intn(6) {
	case 0, 1:
		s = strings.Join(bytes, []string{":", "-", "."}[rng.Intn(3)])
	case 2: // groups of 2 bytes
		var g []string
		for i := 0; i+1 < n; i += 2 {
			g = append(g, bytes[i]+bytes[i+1])
		}
		s = strings.Join(g, []string{".", "-", ":"}[rng.Intn(3)])
	case 3: // groups of 3 bytes
		if n >= 6 {
			s = strings.Join(bytes[:3], "") + []string{":", "-", "."}[rng.Intn(3)] + strings.Join(bytes[3:], "")
		}
	case 4:
		s = strings.Join(bytes, "")
	default: // mixed separators
		for i, b := range bytes {
			if i > 0 {
				s += []string{":", "-", "."}[rng.Intn(3)]
			}
			s += b
		}
	}
	return []string{"", "", " ", "\t"}[rng.Intn(4)] + s + []string{"", "", " ", ":", "x", " x", "  "}[rng.Intn(7)]
}

// macUses are queries over two macaddr values $1, $2 and two macaddr8
// values $3, $4.
var macUses = []string{
	"SELECT $1, $3, trunc($1), trunc($3), macaddr8_set7bit($3), $1::macaddr8, $1::text",
	"SELECT ~$1, $1 & $2, $1 | $2, ~$3, $3 & $4, $3 | $4",
	"SELECT $1 = $2, $1 <> $2, $1 < $2, $1 <= $2, $1 > $2, $1 >= $2, macaddr_cmp($1, $2)",
	"SELECT $3 = $4, $3 < $4, $3 >= $4, macaddr8_cmp($3, $4), $3::macaddr",
	"SELECT x FROM (VALUES ($1), ($2), ('08:00:2b:01:02:03'::macaddr)) v(x) ORDER BY x",
	"SELECT x FROM (VALUES ($3), ($4), ($1::macaddr8)) v(x) ORDER BY x DESC",
	"SELECT x, count(*) FROM (VALUES ($1), ($2), ($1)) v(x) GROUP BY x ORDER BY x",
}

// TestMacAddrDifferential: macaddr's and macaddr8's input (random texts
// in every notation, valid and not), and their functions, operators,
// casts and order over random addresses, on sqlgate and PostgreSQL 15.
func TestMacAddrDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 829))))
	stats := map[string]int{}
	for i := 0; i < 150; i++ {
		in := randomMacText(rng)
		tally(t, ctx, r, fmt.Sprintf("SELECT '%s'::macaddr", in), stats)
		tally(t, ctx, r, fmt.Sprintf("SELECT '%s'::macaddr8", in), stats)
	}
	mac := func(n int) string {
		b := make([]string, n)
		for i := range b {
			b[i] = fmt.Sprintf("%02x", []int{0, 255, 254, rng.Intn(256)}[rng.Intn(4)])
		}
		return strings.Join(b, ":")
	}
	for _, use := range macUses {
		for k := 0; k < 12; k++ {
			m4 := mac(8)
			if k%3 == 0 { // convertible to macaddr
				m4 = mac(3) + ":ff:fe:" + mac(3)
			}
			q := strings.NewReplacer("$1", "'"+mac(6)+"'::macaddr", "$2", "'"+mac(6)+"'::macaddr",
				"$3", "'"+mac(8)+"'::macaddr8", "$4", "'"+m4+"'::macaddr8").Replace(use)
			tally(t, ctx, r, q, stats)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestSmallTypesColumnsDifferential stores random money, macaddr and
// macaddr8 values in columns (money a BIGINT of cents, the mac types
// STRING of their text, a macaddr key), and reads them back ordered,
// filtered, summed and cast, then through COPY out and in.
func TestSmallTypesColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 774))))
	stats := map[string]int{}
	tally(t, ctx, r, "CREATE TABLE smt (id int PRIMARY KEY, m money, a macaddr, b macaddr8, ms money[])", stats)
	tally(t, ctx, r, "CREATE TABLE smk (a macaddr PRIMARY KEY, m money)", stats)
	hex := func(n int) string {
		b := make([]string, n)
		for i := range b {
			b[i] = fmt.Sprintf("%02x", rng.Intn(4)*85)
		}
		return strings.Join(b, "-")
	}
	for id := 1; id <= 30; id++ {
		m := fmt.Sprintf("'%d.%02d'", rng.Intn(2000000)-1000000, rng.Intn(100))
		if id%11 == 0 {
			m = "NULL"
		}
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO smt VALUES (%d, %s, '%s', '%s', ARRAY[%s, '1']::money[])", id, m, hex(6), hex(8), m), stats)
	}
	for id := 1; id <= 8; id++ {
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO smk VALUES ('%02x:00:00:00:00:%02x', %d)", id*3, id, id*100), stats)
	}
	for _, q := range []string{
		"INSERT INTO smt VALUES (100, 1.5::float8)",
		"INSERT INTO smt VALUES (100, 'x')",
		"INSERT INTO smt VALUES (100, NULL, '08:00:2b:01:02')",
		"INSERT INTO smt VALUES (100, NULL, NULL, '08:00:2b:01:02:03:04')",
		"SELECT * FROM smt ORDER BY m, id",
		"SELECT id, m FROM smt ORDER BY m DESC NULLS LAST, id",
		"SELECT id, a, b FROM smt ORDER BY a, b, id",
		"SELECT sum(m), min(m), max(m), count(DISTINCT m) FROM smt",
		"SELECT a, sum(m), count(*) FROM smt GROUP BY a ORDER BY a",
		"SELECT id, m * 2, m / 3, m / '2'::money, -(m::numeric) FROM smt WHERE m > '0' ORDER BY id",
		"SELECT id FROM smt WHERE m BETWEEN '-1000' AND '1000' OR a = '00:55:aa:ff:00:55' ORDER BY id",
		"SELECT id, trunc(a), b & 'ff:ff:ff:00:00:00:00:ff', ~a FROM smt ORDER BY id",
		"SELECT id, rank() OVER (ORDER BY m), sum(m) OVER (ORDER BY id) FROM smt ORDER BY id",
		"SELECT id, ms[1], ms FROM smt ORDER BY id",
		"SELECT * FROM smk WHERE a = '06:00:00:00:00:02'",
		"SELECT * FROM smk WHERE a > '0c:00:00:00:00:00' ORDER BY a",
		"SELECT k.a, k.m + t.m FROM smk k JOIN smt t ON t.id = k.m::numeric / 100 ORDER BY 1",
	} {
		tally(t, ctx, r, q, stats)
	}
	// COPY out (text and binary) gives the same bytes, and COPY in of
	// the text reads the same values back
	var texts, bins [2]string
	for _, format := range []string{"text", "binary", "csv"} {
		var outs [2]string
		for i, e := range []Executor{r.SQLGate, r.Postgres} {
			var b strings.Builder
			if _, err := e.(*Session).conn.CopyTo(ctx, &b, "COPY (SELECT id, m, a, b, ms FROM smt ORDER BY id) TO STDOUT (FORMAT "+format+")"); err != nil {
				t.Fatalf("COPY TO (%s): %v", format, err)
			}
			outs[i] = b.String()
		}
		if outs[0] != outs[1] {
			t.Errorf("COPY TO (FORMAT %s) differs:\nsqlgate:  %q\npostgres: %q", format, outs[0], outs[1])
		}
		switch format {
		case "text":
			texts = outs
		case "binary":
			bins = outs
		}
	}
	// COPY in of each system's own text, and of PostgreSQL's binary
	runOnBoth(t, ctx, r, "CREATE TABLE smt2 (id int PRIMARY KEY, m money, a macaddr, b macaddr8, ms money[])",
		"CREATE TABLE smt3 (id int PRIMARY KEY, m money, a macaddr, b macaddr8, ms money[])")
	for i, e := range []Executor{r.SQLGate, r.Postgres} {
		if _, err := e.(*Session).conn.CopyFrom(ctx, strings.NewReader(texts[i]), "COPY smt2 FROM STDIN"); err != nil {
			t.Fatalf("COPY FROM: %v", err)
		}
		if _, err := e.(*Session).conn.CopyFrom(ctx, strings.NewReader(bins[1]), "COPY smt3 FROM STDIN (FORMAT binary)"); err != nil {
			t.Fatalf("COPY FROM (FORMAT binary): %v", err)
		}
	}
	for _, q := range []string{
		"SELECT * FROM smt2 ORDER BY id",
		"SELECT * FROM smt3 ORDER BY id",
		"SELECT count(*) FROM smt2 JOIN smt USING (id) WHERE smt2.m = smt.m AND smt2.a = smt.a AND smt2.b = smt.b",
		"SELECT count(*) FROM smt3 JOIN smt USING (id) WHERE smt3.m = smt.m AND smt3.a = smt.a AND smt3.b = smt.b",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// smallTypesBinaryQueries return money, macaddr and macaddr8 values and
// their arrays in binary (cash_send's int64 of cents, the mac types'
// bytes); $1 is a binary money parameter.
var smallTypesBinaryQueries = []string{
	"SELECT '-1,234.56'::money, '08:00:2b:01:02:03'::macaddr, '08:00:2b:01:02:03:04:05'::macaddr8, ARRAY['1'::money, NULL], ARRAY['08:00:2b:01:02:03'::macaddr], ARRAY['00:00:00:00:00:00:00:01'::macaddr8], NULL::money",
	"SELECT $1::money, $1::money * 2, cash_words($1::money)",
}

// TestSmallTypesBinaryDifferential reads money and the mac types in
// binary format and sends money as a binary parameter (OID 790): the
// same bytes as PostgreSQL's, and the same result types.
func TestSmallTypesBinaryDifferential(t *testing.T) {
	t.Parallel()
	// $12,345.67 as cash_send writes it
	compareBinary(t, smallTypesBinaryQueries, []byte{0, 0, 0, 0, 0, 0x12, 0xd6, 0x87}, 790)
}
