package lower

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

type catalog map[string]fluss.TableInfo

func (c catalog) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if t, ok := c[p.Table]; ok {
		return t, nil
	}
	return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
}

func testCatalog() catalog {
	id := types.Int64Type
	id.NotNull = true
	region := types.StringType
	region.NotNull = true
	return catalog{
		"kv": {Path: fluss.TablePath{Database: "public", Table: "kv"}, TableID: 1, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
			Columns:    []fluss.Column{{Name: "id", Type: id}, {Name: "region", Type: region}, {Name: "v", Type: types.StringType}, {Name: "n", Type: types.Int32Type}},
			PrimaryKey: []string{"id", "region"},
		}}, ArrowSchemas: fluss.NewArrowSchemas()},
		// keys whose SQL equality is not equality of their encodings
		"fk": {Path: fluss.TablePath{Database: "public", Table: "fk"}, TableID: 2, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
			Columns:    []fluss.Column{{Name: "f", Type: types.T{Kind: types.Float64, NotNull: true}}, {Name: "c", Type: types.T{Kind: types.Char, Length: 4, NotNull: true}}, {Name: "v", Type: types.StringType}},
			PrimaryKey: []string{"f", "c"},
		}}},
	}
}

func plan(t *testing.T, text string) []string {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Plan(st.(*binder.Query).Plan)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, l := range Explain(root, nil) {
		kinds = append(kinds, strings.SplitN(strings.TrimSpace(l), " ", 2)[0])
	}
	return kinds
}

// intList and strList write n distinct integer / text literals.
func intList(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprint(i)
	}
	return strings.Join(items, ", ")
}

func strList(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("'r%d'", i)
	}
	return strings.Join(items, ", ")
}

func TestAccessPathRules(t *testing.T) {
	cases := []struct {
		sql  string
		want string // node kinds, top down
	}{
		// the full primary key fixed: a point lookup, only the needed columns
		// and the key equalities need no filter over the looked-up row
		{"SELECT v FROM kv WHERE id = 1 AND region = 'eu'", "projection: lookup:"},
		{"SELECT * FROM kv WHERE region = $2 AND id = $1", "lookup:"}, // (every column in order: no projection)
		{"SELECT v FROM kv WHERE region = $2 AND id = $1 AND n > 3", "projection: filter: lookup:"},
		// a second equality on a key column is not the key: it stays
		{"SELECT v FROM kv WHERE id = 1 AND region = 'eu' AND id = 2", "projection: filter: lookup:"},
		// float and char(n) equality is not equality of the key bytes
		{"SELECT v FROM fk WHERE f = 1.5 AND c = 'ab'", "projection: filter: lookup:"},
		// IN lists on key columns: one lookup of every combination
		{"SELECT v FROM kv WHERE id IN (1, 2) AND region = 'eu'", "projection: lookup:"},
		{"SELECT v FROM kv WHERE id IN (1, 2, 3) AND region IN ('eu', $1)", "projection: lookup:"},
		{"SELECT v FROM kv WHERE (id = 1 OR id = $1) AND region = 'eu' AND n > 0", "projection: filter: lookup:"},
		// more key combinations than one lookup reads (33 x 33 > 1,024): a scan
		{"SELECT v FROM kv WHERE id IN (" + intList(33) + ") AND region IN (" + strList(33) + ")", "projection: filter: scan:"},
		// an OR over two columns fixes neither
		{"SELECT v FROM kv WHERE (id = 1 OR n = 2) AND region = 'eu'", "projection: filter: scan:"},
		// part of the key: a scan
		{"SELECT v FROM kv WHERE id = 1", "projection: filter: scan:"},
		// OR is not a conjunction of key equalities
		{"SELECT v FROM kv WHERE id = 1 OR region = 'eu'", "projection: filter: scan:"},
		// ORDER BY + LIMIT keeps only the first rows
		{"SELECT v FROM kv ORDER BY n LIMIT 5", "projection: limit: top_n: projection: scan:"},
		{"SELECT v FROM kv ORDER BY n", "projection: sort: projection: scan:"},
		// a WHERE equality across a comma join becomes a hash join, and each
		// side's own predicate moves below it
		// (and b's rows carry only n into the join)
		{"SELECT a.v FROM kv a, kv b WHERE a.n = b.n AND b.v = 'x'", "projection: hash_join: scan: projection: filter: scan:"},
		// below a LEFT join only the preserved side's predicate moves
		{"SELECT a.v FROM kv a LEFT JOIN kv b ON a.n = b.n WHERE b.v IS NULL", "projection: filter: hash_join: scan: scan:"},
	}
	for _, c := range cases {
		if got := strings.Join(plan(t, c.sql), " "); got != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.sql, got, c.want)
		}
	}
}

