package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// labelExprs walk PostgreSQL's FigureColnameInternal (parse_target.c):
// column references, casts (strong and weak operand names), CASE (with and
// without a strong ELSE), functions and the SQL-syntax calls (position,
// substring, trim, extract, AT TIME ZONE), constructs (ARRAY, ROW,
// COALESCE, GREATEST, NULLIF, EXISTS, subqueries), SQL value functions,
// aggregates and window functions, and operators, which have no name.
var labelExprs = []string{
	`2 ^ 10`,
	`position('c' in 'abc')`,
	`case when true then 1 else 2 end`,
	`case when true then 1 else x end`,
	`case when true then 1 end`,
	`case x when 1 then 'a' else y end`,
	`case when true then 1 else x::text end`,
	`case when true then 1 else 1::int end`,
	`case when true then 1 else upper(y) end`,
	`case when true then 1 else (case when true then x end) end`,
	`x`,
	`lt.x`,
	`(x)`,
	`x::text`,
	`x::int::text`,
	`1::int`,
	`1::int::text`,
	`'1'::integer`,
	`'a'::varchar(3)`,
	`1.5::double precision`,
	`'2020-01-01'::timestamp with time zone`,
	`cast(x as bigint)`,
	`cast(1 as bigint)`,
	`cast(y as int)`,
	`date '2020-01-01'`,
	`interval '1 day'`,
	`timestamp '2020-01-01'`,
	`true`,
	`false`,
	`null`,
	`1`,
	`'a'`,
	`-x`,
	`- 1`,
	`not b`,
	`x + 1`,
	`x = 1`,
	`x is null`,
	`x isnull`,
	`x is distinct from 1`,
	`x between 1 and 2`,
	`x in (1, 2)`,
	`y like 'a%'`,
	`y ilike 'a%'`,
	`y ~ 'a'`,
	`y || 'a'`,
	`arr[1]`,
	`arr[1:2]`,
	`array[1, 2]`,
	`array(select 1)`,
	`row(1, 2)`,
	`coalesce(x, 1)`,
	`greatest(x, 1)`,
	`least(x, 1)`,
	`nullif(x, 1)`,
	`exists(select 1)`,
	`(select x from lt limit 1)`,
	`(select 1)`,
	`x = any(arr)`,
	`x = any(array[1])`,
	`current_date`,
	`current_timestamp`,
	`current_user`,
	`session_user`,
	`user`,
	`current_schema`,
	`current_catalog`,
	`localtimestamp`,
	`count(*)`,
	`count(x) filter (where x > 1)`,
	`sum(x) over ()`,
	`row_number() over ()`,
	`upper(y)`,
	`pg_catalog.upper(y)`,
	`now()`,
	`extract(year from now())`,
	`substring(y from 1 for 2)`,
	`substring(y, 1, 2)`,
	`trim(both 'x' from y)`,
	`trim(y)`,
	`trim(leading 'x' from y)`,
	`j -> 'a'`,
	`j ->> 'a'`,
	`j #> '{a}'`,
	`now() at time zone 'UTC'`,
	`y collate "C"`,
	`(x + 1)::text`,
	`x::text::int`,
	`$$abc$$`,
	`e'a'`,
	`x % 2`,
	`abs(x)`,
	`1 + 1`,
	`(1, 2) = (1, 2)`,
	`b and true`,
	`b or false`,
	`array_agg(x)`,
	`string_agg(y, ',' order by y)`,
	`x::regclass`,
	`'lt'::regclass`,
	`'lt'::regclass::oid`,
	`count(distinct x)`,
	`max(all x)`,
	`x not in (1)`,
	`not exists(select 1)`,
	`x < all(array[1])`,
}

// TestColumnLabels checks that sqlgate labels every unlabelled select-list
// expression of labelExprs as a throwaway PostgreSQL 15 does (RowDescription
// names).
func TestColumnLabels(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pgc := sharedPG.Conn(t)
	sg := connect(t, startServer(t).ConnString())
	const create = "CREATE TABLE lt (x int, y text, arr int[], j json, b boolean)"
	for _, c := range []*pgx.Conn{pgc, sg} {
		if _, err := c.Exec(ctx, create); err != nil {
			t.Fatal(err)
		}
	}
	labels := func(c *pgx.Conn, e string) string {
		q := "SELECT " + e + " FROM lt"
		if e == "grouping(x)" {
			q += " GROUP BY x"
		}
		rows, err := c.Query(ctx, q+" LIMIT 0", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			return "error: " + err.Error()
		}
		defer rows.Close()
		name := ""
		for i, f := range rows.FieldDescriptions() {
			if i > 0 {
				name += ", "
			}
			name += f.Name
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return "error: " + err.Error()
		}
		return name
	}
	for _, e := range labelExprs {
		want, got := labels(pgc, e), labels(sg, e)
		if want != got {
			t.Errorf("SELECT %s: PostgreSQL labels it %q, sqlgate %q", e, want, got)
		}
	}
}
