package difftest

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestOIDIntegerCastDifferential: casts between the integers and oid (and
// a reg* type, an oid by another name) over generated values around each
// type's edges, as a constant and from a column, on sqlgate and PostgreSQL
// 15: int2 and int4 reach oid by their bits (binary-coercible: -1 is
// 4294967295), int8 by i8tooid (22003 "OID out of range" outside uint32),
// oid reaches int4 by its bits and int8 by its value; text input of oid
// too. The same value, or the same SQLSTATE and message.
func TestOIDIntegerCastDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rnd := seededRand(t, 71)
	edges := []int64{0, 1, -1, math.MinInt16, math.MaxInt16, math.MinInt32, math.MaxInt32, math.MaxUint32,
		math.MaxUint32 + 1, math.MinInt64, math.MaxInt64, 1 << 31, -(1 << 31) - 1, 3000000000}
	value := func() int64 {
		if rnd.IntN(3) == 0 {
			return edges[rnd.IntN(len(edges))]
		}
		shift := rnd.IntN(63)
		v := rnd.Int64N(1 << shift)
		if rnd.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	stats := map[string]int{}
	n := envInt(t, "SQLGATE_DIFF_QUERIES", 300)
	for range n {
		v := value()
		var q string
		switch rnd.IntN(6) {
		case 0: // an integer type to oid, constant
			typ := []string{"int2", "int4", "int8"}[rnd.IntN(3)]
			q = fmt.Sprintf("SELECT (%d)::%s::oid", v, typ)
		case 1: // from a column, to oid or regclass and back
			typ := []string{"int4", "int8"}[rnd.IntN(2)]
			q = fmt.Sprintf("SELECT x::%s::oid, x::%s::regclass::oid FROM (VALUES (%d::int8), (%d::int8)) v(x) ORDER BY 1", typ, typ, v, value())
		case 2: // oid to int4 and int8
			u := uint64(v) & math.MaxUint32
			q = fmt.Sprintf("SELECT '%d'::oid::int4, '%d'::oid::int8", u, u)
		case 3: // text input of oid
			q = fmt.Sprintf("SELECT '%d'::oid", v)
		case 4: // a round trip through int4's bits
			q = fmt.Sprintf("SELECT (%d)::int4::oid::int4, (%d)::int4::oid::int8", int32(v), int32(v))
		default: // comparisons of an oid made from an integer
			q = fmt.Sprintf("SELECT (%d)::int4::oid > 2147483647::oid, (%d)::int8::oid = 4294967295::oid", int32(v), v)
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{})
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("want both answers and refusals among the queries: %v", stats)
	}
}
