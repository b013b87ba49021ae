package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGeneratedColumnsDifferential creates SQLGATE_DIFF_GENTABLES (default
// 12) tables with random stored generated columns (integer, text and
// boolean expressions over the row's other columns, sometimes under a
// CHECK), writes random rows to each with INSERT (VALUES, DEFAULT, omitted
// columns, INSERT ... SELECT, a non-DEFAULT value for a generated column),
// UPDATE and INSERT ... ON CONFLICT DO UPDATE, often with RETURNING, on
// sqlgate and PostgreSQL 15, and requires the same outcome for every
// statement and the same table contents after each table's statements.
func TestGeneratedColumnsDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_GENTABLES", 12)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewPCG(uint64(seed), 25))
	stats := map[string]int{}
	for k := range n {
		g := &genColTable{rng: rng, name: fmt.Sprintf("gd%d", k)}
		create := g.create()
		tallyBy(t, ctx, r, create, stats, tallyRule{})
		for range 30 {
			tallyBy(t, ctx, r, g.write(), stats, tallyRule{})
		}
		tallyBy(t, ctx, r, "SELECT * FROM "+g.name+" ORDER BY id", stats, tallyRule{ordered: true})
		if t.Failed() {
			t.Logf("table: %s", create)
			break
		}
	}
	t.Logf("%d tables (seed %d): %v", n, seed, stats)
	if stats["same"] < n*10 || stats["refused alike"] < n {
		t.Errorf("the generator reached too few outcomes of one kind: %v", stats)
	}
}

// genColTable generates one table (id, a, b, s and three generated
// columns g1 int, g2 text, g3 boolean) and the writes to it.
type genColTable struct {
	rng    *rand.Rand
	name   string
	nextID int
}

// intExpr is an integer expression over a and b of depth at most d, small
// enough not to overflow.
func (g *genColTable) intExpr(d int) string {
	leaf := []string{"a", "b", fmt.Sprint(g.rng.IntN(10)), "-3"}
	if d == 0 || g.rng.IntN(3) == 0 {
		return leaf[g.rng.IntN(len(leaf))]
	}
	x, y := g.intExpr(d-1), g.intExpr(d-1)
	switch g.rng.IntN(8) {
	case 0:
		return "(" + x + " + " + y + ")"
	case 1:
		return "(" + x + " - " + y + ")"
	case 2:
		return "(" + x + " * " + y + ")"
	case 3:
		return "abs(" + x + ")"
	case 4:
		return fmt.Sprintf("coalesce(%s, %d)", x, g.rng.IntN(5))
	case 5:
		return "CASE WHEN " + x + " > " + y + " THEN " + x + " ELSE " + y + " END"
	case 6:
		return "(" + x + " % 7)"
	}
	return "length(s)"
}

// textExpr is a text expression over s (and a).
func (g *genColTable) textExpr() string {
	switch g.rng.IntN(6) {
	case 0:
		return "upper(s)"
	case 1:
		return "lower(s) || 'k'"
	case 2:
		return "coalesce(s, 'none')"
	case 3:
		return "a::text || '/' || s"
	case 4:
		return "substr(s, 1, 2)"
	}
	return "repeat(s, 2)"
}

// boolExpr is a boolean expression over the row.
func (g *genColTable) boolExpr() string {
	switch g.rng.IntN(4) {
	case 0:
		return "a > b"
	case 1:
		return "s IS NULL"
	case 2:
		return g.intExpr(1) + " = " + g.intExpr(1)
	}
	return "(a + b) % 2 = 0"
}

func (g *genColTable) create() string {
	check := ""
	if g.rng.IntN(2) == 0 {
		check = fmt.Sprintf(" CHECK (g1 < %d)", 20+g.rng.IntN(200))
	}
	return fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, a int, b int, s text, g1 int GENERATED ALWAYS AS (%s) STORED%s, g2 text GENERATED ALWAYS AS (%s) STORED, g3 boolean GENERATED ALWAYS AS (%s) STORED)",
		g.name, g.intExpr(2), check, g.textExpr(), g.boolExpr())
}

