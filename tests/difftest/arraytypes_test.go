package difftest

import (
	"context"
	"fmt"
	"testing"
)

// arrayElemType is an array element type with two values of it, written
// as typed literals; the second is the greater in PostgreSQL's order where
// the type has one, and orders the other way as text where that is
// possible (2.5 < 10, {"b": 1} < {"a": 1, "c": 2} in jsonb order), so
// that a comparison made on the wrong representation shows.
type arrayElemType struct {
	name string
	a, b string
}

var arrayElemTypes = []arrayElemType{
	{"int2", "2::int2", "10::int2"},
	{"int4", "2", "10"},
	{"int8", "2::int8", "10::int8"},
	{"numeric", "2.5", "10.50"},
	{"float4", "2.5::float4", "10::float4"},
	{"float8", "2.25::float8", "10::float8"},
	{"text", "'b'::text", "'ab'::text"},
	{"varchar", "'b'::varchar(3)", "'c'::varchar(5)"},
	{"bool", "false", "true"},
	{"date", "'2024-01-09'::date", "'2024-01-10'::date"},
	{"timestamp", "'2024-01-09 10:00:00'::timestamp", "'2024-01-10 09:00:00.5'::timestamp"},
	{"timestamptz", "'2024-01-09 10:00:00+00'::timestamptz", "'2024-01-10 09:00:00+00'::timestamptz"},
	{"jsonb", `'{"b": 1}'::jsonb`, `'{"a": 1, "c": 2}'::jsonb`},
	{"json", `'{"b": 1}'::json`, `'{"a": 1, "c": 2}'::json`},
	{"bytea", `'\x09'::bytea`, `'\x1000'::bytea`},
	{"uuid", "'00000000-0000-0000-0000-000000000009'::uuid", "'00000000-0000-0000-0000-000000000010'::uuid"},
}

// arrayTypeUses combine an array of one element type (the first %s, a
// value) with one of another (the second): each asks PostgreSQL's type
// resolution for a common array type, or for an operator over the two.
var arrayTypeUses = []string{
	"SELECT ARRAY[ARRAY[%s], ARRAY[%s]]",
	"SELECT ARRAY[%s] AS x UNION ALL SELECT ARRAY[%s]",
	"SELECT CASE WHEN g > 1 THEN ARRAY[%s] ELSE ARRAY[%s] END FROM generate_series(1, 2) g",
	"SELECT COALESCE(NULL, ARRAY[%s], ARRAY[%s])",
	"VALUES (ARRAY[%s]), (ARRAY[%s])",
	"SELECT ARRAY[%s] = ARRAY[%s]",
	"SELECT ARRAY[%s] < ARRAY[%s]",
	"SELECT %s = ANY (ARRAY[%s])",
}

// TestArrayTypesDifferential: every use × every ordered pair of element
// types, on sqlgate and PostgreSQL 15. Each must give the same values of
// the same type, or be refused by both with the same SQLSTATE and
// message: no allowance.
func TestArrayTypesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, use := range arrayTypeUses {
		for _, x := range arrayElemTypes {
			for _, y := range arrayElemTypes {
				q := fmt.Sprintf(use, x.a, y.b)
				tally(t, ctx, r, q, stats)
			}
		}
	}
	t.Logf("%d uses × %d² element types: %v", len(arrayTypeUses), len(arrayElemTypes), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
