package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The set-returning function generator: random calls of every
// set-returning function sqlgate has (generate_series of each type, unnest
// of one or several arrays of any type and of two dimensions,
// generate_subscripts, the JSON element and key functions,
// json[b]_to_recordset with a column definition list, regexp_matches,
// string_to_table), and plain functions, placed in FROM (alone or in ROWS
// FROM (..), WITH ORDINALITY or not, with a table alias and column alias
// lists of every length, one too many included), LATERAL after a VALUES
// list whose rows they read, and in the SELECT list (several zipped, one
// nested in another's arguments), plus the placements PostgreSQL refuses
// (WHERE, JOIN conditions, CASE, COALESCE, aggregates, a function's
// arguments in FROM). Each query says whether PostgreSQL defines its row
// order (SrfQuery.Ordered).

// SrfGen generates set-returning function queries, deterministically by
// seed.
type SrfGen struct {
	rng *rand.Rand
}

// NewSrfGen returns a generator.
func NewSrfGen(seed uint64) *SrfGen {
	return &SrfGen{rng: rand.New(rand.NewPCG(seed, 0x737266))}
}

// SrfQuery is one generated query: Ordered when PostgreSQL returns its
// rows in one defined order (a function scan's, a ProjectSet's over one
// row, or ORDER BY a complete key).
type SrfQuery struct {
	SQL     string
	Ordered bool
}

func (g *SrfGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

// arrayKinds is how many kinds of array arrayOf makes.
const arrayKinds = 6

// array is an array literal of a random element type, with NULLs, empty
// and NULL arrays among them; elem is its element type's name.
func (g *SrfGen) array() (lit, elem string) { return g.arrayOf(g.rng.IntN(arrayKinds)) }

// arrayOf is an array literal of kind (0..arrayKinds-1: int, int, text,
// numeric, bool, int of two dimensions), so that the rows of one VALUES
// list share their column's type.
func (g *SrfGen) arrayOf(kind int) (lit, elem string) {
	r := g.rng
	n := r.IntN(5)
	if kind < 2 && r.IntN(6) == 0 {
		return "NULL::int[]", "int"
	}
	items := make([]string, n)
	switch kind {
	case 0, 1:
		for i := range items {
			items[i] = fmt.Sprint(r.IntN(20) - 5)
			if r.IntN(6) == 0 {
				items[i] = "NULL"
			}
		}
		return "ARRAY[" + strings.Join(items, ", ") + "]::int[]", "int"
	case 2:
		for i := range items {
			items[i] = "'" + g.pick("a", "b", "", "x y", "ß") + "'"
			if r.IntN(6) == 0 {
				items[i] = "NULL"
			}
		}
		return "ARRAY[" + strings.Join(items, ", ") + "]::text[]", "text"
	case 3:
		for i := range items {
			items[i] = g.pick("1.5", "-0.25", "10", "NULL", "'NaN'::numeric")
		}
		return "ARRAY[" + strings.Join(items, ", ") + "]::numeric[]", "numeric"
	case 4:
		for i := range items {
			items[i] = g.pick("true", "false", "NULL")
		}
		return "ARRAY[" + strings.Join(items, ", ") + "]::bool[]", "bool"
	default:
		// two dimensions: rows of equal length
		rows, cols := 1+r.IntN(3), 1+r.IntN(3)
		var rs []string
		for i := 0; i < rows; i++ {
			var cs []string
			for j := 0; j < cols; j++ {
				cs = append(cs, fmt.Sprint(r.IntN(9)))
			}
			rs = append(rs, "["+strings.Join(cs, ", ")+"]")
		}
		return "ARRAY[" + strings.Join(rs, ", ") + "]", "int"
	}
}

// jsonArray is a JSON array literal of mixed elements.
func (g *SrfGen) jsonArray() string {
	n := g.rng.IntN(4)
	items := make([]string, n)
	for i := range items {
		items[i] = g.pick(`1`, `"a"`, `null`, `[2, 3]`, `{"k": 1}`, `true`, `2.50`)
	}
	return "'[" + strings.Join(items, ", ") + "]'"
}

// jsonObject is a JSON object literal.
func (g *SrfGen) jsonObject() string {
	keys := []string{"a", "b", "c", "d"}
	n := g.rng.IntN(4)
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`"%s": %s`, keys[i], g.pick(`1`, `"x"`, `null`, `[1]`, `{"z": 2}`))
	}
	return "'{" + strings.Join(items, ", ") + "}'"
}

// srfCall is one call of a set-returning (or plain) function: its text,
// the number of its columns in FROM, and a column definition list when
// it returns record.
type srfCall struct {
	text string
	cols int
	defs string
}

