package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestDbtProject runs a dbt-postgres project (python/dbt_project.py:
// sources over seeded tables, a view model, a table model, an incremental
// model with a primary-key contract and unique_key, schema tests
// not_null / unique / accepted_values / relationships) against sqlgate's
// embedded store and PostgreSQL 15: `dbt run`, new and changed source
// rows, `dbt run` again, `dbt test`. It compares the outputs section by
// section: each run's and the tests' results, and the models' rows,
// columns and kinds after each run. dbt's materializations exercise
// db.schema.name names, CREATE VIEW / CREATE TABLE AS inside transaction
// blocks, ALTER TABLE ... RENAME TO of tables and views, DROP ... CASCADE,
// COMMENT ON (persist_docs), temporary tables, DELETE ... WHERE (key) IN
// (...) and the catalog queries of its relation cache (pg_depend's view
// dependencies, which tell it what a DROP ... CASCADE took: a view model
// over the table model follows the table's rename and goes with the
// backup).
func TestDbtProject(t *testing.T) {
	python := dbtPython(t)
	p := startOraclePair(t)
	run := func(host, port string) string {
		cmd := exec.Command(python, filepath.Join("python", "dbt_project.py"), host, port)
		cmd.Env = append(os.Environ(), "DBT_SEND_ANONYMOUS_USAGE_STATS=false")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("dbt_project.py against %s:%s (sqlgate is on %s): %v\n%s", host, port, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgHost, p.pgPort)
	got := run(p.sgHost, p.sgPort)
	compareSections(t, got, want, dbtGaps)
}

// dbtGaps are the sections where sqlgate's answer differs from
// PostgreSQL's, with sqlgate's exact output; the test fails once one
// answers anything else.
var dbtGaps = map[string]string{
	// coalesce(sum(numeric(10,2)), 0) is an unconstrained numeric; a
	// Fluss column needs a precision and scale, so CREATE TABLE AS stores
	// it as the widest DECIMAL (38, 10) (same values: the rows sections
	// compare them by value).
	"columns after run 1": dbtColumnsGap,
	"columns after run 2": dbtColumnsGap,
}

const dbtColumnsGap = `customer_totals | customer_id | integer | 32 | 0
customer_totals | name | character varying | NULL | NULL
customer_totals | tier | character varying | NULL | NULL
customer_totals | order_count | bigint | 64 | 0
customer_totals | total | numeric | 38 | 10
gold_customers | customer_id | integer | 32 | 0
gold_customers | name | character varying | NULL | NULL
gold_customers | total | numeric | 38 | 10
orders_inc | id | integer | 32 | 0
orders_inc | customer_id | integer | 32 | 0
orders_inc | status | text | NULL | NULL
orders_inc | amount | numeric | 10 | 2
stg_orders | id | integer | 32 | 0
stg_orders | customer_id | integer | 32 | 0
stg_orders | status | character varying | NULL | NULL
stg_orders | amount | numeric | 10 | 2`

// dbtPython is the interpreter of the dbt-postgres virtualenv
// scripts/install-test-deps.sh makes ($SQLGATE_DBT_PYTHON overrides it).
func dbtPython(t *testing.T) string {
	if p := os.Getenv("SQLGATE_DBT_PYTHON"); p != "" {
		return p
	}
	p := testbin.ToolPath("dbt-postgres-1.11.0", "bin", "python")
	if out, err := exec.Command(p, "-c", "import dbt.adapters.postgres, psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("dbt-postgres is not installed in %s (scripts/install-test-deps.sh installs it): %v\n%s", p, err, out)
	}
	return p
}
