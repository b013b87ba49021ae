package lower

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
)

// sizedCatalog is testCatalog plus tables big, mid and small (id bigint
// not null, k bigint, v text), which sizedStats estimates at 1,000,000,
// 1,000 and 10 rows.
func sizedCatalog() catalog {
	c := testCatalog()
	id := types.Int64Type
	id.NotNull = true
	for i, name := range []string{"big", "mid", "small"} {
		c[name] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: name}, TableID: int64(10 + i), Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
			Columns: []fluss.Column{{Name: "id", Type: id}, {Name: "k", Type: types.Int64Type}, {Name: "v", Type: types.StringType}}}}}
	}
	// orders and customers, keyed by id, for aggregation pushdown
	c["orders"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "orders"}, TableID: 20, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns:    []fluss.Column{{Name: "id", Type: id}, {Name: "cust", Type: types.Int64Type}, {Name: "amount", Type: types.Int32Type}, {Name: "note", Type: types.StringType}},
		PrimaryKey: []string{"id"}}}}
	c["customers"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "customers"}, TableID: 21, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns:    []fluss.Column{{Name: "id", Type: id}, {Name: "region", Type: types.StringType}, {Name: "name", Type: types.StringType}},
		PrimaryKey: []string{"id"}}}}
	// ev is keyed by (id, seq) and bucketed by id: prefix lookups
	c["ev"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "ev"}, TableID: 22, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns:    []fluss.Column{{Name: "id", Type: id}, {Name: "seq", Type: id}, {Name: "v", Type: types.StringType}},
		PrimaryKey: []string{"id", "seq"}}, BucketKey: []string{"id"}, BucketCount: 4}}
	// pt is partitioned by dt: partition pruning
	c["pt"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "pt"}, TableID: 23, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns: []fluss.Column{{Name: "dt", Type: types.StringType}, {Name: "v", Type: types.Int64Type}}}, PartitionKeys: []string{"dt"}}}
	return c
}

var sizedStats = tableStats{"big": 1_000_000, "mid": 1_000, "small": 10, "kv": 100, "orders": 1_000_000, "customers": 1000}

// explainLines plans query with some rules disabled and returns EXPLAIN's
// lines without the report fields: "kind: details (estimated rows=N)",
// indented by depth.
func explainLines(t *testing.T, query string, disabled ...string) []string {
	t.Helper()
	return explainWith(t, sizedStats, query, disabled...)
}

func TestExplainJSONHasEstimatedRows(t *testing.T) {
	stmts, _ := sql.NewParser().Parse("SELECT * FROM kv WHERE n > 1")
	st, err := binder.Bind(context.Background(), sizedCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := PlanWith(st.(*binder.Query).Plan, Options{Stats: sizedStats})
	if err != nil {
		t.Fatal(err)
	}
	var doc []struct{ Plan map[string]any }
	if err := json.Unmarshal([]byte(ExplainJSON(root, nil)), &doc); err != nil {
		t.Fatal(err)
	}
	top := doc[0].Plan
	scan := top["Plans"].([]any)[0].(map[string]any)
	if top["Plan Rows"] != 33.0 || scan["Plan Rows"] != 100.0 {
		t.Errorf("Plan Rows: filter %v, scan %v; want 33 and 100", top["Plan Rows"], scan["Plan Rows"])
	}
}

// ruleEffects is, for every rule, a query whose plan the rule changes
// (with the rules in alsoOff disabled too); testdata/plans/rules.plans shows
// what each makes.
var ruleEffects = map[string]struct {
	query   string
	alsoOff []string
}{
	"degenerate_grouping":      {"SELECT 1 FROM kv WHERE n > 1 HAVING true", nil},
	"subquery_decorrelation":   {"SELECT v FROM kv WHERE EXISTS (SELECT 1 FROM kv b WHERE b.n = kv.n)", nil},
	"minmax_constants":         {"SELECT max(1) FROM kv WHERE n > 1", nil},
	"simplify_boolean":         {"SELECT * FROM kv WHERE n > 1 AND 1 = 0", nil},
	"aggregate_input_pruning":  {"SELECT region, count(*) FROM kv GROUP BY region", nil},
	"aggregate_output_pruning": {"SELECT region FROM (SELECT region, count(*), sum(id) FROM kv GROUP BY region) s", nil},
	// filter_pushdown moves what filter_into_join moves (it applies it at
	// every join it meets): the rule shows on its own only without it
	"filter_into_join": {"SELECT a.v FROM mid a, small b WHERE a.k = b.id AND b.v = 'x'", []string{"filter_pushdown"}},
	// the ON conjunct goes first among the left side's conjuncts
	"on_condition_pushdown": {"SELECT * FROM mid a JOIN small b ON a.id = b.k AND a.v = 'x' WHERE a.k = 1", nil},
	// an ON conjunct over the preserved side, which WHERE's reduction to
	// an inner join lets go below
	"join_condition_pushdown": {"SELECT * FROM mid a LEFT JOIN small b ON a.id = b.k AND a.v = 'x' WHERE b.v = 'y'", nil},
	"filter_pushdown":         {"SELECT * FROM (SELECT region, count(*) c FROM kv GROUP BY region) s WHERE region = 'x'", nil},
	"primary_key_lookup":      {"SELECT v FROM kv WHERE id = 1 AND region = 'eu'", nil},
	"join_order":              {"SELECT s.v FROM small s, big b, mid m WHERE b.k = m.id AND m.k = s.id", nil},
	"outer_join_build_side":   {"SELECT * FROM small s LEFT JOIN big b ON s.id = b.k", nil},
	"projection_elimination":  {"SELECT x FROM (SELECT n + 1 AS x, v FROM kv) s", nil},
	"join_input_pruning":      {"SELECT a.v FROM mid a JOIN small b ON a.k = b.id", nil},
	"sort_elimination":        {"SELECT count(*) FROM (SELECT * FROM kv ORDER BY n) s", nil},
	"aggregation_pushdown":    {"SELECT c.region, sum(o.amount) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region", nil},
	"late_projection":         {"SELECT s.x FROM (SELECT a.k, a.v::int AS x FROM mid a) s JOIN small b ON s.k = b.id", nil},
	"projection_pushdown":     {"SELECT v FROM kv WHERE n > 1", nil},
	"bucket_key_lookup":       {"SELECT v FROM ev WHERE id = 7", nil},
	"changelog_bounds":        {"SELECT v FROM ev$changelog WHERE _log_offset >= 5", nil},
	"limit_pushdown":          {"SELECT v FROM (SELECT v, n FROM kv) s LIMIT 3", nil},
	"partition_pruning":       {"SELECT v FROM pt WHERE dt >= '20240101'", nil},
}

// TestEveryRuleChangesSomePlan: each rule of the ordered list has a query
// whose EXPLAIN differs with the rule disabled (testdata/plans/rules.plans
// and the other tests show what each does).
func TestEveryRuleChangesSomePlan(t *testing.T) {
	for _, r := range rules {
		e, ok := ruleEffects[r.name]
		if !ok {
			t.Errorf("rule %s has no query in ruleEffects", r.name)
			continue
		}
		q := e.query
		with, without := explainLines(t, q, e.alsoOff...), explainLines(t, q, append([]string{r.name}, e.alsoOff...)...)
		if strings.Join(with, "\n") == strings.Join(without, "\n") {
			t.Errorf("rule %s does not change the plan of %s:\n%s", r.name, q, strings.Join(with, "\n"))
		}
	}
}
