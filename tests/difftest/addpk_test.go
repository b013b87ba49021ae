package difftest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// addPKTypes are the types TestAddPrimaryKeyDifferential gives columns,
// each with a small pool of values (as SQL literals) so that rows repeat
// them.
var addPKTypes = map[string][]string{
	"int":          {"1", "2", "-3"},
	"bigint":       {"9000000000", "7"},
	"text":         {"'a'", "'b b'", "''"},
	"varchar(8)":   {"'x'", "'yy'"},
	"numeric(6,2)": {"1.5", "1.50", "-2"},
	"date":         {"'2024-01-02'", "'1999-12-31'"},
}

// TestAddPrimaryKeyDifferential makes random log tables (rows whose values
// repeat and are sometimes NULL, as pg_dump's COPY loads them) and runs
// ALTER TABLE ... ADD [CONSTRAINT t_pkey] PRIMARY KEY over random columns
// (one, two, a column named twice, one that does not exist), a second ADD
// PRIMARY KEY, and writes by key, on sqlgate and PostgreSQL 15: each
// statement's outcome (SQLSTATE, message and DETAIL: which key is
// duplicated and which column holds a NULL), the rows, the columns'
// nullability and the constraints and index the catalogs list.
func TestAddPrimaryKeyDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 59)
	stats := map[string]int{}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	typeNames := make([]string, 0, len(addPKTypes))
	for k := range addPKTypes {
		typeNames = append(typeNames, k)
	}
	slices.Sort(typeNames)
	step := func(q string, rule tallyRule) bool {
		t.Helper()
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		kind, why := verdict(sg, pg, rule)
		stats[kind]++
		if kind == "different" {
			t.Errorf("%s\n%s", q, why)
		}
		return pg.Err == nil && sg.Err == nil
	}
	keyed := 0
	for k := 0; k < 40; k++ {
		tbl := fmt.Sprintf("apkd%d", k)
		names := []string{"a", "b", "c"}
		typs := make([]string, len(names))
		defs := make([]string, len(names))
		for i, n := range names {
			typs[i] = pick(typeNames)
			defs[i] = n + " " + typs[i]
		}
		runOnBoth(t, ctx, r, fmt.Sprintf("CREATE TABLE %s (%s)", tbl, strings.Join(defs, ", ")))
		nulls := rng.IntN(3)          // 0: no NULLs
		distinctA := rng.IntN(2) == 0 // a's values differ from row to row
		for row := range 1 + rng.IntN(6) {
			vals := make([]string, len(names))
			for i := range names {
				vals[i] = pick(addPKTypes[typs[i]])
				if i == 0 && distinctA {
					vals[i] = distinctValue(typs[i], row)
				}
				if nulls > 0 && rng.IntN(6) == 0 {
					vals[i] = "NULL"
				}
			}
			step(fmt.Sprintf("INSERT INTO %s VALUES (%s)", tbl, strings.Join(vals, ", ")), tallyRule{})
		}
		var key []string
		switch rng.IntN(8) {
		case 0:
			key = []string{"a", "a"}
		case 1:
			key = []string{"nosuch"}
		case 2, 3, 4:
			key = []string{pick(names)}
		default:
			key = []string{"a", pick(names[1:])}
		}
		name := ""
		if rng.IntN(2) == 0 {
			name = "CONSTRAINT " + tbl + "_pkey "
		}
		added := step(fmt.Sprintf("ALTER TABLE ONLY %s ADD %sPRIMARY KEY (%s)", tbl, name, strings.Join(key, ", ")), tallyRule{detail: true, placed: everyCode})
		if added {
			keyed++
			step(fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (%s)", tbl, pick(names)), tallyRule{})
			step(fmt.Sprintf("INSERT INTO %s (%s) VALUES (NULL)", tbl, key[0]), tallyRule{})
			step(fmt.Sprintf("DELETE FROM %s WHERE %s = %s", tbl, key[0], pick(addPKTypes[typs[slices.Index(names, key[0])]])), tallyRule{})
		}
		step("SELECT * FROM "+tbl+" ORDER BY 1, 2, 3", tallyRule{ordered: true})
		step("SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = '"+tbl+"' ORDER BY ordinal_position", tallyRule{ordered: true})
		step("SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '"+tbl+"'::regclass ORDER BY conname", tallyRule{ordered: true})
		step("SELECT indexrelid::regclass::text, indisprimary, indisunique, indkey::text FROM pg_index WHERE indrelid = '"+tbl+"'::regclass", tallyRule{ordered: true})
		runOnBoth(t, ctx, r, "DROP TABLE "+tbl)
	}
	if keyed == 0 {
		t.Error("no table was given a primary key")
	}
	t.Logf("%v (%d tables keyed)", stats, keyed)
}

// distinctValue is a literal of type typ that differs for each row.
func distinctValue(typ string, row int) string {
	switch typ {
	case "int", "bigint":
		return fmt.Sprint(100 + row)
	case "numeric(6,2)":
		return fmt.Sprintf("%d.25", row)
	case "date":
		return fmt.Sprintf("'2024-02-%02d'", row+1)
	}
	return fmt.Sprintf("'r%d'", row)
}