func TestProjectionPushdownDecodesOnlyNeededColumns(t *testing.T) {
	stmts, _ := sql.NewParser().Parse("SELECT v FROM kv WHERE n > 1")
	st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Plan(st.(*binder.Query).Plan)
	if err != nil {
		t.Fatal(err)
	}
	lines := Explain(root, nil)
	scan := lines[len(lines)-1]
	if !strings.Contains(scan, "columns=[v, n]") {
		t.Errorf("scan decodes %q, want only v and n", scan)
	}
}

func TestOptimizeRejectsARuleThatChangesTheSchema(t *testing.T) {
	saved := rules
	defer func() { rules = saved }()
	drop := rule{"drops_a_column", func(n binder.Node) binder.Node {
		p := n.(*binder.Project)
		return &binder.Project{Input: p.Input, Exprs: p.Exprs[:1], Cols: p.Cols[:1]}
	}}
	// copies the plan's root without changing its schema
	keep := func(name string) rule {
		return rule{name, func(n binder.Node) binder.Node {
			p := *n.(*binder.Project)
			return &p
		}}
	}
	// The schema is checked on the rules' result; the rule that changed
	// it is found and named whatever ran before and after it.
	for _, rs := range [][]rule{{drop}, {keep("keeps"), drop, keep("keeps_too")}} {
		rules = rs
		stmts, _ := sql.NewParser().Parse("SELECT id, v FROM kv")
		st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Plan(st.(*binder.Query).Plan)
		if e := sqlerr.As(err); e == nil || e.Code != sqlerr.InternalError || !strings.Contains(e.Message, "drops_a_column") || strings.Contains(e.Message, "keeps") {
			t.Errorf("%d rules: got %v, want an internal error naming the rule", len(rs), err)
		}
	}
}

func TestConstantFoldingAndLimitPushdown(t *testing.T) {
	explain := func(q string) []string {
		stmts, _ := sql.NewParser().Parse(q)
		st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
		if err != nil {
			t.Fatal(err)
		}
		root, err := Plan(st.(*binder.Query).Plan)
		if err != nil {
			t.Fatal(err)
		}
		return Explain(root, nil)
	}
	if l := explain("SELECT n + (2 * 3) FROM kv"); !strings.Contains(l[0], "(n + 6)") {
		t.Errorf("constant subtree not folded: %q", l[0])
	}
	// PostgreSQL computes a constant while planning, so its error is the
	// statement's whatever rows there are (plan_time_folding): the plan
	// fails every execution.
	if l := explain("SELECT 1 / 0 FROM kv WHERE false"); len(l) != 1 || !strings.Contains(l[0], "division by zero") {
		t.Errorf("a failing constant must fail the plan: %q", l)
	}
	if l := explain("SELECT CASE WHEN n > 1 THEN 1 WHEN false THEN 1 / 0 END, COALESCE(2, 1 / 0), n / NULL::int FROM kv"); len(l) == 1 {
		t.Errorf("a failing constant PostgreSQL does not reach failed the plan: %q", l)
	}
	l := explain("SELECT v FROM kv LIMIT 5 OFFSET 2")
	if !strings.Contains(l[len(l)-1], "limit=7") {
		t.Errorf("scan under LIMIT should stop after 7 rows: %q", l)
	}
	l = explain("SELECT v FROM kv WHERE n > 1 LIMIT 5")
	if strings.Contains(l[len(l)-1], "limit=") {
		t.Errorf("a filtered scan must not stop early: %q", l)
	}
}
