package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
)

// subscriptAssignQueries is how many subscripted assignments
// TestSubscriptAssignDifferential runs (SQLGATE_DIFF_SUBSCRIPT_QUERIES).
func subscriptAssignQueries() int {
	if n, err := strconv.Atoi(os.Getenv("SQLGATE_DIFF_SUBSCRIPT_QUERIES")); err == nil && n > 0 {
		return n
	}
	return 300
}

// TestSubscriptAssignDifferential: subscripted assignment targets (SET
// a[i] = x, a[lo:hi] = arr with omitted, NULL, numeric, negative and
// out-of-range bounds, m[i][j] = x, several items on one column) through
// UPDATE, ON CONFLICT DO UPDATE and INSERT's target list (INSERT INTO sa
// (id, a[2], a[1]) VALUES ..) over generated arrays (NULL, empty,
// NULL elements, one and two dimensions), on sqlgate and PostgreSQL 15:
// the same array or the same refusal. The one difference allowed is
// sqlgate's 0A000 where PostgreSQL's result starts at a subscript other
// than 1 ([0:3]={..}) or has another number of dimensions than the
// column's type, which sqlgate's arrays cannot hold.
func TestSubscriptAssignDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 38))))
	for _, q := range []string{"DROP TABLE IF EXISTS sa",
		"CREATE TABLE sa (id int PRIMARY KEY, a int[], m int[][], s text[])",
		"INSERT INTO sa (id) VALUES (1)"} {
		for _, e := range []Executor{r.SQLGate, r.Postgres} {
			if res := e.Run(ctx, q); res.Err != nil {
				t.Fatalf("%s: %s", q, res.Err.Message)
			}
		}
	}
	type column struct {
		name  string
		et    mdElemType
		depth int
	}
	cols := []column{{"a", mdElemTypes[0], 1}, {"m", mdElemTypes[0], 2}, {"s", mdElemTypes[1], 1}}
	index := func() string {
		switch k := rng.Intn(30); {
		case k == 0:
			return "NULL"
		case k == 1:
			return []string{"1.5", "2.4", "0.6"}[rng.Intn(3)]
		case k < 6:
			return strconv.Itoa(rng.Intn(4) - 2) // -2 .. 1
		}
		return strconv.Itoa(1 + rng.Intn(5))
	}
	source := func(c column) string {
		// a slice's source: NULL, a literal of one or two dimensions, or
		// a typed ARRAY[..]
		if rng.Intn(10) == 0 {
			return "NULL"
		}
		n := rng.Intn(5)
		elems := make([]string, n)
		for i := range elems {
			v := c.et.vals[rng.Intn(len(c.et.vals))]
			if rng.Intn(6) == 0 {
				v = "NULL"
			}
			elems[i] = v
		}
		if rng.Intn(3) == 0 {
			if n == 0 {
				return "ARRAY[]::" + c.et.name + "[]"
			}
			for i := range elems {
				elems[i] += "::" + c.et.name
			}
			return "ARRAY[" + strings.Join(elems, ", ") + "]"
		}
		// as array text: unquote the SQL literals into array elements
		for i, e := range elems {
			if s, ok := strings.CutPrefix(e, "'"); ok {
				elems[i] = `"` + strings.ReplaceAll(strings.TrimSuffix(s, "'"), `"`, `\"`) + `"`
				elems[i] = strings.ReplaceAll(elems[i], "'", "''")
			}
		}
		if n == 4 && rng.Intn(2) == 0 {
			return "'{{" + elems[0] + "," + elems[1] + "},{" + elems[2] + "," + elems[3] + "}}'"
		}
		return "'{" + strings.Join(elems, ",") + "}'"
	}
	item := func(c column) string {
		n := c.depth
		if rng.Intn(8) == 0 {
			n += rng.Intn(3) - 1
			n = max(n, 1)
		}
		var b strings.Builder
		b.WriteString(c.name)
		if rng.Intn(3) == 0 {
			for range n {
				switch rng.Intn(5) {
				case 0:
					fmt.Fprintf(&b, "[%s]", index())
				case 1:
					fmt.Fprintf(&b, "[:%s]", index())
				case 2:
					fmt.Fprintf(&b, "[%s:]", index())
				default:
					fmt.Fprintf(&b, "[%s:%s]", index(), index())
				}
			}
			return b.String() + " = " + source(c)
		}
		for range n {
			fmt.Fprintf(&b, "[%s]", index())
		}
		v := c.et.vals[rng.Intn(len(c.et.vals))]
		if rng.Intn(8) == 0 {
			v = "NULL"
		}
		return b.String() + " = " + v
	}
	stats := map[string]int{}
	for range subscriptAssignQueries() {
		c := cols[rng.Intn(len(cols))]
		reset := "UPDATE sa SET " + c.name + " = " + genMDArray(rng, c.et, c.depth).sql + " WHERE id = 1"
		for _, e := range []Executor{r.SQLGate, r.Postgres} {
			if res := e.Run(ctx, reset); res.Err != nil {
				t.Fatalf("%s: %s", reset, res.Err.Message)
			}
		}
		set := item(c)
		if rng.Intn(4) == 0 {
			set += ", " + item(c)
		}
		q := "UPDATE sa SET " + set + " WHERE id = 1 RETURNING " + c.name
		switch rng.Intn(5) {
		case 0:
			q = "INSERT INTO sa (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET " + set + " RETURNING " + c.name
		case 1:
			// INSERT's target list: the items over a NULL array
			var targets, values []string
			for _, it := range strings.Split(set, ", "+c.name) {
				if !strings.HasPrefix(it, c.name) {
					it = c.name + it
				}
				tg, v, _ := strings.Cut(it, " = ")
				targets, values = append(targets, tg), append(values, v)
			}
			for _, e := range []Executor{r.SQLGate, r.Postgres} {
				e.Run(ctx, "DELETE FROM sa WHERE id = 2")
			}
			q = "INSERT INTO sa (id, " + strings.Join(targets, ", ") + ") VALUES (2, " + strings.Join(values, ", ") + ") RETURNING " + c.name
		}
		sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		// unholdable: PostgreSQL's array starts at another subscript than
		// 1 or has another number of dimensions than the column's type
		unholdable := func(o Outcome) bool {
			if o.Err != nil || len(o.Rows) != 1 || o.Rows[0][0].Null {
				return false
			}
			text := o.Rows[0][0].Text
			return strings.HasPrefix(text, "[") || text != "{}" && len(text)-len(strings.TrimLeft(text, "{")) != c.depth
		}
		if sg.Err != nil && sg.Err.Code == "0A000" {
			if unholdable(pg) {
				stats["refused: unholdable result"]++
				continue
			}
		}
		kind, why := verdict(sg, pg, tallyRule{})
		stats[kind]++
		if kind == "different" {
			t.Errorf("%s\n%s", q, why)
		}
	}
	t.Logf("subscripted assignments: %v", stats)
	if stats["same"] < subscriptAssignQueries()/4 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
	for _, e := range []Executor{r.SQLGate, r.Postgres} {
		e.Run(ctx, "DROP TABLE sa")
	}
}
