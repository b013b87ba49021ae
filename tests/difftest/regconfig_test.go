package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestRegConfigAsOIDDifferential: regconfig has no operators of its own in
// PostgreSQL and converts implicitly to oid (and oid and the integers to
// it), so comparisons, IN lists, ANY/ALL, BETWEEN, CASE, COALESCE,
// GREATEST/LEAST, UNION and ORDER BY over regconfig, oid, the integers,
// unknown literals, text and another reg* type resolve as oid's and order
// by OID. Random pairs and lists of such operands against PostgreSQL 15:
// the same answers, types and errors. SQLGATE_DIFF_REGCONFIG_ROUNDS sets
// the rounds (default 40).
func TestRegConfigAsOIDDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3734))))
	configs := []string{"'english'", "'simple'", "'pg_catalog.simple'", "'3748'", "'13164'", "'99999'"}
	oids := []string{"3748", "1", "0", "13164", "99999"}
	operands := []func() string{
		func() string { return configs[rng.Intn(len(configs))] + "::regconfig" },
		func() string { return configs[rng.Intn(len(configs))] + "::regconfig" },
		func() string { return oids[rng.Intn(len(oids))] + "::oid" },
		func() string { return oids[rng.Intn(len(oids))] },
		func() string { return oids[rng.Intn(3)] + []string{"::int2", "::int8"}[rng.Intn(2)] }, // within int2
		func() string { return "NULL::regconfig" },
		func() string { return []string{"'english'", "'3748'", "NULL"}[rng.Intn(3)] }, // unknown
		func() string {
			return []string{"'english'::text", "'pg_class'::regclass", "'int4'::regtype"}[rng.Intn(3)]
		},
	}
	pick := func() string { return operands[rng.Intn(len(operands))]() }
	config := func() string { return operands[rng.Intn(2)]() }
	stats := map[string]int{}
	rounds := envInt(t, "SQLGATE_DIFF_REGCONFIG_ROUNDS", 40)
	for i := 0; i < rounds; i++ {
		a, b, c := config(), pick(), pick()
		if rng.Intn(2) == 0 {
			a, b = b, a
		}
		var list []string
		for j := 0; j < 2+rng.Intn(4); j++ {
			list = append(list, "("+operands[rng.Intn(len(operands)-1)]()+")")
		}
		op := []string{"=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"}[rng.Intn(8)]
		sqls := []string{
			fmt.Sprintf("SELECT %s %s %s", a, op, b),
			fmt.Sprintf("SELECT %s IN (%s, %s), %s NOT IN (%s)", a, b, c, b, a),
			fmt.Sprintf("SELECT %s = ANY (ARRAY[%s]), %s < ALL (ARRAY[%s, %s])", b, a, c, a, a),
			fmt.Sprintf("SELECT %s BETWEEN %s AND %s", a, b, c),
			fmt.Sprintf("SELECT x::text, pg_typeof(x) FROM (SELECT CASE WHEN %s IS NULL THEN %s ELSE %s END) s(x)", c, a, b),
			fmt.Sprintf("SELECT x::text, pg_typeof(x) FROM (SELECT coalesce(%s, %s)) s(x)", a, b),
			fmt.Sprintf("SELECT greatest(%s, %s)::text, least(%s, %s)::text", a, b, a, b),
			fmt.Sprintf("SELECT x::text, pg_typeof(x) FROM (SELECT %s UNION ALL SELECT %s) s(x) ORDER BY x, 1", a, b),
			fmt.Sprintf("SELECT v::text AS s, pg_typeof(v) FROM (VALUES %s) t(v) ORDER BY v DESC, s", strings.Join(list, ", ")),
		}
		for _, sql := range sqls {
			tallyBy(t, ctx, r, sql, stats, tallyRule{ordered: true})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < rounds*3 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("regconfig's comparisons differ from PostgreSQL: %v", stats)
	}
}
