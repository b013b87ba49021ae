package sql

import "testing"

// A type name keeps its schema unless it is pg_catalog's: a user-defined
// type's schema tells it from another type of the same name.
func TestTypeNameSchema(t *testing.T) {
	for _, c := range []struct {
		in, schema, name string
	}{
		{"app.mood", "app", "mood"},
		{"APP.Mood", "app", "mood"},
		{`"My S"."T"`, "My S", "T"},
		{"pg_catalog.int4", "", "int4"},
		{"public.status", "public", "status"},
		{"status", "", "status"},
	} {
		tn, err := ParseTypeName(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if tn.Schema != c.schema || tn.Name != c.name {
			t.Errorf("%s: schema %q name %q, want %q %q", c.in, tn.Schema, tn.Name, c.schema, c.name)
		}
		if back, err := ParseTypeName(tn.String()); err != nil || back.Schema != tn.Schema {
			t.Errorf("%s: String %q does not parse back (%v)", c.in, tn.String(), err)
		}
	}
	tn, err := ParseTypeName("app.mood[]")
	if err != nil {
		t.Fatal(err)
	}
	if tn.Elem == nil || tn.Elem.Schema != "app" || tn.Elem.Name != "mood" {
		t.Errorf("app.mood[]: %+v", tn)
	}
}
