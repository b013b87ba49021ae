package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// fkActions are the referential actions the foreign key test declares.
var fkActions = []string{"", "NO ACTION", "RESTRICT", "CASCADE", "SET NULL", "SET DEFAULT"}

// TestForeignKeysDifferential declares random chains of foreign keys on
// sqlgate and PostgreSQL 15 — a parent, a child referencing it, a
// grandchild referencing the child (or itself), each with random ON
// DELETE / ON UPDATE actions, some DEFERRABLE [INITIALLY DEFERRED], the
// grandchild sometimes referencing the parent too — then runs random
// single-row INSERTs, UPDATEs (of keys and of referencing columns),
// DELETEs and TRUNCATEs on all three, some in transaction blocks with SET
// CONSTRAINTS and reads before their COMMIT, and compares every outcome
// (the same SQLSTATE and message, or success) and the rows left.
func TestForeignKeysDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 9)
	stats := map[string]int{}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	action := func() string {
		var out []string
		if a := pick(fkActions); a != "" {
			out = append(out, "ON DELETE "+a)
		}
		if a := pick(fkActions); a != "" {
			out = append(out, "ON UPDATE "+a)
		}
		switch rng.IntN(6) {
		case 0, 1: // checks at COMMIT, actions at the statement's end
			out = append(out, "DEFERRABLE INITIALLY DEFERRED")
		case 2:
			out = append(out, "DEFERRABLE")
		}
		return strings.Join(out, " ")
	}
	key := func() string {
		if rng.IntN(6) == 0 {
			return "NULL"
		}
		return fmt.Sprint(1 + rng.IntN(6))
	}
	for k := 0; k < 16; k++ {
		p, c, g := fmt.Sprintf("fkp%d", k), fmt.Sprintf("fkc%d", k), fmt.Sprintf("fkg%d", k)
		gRef := c
		if rng.IntN(3) == 0 {
			gRef = g // a table referencing itself
		}
		defaults := fmt.Sprintf("DEFAULT %d", 1+rng.IntN(3))
		// the grandchild may reference the parent too: its check and the
		// cascade through the child then race in PostgreSQL's order
		gToP := ""
		if rng.IntN(2) == 0 {
			gToP = fmt.Sprintf(", gp int REFERENCES %s %s", p, action())
		}
		qs := []string{
			fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, v int)", p),
			fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, pid int %s REFERENCES %s %s)", c, defaults, p, action()),
			fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, cid int %s, FOREIGN KEY (cid) REFERENCES %s (id) %s%s)", g, defaults, gRef, action(), gToP),
			fmt.Sprintf("INSERT INTO %s VALUES (1, 0), (2, 0), (3, 0), (4, 0)", p),
		}
		tables := []string{p, c, g}
		cols := map[string]string{p: "v", c: "pid", g: "cid"}
		id := map[string]int{}
		more := func(tbl string) string { // the grandchild's reference to the parent
			if tbl != g || gToP == "" {
				return ""
			}
			return ", " + key()
		}
		inTx := false
		for step := 0; step < 30; step++ {
			tbl := pick(tables)
			// a transaction block: a visible read before its COMMIT
			// shows the actions run, the checks deferred
			switch n := rng.IntN(12); {
			case n == 0 && !inTx:
				qs, inTx = append(qs, "BEGIN"), true
			case n == 0 && inTx:
				qs = append(qs, fmt.Sprintf("SELECT * FROM %s ORDER BY id", pick(tables)), pick([]string{"COMMIT", "COMMIT", "ROLLBACK"}))
				inTx = false
			case n == 1 && inTx:
				qs = append(qs, pick([]string{"SET CONSTRAINTS ALL IMMEDIATE", "SET CONSTRAINTS ALL DEFERRED"}))
			case n == 2 && inTx:
				qs = append(qs, fmt.Sprintf("SELECT * FROM %s ORDER BY id", pick(tables)))
			}
			switch rng.IntN(8) {
			case 0, 1, 2:
				id[tbl]++
				if tbl == p {
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES (%d, 0)", p, 4+id[tbl]))
				} else {
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES (%d, %s%s)", tbl, id[tbl], key(), more(tbl)))
				}
			case 3:
				qs = append(qs, fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = %s", tbl, cols[tbl], key(), key()))
			case 4:
				qs = append(qs, fmt.Sprintf("UPDATE %s SET id = %d WHERE id = %s", tbl, 50+rng.IntN(10), key()))
			case 5, 6:
				qs = append(qs, fmt.Sprintf("DELETE FROM %s WHERE id = %s", tbl, key()))
			default:
				if rng.IntN(3) == 0 {
					q := "TRUNCATE " + tbl
					if rng.IntN(2) == 0 {
						q += " CASCADE"
					}
					qs = append(qs, q)
				} else { // several rows in one statement
					id[tbl] += 2
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES (%d, %s%s), (%d, %s%s)", tbl, 100+id[tbl], key(), more(tbl), 101+id[tbl], key(), more(tbl)))
				}
			}
		}
		if inTx {
			qs = append(qs, fmt.Sprintf("SELECT * FROM %s ORDER BY id", pick(tables)), "COMMIT")
		}
		for _, t := range tables {
			qs = append(qs, fmt.Sprintf("SELECT * FROM %s ORDER BY id", t))
		}
		qs = append(qs, fmt.Sprintf("DROP TABLE %s, %s, %s", g, c, p))
		before := stats["different"]
		for _, q := range qs {
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY")})
		}
		if stats["different"] > before {
			t.Logf("the statements of tables %d:\n%s", k, strings.Join(qs, ";\n"))
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 60 || stats["refused alike"] < 5 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
