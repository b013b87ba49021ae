package pgcatalog

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/internal/pgproc"
)

// procRowGaps are the library's overloads whose signature PostgreSQL 15's
// pg_proc has but whose call tests/difftest's TestProcRowsMatchPostgres
// does not see sqlgate resolve from NULLs of the row's types, so that
// pg_proc lists them under sqlgate's own OIDs; each with its reason. The
// test fails when one of them comes to have PostgreSQL's row (take it out
// then) as when another appears.
var procRowGaps = map[string]string{
	"jsonb_delete(3802,1009)":              "VARIADIC text[]: sqlgate's overload takes the array, not a list of texts",
	"_pg_expandarray(2277)":                "information_schema's: the generator walks pg_catalog's rows",
	"json_populate_record(2283,114,16)":    "no call from NULLs: PostgreSQL needs a composite type for anyelement",
	"jsonb_populate_record(2283,3802)":     "no call from NULLs: PostgreSQL needs a composite type for anyelement",
	"json_populate_recordset(2283,114,16)": "no call from NULLs: PostgreSQL needs a composite type for anyelement",
	"jsonb_populate_recordset(2283,3802)":  "no call from NULLs: PostgreSQL needs a composite type for anyelement",
	"json_to_record(114)":                  "no call from NULLs: a column definition list is needed",
	"jsonb_to_record(3802)":                "no call from NULLs: a column definition list is needed",
	"json_to_recordset(114)":               "no call from NULLs: a column definition list is needed",
	"jsonb_to_recordset(3802)":             "no call from NULLs: a column definition list is needed",
}

// TestBuiltinProcsHavePostgresRows checks pg_proc's side of what the
// engine resolves: each of the function library's overloads (and the
// set-returning and record functions the binder binds) is PostgreSQL's
// row with PostgreSQL's OID wherever PostgreSQL has its signature (else
// sqlgate's own overload, logged), every aggregate and window function the
// binder knows has PostgreSQL's rows of its kind, each aggregate row its
// pg_aggregate row, and each PostgreSQL row its properties
// (internal/pgproc's procprops). The other direction, that each row of
// PostgreSQL's sqlgate resolves is listed, is tests/difftest's
// TestProcRowsMatchPostgres.
func TestBuiltinProcsHavePostgresRows(t *testing.T) {
	kinds := map[string]map[byte]bool{}
	seenGap := map[string]bool{}
	var own []string
	for _, p := range functionProcs() {
		if kinds[p.name] == nil {
			kinds[p.name] = map[byte]bool{}
		}
		if p.pg != nil {
			kinds[p.name][p.pg.Kind] = true
			if _, ok := builtinProp(p); !ok {
				t.Errorf("%s: PostgreSQL's row has no properties in procprops (regenerate with SQLGATE_WRITE_PROCPROPS=1)", procKey(p))
			}
			continue
		}
		if p.oid < procOIDBase {
			continue // a type's I/O function (typeprocs.go)
		}
		key := procKey(p)
		if _, pgHas := pgproc.Of(key); pgHas {
			if _, gap := procRowGaps[key]; !gap {
				t.Errorf("%s is PostgreSQL's signature, listed under sqlgate's OID %d: regenerate procrows (tests/difftest, SQLGATE_WRITE_PROCROWS=1) or add it to procRowGaps with the reason", key, p.oid)
			}
			seenGap[key] = true
			continue
		}
		own = append(own, key)
	}
	for key := range procRowGaps {
		if !seenGap[key] {
			t.Errorf("procRowGaps' %s has PostgreSQL's row now (or is gone): take it out", key)
		}
	}
	t.Logf("%d overloads of sqlgate's own (PostgreSQL has no such signature): %v", len(own), own)
	for _, name := range binder.AggregateNames() {
		if !kinds[name]['a'] {
			t.Errorf("aggregate %s has no pg_proc row of kind a", name)
		}
	}
	for _, name := range []string{"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value", "nth_value"} {
		if !kinds[name]['w'] {
			t.Errorf("window function %s has no pg_proc row of kind w", name)
		}
	}
	aggs := map[uint32]bool{}
	for _, a := range pgproc.Aggs() {
		aggs[a.FnOID] = true
	}
	for _, r := range pgproc.Rows() {
		if (r.Kind == 'a') != aggs[r.OID] {
			t.Errorf("%s (%d): kind %c, pg_aggregate row %v", r.Name, r.OID, r.Kind, aggs[r.OID])
		}
	}
}
