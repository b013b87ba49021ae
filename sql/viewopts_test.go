package sql

import (
	"reflect"
	"testing"
)

func TestCreateViewOptions(t *testing.T) {
	for _, c := range []struct {
		q    string
		opts []ViewOption
		def  string // the definition's tail, as OriginalFrom ends it
	}{
		{"CREATE VIEW v AS SELECT a FROM t WHERE a > 0 WITH LOCAL CHECK OPTION",
			[]ViewOption{{"check_option", "local", true}}, "a > 0"},
		{"CREATE VIEW v AS SELECT a FROM t with check option",
			[]ViewOption{{"check_option", "cascaded", true}}, "FROM t"},
		{"CREATE OR REPLACE VIEW s.v (x) WITH (security_barrier, check_option = 'LOCAL') AS SELECT a FROM t WITH CASCADED CHECK OPTION",
			[]ViewOption{{"security_barrier", "", false}, {"check_option", "LOCAL", true}, {"check_option", "cascaded", true}}, "FROM t"},
		{"CREATE VIEW v WITH (security_invoker = on) AS SELECT 1", []ViewOption{{"security_invoker", "on", true}}, "SELECT 1"},
		{"CREATE VIEW v AS SELECT a FROM t", nil, "FROM t"},
	} {
		sts, err := NewParser().Parse(c.q)
		if err != nil || len(sts) != 1 {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		st := sts[0]
		if !reflect.DeepEqual(st.ViewOptions, c.opts) {
			t.Errorf("%s: options %+v, want %+v", c.q, st.ViewOptions, c.opts)
		}
		if def := st.OriginalFrom(0); len(def) < len(c.def) || def[len(def)-len(c.def):] != c.def {
			t.Errorf("%s: definition %q, want it to end with %q", c.q, def, c.def)
		}
	}
	for _, q := range []string{
		"CREATE VIEW v WITH (check_option =) AS SELECT 1",
		"CREATE VIEW v WITH (a b) AS SELECT 1",
		"ALTER VIEW v RESET (check_option = local)",
		"ALTER VIEW v SET (check_option",
	} {
		if _, err := NewParser().Parse(q); err == nil {
			t.Errorf("%s: parsed", q)
		}
	}
	sts, err := NewParser().Parse("ALTER VIEW v SET (check_option = local, security_barrier)")
	if err != nil || sts[0].DDL == nil || len(sts[0].DDL.Actions) != 1 || sts[0].DDL.Actions[0].Kind != AlterSetProperties ||
		!reflect.DeepEqual(sts[0].DDL.Actions[0].ViewOptions, []ViewOption{{"check_option", "local", true}, {"security_barrier", "", false}}) {
		t.Errorf("ALTER VIEW SET: %v %+v", err, sts)
	}
}
