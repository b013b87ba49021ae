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

// TestRulePlanShapes asserts the plan each rule makes, and the plan
// without it where that shows what the rule did.
func TestRulePlanShapes(t *testing.T) {
	cases := []struct {
		name, sql string
		disabled  []string // rules off
		want      []string
	}{
		// simplify_boolean
		{"x AND true is x", "SELECT * FROM kv WHERE n > 1 AND true", nil, []string{
			"filter: (n > 1) (estimated rows=33)",
			"  scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},
		{"NOT NOT x, x OR false", "SELECT * FROM kv WHERE NOT NOT (n > 1 OR false)", nil, []string{
			"filter: (n > 1) (estimated rows=33)",
			"  scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},
		{"an always-true filter goes", "SELECT * FROM kv WHERE n > 1 OR 1 = 1", nil, []string{
			"scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},
		{"WHERE false reads nothing", "SELECT v FROM kv WHERE 1 = 0 AND n > 1", nil, []string{
			"projection: v AS v (estimated rows=0)",
			"  values: rows=0 (estimated rows=0)"}},
		{"WHERE NULL reads nothing", "SELECT * FROM big b JOIN mid m ON b.k = m.id WHERE NULL", nil, []string{
			"values: rows=0 (estimated rows=0)"}},
		// plan_time_folding (PostgreSQL's) already folded the condition
		// to false; simplify_boolean is what drops the scan under it.
		{"without simplify_boolean", "SELECT * FROM kv WHERE n > 1 AND 1 = 0", []string{"simplify_boolean"}, []string{
			"filter: false one-time: false (estimated rows=0)",
			"  scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},

		// filter_pushdown: through an aggregation on grouping columns only
		{"filter below aggregation", "SELECT * FROM (SELECT region, count(*) c FROM kv GROUP BY region) s WHERE region = 'x' AND c > 1", nil, []string{
			"projection: region AS region, count AS c (estimated rows=0)",
			"  filter: (count > 1) (estimated rows=0)",
			"    aggregate: keys=1 aggregates=[count(*)] (estimated rows=1)",
			"      projection: region AS key0 (estimated rows=1)",
			"        filter: (region = x) (estimated rows=1)",
			"          scan: table=kv columns=[region] (estimated rows=100)"}},
		{"filter above aggregation without the rule", "SELECT * FROM (SELECT region, count(*) c FROM kv GROUP BY region) s WHERE region = 'x'", []string{"filter_pushdown"}, []string{
			"filter: (region = x) (estimated rows=0)",
			"  projection: region AS region, count AS c (estimated rows=10)",
			"    aggregate: keys=1 aggregates=[count(*)] (estimated rows=10)",
			"      projection: region AS key0 (estimated rows=100)",
			"        scan: table=kv columns=[region] (estimated rows=100)"}},
		{"filter into both inputs of a set operation", "SELECT * FROM (SELECT id, v FROM kv UNION SELECT n, v FROM kv) u WHERE v = 'a'", nil, []string{
			"set_operation: UNION (estimated rows=1)",
			"  projection: id AS id, v AS v (estimated rows=1)",
			"    filter: (v = a) (estimated rows=1)",
			"      scan: table=kv columns=[id, v] (estimated rows=100)",
			"  projection: CAST(n AS bigint) AS id, v AS v (estimated rows=1)",
			"    filter: (v = a) (estimated rows=1)",
			"      scan: table=kv columns=[v, n] (estimated rows=100)"}},
		{"filter into both inputs of EXCEPT", "SELECT * FROM (SELECT id, v FROM kv EXCEPT SELECT n, v FROM kv) u WHERE id > 3", nil, []string{
			"set_operation: EXCEPT (estimated rows=33)",
			"  projection: id AS id, v AS v (estimated rows=33)",
			"    filter: (id > 3) (estimated rows=33)",
			"      scan: table=kv columns=[id, v] (estimated rows=100)",
			"  projection: CAST(n AS bigint) AS id, v AS v (estimated rows=33)",
			"    filter: (CAST(n AS bigint) > 3) (estimated rows=33)",
			"      scan: table=kv columns=[v, n] (estimated rows=100)"}},
		{"filter below a sort, through projections", "SELECT * FROM (SELECT v, n FROM kv ORDER BY n) s WHERE n = 1", nil, []string{
			"sort: n (estimated rows=1)",
			"  projection: v AS v, n AS n (estimated rows=1)",
			"    filter: (n = 1) (estimated rows=1)",
			"      scan: table=kv columns=[v, n] (estimated rows=100)"}},
		// a volatile condition stays where it was written
		{"volatile filter stays", "SELECT * FROM (SELECT region, count(*) c FROM kv GROUP BY region) s WHERE random() < 0.5", nil, []string{
			"filter: (random() < 0.5) (estimated rows=3)",
			"  projection: region AS region, count AS c (estimated rows=10)",
			"    aggregate: keys=1 aggregates=[count(*)] (estimated rows=10)",
			"      projection: region AS key0 (estimated rows=100)",
			"        scan: table=kv columns=[region] (estimated rows=100)"}},

		// join_condition_pushdown: ON's right-only conjunct filters the
		// NULL-extended side; the left-only one stays in the join
		{"outer join's safe side", "SELECT * FROM mid a LEFT JOIN small b ON a.id = b.k AND b.v = 'x' AND a.v = 'y'", nil, []string{
			"hash_join: type=left keys=[0]=[1] cond=(v = y) (estimated rows=1000)",
			"  scan: table=a columns=[id, k, v] (estimated rows=1000)",
			"  filter: (v = x) (estimated rows=0)",
			"    scan: table=b columns=[id, k, v] (estimated rows=10)"}},
		// join_order: the smallest join first, the smaller input built
		{"join order by estimates", "SELECT b.v FROM big b, mid m, small s WHERE b.k = m.id AND m.k = s.id", nil, []string{
			"projection: v AS v (estimated rows=1000000)",
			"  hash_join: type=inner keys=[0]=[0] (estimated rows=1000000)",
			"    scan: table=big columns=[k, v] (estimated rows=1000000)",
			"    hash_join: type=inner keys=[1]=[0] (estimated rows=1000)",
			"      scan: table=mid columns=[id, k] (estimated rows=1000)",
			"      scan: table=small columns=[id] (estimated rows=10)"}},
		{"no cross product for a connected graph written out of order", "SELECT s.v FROM small s, big b, mid m WHERE b.k = m.id AND m.k = s.id", nil, []string{
			"projection: v AS v (estimated rows=1000000)",
			"  hash_join: type=inner keys=[0]=[0] (estimated rows=1000000)",
			"    scan: table=big columns=[k] (estimated rows=1000000)",
			"    hash_join: type=inner keys=[1]=[0] (estimated rows=1000)",
			"      scan: table=mid columns=[id, k] (estimated rows=1000)",
			"      scan: table=small columns=[id, v] (estimated rows=10)"}},
		// without the rule: the cross product the FROM list wrote
		{"written order without the rule", "SELECT s.v FROM small s, big b, mid m WHERE b.k = m.id AND m.k = s.id", []string{"join_order"}, []string{
			"projection: v AS v (estimated rows=10000000)",
			"  hash_join: type=inner keys=[2 0]=[0 1] (estimated rows=10000000)",
			"    nested_loop_join: type=inner (estimated rows=10000000)",
			"      scan: table=small columns=[id, v] (estimated rows=10)",
			"      scan: table=big columns=[k] (estimated rows=1000000)",
			"    scan: table=mid columns=[id, k] (estimated rows=1000)"}},
		{"build side is the smaller input", "SELECT * FROM small s JOIN big b ON s.id = b.k", nil, []string{
			"projection: id AS id, k AS k, v AS v, id AS id, k AS k, v AS v (estimated rows=1000000)",
			"  hash_join: type=inner keys=[1]=[0] (estimated rows=1000000)",
			"    scan: table=b columns=[id, k, v] (estimated rows=1000000)",
			"    scan: table=s columns=[id, k, v] (estimated rows=10)"}},

		// outer_join_build_side: the smaller input of an outer hash join
		// is built, a LEFT join turned RIGHT with its inputs swapped
		{"outer join builds the smaller input", "SELECT * FROM small s LEFT JOIN big b ON s.id = b.k", nil, []string{
			"projection: id AS id, k AS k, v AS v, id AS id, k AS k, v AS v (estimated rows=1000000)",
			"  hash_join: type=right keys=[1]=[0] (estimated rows=1000000)",
			"    scan: table=b columns=[id, k, v] (estimated rows=1000000)",
			"    scan: table=s columns=[id, k, v] (estimated rows=10)"}},
		{"outer join as written without the rule", "SELECT * FROM small s LEFT JOIN big b ON s.id = b.k", []string{"outer_join_build_side"}, []string{
			"hash_join: type=left keys=[0]=[1] (estimated rows=1000000)",
			"  scan: table=s columns=[id, k, v] (estimated rows=10)",
			"  scan: table=b columns=[id, k, v] (estimated rows=1000000)"}},
		{"a FULL join swaps its inputs and stays FULL", "SELECT s.v, b.v FROM small s FULL JOIN big b ON s.id = b.k AND b.v > s.v", nil, []string{
			"projection: v AS v, v AS v (estimated rows=1000010)",
			"  hash_join: type=full keys=[0]=[0] cond=(v > v) (estimated rows=1000010)",
			"    scan: table=big columns=[k, v] (estimated rows=1000000)",
			"    scan: table=small columns=[id, v] (estimated rows=10)"}},

		// limit_pushdown
		{"limit through projections to the scan", "SELECT v FROM (SELECT v, n FROM kv) s LIMIT 3", nil, []string{
			"projection: v AS v (estimated rows=3)",
			"  limit: count=3 (estimated rows=3)",
			"    scan: table=kv columns=[v] limit=3 (estimated rows=3)"}},
		{"limit into UNION ALL", "SELECT id FROM kv UNION ALL SELECT n FROM kv LIMIT 3", nil, []string{
			"limit: count=3 (estimated rows=3)",
			"  set_operation: UNION ALL (estimated rows=6)",
			"    projection: id AS id (estimated rows=3)",
			"      limit: count=3 (estimated rows=3)",
			"        scan: table=kv columns=[id] limit=3 (estimated rows=3)",
			"    projection: CAST(n AS bigint) AS id (estimated rows=3)",
			"      limit: count=3 (estimated rows=3)",
			"        scan: table=kv columns=[n] limit=3 (estimated rows=3)"}},
		{"ORDER BY LIMIT is a top-N", "SELECT v FROM (SELECT v, n FROM kv) s ORDER BY n LIMIT 10 OFFSET 2", nil, []string{
			"projection: v AS v (estimated rows=10)",
			"  limit: count=10 offset=2 (estimated rows=10)",
			"    top_n: n=12 keys=?sort? (estimated rows=12)",
			"      projection: v AS v, n AS ?sort? (estimated rows=100)",
			"        scan: table=kv columns=[v, n] (estimated rows=100)"}},

		// sort_elimination
		{"no sort under count", "SELECT count(*) FROM (SELECT * FROM kv ORDER BY n) s", nil, []string{
			"aggregate: keys=0 aggregates=[count(*)] (estimated rows=1)",
			"  projection (estimated rows=100)",
			"    scan: table=kv columns=[id] (estimated rows=100)"}},
		{"string_agg keeps its sort", "SELECT string_agg(v, ',') FROM (SELECT * FROM kv ORDER BY n) s", nil, []string{
			"aggregate: keys=0 aggregates=[string_agg(v, ',')] (estimated rows=1)",
			"  projection: v AS arg0, , AS sep0 (estimated rows=100)",
			"    sort: n (estimated rows=100)",
			"      scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},
		{"sort over sort is one sort", "SELECT * FROM (SELECT * FROM kv ORDER BY n) s ORDER BY v", nil, []string{
			"sort: v, n (estimated rows=100)",
			"  scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},

		// aggregation_pushdown: orders pre-aggregated by cust below the
		// join with customers (unique on id); the final aggregation sums
		// the partials and casts them back to the original types
		{"aggregation below a join", "SELECT c.region, sum(o.amount), count(*), min(o.note) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region", nil, []string{
			"projection: region AS region, sum AS sum, COALESCE(sum, 0) AS count, min AS min (estimated rows=10000)",
			"  aggregate: keys=1 aggregates=[sum(sum), sum(count), min(min)] (estimated rows=10000)",
			"    projection: region AS key0, sum AS arg0, count AS arg1, min AS arg2 (estimated rows=100000)",
			"      hash_join: type=inner keys=[0]=[0] (estimated rows=100000)",
			"        aggregate: keys=1 aggregates=[sum(amount), count(*), min(note)] (estimated rows=100000)",
			"          projection: cust AS key0, amount AS arg0, note AS arg2 (estimated rows=1000000)",
			"            projection: cust AS cust, amount AS amount, note AS note (estimated rows=1000000)",
			"              scan: table=orders columns=[cust, amount, note] (estimated rows=1000000)",
			"        projection: id AS id, region AS region (estimated rows=1000)",
			"          scan: table=customers columns=[id, region] (estimated rows=1000)"}},
		{"aggregation above the join without the rule", "SELECT c.region, sum(o.amount), count(*), min(o.note) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region", []string{"aggregation_pushdown"}, []string{
			"aggregate: keys=1 aggregates=[sum(amount), count(*), min(note)] (estimated rows=100000)",
			"  projection: region AS key0, amount AS arg0, note AS arg2 (estimated rows=1000000)",
			"    hash_join: type=inner keys=[0]=[0] (estimated rows=1000000)",
			"      scan: table=orders columns=[cust, amount, note] (estimated rows=1000000)",
			"      scan: table=customers columns=[id, region] (estimated rows=1000)"}},
		{"a scalar aggregation, the unique side on the left", "SELECT sum(o.amount) FROM customers c JOIN orders o ON o.cust = c.id", nil, []string{
			"projection: sum AS sum (estimated rows=1)",
			"  aggregate: keys=0 aggregates=[sum(sum)] (estimated rows=1)",
			"    projection: sum AS arg0 (estimated rows=100000)",
			"      hash_join: type=inner keys=[0]=[0] (estimated rows=100000)",
			"        aggregate: keys=1 aggregates=[sum(amount)] (estimated rows=100000)",
			"          projection: cust AS key0, amount AS arg0 (estimated rows=1000000)",
			"            projection: cust AS cust, amount AS amount (estimated rows=1000000)",
			"              scan: table=orders columns=[cust, amount] (estimated rows=1000000)",
			"        projection: id AS id (estimated rows=1000)",
			"          scan: table=customers columns=[id] (estimated rows=1000)"}},
		{"not for DISTINCT aggregates", "SELECT c.region, count(DISTINCT o.amount) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region", nil, []string{
			"aggregate: keys=1 aggregates=[count(DISTINCT amount)] (estimated rows=100000)",
			"  projection: region AS key0, amount AS arg0 (estimated rows=1000000)",
			"    hash_join: type=inner keys=[0]=[0] (estimated rows=1000000)",
			"      scan: table=orders columns=[cust, amount] (estimated rows=1000000)",
			"      scan: table=customers columns=[id, region] (estimated rows=1000)"}},
		{"not when the other side's join key is not unique", "SELECT m.v, sum(b.k) FROM big b JOIN mid m ON b.k = m.id GROUP BY m.v", nil, []string{
			"aggregate: keys=1 aggregates=[sum(k)] (estimated rows=100000)",
			"  projection: v AS key0, k AS arg0 (estimated rows=1000000)",
			"    hash_join: type=inner keys=[0]=[0] (estimated rows=1000000)",
			"      scan: table=big columns=[k] (estimated rows=1000000)",
			"      scan: table=mid columns=[id, v] (estimated rows=1000)"}},

		// projection_elimination
		{"a projection of every column in order goes", "SELECT * FROM (SELECT * FROM kv) s", nil, []string{
			"scan: table=kv columns=[id, region, v, n] (estimated rows=100)"}},
		{"projections merge", "SELECT x FROM (SELECT n + 1 AS x, v FROM kv) s", nil, []string{
			"projection: (n + 1) AS x (estimated rows=100)",
			"  scan: table=kv columns=[n] (estimated rows=100)"}},
	}
	for _, c := range cases {
		got := explainLines(t, c.sql, c.disabled...)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: %s\n got:\n%s\nwant:\n%s", c.name, c.sql, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
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
// (with the rules in alsoOff disabled too).
var ruleEffects = map[string]struct {
	query   string
	alsoOff []string
}{
	"subquery_decorrelation":  {"SELECT v FROM kv WHERE EXISTS (SELECT 1 FROM kv b WHERE b.n = kv.n)", nil},
	"simplify_boolean":        {"SELECT * FROM kv WHERE n > 1 AND 1 = 0", nil},
	"aggregate_input_pruning": {"SELECT region, count(*) FROM kv GROUP BY region", nil},
	// filter_pushdown moves what filter_into_join moves (it applies it at
	// every join it meets): the rule shows on its own only without it
	"filter_into_join":        {"SELECT a.v FROM mid a, small b WHERE a.k = b.id AND b.v = 'x'", []string{"filter_pushdown"}},
	"join_condition_pushdown": {"SELECT * FROM mid a LEFT JOIN small b ON a.id = b.k AND b.v = 'x'", nil},
	"filter_pushdown":         {"SELECT * FROM (SELECT region, count(*) c FROM kv GROUP BY region) s WHERE region = 'x'", nil},
	"primary_key_lookup":      {"SELECT v FROM kv WHERE id = 1 AND region = 'eu'", nil},
	"join_order":              {"SELECT s.v FROM small s, big b, mid m WHERE b.k = m.id AND m.k = s.id", nil},
	"outer_join_build_side":   {"SELECT * FROM small s LEFT JOIN big b ON s.id = b.k", nil},
	"projection_elimination":  {"SELECT x FROM (SELECT n + 1 AS x, v FROM kv) s", nil},
	"join_input_pruning":      {"SELECT a.v FROM mid a JOIN small b ON a.k = b.id", nil},
	"sort_elimination":        {"SELECT count(*) FROM (SELECT * FROM kv ORDER BY n) s", nil},
	"aggregation_pushdown":    {"SELECT c.region, sum(o.amount) FROM orders o JOIN customers c ON o.cust = c.id GROUP BY c.region", nil},
	"projection_pushdown":     {"SELECT v FROM kv WHERE n > 1", nil},
	"bucket_key_lookup":       {"SELECT v FROM ev WHERE id = 7", nil},
	"changelog_bounds":        {"SELECT v FROM ev$changelog WHERE _log_offset >= 5", nil},
	"limit_pushdown":          {"SELECT v FROM (SELECT v, n FROM kv) s LIMIT 3", nil},
	"partition_pruning":       {"SELECT v FROM pt WHERE dt >= '20240101'", nil},
}

// TestEveryRuleChangesSomePlan: each rule of the ordered list has a query
// whose EXPLAIN differs with the rule disabled (the plan shapes above and
// in the other tests show what each does).
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
