package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// domainBases are the base types random domains are made over, each with
// the CHECK expressions and the values the test draws from.
var domainBases = []struct {
	typ    string
	checks []string
	values []string
}{
	{"int", []string{"value > 0", "value % 2 = 0", "value BETWEEN 10 AND 100", "value <> 7", "value IN (1, 2, 3, 50, 64)", "value < 60 OR value > 90"},
		[]string{"-5", "0", "1", "2", "3", "7", "10", "50", "64", "99", "100", "120", "NULL", "'12'"}},
	{"bigint", []string{"value > -3", "value % 5 <> 0", "abs(value) < 1000"},
		[]string{"-4", "0", "5", "999", "1000", "-1000", "12345678901", "NULL"}},
	{"text", []string{"length(value) < 4", "value <> 'bad'", "value LIKE 'a%'", "upper(value) = value", "value IS NOT NULL"},
		[]string{"'a'", "'abc'", "'abcd'", "'bad'", "'ABC'", "''", "'a b'", "NULL", "'Ω'"}},
	{"numeric(6,2)", []string{"value >= 0", "value < 100.5", "round(value) = value"},
		[]string{"1.5", "-0.5", "0", "100.5", "100.499", "7", "NULL", "'2.25'"}},
	{"varchar(5)", []string{"value <> 'x'", "length(value) > 1"},
		[]string{"'x'", "'xy'", "'abcde'", "'abcdef'", "NULL", "'  '"}},
}

// TestDomainDifferential makes random domains (a base type, 0 to 2 CHECKs,
// NOT NULL or not, a DEFAULT or not, some over another domain) and tables
// with a column of each on sqlgate and PostgreSQL 15, then writes random
// values with INSERT (of one row and of several), INSERT without the
// column (the domain's default),
// UPDATE and casts, adds a CHECK with ALTER DOMAIN (which checks the stored
// values) and compares: the same rows, or both refused with the same
// SQLSTATE and message.
func TestDomainDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 1)
	stats := map[string]int{}
	run := func(s string) { t.Helper(); runOnBoth(t, ctx, r, s) }
	for k := 0; k < 8; k++ {
		base := domainBases[rng.IntN(len(domainBases))]
		name := fmt.Sprintf("dm%d", k)
		checks := append([]string(nil), base.checks...)
		rng.Shuffle(len(checks), func(i, j int) { checks[i], checks[j] = checks[j], checks[i] })
		def := "CREATE DOMAIN " + name + " AS " + base.typ
		if rng.IntN(2) == 0 {
			def += " DEFAULT " + base.values[rng.IntN(len(base.values))]
		}
		if rng.IntN(3) == 0 {
			def += " NOT NULL"
		}
		for i, c := range checks[:rng.IntN(3)] {
			if rng.IntN(2) == 0 {
				def += fmt.Sprintf(" CONSTRAINT %s_c%d", name, i)
			}
			def += " CHECK (" + c + ")"
		}
		run(def)
		colType := name
		if rng.IntN(3) == 0 {
			// a domain over the domain, with a CHECK of its own
			run("CREATE DOMAIN " + name + "_o AS " + name + " CHECK (" + checks[len(checks)-1] + ")")
			colType = name + "_o"
		}
		tbl := "t_" + name
		run("CREATE TABLE " + tbl + " (id int PRIMARY KEY, v " + colType + ")")
		pick := func() string { return base.values[rng.IntN(len(base.values))] }
		var queries []string
		for i := 1; i <= 10; i++ {
			v := pick()
			queries = append(queries,
				fmt.Sprintf("INSERT INTO %s VALUES (%d, %s)", tbl, i, v),
				fmt.Sprintf("SELECT (%s)::%s", v, colType),
				fmt.Sprintf("SELECT CAST(%s AS %s) IS NULL", v, name))
		}
		queries = append(queries,
			fmt.Sprintf("INSERT INTO %s (id) VALUES (100)", tbl),
			// several rows: the first failing row is the one reported
			fmt.Sprintf("INSERT INTO %s VALUES (300, %s), (301, %s), (302, %s)", tbl, pick(), pick(), pick()),
			fmt.Sprintf("UPDATE %s SET v = %s WHERE id = 1", tbl, pick()),
			fmt.Sprintf("UPDATE %s SET v = %s WHERE id = 2", tbl, pick()),
			"SELECT id, v FROM "+tbl+" ORDER BY id",
			"SELECT count(*), count(v) FROM "+tbl,
			fmt.Sprintf("ALTER DOMAIN %s ADD CONSTRAINT %s_late CHECK (%s)", name, name, checks[rng.IntN(len(checks))]),
			fmt.Sprintf("INSERT INTO %s VALUES (200, %s)", tbl, pick()),
			"SELECT id, v FROM "+tbl+" ORDER BY id",
			"SELECT typname, typnotnull, typdefault FROM pg_type WHERE typname LIKE '"+name+"%' AND typtype = 'd' ORDER BY 1",
			"SELECT conname FROM pg_constraint WHERE conname LIKE '"+name+"%' ORDER BY 1",
			"DROP DOMAIN "+name)
		for _, q := range queries {
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY")})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
