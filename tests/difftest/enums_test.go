package difftest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// enumWords are the labels random enum types draw from: their text order
// differs from any declaration order the test makes, and they include
// case, blanks, digits and multibyte text.
var enumWords = []string{"sad", "ok", "happy", "Zeta", "alpha", "b c", "10", "9", "ä", "Ω", "mid", "A", "x''y", "z"}

// TestEnumDifferential makes random enum types (labels shuffled, some
// added later with ALTER TYPE ... ADD VALUE BEFORE | AFTER), tables with
// enum columns and random rows on sqlgate and PostgreSQL 15, and compares
// comparisons, ORDER BY, GROUP BY, min/max, casts, enum_range/first/last
// and invalid inputs: the same rows, or both refused with the same
// SQLSTATE and message. Enum OIDs differ between the two and are mapped.
func TestEnumDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 0)
	stats := map[string]int{}
	for k := 0; k < 6; k++ {
		name := fmt.Sprintf("e%d", k)
		words := append([]string(nil), enumWords...)
		rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
		labels := words[:3+rng.IntN(4)]
		spare := words[len(labels) : len(labels)+2]
		lit := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
		quoted := make([]string, len(labels))
		for i, l := range labels {
			quoted[i] = lit(l)
		}
		setup := []string{
			fmt.Sprintf("CREATE TYPE %s AS ENUM (%s)", name, strings.Join(quoted, ", ")),
		}
		// a label added before or after another, and one at the end
		where := []string{"BEFORE", "AFTER"}[rng.IntN(2)]
		setup = append(setup,
			fmt.Sprintf("ALTER TYPE %s ADD VALUE %s %s %s", name, lit(spare[0]), where, lit(labels[rng.IntN(len(labels))])),
			fmt.Sprintf("ALTER TYPE %s ADD VALUE %s", name, lit(spare[1])),
			fmt.Sprintf("CREATE TABLE t_%s (id int PRIMARY KEY, v %s, w %s, a %s[], b %s[], s text)", name, name, name, name, name))
		all := append(append([]string(nil), labels...), spare...)
		var rows []string
		pick := func() string {
			if rng.IntN(6) == 0 {
				return "NULL"
			}
			return lit(all[rng.IntN(len(all))])
		}
		// arrays of 0 to 3 elements, NULL elements among them: some
		// equal, some prefixes of others
		var made []string
		pickArray := func() string {
			switch {
			case rng.IntN(8) == 0:
				return "NULL"
			case len(made) > 0 && rng.IntN(4) == 0:
				return made[rng.IntN(len(made))]
			}
			els := make([]string, rng.IntN(4))
			for j := range els {
				els[j] = pick()
			}
			a := "ARRAY[" + strings.Join(els, ", ") + "]::" + name + "[]"
			made = append(made, a)
			return a
		}
		for i := 1; i <= 12; i++ {
			rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", i, pick(), pick(), pickArray(), pickArray(), pick()))
		}
		setup = append(setup, fmt.Sprintf("INSERT INTO t_%s VALUES %s", name, strings.Join(rows, ", ")))
		runOnBoth(t, ctx, r, setup...)
		oids := typeOIDMap(t, ctx, r, name) // composite_test.go
		bad := lit("no-such-" + strconv.Itoa(k))
		l1, l2 := lit(all[rng.IntN(len(all))]), lit(all[rng.IntN(len(all))])
		tbl := "t_" + name
		queries := []string{
			"SELECT id, v FROM " + tbl + " ORDER BY v, id",
			"SELECT id, v FROM " + tbl + " ORDER BY v DESC NULLS LAST, id",
			"SELECT id, v, w FROM " + tbl + " ORDER BY w, v DESC, id",
			"SELECT id FROM " + tbl + " WHERE v < " + l1 + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v >= " + l2 + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v = " + l1 + " ORDER BY id",
			"SELECT id, v < w, v <= w, v = w, v <> w, v > w, v >= w FROM " + tbl + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v BETWEEN " + l1 + " AND " + l2 + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v = " + bad,
			"SELECT id FROM " + tbl + " WHERE v < " + bad,
			"SELECT v, count(*) FROM " + tbl + " GROUP BY v ORDER BY v",
			"SELECT DISTINCT v FROM " + tbl + " ORDER BY v",
			"SELECT min(v), max(v), min(w), max(w) FROM " + tbl,
			"SELECT v::text, length(v::text) FROM " + tbl + " ORDER BY id",
			"SELECT " + l1 + "::" + name + ", " + l1 + "::text::" + name + ", " + l1 + "::" + name + " < " + l2 + "::" + name,
			"SELECT " + bad + "::" + name,
			"SELECT " + bad + "::text::" + name,
			"SELECT enum_first(NULL::" + name + "), enum_last(NULL::" + name + "), enum_range(NULL::" + name + ")",
			"SELECT enum_range(" + l1 + "::" + name + ", " + l2 + "::" + name + ")",
			"SELECT pg_typeof(v)::text FROM " + tbl + " LIMIT 1",
			"INSERT INTO " + tbl + " VALUES (100, " + bad + ", NULL)",
			"SELECT v FROM " + tbl + " UNION SELECT w FROM " + tbl + " ORDER BY 1",
			"SELECT string_agg(v::text, '|' ORDER BY v, id) FROM " + tbl,
			"SELECT id, rank() OVER (ORDER BY v) FROM " + tbl + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v IN (" + l1 + ", " + l2 + ") ORDER BY id",
			"SELECT id, CASE WHEN id % 2 = 0 THEN v ELSE " + l1 + " END FROM " + tbl + " ORDER BY id",
			"SELECT id, greatest(v, w), least(v, w) FROM " + tbl + " ORDER BY id",
			"SELECT array_agg(v ORDER BY v, id) FROM " + tbl,
			"SELECT v::text::" + name + " FROM " + tbl + " ORDER BY 1",
			"SELECT count(DISTINCT v), count(v) FROM " + tbl,
			"SELECT DISTINCT ON (v) v, id FROM " + tbl + " ORDER BY v, id DESC",
			"SELECT DISTINCT ON (v, w) v, w FROM " + tbl + " ORDER BY v DESC, w",
			// arrays of the enum compare and sort element by element in
			// declaration order
			"SELECT id, a FROM " + tbl + " ORDER BY a, id",
			"SELECT id, a FROM " + tbl + " ORDER BY a DESC NULLS LAST, id",
			"SELECT id, a < b, a <= b, a = b, a <> b, a > b, a >= b, a @> b, a <@ b, a && b FROM " + tbl + " ORDER BY id",
			"SELECT DISTINCT a FROM " + tbl + " ORDER BY a",
			"SELECT a, count(*) FROM " + tbl + " GROUP BY a ORDER BY a",
			"SELECT min(a), max(a), min(b), max(b) FROM " + tbl,
			"SELECT id FROM " + tbl + " WHERE a < ARRAY[" + l1 + ", " + l2 + "]::" + name + "[] ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE a >= '{" + strings.Trim(l1, "'") + "}' ORDER BY id",
			"SELECT u, id FROM " + tbl + ", unnest(a) u ORDER BY u, id",
			"SELECT id, a FROM " + tbl + " UNION SELECT id, b FROM " + tbl + " ORDER BY 2, 1",
			"SELECT id, rank() OVER (ORDER BY a) FROM " + tbl + " ORDER BY id",
			"SELECT array_agg(id ORDER BY a, id) FROM " + tbl,
			"SELECT a::text FROM " + tbl + " ORDER BY id",
			// unknown literals, text and the other string types
			"SELECT id, COALESCE(v, " + l1 + "), COALESCE(NULL, v) FROM " + tbl + " ORDER BY id",
			"SELECT id, CASE WHEN v IS NULL THEN " + l2 + " ELSE v END FROM " + tbl + " ORDER BY 2, id",
			"SELECT id FROM " + tbl + " WHERE v = s ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v::text = s ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v = s::" + name + " ORDER BY id",
			"SELECT v::varchar, v::varchar(2), v::name, v::char(3), pg_typeof(v::varchar)::text FROM " + tbl + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v NOT IN (" + l1 + ", " + l2 + ") ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v NOT BETWEEN " + l1 + " AND " + l2 + " ORDER BY id",
			"SELECT id FROM " + tbl + " WHERE v BETWEEN SYMMETRIC " + l1 + " AND " + l2 + " ORDER BY id",
			"SELECT id, v < ALL (b), v >= ANY (a), v = ANY (a), v <= ALL (ARRAY[" + l1 + ", " + l2 + "]::" + name + "[]) FROM " + tbl + " ORDER BY id",
			"SELECT id, v > ALL (SELECT w FROM " + tbl + " WHERE w IS NOT NULL), v < ANY (SELECT w FROM " + tbl + ") FROM " + tbl + " ORDER BY id",
			"SELECT '" + name + "'::regtype::text, pg_typeof(a)::text, pg_typeof(enum_range(NULL::" + name + "))::text FROM " + tbl + " LIMIT 1",
		}
		for _, q := range queries {
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY"), oids: oids})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// runOnBoth runs setup statements on both servers; either failing ends
// the test.
func runOnBoth(t *testing.T, ctx context.Context, r *Runner, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if o := r.SQLGate.Run(ctx, s); o.Err != nil {
			t.Fatalf("sqlgate: %s: %s", s, describeErr(o))
		}
		if o := r.Postgres.Run(ctx, s); o.Err != nil {
			t.Fatalf("postgres: %s: %s", s, describeErr(o))
		}
	}
}