// call returns a random function call whose arguments may read the
// expressions in outer (a LATERAL item's view of the row before it).
func (g *SrfGen) call(outerArr, outerInt string) srfCall {
	r := g.rng
	intArg := func() string {
		if outerInt != "" && r.IntN(2) == 0 {
			return outerInt
		}
		return fmt.Sprint(r.IntN(7) - 1)
	}
	arr := func() string {
		if outerArr != "" && r.IntN(2) == 0 {
			return outerArr
		}
		a, _ := g.array()
		return a
	}
	switch r.IntN(14) {
	case 0:
		step := ""
		if r.IntN(3) == 0 {
			step = ", " + g.pick("1", "2", "-1", "3")
		}
		return srfCall{text: fmt.Sprintf("generate_series(%s, %s%s)", intArg(), intArg(), step), cols: 1}
	case 1:
		return srfCall{text: fmt.Sprintf("generate_series(%s::numeric, %s, %s)", g.pick("1.5", "0", "-1.25"), g.pick("3", "4.5", "0"), g.pick("0.5", "1", "-0.75")), cols: 1}
	case 2:
		return srfCall{text: fmt.Sprintf("generate_series(timestamp '2024-01-30', %s, %s)",
			g.pick("timestamp '2024-02-02'", "'2024-03-01'", "timestamp '2024-01-29'"), g.pick("interval '1 day'", "'1 week'", "'-1 day'")), cols: 1}
	case 3:
		return srfCall{text: fmt.Sprintf("generate_series(timestamptz '2024-03-09 12:00+00', %s, '12 hours')",
			g.pick("timestamptz '2024-03-11 00:00+00'", "'2024-03-09'")), cols: 1}
	case 4, 5:
		return srfCall{text: "unnest(" + arr() + ")", cols: 1}
	case 6:
		n := 2 + r.IntN(2)
		args := make([]string, n)
		for i := range args {
			args[i] = arr()
		}
		return srfCall{text: "unnest(" + strings.Join(args, ", ") + ")", cols: n}
	case 7:
		rev := ""
		if r.IntN(2) == 0 {
			rev = ", " + g.pick("true", "false")
		}
		return srfCall{text: fmt.Sprintf("generate_subscripts(%s, %s%s)", arr(), g.pick("1", "2", "1", "3"), rev), cols: 1}
	case 8:
		return srfCall{text: g.pick("jsonb_array_elements", "jsonb_array_elements_text", "json_array_elements", "json_array_elements_text") + "(" + g.jsonArray() + ")", cols: 1}
	case 9:
		f := g.pick("jsonb_each", "jsonb_each_text", "json_each", "json_each_text", "jsonb_object_keys", "json_object_keys")
		cols := 2
		if strings.HasSuffix(f, "keys") {
			cols = 1
		}
		return srfCall{text: f + "(" + g.jsonObject() + ")", cols: cols}
	case 10:
		return srfCall{text: fmt.Sprintf("%s('[{\"a\": 1, \"b\": \"x\"}, {\"a\": 2}, {\"b\": \"y\", \"c\": [1]}]')", g.pick("jsonb_to_recordset", "json_to_recordset")),
			cols: 2, defs: g.pick("(a int, b text)", "(b text, a numeric)", "(a int, c int[])")}
	case 11:
		return srfCall{text: fmt.Sprintf("regexp_matches(%s, %s, 'g')", g.pick("'abcabc'", "'a1b22c333'", "''"), g.pick("'(a)(b)'", "'[0-9]+'", "'(x)?c'")), cols: 1}
	case 12:
		null := ""
		if r.IntN(2) == 0 {
			null = ", 'b'"
		}
		return srfCall{text: fmt.Sprintf("string_to_table(%s, %s%s)", g.pick("'a,b,c'", "'a,,b'", "''", "NULL"), g.pick("','", "''", "NULL"), null), cols: 1}
	default:
		return srfCall{text: g.pick("lower('AbC')", "abs(-3)", "upper('x')", "length('abcd')", "array_length(ARRAY[1,2], 1)"), cols: 1}
	}
}

