package pgcatalog

import (
	"testing"

	"github.com/sqlgate/sqlgate/functions"
)

// TestSetFuncProcs: every set-returning function pg_proc lists is one the
// binder resolves (functions.IsSetFunc), every one it resolves is listed,
// and each is marked proretset with its OUT columns named.
func TestSetFuncProcs(t *testing.T) {
	listed := map[string]bool{}
	for _, p := range functionProcs() {
		if !p.retset {
			if functions.IsSetFunc(p.name) {
				t.Errorf("%s is a set-returning function but pg_proc lists it with proretset false", p.name)
			}
			continue
		}
		listed[p.name] = true
		// json_to_recordset and its jsonb twin return record: the
		// binder binds them with their column definition list
		if !functions.IsSetFunc(p.name) && !functions.ReturnsRecord(p.name) {
			t.Errorf("pg_proc lists %s as set-returning, but sqlgate has no such function", p.name)
		}
		if p.rows <= 0 || len(p.outTypes) != len(p.outNames) || p.nargs != len(p.args) {
			t.Errorf("%s: %+v", p.name, p)
		}
	}
	for _, n := range []string{"unnest", "generate_series", "generate_subscripts", "_pg_expandarray", "pg_get_keywords", "pg_partition_ancestors", "pg_show_all_settings"} {
		if functions.IsSetFunc(n) && !listed[n] {
			t.Errorf("set-returning function %s is missing from pg_proc", n)
		}
	}
}
