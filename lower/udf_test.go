package lower

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

type udfTestCatalog struct {
	catalog
	reg *udf.Registry
}

func (c udfTestCatalog) UDFs() *udf.Registry { return c.reg }

func udfPlan(t *testing.T, text string) Node {
	t.Helper()
	reg := udf.NewRegistry()
	noScalar := func(context.Context, []arrow.Array) (arrow.Array, error) { return nil, nil }
	if err := reg.AddScalar(udf.Scalar{Name: "f", Args: []types.T{types.StringType}, Returns: types.Int64Type, Fn: noScalar}); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddScalar(udf.Scalar{Name: "g", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: noScalar}); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddTable(udf.Table{Name: "gen", Args: []types.T{types.Int64Type}, Columns: []udf.Column{{Name: "x", Type: types.Int64Type}},
		Fn: func(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), udfTestCatalog{testCatalog(), reg}, stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Plan(st.(*binder.Query).Plan)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestUDFNodes checks that every UDF call is its own node, never folded
// into the kernel tier, and that the report tells the tiers apart.
func TestUDFNodes(t *testing.T) {
	cases := []struct {
		sql   string
		lines []string // EXPLAIN's lines, each trimmed to its part before " (lowerable"
	}{
		// (the scan decodes only the columns the call and the projection read)
		{"SELECT id, f(v) FROM kv", []string{"projection: id AS id, f_3 AS f", "opaque_udf: f(v) AS f_3", "scan: table=kv columns=[id, v]"}},
		// a constant argument is no reason to fold the call
		{"SELECT f('x')", []string{"projection: f_1 AS f", "opaque_udf: f(x) AS f_1", "values: rows=1"}},
		// nested calls: the inner one feeds the outer one's argument
		{"SELECT g(f(v)) + 1 AS y FROM kv", []string{"projection: (g_3 + 1) AS y", "opaque_udf: g(f_2) AS g_3", "opaque_udf: f(v) AS f_2", "scan: table=kv columns=[v]"}},
		// in WHERE: the filter reads the call's column, then a projection drops it
		{"SELECT n FROM kv WHERE f(v) > 2", []string{"projection: n AS n", "projection: v AS v, n AS n", "filter: (f_3 > 2)",
			"opaque_udf: f(v) AS f_3", "scan: table=kv columns=[v, n]"}},
		// (the projection that keeps every column is eliminated)
		{"SELECT * FROM gen(3)", []string{"opaque_udf: gen(3) table"}},
	}
	for _, c := range cases {
		root := udfPlan(t, c.sql)
		lines := Explain(root, nil)
		var got []string
		for _, l := range lines {
			s := strings.TrimSpace(l)
			if i := strings.Index(s, " (lowerable"); i >= 0 {
				s = s[:i]
			}
			got = append(got, s)
			if strings.HasPrefix(s, "opaque_udf") != strings.Contains(l, "(lowerable=false executor_tier=go_udf schema=") {
				t.Errorf("%s: report fields of %q", c.sql, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.lines, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.sql, got, c.lines)
		}
	}
}

func TestUDFNodesInJSON(t *testing.T) {
	var doc []struct{ Plan map[string]any }
	if err := json.Unmarshal([]byte(ExplainJSON(udfPlan(t, "SELECT f(v) FROM kv"), nil)), &doc); err != nil {
		t.Fatal(err)
	}
	top := doc[0].Plan
	u := top["Plans"].([]any)[0].(map[string]any)
	if u["Node Type"] != "opaque_udf" || u["Lowerable"] != false || u["Executor Tier"] != "go_udf" {
		t.Errorf("UDF node: %v", u)
	}
	if _, ok := u["Selected Backend"]; ok {
		t.Errorf("an opaque node has no kernel backend: %v", u)
	}
	// a projection that only passes the call's column on runs no kernel
	if top["Lowerable"] != true || top["Executor Tier"] != "go_operator" || top["Selected Backend"] != "none" {
		t.Errorf("the projection of a column: %v", top)
	}
	doc = nil
	if err := json.Unmarshal([]byte(ExplainJSON(udfPlan(t, "SELECT f(v) * 2 FROM kv"), nil)), &doc); err != nil {
		t.Fatal(err)
	}
	top = doc[0].Plan
	ks, _ := top["Kernels"].([]any)
	if top["Lowerable"] != true || top["Executor Tier"] != "arrow_batch_kernel" || len(ks) != 1 || ks[0].(map[string]any)["Family"] != "int_mul" {
		t.Errorf("the projection computing over the call's column: %v", top)
	}
}
