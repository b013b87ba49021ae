package difftest

import (
	"context"
	"fmt"
	"testing"
)

// ioCastValues are constants of types whose casts to and from other types
// go through their text (no pg_cast row, or one of method 'i'), with
// texts the targets accept or refuse; ioCastTargets are the targets.
// name_out, bpcharout, uuid_out, inet_out and the numbers' functions are
// immutable, date_in and timestamptz_out stable (DateStyle, TimeZone).
var (
	ioCastValues = []string{
		"'pg_class'::name", "'12'::name", "' 7 '::name", "'t'::name", "'1e3'::name",
		"'12'::char(3)", "'ab'::char(3)", "'x'::\"char\"", "'5'::\"char\"",
		"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid", "'10.0.0.1'::inet", "'10.0.0.0/8'::cidr",
		"'08:00:2b:01:02:03'::macaddr", "'101'::bit(3)", "'0/16'::pg_lsn",
		"'{\"a\": 1}'::json", "'12'::jsonb", "'2020-01-01'::date", "'1 day'::interval",
		"'2020-01-01 00:00+00'::timestamptz", "70000", "true",
	}
	ioCastTargets = []string{"int2", "int4", "int8", "numeric", "float8", "bool", "uuid", "inet", "date", "name", "char(2)", "\"char\"", "json", "macaddr", "bit(3)"}
)

// TestIOCastFoldDifferential casts each of ioCastValues to each of
// ioCastTargets, explicitly and by the function-call form (int2(x)),
// over no row, over one and with no FROM, compared with PostgreSQL 15 by
// SQLSTATE: PostgreSQL folds a CoerceViaIO while planning when the
// source's output function and the target's input function are both
// immutable (its error is the statement's though no row is read), and
// leaves it to execution otherwise.
func TestIOCastFoldDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r, "CREATE TABLE ioc (id int PRIMARY KEY)", "INSERT INTO ioc VALUES (1)")
	stats := map[string]int{}
	for _, v := range ioCastValues {
		for _, to := range ioCastTargets {
			cast := fmt.Sprintf("CAST(%s AS %s)", v, to)
			for _, shape := range []string{"SELECT %s FROM ioc WHERE false", "SELECT %s IS NULL FROM ioc", "SELECT %s = %[1]s"} {
				tallyBy(t, ctx, r, fmt.Sprintf(shape, cast), stats, tallyRule{codeOnly: true})
			}
		}
	}
	for _, q := range []string{"SELECT int2('pg_class'::name) = int2(70000)", "SELECT int4('12'::name) FROM ioc WHERE false", "SELECT int8(' x'::name) FROM ioc WHERE false"} {
		tallyBy(t, ctx, r, q, stats, tallyRule{codeOnly: true})
	}
	t.Logf("%d casts: %v", len(ioCastValues)*len(ioCastTargets), stats)
	if stats["refused alike"] == 0 || stats["same"] == 0 {
		t.Errorf("outcomes: %v (the lists no longer cover both)", stats)
	}
}