// value is a random cell of a, b (int) or s (text).
func (g *genColTable) value(col string) string {
	if g.rng.IntN(8) == 0 {
		return "NULL"
	}
	if col == "s" {
		return []string{"'ab'", "'Xy'", "''", "'hello'", "'q'"}[g.rng.IntN(5)]
	}
	return fmt.Sprint(g.rng.IntN(41) - 20)
}

// existingID is an id that was probably inserted (a new one, taken, while
// none was): a plain INSERT never reuses an id, since sqlgate's INSERT
// into a primary-key table is Fluss's upsert.
func (g *genColTable) existingID() int {
	if g.nextID == 0 {
		g.nextID++
		return g.nextID
	}
	return 1 + g.rng.IntN(g.nextID)
}

func (g *genColTable) returning() string {
	switch g.rng.IntN(3) {
	case 0:
		return " RETURNING *"
	case 1:
		return " RETURNING id, g1, g2, g3"
	}
	return ""
}

// write is one write to the table.
func (g *genColTable) write() string {
	switch g.rng.IntN(6) {
	case 0, 1:
		return g.insertValues()
	case 2:
		g.nextID++
		return fmt.Sprintf("INSERT INTO %s (id, a, b, s) SELECT %d, b, a + 1, s FROM %s WHERE id = %d%s", g.name, g.nextID, g.name, g.existingID(), g.returning())
	case 3:
		set := []string{"a = " + g.value("a"), "b = b + 1", "s = " + g.value("s"), "g1 = DEFAULT", "a = a * 2"}
		if g.rng.IntN(10) == 0 {
			set = append(set, "g2 = 'x'") // refused: 428C9
		}
		g.rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
		return fmt.Sprintf("UPDATE %s SET %s WHERE id %% %d = %d%s", g.name, strings.Join(set[:1+g.rng.IntN(2)], ", "), 2+g.rng.IntN(3), g.rng.IntN(2), g.returning())
	case 4:
		return fmt.Sprintf("INSERT INTO %s (id, a, b, s) VALUES (%d, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET a = excluded.a + coalesce(%s.b, 0), s = excluded.s%s",
			g.name, g.existingID(), g.value("a"), g.value("b"), g.value("s"), g.name, g.returning())
	}
	// a generated column given a value: refused unless DEFAULT
	g.nextID++
	v := "DEFAULT"
	if g.rng.IntN(2) == 0 {
		v = "1"
	}
	return fmt.Sprintf("INSERT INTO %s (id, a, g1, s) VALUES (%d, %s, %s, %s)", g.name, g.nextID, g.value("a"), v, g.value("s"))
}

// insertValues is INSERT ... VALUES of 1 to 3 rows, the generated
// columns omitted, DEFAULT, or (no list) positional.
func (g *genColTable) insertValues() string {
	rows := 1 + g.rng.IntN(3)
	var b strings.Builder
	form := g.rng.IntN(3)
	switch form {
	case 0:
		fmt.Fprintf(&b, "INSERT INTO %s (id, a, b, s) VALUES ", g.name)
	case 1:
		fmt.Fprintf(&b, "INSERT INTO %s VALUES ", g.name)
	default:
		fmt.Fprintf(&b, "INSERT INTO %s (s, g3, id, b) VALUES ", g.name)
	}
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		g.nextID++
		switch form {
		case 0:
			fmt.Fprintf(&b, "(%d, %s, %s, %s)", g.nextID, g.value("a"), g.value("b"), g.value("s"))
		case 1:
			fmt.Fprintf(&b, "(%d, %s, %s, %s, DEFAULT, DEFAULT)", g.nextID, g.value("a"), g.value("b"), g.value("s"))
		default:
			fmt.Fprintf(&b, "(%s, DEFAULT, %d, %s)", g.value("s"), g.nextID, g.value("b"))
		}
	}
	b.WriteString(g.returning())
	return b.String()
}
