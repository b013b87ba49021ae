package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomBits is a B'..' literal of n random bits (seeded: a failure
// repeats).
func randomBits(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("B'")
	for i := 0; i < n; i++ {
		b.WriteByte('0' + byte(rng.Intn(2)))
	}
	b.WriteString("'")
	return b.String()
}

// bitValues are random bit strings of the lengths that matter (empty,
// one bit, within a byte, across bytes, beyond int4 and int8) and NULL,
// as B'..' and X'..' literals and text forms bit_in reads.
func bitValues(rng *rand.Rand) []string {
	var vs []string
	for _, n := range []int{0, 1, 3, 3, 4, 8, 9, 33, 65} {
		vs = append(vs, randomBits(rng, n))
	}
	return append(vs, "NULL", "X'A5'", "'b0110'::varbit", "'x1f'::bit(8)")
}

// bitUses are queries over two bit strings $1 and $2 and an integer $n:
// PostgreSQL's bit string operators, functions and casts, whose size
// mismatches, index ranges and typmods refuse alike.
var bitUses = []string{
	"SELECT $1 & $2, $1 | $2, $1 # $2",
	"SELECT ~($1::varbit), $1 << $n, $1 >> $n, $1 || $2, pg_typeof($1 || $2), pg_typeof($1 & $1)",
	"SELECT $1 = $2, $1 <> $2, $1 < $2, $1 <= $2, $1 > $2, $1 >= $2",
	"SELECT length($1), bit_length($1), octet_length($1), bit_count($1), position($2 IN $1)",
	"SELECT substring($1 FROM $n), substring($1 FROM $n FOR 3), substring($1 FROM 2 FOR $n)",
	"SELECT overlay($1 PLACING $2 FROM $n), overlay($1 PLACING $2 FROM 2 FOR $n)",
	"SELECT get_bit($1, $n), set_bit($1, $n, 1), set_bit($1, 0, $n)",
	"SELECT $1::bit(4), $1::varbit(4), $1::bit(1), $1::bit, $1::varbit, $1::text",
	"SELECT $1::int4, $1::int8, ($n)::bit(5), ($n)::bit(40), ($n)::int8::bit(70), (-$n)::bit(3)",
	"SELECT ($1::text)::bit(6), ($2::text)::varbit(3), CAST($1::text AS bit varying)",
	"SELECT x FROM (VALUES ($1), ($2), (B'101')) v(x) ORDER BY x",
	"SELECT bit_and(x), bit_or(x), bit_xor(x), count(DISTINCT x) FROM (VALUES ($1), ($2), ($1)) v(x)",
	"SELECT x, count(*) FROM (VALUES ($1), ($2), ($1)) v(x) GROUP BY x ORDER BY x",
	"SELECT ARRAY[$1, $2], ARRAY[$1::varbit, $2]",
}

// bitInputs are texts bit_in is given as bit(3) and varbit(3): prefixes,
// bad digits, lengths that fit and do not.
var bitInputs = []string{"'101'", "'b101'", "'B1'", "'x5'", "'X'", "''", "'1012'", "'xg'", "'1111'", "' 1'", "'é'"}

// TestBitStringDifferential: every use × pairs of random bit strings ×
// shift counts and indexes, on sqlgate and PostgreSQL 15: the same values
// of the same types, or refused with the same SQLSTATE and message.
func TestBitStringDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 1560))))
	vals := bitValues(rng)
	stats := map[string]int{}
	for _, use := range bitUses {
		for _, x := range vals {
			for k := 0; k < 4; k++ {
				y := vals[rng.Intn(len(vals))]
				if k == 0 {
					y = x // same length: the bitwise operators apply
				}
				n := []string{"0", "1", "2", "5", "-1", "9", "40"}[rng.Intn(7)]
				q := strings.NewReplacer("$1", x, "$2", y, "$n", n).Replace(use)
				tally(t, ctx, r, q, stats)
			}
		}
	}
	for _, in := range bitInputs {
		for _, typ := range []string{"bit(3)", "varbit(3)", "bit varying", "bit"} {
			tally(t, ctx, r, fmt.Sprintf("SELECT %s::%s", in, typ), stats)
		}
	}
	t.Logf("%d uses × %d values: %v", len(bitUses), len(vals), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestBitStringColumnsDifferential stores random bit strings in bit(4),
// bit varying(6) and bit(2)[] columns and reads them back ordered,
// grouped and folded; assignments of the wrong length refuse alike.
func TestBitStringColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 1562))))
	stats := map[string]int{}
	tally(t, ctx, r, "CREATE TABLE bits (id int PRIMARY KEY, b bit(4), v bit varying(6), a bit(2)[])", stats)
	for id := 1; id <= 24; id++ {
		b, v := randomBits(rng, 4), randomBits(rng, rng.Intn(7))
		if id%7 == 0 {
			b, v = "NULL", "NULL"
		}
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO bits VALUES (%d, %s, %s, ARRAY[%s, %s])", id, b, v, randomBits(rng, 2), randomBits(rng, 2)), stats)
	}
	for _, q := range []string{
		"INSERT INTO bits VALUES (100, B'101', NULL, NULL)",
		"INSERT INTO bits VALUES (100, '10101', NULL, NULL)",
		"INSERT INTO bits VALUES (100, NULL, B'1010101', NULL)",
		"INSERT INTO bits VALUES (100, NULL, NULL, '{1}')",
		"SELECT * FROM bits ORDER BY b, v, id",
		"SELECT * FROM bits ORDER BY v DESC, id",
		"SELECT b, count(*), bit_or(v::bit(6)), bit_and(b) FROM bits GROUP BY b ORDER BY b",
		"SELECT DISTINCT b FROM bits ORDER BY b",
		"SELECT bit_and(b), bit_or(b), bit_xor(b) FROM bits",
		"SELECT id, b & B'1100', b::int4, v || b, get_bit(b, 3) FROM bits ORDER BY id",
		"SELECT id FROM bits WHERE b = B'1010' OR v = '' ORDER BY id",
		"UPDATE bits SET b = ~b WHERE id % 3 = 0",
		"UPDATE bits SET v = v || B'1' WHERE id % 5 = 0",
		"SELECT * FROM bits ORDER BY id",
		"SELECT a[1], a[2] FROM bits ORDER BY id",
		"DROP TABLE bits",
	} {
		// a length refused by the typmod coercion has no position, as
		// PostgreSQL's
		tallyBy(t, ctx, r, q, stats, tallyRule{placed: func(code string) bool { return code == "22026" || code == "22001" }})
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// bitBinaryQueries return bit strings and their arrays, which travel in
// binary as bit_send's bit count and packed bytes.
var bitBinaryQueries = []string{
	"SELECT B'101', X'A5'::varbit, B''::bit varying, '1'::bit(9), ARRAY[B'1', B'0110'], NULL::bit(3)",
	"SELECT $1::bit(3), $1::varbit, length($1::varbit)",
}

// TestBitStringBinaryDifferential reads bit strings in binary format and
// sends them as binary parameters (OID 1562): the same bytes as
// PostgreSQL's, and the same result types and typmods.
func TestBitStringBinaryDifferential(t *testing.T) {
	t.Parallel()
	// 101 as bit_send writes it: 3 bits, then 0b101 packed high
	compareBinary(t, bitBinaryQueries, []byte{0, 0, 0, 3, 0xa0}, 1562)
}

// compareBinary runs each query on both servers with its results in
// binary format ($1, where a query has it, sent as param in binary with
// type oid) and reports where the result types, typmods or bytes differ.
func compareBinary(t *testing.T, queries []string, param []byte, oid uint32) {
	t.Helper()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	run := func(s *Session, q string) (string, error) {
		qctx, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()
		var args [][]byte
		var oids []uint32
		var formats []int16
		if strings.Contains(q, "$1") {
			args, oids, formats = [][]byte{param}, []uint32{oid}, []int16{1}
		}
		res := s.conn.ExecParams(qctx, q, args, oids, formats, []int16{1}).Read()
		if res.Err != nil {
			return "", res.Err
		}
		var b strings.Builder
		for _, fd := range res.FieldDescriptions {
			fmt.Fprintf(&b, "%d/%d ", fd.DataTypeOID, fd.TypeModifier)
		}
		for _, row := range res.Rows {
			for _, v := range row {
				fmt.Fprintf(&b, "[%x %v] ", v, v == nil)
			}
		}
		return b.String(), nil
	}
	for _, q := range queries {
		sg, sgErr := run(r.SQLGate.(*Session), q)
		pg, pgErr := run(r.Postgres.(*Session), q)
		if sgErr != nil || pgErr != nil || sg != pg {
			t.Errorf("%s\n  sqlgate:    %s %v\n  PostgreSQL: %s %v", q, sg, sgErr, pg, pgErr)
		}
	}
}
