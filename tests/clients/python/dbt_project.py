"""A dbt-postgres project (issue 36) run as a team would run it: sources
over two seeded tables, a view model, a table model (with persist_docs:
COMMENT ON its table and columns) and a view model over it (which dbt's
rename of the table moves to its backup and its DROP ... CASCADE drops,
before building it again), an incremental model
(a contract with a primary key, unique_key, dbt-postgres's default
delete+insert strategy), and schema tests (not_null, unique,
accepted_values, relationships). `dbt run` twice, with new and changed
source rows in between, then `dbt test`. Prints one "== step" section each
(model contents, relation kinds, run and test results); the Go test
(dbt_test.go) runs it against sqlgate and PostgreSQL 15 and compares.

dbt runs in this process through dbtRunner (one start-up instead of
three). Run it with the Python of the dbt virtualenv that
scripts/install-test-deps.sh makes (dbt-postgres with psycopg2-binary).

Usage: python dbt_project.py HOST PORT
"""
import decimal
import os
import shutil
import sys
import tempfile

import psycopg2

os.environ["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"

from dbt.cli.main import dbtRunner  # noqa: E402

PROJECT = '''
name: sqlgate_dbt
version: "1.0"
config-version: 2
profile: sqlgate
model-paths: [models]
flags:
  send_anonymous_usage_stats: false
  use_colors: false
'''

PROFILES = '''
sqlgate:
  target: dev
  outputs:
    dev:
      type: postgres
      host: "%s"
      port: %s
      user: sqlgate
      password: ""
      dbname: sqlgate
      schema: analytics
      threads: 1
      sslmode: disable
'''

SOURCES = '''
version: 2
sources:
  - name: raw
    schema: raw
    tables:
      - name: customers
        columns:
          - name: id
            data_tests: [not_null, unique]
      - name: orders
        columns:
          - name: id
            data_tests: [not_null, unique]
          - name: status
            data_tests:
              - accepted_values:
                  arguments:
                    values: [placed, shipped, returned, cancelled]
'''

SCHEMA = '''
version: 2
models:
  - name: stg_orders
    columns:
      - name: id
        data_tests: [not_null, unique]
      - name: customer_id
        data_tests:
          - relationships:
              arguments:
                to: source('raw', 'customers')
                field: id
  - name: customer_totals
    description: "orders per customer"
    config:
      persist_docs:
        relation: true
        columns: true
    columns:
      - name: customer_id
        description: "the customer's key"
        data_tests: [not_null, unique]
      - name: tier
        data_tests:
          - accepted_values:
              arguments:
                values: [gold, silver]
  - name: orders_inc
    config:
      contract:
        enforced: true
    columns:
      - name: id
        data_type: integer
        constraints:
          - type: primary_key
        data_tests: [unique]
      - name: customer_id
        data_type: integer
        data_tests:
          - relationships:
              arguments:
                to: ref('customer_totals')
                field: customer_id
      - name: status
        data_type: text
      - name: amount
        data_type: numeric(10,2)
'''

MODELS = {
    "stg_orders.sql": '''
{{ config(materialized='view') }}
select id, customer_id, status, amount
from {{ source('raw', 'orders') }}
where status <> 'cancelled'
''',
    "customer_totals.sql": '''
{{ config(materialized='table') }}
select c.id as customer_id, c.name, c.tier,
       count(o.id) as order_count,
       coalesce(sum(o.amount), 0) as total
from {{ source('raw', 'customers') }} c
left join {{ ref('stg_orders') }} o on o.customer_id = c.id
group by c.id, c.name, c.tier
''',
    "gold_customers.sql": '''
{{ config(materialized='view') }}
select customer_id, name, total
from {{ ref('customer_totals') }}
where tier = 'gold'
''',
    "orders_inc.sql": '''
{{ config(materialized='incremental', unique_key='id', on_schema_change='fail') }}
select id, customer_id, status, amount
from {{ ref('stg_orders') }}
{% if is_incremental() %}
where id >= (select max(id) from {{ this }})
{% endif %}
''',
}

# dbt-postgres's query for the views that depend on relations (its
# relation cache drops them when a DROP ... CASCADE takes their relation).
DEPENDENCIES = """
select distinct dependent_namespace.nspname, dependent_class.relname,
       referenced_namespace.nspname, referenced_class.relname
from pg_class as dependent_class
join pg_namespace as dependent_namespace on dependent_namespace.oid = dependent_class.relnamespace
join pg_depend as dependent_depend on dependent_depend.refobjid = dependent_class.oid
    and dependent_depend.classid = 'pg_rewrite'::regclass
    and dependent_depend.refclassid = 'pg_class'::regclass
    and dependent_depend.deptype = 'i'
join pg_depend as joining_depend on joining_depend.objid = dependent_depend.objid
    and joining_depend.classid = 'pg_rewrite'::regclass
    and joining_depend.refclassid = 'pg_class'::regclass
    and joining_depend.refobjid != dependent_depend.refobjid
join pg_class as referenced_class on referenced_class.oid = joining_depend.refobjid
join pg_namespace as referenced_namespace on referenced_namespace.oid = referenced_class.relnamespace
    and referenced_namespace.nspname != 'information_schema'
    and referenced_namespace.nspname not like 'pg\\_%'
order by 1, 2, 3, 4
"""

SEED = [
    "CREATE SCHEMA IF NOT EXISTS raw",
    "CREATE TABLE raw.customers (id int NOT NULL, name varchar(40), tier varchar(10), PRIMARY KEY (id))",
    "CREATE TABLE raw.orders (id int NOT NULL, customer_id int, status varchar(20), amount numeric(10,2), PRIMARY KEY (id))",
    "INSERT INTO raw.customers VALUES (1, 'ada', 'gold'), (2, 'bob', 'silver'), (3, 'cy', 'silver')",
    "INSERT INTO raw.orders VALUES (10, 1, 'placed', 12.50), (11, 1, 'shipped', 7.25), (12, 2, 'cancelled', 99.00), (13, 3, 'placed', 1.00)",
]

# Between the runs: new orders, one of them past the incremental model's
# high-water mark, and a change to the last order it loaded (id 13, which
# its `id >=` filter reloads: delete+insert replaces the row).
MORE = [
    "INSERT INTO raw.customers VALUES (4, 'dee', 'gold')",
    "INSERT INTO raw.orders VALUES (14, 4, 'placed', 40.00), (15, 2, 'shipped', 3.75)",
    "UPDATE raw.orders SET status = 'returned' WHERE id = 13",
]


def sql(conn, stmts):
    with conn.cursor() as cur:
        for s in stmts:
            cur.execute(s)
    conn.commit()


def rows(conn, query):
    try:
        with conn.cursor() as cur:
            cur.execute(query)
            out = [" | ".join(show(v) for v in r) for r in cur.fetchall()]
    except psycopg2.Error as e:
        out = ["ERROR %s: %s" % (e.pgcode, str(e).strip().splitlines()[0])]
    conn.rollback()
    return out


def show(v):
    """A value as text; a numeric by its value (its scale shows in the
    "columns" section)."""
    if v is None:
        return "NULL"
    if isinstance(v, decimal.Decimal):
        return format(v.normalize(), "f")
    return str(v)


def section(name, lines):
    print("== " + name)
    for line in lines:
        print(line)
    sys.stdout.flush()


def contents(conn, label):
    section("stg_orders " + label, rows(conn, "SELECT id, customer_id, status, amount FROM analytics.stg_orders ORDER BY id"))
    section("customer_totals " + label, rows(conn, "SELECT customer_id, name, tier, order_count, total FROM analytics.customer_totals ORDER BY customer_id"))
    section("gold_customers " + label, rows(conn, "SELECT customer_id, name, total FROM analytics.gold_customers ORDER BY customer_id"))
    section("orders_inc " + label, rows(conn, "SELECT id, customer_id, status, amount FROM analytics.orders_inc ORDER BY id"))
    section("columns " + label, rows(conn, "SELECT table_name, column_name, data_type, numeric_precision, numeric_scale "
                                         "FROM information_schema.columns WHERE table_schema = 'analytics' "
                                         "ORDER BY table_name, ordinal_position"))
    section("comments " + label, rows(conn, "SELECT obj_description('analytics.customer_totals'::regclass, 'pg_class'), "
                                          "col_description('analytics.customer_totals'::regclass, 1), "
                                          "col_description('analytics.customer_totals'::regclass, 2)"))
    section("view dependencies " + label, rows(conn, DEPENDENCIES))
    section("relations " + label, rows(conn, "SELECT table_name, table_type FROM information_schema.tables "
                                             "WHERE table_schema = 'analytics' ORDER BY table_name"))


def invoke(args, project):
    """Runs one dbt command; returns its section lines: the outcome and
    each node's status (and failures, for tests)."""
    res = dbtRunner().invoke(args + ["--project-dir", project, "--profiles-dir", project,
                                     "--target-path", os.path.join(project, "target"),
                                     "--log-path", os.path.join(project, "logs"),
                                     "--log-level", "none", "--log-level-file", "none"])
    out = ["success=%s" % res.success]
    if res.exception is not None:
        out.append("exception: %s" % str(res.exception).strip().splitlines()[0])
    if res.result is not None and hasattr(res.result, "results"):
        for r in sorted(res.result.results, key=lambda r: r.node.unique_id):
            line = "%s %s" % (r.node.unique_id, r.status)
            if r.failures:
                line += " failures=%s" % r.failures
            if str(r.status) == "error":
                line += " message=%s" % " / ".join(l.strip() for l in (r.message or "").strip().splitlines()[:2])
            out.append(line)
    return out


def main():
    host, port = sys.argv[1], sys.argv[2]
    project = tempfile.mkdtemp(prefix="dbt-")
    try:
        os.makedirs(os.path.join(project, "models"))
        with open(os.path.join(project, "dbt_project.yml"), "w") as f:
            f.write(PROJECT)
        with open(os.path.join(project, "profiles.yml"), "w") as f:
            f.write(PROFILES % (host, port))
        with open(os.path.join(project, "models", "sources.yml"), "w") as f:
            f.write(SOURCES)
        with open(os.path.join(project, "models", "schema.yml"), "w") as f:
            f.write(SCHEMA)
        for name, body in MODELS.items():
            with open(os.path.join(project, "models", name), "w") as f:
                f.write(body)
        conn = psycopg2.connect(host=host, port=port, user="sqlgate", dbname="sqlgate", sslmode="disable")
        # one statement per transaction: a Fluss cluster writes one table
        # per transaction
        conn.autocommit = True
        try:
            sql(conn, SEED)
            section("dbt run 1", invoke(["run"], project))
            contents(conn, "after run 1")
            sql(conn, MORE)
            section("dbt run 2", invoke(["run"], project))
            contents(conn, "after run 2")
            section("dbt test", invoke(["test"], project))
        finally:
            conn.close()
    finally:
        shutil.rmtree(project)


if __name__ == "__main__":
    main()
