package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomInet is an inet literal: an IPv4 or IPv6 address (sometimes
// sharing a prefix with the others, so containment and order meet ties)
// with a random mask length or none (seeded: a failure repeats).
func randomInet(rng *rand.Rand) string {
	var addr string
	max := 32
	if rng.Intn(3) == 0 {
		max = 128
		groups := make([]string, 8)
		for i := range groups {
			if i < 2 {
				groups[i] = []string{"2001", "fe80", "0", "ffff"}[rng.Intn(4)]
			} else {
				groups[i] = fmt.Sprintf("%x", []int{0, 1, rng.Intn(65536)}[rng.Intn(3)])
			}
		}
		addr = strings.Join(groups, ":")
	} else {
		octets := []string{[]string{"10", "192", "0", "255"}[rng.Intn(4)]}
		for i := 0; i < 3; i++ {
			octets = append(octets, fmt.Sprint([]int{0, 255, rng.Intn(256)}[rng.Intn(3)]))
		}
		addr = strings.Join(octets, ".")
	}
	if rng.Intn(4) != 0 {
		addr += fmt.Sprintf("/%d", []int{0, max, max / 2, rng.Intn(max + 1)}[rng.Intn(4)])
	}
	return "'" + addr + "'::inet"
}

// inetUses are queries over two inet values $1 and $2 and an integer
// $n: PostgreSQL's inet functions, operators and casts.
var inetUses = []string{
	"SELECT host($1), masklen($1), family($1), abbrev($1), $1::text",
	"SELECT netmask($1), hostmask($1), network($1), pg_typeof(network($1)), broadcast($1)",
	"SELECT $1::cidr, ($1::text)::cidr, set_masklen(network($1), $n), pg_typeof(set_masklen(network($1), $n))",
	"SELECT abbrev(network($1)), network($1) = $1, network($1) < $2, network($1) >> $2, network($1)::inet",
	"SELECT x FROM (VALUES (network($1)), (network($2)), ('10.0.0.0/8'::cidr)) v(x) ORDER BY x",
	"SELECT set_masklen($1, $n), pg_typeof(set_masklen($1, $n))",
	"SELECT $1 = $2, $1 <> $2, $1 < $2, $1 <= $2, $1 > $2, $1 >= $2",
	"SELECT $1 << $2, $1 <<= $2, $1 >> $2, $1 >>= $2, $1 && $2",
	"SELECT inet_same_family($1, $2), inet_merge($1, $2), pg_typeof(inet_merge($1, $2))",
	"SELECT ~$1, $1 & $2, $1 | $2",
	"SELECT $1 + $n, $n + $1, $1 - $n, $1 - $2",
	"SELECT x FROM (VALUES ($1), ($2), ('10.0.0.0/8'::inet), ('::/0'::inet)) v(x) ORDER BY x",
	"SELECT x FROM (VALUES ($1), ($2), ('10.0.0.1'::inet)) v(x) ORDER BY x DESC",
	"SELECT $1 UNION SELECT $2 UNION SELECT '10.0.0.0/8' ORDER BY 1",
	"SELECT x, count(*) FROM (VALUES ($1), ($2), ($1)) v(x) GROUP BY x ORDER BY 1",
	"SELECT ($1::text)::inet, CAST(host($1) AS inet)",
}

// inetInputs are texts inet_in is given: masks, IPv4 shorthand it
// refuses, zones, blanks.
var inetInputs = []string{"'1.2.3.4'", "'1.2.3.4/33'", "'::1/128'", "'::1/129'", "'1.2.3'", "'1.2.3.4/'", "'x'", "''", "'1.2.3.4/-1'", "'::ffff:1.2.3.4'", "'1.2.3.4/08'"}

// cidrInputs are texts cidr_in is given: IPv4 with fewer octets and the
// classful masks they imply, bits right of the mask, bad masks.
var cidrInputs = []string{"'10'", "'10.1'", "'128.1'", "'192.168.1'", "'224'", "'224.1'", "'240'", "'10/16'", "'10.0/8'", "'10.1.2.3'", "'10.1.2.3/8'",
	"'::1'", "'::1/64'", "'::/0'", "'x'", "'256'", "'10/33'", "'1.2.3.4.5'", "''", "'10.1.2.0/24'"}

// TestInetDifferential: every use × pairs of random inet values × masks
// and offsets, on sqlgate and PostgreSQL 15: the same values of the same
// types, or refused with the same SQLSTATE and message.
func TestInetDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 869))))
	var vals []string
	for i := 0; i < 14; i++ {
		vals = append(vals, randomInet(rng))
	}
	vals = append(vals, "NULL::inet", "'255.255.255.255'::inet", "'::'::inet",
		// IPv6 with an IPv4 tail (abbrev writes its octets), a zero run of one
		"'::ffff:10.1.2.3/113'::inet", "'::10.1.2.3/121'::inet", "'::ffff:0.0.0.0/128'::inet", "'1:2:3:4:5:6:7:0'::inet")
	stats := map[string]int{}
	for _, use := range inetUses {
		for _, x := range vals {
			for k := 0; k < 3; k++ {
				y := vals[rng.Intn(len(vals))]
				n := []string{"0", "1", "-1", "8", "33", "129", "256", "-4294967296"}[rng.Intn(8)]
				q := strings.NewReplacer("$1", x, "$2", y, "$n", n).Replace(use)
				tally(t, ctx, r, q, stats)
			}
		}
	}
	for _, in := range inetInputs {
		tally(t, ctx, r, fmt.Sprintf("SELECT %s::inet", in), stats)
	}
	for _, in := range cidrInputs {
		tally(t, ctx, r, fmt.Sprintf("SELECT %s::cidr", in), stats)
	}
	t.Logf("%d uses × %d values: %v", len(inetUses), len(vals), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestInetColumnsDifferential stores random inet values in an inet
// column and an inet[] column and reads them back ordered, filtered by
// containment, grouped and folded with min and max.
func TestInetColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 870))))
	stats := map[string]int{}
	tally(t, ctx, r, "CREATE TABLE nets (id int PRIMARY KEY, a inet, l inet[], c cidr)", stats)
	for id := 1; id <= 30; id++ {
		a := randomInet(rng)
		if id%9 == 0 {
			a = "NULL"
		}
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO nets VALUES (%d, %s, ARRAY[%s, %s], network(%s))", id, a, randomInet(rng), randomInet(rng), a), stats)
	}
	for _, q := range []string{
		"INSERT INTO nets VALUES (100, '1.2.3.4/33', NULL, NULL)",
		"INSERT INTO nets VALUES (100, 'x', NULL, NULL)",
		"INSERT INTO nets VALUES (100, NULL, NULL, '10.1.2.3/8')",
		"SELECT id, c, c >>= a, abbrev(a) FROM nets ORDER BY c, id",
		"SELECT c, count(*) FROM nets GROUP BY c ORDER BY c DESC",
		"SELECT * FROM nets ORDER BY a, id",
		"SELECT id, a FROM nets ORDER BY a DESC NULLS LAST, id",
		"SELECT id FROM nets WHERE a <<= '10.0.0.0/8' ORDER BY id",
		"SELECT id FROM nets WHERE c = '10.0.0.0/8' OR c < a ORDER BY id",
		"SELECT id FROM nets WHERE a && '192.0.0.0/8' OR a >> '0.0.0.0/0' ORDER BY id",
		"SELECT id FROM nets WHERE a > '10.0.0.0/8' AND family(a) = 4 ORDER BY id",
		"SELECT min(a), max(a), count(DISTINCT a) FROM nets",
		"SELECT family(a), min(a), max(a) FROM nets GROUP BY 1 ORDER BY 1",
		"SELECT a, count(*) FROM nets GROUP BY a ORDER BY a",
		"SELECT DISTINCT masklen(a) FROM nets ORDER BY 1",
		"SELECT id, rank() OVER (ORDER BY a) FROM nets ORDER BY id",
		"SELECT id, host(a), network(a)::text, broadcast(a), a - 1 FROM nets WHERE family(a) = 4 ORDER BY id",
		"UPDATE nets SET a = set_masklen(a, 16) WHERE family(a) = 4 AND id % 3 = 0",
		"SELECT * FROM nets ORDER BY id",
		"SELECT id, l[1], l[2] FROM nets ORDER BY id",
		"DROP TABLE nets",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// inetBinaryQueries return inet and cidr values and their arrays, which
// travel in binary as inet_send's family, bits, is_cidr, length and
// address; $1 is sent as a binary cidr parameter.
var inetBinaryQueries = []string{
	"SELECT '10.1.2.3/8'::inet, '::1'::inet, '10.0.0.0/8'::cidr, '::/0'::cidr, network('1.2.3.4'::inet), ARRAY['1.2.3.4'::inet], ARRAY['10.0.0.0/8'::cidr], NULL::cidr",
	"SELECT $1::cidr, $1::cidr::inet, masklen($1::cidr)",
}

// TestInetBinaryDifferential reads inet and cidr in binary format and
// sends a cidr as a binary parameter (OID 650): the same bytes as
// PostgreSQL's, and the same result types.
func TestInetBinaryDifferential(t *testing.T) {
	t.Parallel()
	// 10.1.0.0/16 as cidr_send writes it
	compareBinary(t, inetBinaryQueries, []byte{2, 16, 1, 4, 10, 1, 0, 0}, 650)
}
