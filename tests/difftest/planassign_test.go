package difftest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// planAssignColumns are the columns TestPlanTimeAssignmentDifferential
// assigns constants to: types whose assignment coercion of a constant
// PostgreSQL's planner folds (lengths, precisions, ranges), and domains,
// whose CHECK it does not fold. The columns of domains are added by ALTER
// TABLE ... ADD COLUMN, as a table gets them after it is made.
var planAssignColumns = []struct{ name, typ string }{
	{"v3", "varchar(3)"}, {"c3", "char(3)"}, {"n31", "numeric(3,1)"}, {"s", "smallint"},
	{"i", "int"}, {"b", "bigint"}, {"t", "text"}, {"f", "float4"},
	{"dv", "pa_vc3"}, {"dp", "pa_pos"}, {"dn", "pa_nn"}, {"dc", "pa_c2"}, {"dnum", "pa_num"},
}

// planAssignValues are the constant expressions assigned: literals that fit
// or do not, typed constants, and operators over constants that the
// planner folds. A float constant's text is among them: PostgreSQL folds
// it while planning (float8out is immutable) under the session's
// extra_float_digits, and so does sqlgate's fold, which reads the
// session's settings (lower/pgfold.go's folder).
var planAssignValues = []string{
	"'abcdef'", "'abc'", "'ab '", "'abc   '", "'x'", "40000", "99999999999", "123.45", "12.34", "-1", "0",
	"'12'", "NULL", "'ab' || 'cd'", "'abcd'::text", "40000::int", "2.5::float8::numeric", "1e10", "1/0",
	"repeat('z', 2)", "'9'::numeric * 100",
	"2.5::float8", "2::float8", "0.5::float4", "1e-5::float8", "-12.5::float8", "100::float4", "1.5e300::float8 * 10",
}

// planAssignFloats are float constants whose text is longer or shorter
// than three characters as extra_float_digits makes it.
var planAssignFloats = []string{"1.25::float8", "12.5::float4", "0.001::float8", "2::float8 / 3", "-1.5::float4", "1e20::float8"}

// planAssignForms are the statements a value is assigned in, %[1]s the
// column, %[2]s the value and %[3]d a key no row has: none of them
// writes a row but the upsert, whose DO UPDATE SET never runs, so only
// what PostgreSQL checks when it plans can fail.
var planAssignForms = []string{
	"UPDATE pa SET %[1]s = %[2]s WHERE false",
	"UPDATE pa SET %[1]s = %[2]s WHERE k = %[3]d",
	"INSERT INTO pa (k, %[1]s) SELECT %[3]d, %[2]s WHERE false",
	"INSERT INTO pa (k, %[1]s) SELECT k + %[3]d, %[2]s FROM pa WHERE k < 0",
	"INSERT INTO pa (k) VALUES (%[3]d) ON CONFLICT (k) DO UPDATE SET %[1]s = %[2]s",
	"UPDATE pa SET %[1]s = %[2]s WHERE false RETURNING k",
}

// planAssignAggregateForm is an INSERT whose query aggregates: PostgreSQL
// does not pull it up into the INSERT, so its constants are coerced per
// row (no row, no error). It takes the typed values of planAssignValues
// only: an untyped literal of an aggregating INSERT ... SELECT with
// GROUP BY or HAVING is typed text by sqlgate (42804) where PostgreSQL
// types it by the column, a gap of its own.
const planAssignAggregateForm = "INSERT INTO pa (k, %[1]s) SELECT max(k) + %[3]d, %[2]s FROM pa HAVING false"

// TestPlanTimeAssignmentDifferential assigns each constant of
// planAssignValues to each column of planAssignColumns in each statement
// of planAssignForms, on sqlgate and PostgreSQL 15, and compares: both
// refuse alike (a constant whose assignment coercion fails when planned,
// though no row is written) or both succeed with the same rows.
func TestPlanTimeAssignmentDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{
		"CREATE DOMAIN pa_vc3 AS varchar(3)",
		"CREATE DOMAIN pa_pos AS int CHECK (value > 0)",
		"CREATE DOMAIN pa_nn AS text NOT NULL DEFAULT 'ok' CHECK (length(value) < 3)",
		"CREATE DOMAIN pa_c2 AS char(2) CHECK (value <> 'zz')",
		"CREATE DOMAIN pa_num AS numeric(4,2) CHECK (value >= 0)",
		"CREATE TABLE pa (k int PRIMARY KEY)",
	}
	for _, c := range planAssignColumns {
		setup = append(setup, "ALTER TABLE pa ADD COLUMN "+c.name+" "+c.typ)
	}
	for _, s := range setup {
		if o := r.SQLGate.Run(ctx, s); o.Err != nil {
			t.Fatalf("sqlgate: %s: %s", s, describeErr(o))
		}
		if o := r.Postgres.Run(ctx, s); o.Err != nil {
			t.Fatalf("postgres: %s: %s", s, describeErr(o))
		}
	}
	stats := map[string]int{}
	key := 1000
	for _, form := range append(slices.Clone(planAssignForms), planAssignAggregateForm) {
		for _, c := range planAssignColumns {
			for _, v := range planAssignValues {
				if form == planAssignAggregateForm && (v == "NULL" || strings.HasPrefix(v, "'") && !strings.Contains(v, "::") && !strings.Contains(v, "||")) {
					continue // an untyped literal (see planAssignAggregateForm)
				}
				key++
				q := fmt.Sprintf(form, c.name, v, key)
				tallyBy(t, ctx, r, q, stats, tallyRule{})
			}
		}
	}
	// The fold reads the session's extra_float_digits: a float whose text
	// fits three characters under 1 digit ("1") and not under the default
	// ("1.25") is refused or taken as PostgreSQL's planner decides.
	for _, efd := range []string{"-14", "-12", "0", "3"} {
		set := "SET extra_float_digits = " + efd
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			if o := s.Run(ctx, set); o.Err != nil {
				t.Fatalf("%s: %s", set, describeErr(o))
			}
		}
		for _, form := range planAssignForms {
			for _, c := range []string{"v3", "c3", "dv", "t"} {
				for _, v := range planAssignFloats {
					key++
					tallyBy(t, ctx, r, fmt.Sprintf(form, c, v, key), stats, tallyRule{})
				}
			}
		}
	}
	for _, q := range []string{"SELECT * FROM pa ORDER BY k", "SELECT pg_typeof(dv), pg_typeof(dp), pg_typeof(v3) FROM pa LIMIT 1"} {
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY")})
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
