package difftest

import (
	"context"
	"fmt"
	"testing"
)

// TestPreparedFoldSettingsDifferential: a prepared statement whose
// constants fold to text that extra_float_digits shapes, with SET between
// PREPARE and EXECUTE and between EXECUTEs, on sqlgate and PostgreSQL 15.
// PostgreSQL plans a prepared statement at EXECUTE (not at PREPARE), and
// one with parameters anew at each of its first five executions (custom
// plans), so each EXECUTE here folds under the setting then in force;
// sqlgate plans again when the setting changed since (engine's refold).
// (A statement without parameters executed, then SET, then executed
// again keeps PostgreSQL's generic plan, folded under the old setting:
// sqlgate plans it again instead, a known difference left out here.)
func TestPreparedFoldSettingsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	run := func(q string) { tallyBy(t, ctx, r, q, stats, tallyRule{}) }
	run("CREATE TABLE pf (k int PRIMARY KEY, v varchar(3))")
	floats := []string{"3.141592653589793::float8", "1.25::float8", "2::float8 / 3", "12.5::float4"}
	efds := []string{"-14", "-3", "0", "1", "3"}
	for i, f := range floats {
		for j, efd := range efds {
			// planned first at the EXECUTE after the SET
			p := fmt.Sprintf("pf_%d_%d", i, j)
			run("SET extra_float_digits = 1")
			run(fmt.Sprintf("PREPARE %s AS SELECT %s::text AS t, %s AS f", p, f, f))
			run(fmt.Sprintf("PREPARE %s_u AS UPDATE pf SET v = %s WHERE false", p, f))
			run("SET extra_float_digits = " + efd)
			run("EXECUTE " + p)
			run("EXECUTE " + p + "_u")
			run("DEALLOCATE " + p)
			run("DEALLOCATE " + p + "_u")
		}
		// with a parameter: planned at each of these executions
		p := fmt.Sprintf("pq_%d", i)
		run(fmt.Sprintf("PREPARE %s(int) AS SELECT %s::text AS t, $1 AS n", p, f))
		run(fmt.Sprintf("PREPARE %s_u(int) AS UPDATE pf SET v = %s WHERE k = $1", p, f))
		for j, efd := range efds {
			run("SET extra_float_digits = " + efd)
			run(fmt.Sprintf("EXECUTE %s(%d)", p, j))
			run(fmt.Sprintf("EXECUTE %s_u(%d)", p, j))
		}
		run("DEALLOCATE " + p)
		run("DEALLOCATE " + p + "_u")
		// SET inside a transaction that rolls back restores the setting
		// the plan must follow again
		run(fmt.Sprintf("PREPARE %s_t(int) AS SELECT %s::text AS t, $1 AS n", p, f))
		run("SET extra_float_digits = 1")
		run("BEGIN")
		run("SET extra_float_digits = -14")
		run(fmt.Sprintf("EXECUTE %s_t(1)", p))
		run("ROLLBACK")
		run(fmt.Sprintf("EXECUTE %s_t(2)", p))
		run("DEALLOCATE " + p + "_t")
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