// fromItem is a function in FROM: alone or in ROWS FROM, WITH ORDINALITY
// or not, aliased and column-aliased at random (sometimes one alias too
// many). cols is its column count, ord whether it has the ordinality.
func (g *SrfGen) fromItem(outerArr, outerInt string) (text string, cols int, ord bool) {
	r := g.rng
	var body string
	var defs string
	if r.IntN(3) == 0 {
		// ROWS FROM (f(..) [AS (defs)], ...)
		n := 1 + r.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			c := g.call(outerArr, outerInt)
			parts[i] = c.text
			if c.defs != "" {
				parts[i] += " AS " + c.defs
			}
			cols += c.cols
		}
		body = "ROWS FROM (" + strings.Join(parts, ", ") + ")"
	} else {
		c := g.call(outerArr, outerInt)
		body, cols, defs = c.text, c.cols, c.defs
	}
	if defs == "" && r.IntN(2) == 0 {
		body += " WITH ORDINALITY"
		ord = true
		cols++
	}
	switch {
	case defs != "":
		body += " AS t" + defs
	case r.IntN(3) == 0:
		// no alias
		return body, cols, ord
	default:
		body += " AS t"
		if r.IntN(2) == 0 {
			n := r.IntN(cols + 2) // one too many now and then
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprintf("c%d", i+1)
			}
			if n > 0 {
				body += "(" + strings.Join(names, ", ") + ")"
			}
		}
	}
	return body, cols, ord
}

// Query returns one query.
func (g *SrfGen) Query() SrfQuery {
	r := g.rng
	switch r.IntN(8) {
	case 0, 1, 2:
		// alone in FROM: the function scan's order
		item, _, _ := g.fromItem("", "")
		return SrfQuery{SQL: "SELECT * FROM " + item, Ordered: true}
	case 3, 4:
		// LATERAL after the rows it reads
		kind := r.IntN(arrayKinds)
		a1, _ := g.arrayOf(kind)
		a2, _ := g.arrayOf(kind)
		values := fmt.Sprintf("(VALUES (1, %s, %d), (2, %s, %d)) v(id, arr, n)", a1, r.IntN(4), a2, r.IntN(4))
		item, _, _ := g.fromItem("v.arr", "v.n")
		join := g.pick(", ", " CROSS JOIN ", " CROSS JOIN LATERAL ", " JOIN ", " LEFT JOIN ", " LEFT JOIN LATERAL ")
		on := ""
		if strings.Contains(join, " JOIN ") && !strings.Contains(join, "CROSS") {
			on = g.pick(" ON true", " ON v.id = 1", " ON false")
		}
		return SrfQuery{SQL: "SELECT * FROM " + values + join + item + on}
	case 5, 6:
		// the SELECT list: calls zipped, one nested now and then
		n := 1 + r.IntN(3)
		var items []string
		for i := 0; i < n; i++ {
			c := g.selectCall()
			if r.IntN(5) == 0 {
				c = fmt.Sprintf("generate_series(1, (%s)::int %% 3)", g.pick("generate_series(0, 3)", "unnest(ARRAY[2, NULL, 1])", "array_length(ARRAY[1,2], 1)"))
			}
			items = append(items, c)
		}
		if r.IntN(2) == 0 {
			return SrfQuery{SQL: "SELECT " + strings.Join(items, ", "), Ordered: true}
		}
		a1, _ := g.arrayOf(0)
		return SrfQuery{SQL: fmt.Sprintf("SELECT id, %s FROM (VALUES (1, %s, 2), (2, ARRAY[7, 8, 9], 0)) v(id, arr, n)",
			strings.ReplaceAll(strings.Join(items, ", "), "ARRAY[2, NULL, 1]", "arr"), a1), Ordered: true}
	default:
		// a placement PostgreSQL refuses
		c := g.selectCall()
		return SrfQuery{SQL: g.pick(
			"SELECT 1 WHERE "+c+" IS NULL",
			"SELECT CASE WHEN true THEN "+c+" END",
			"SELECT CASE "+c+" WHEN 1 THEN 2 END",
			"SELECT COALESCE("+c+", NULL)",
			"SELECT count("+c+")",
			"SELECT * FROM (VALUES (1)) v(x) JOIN (VALUES (2)) w(y) ON "+c+" IS NULL",
			"SELECT * FROM generate_series(1, generate_series(1, 2))",
			"SELECT * FROM lower(string_to_table('a,b', ','))",
			"SELECT "+c+" IS NULL AND true",
			"SELECT 1 FROM (VALUES (1)) v(x) GROUP BY x HAVING count("+c+") > 0",
		)}
	}
}

// selectCall is a set-returning call for the SELECT list.
func (g *SrfGen) selectCall() string {
	for {
		c := g.call("", "")
		if strings.HasPrefix(c.text, "unnest(") && c.cols > 1 || c.defs != "" || c.cols > 1 {
			continue // a FROM-only form, or a record whose text form differs in quoting only
		}
		if !strings.Contains(c.text, "(") || strings.HasPrefix(c.text, "lower(") || strings.HasPrefix(c.text, "abs(") ||
			strings.HasPrefix(c.text, "upper(") || strings.HasPrefix(c.text, "length(") || strings.HasPrefix(c.text, "array_length(") {
			continue
		}
		return c.text
	}
}
