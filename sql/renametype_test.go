package sql

import "testing"

func TestRenameTypeInText(t *testing.T) {
	for _, c := range []struct {
		in, want    string
		unqualified bool
	}{
		{"'a'::st", "'a'::nt", true},
		{"'a'::st[]", "'a'::nt[]", true},
		{"CAST(x AS st)", "CAST(x AS nt)", true},
		{"st 'a'", "nt 'a'", true},
		{"'a'::public.st", "'a'::public.nt", true},
		{`'a'::"st"`, "'a'::nt", true},
		{"'a'::other.st", "'a'::other.st", true},                           // another schema's type
		{"'a'::st", "'a'::st", false},                                      // a bare name names another type
		{"'a'::public.st", "'a'::public.nt", false},                        // qualified names it still
		{"SELECT st, x AS st FROM st", "SELECT st, x AS st FROM st", true}, // a column, an alias, a table
		{"st.x = 1", "st.x = 1", true},
		{"st(1)::st", "st(1)::nt", true}, // a function call's name is kept
	} {
		got, _, ok := RenameTypeInText(c.in, "public", "st", "nt", c.unqualified)
		if !ok || got != c.want {
			t.Errorf("RenameTypeInText(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	if got, _, _ := RenameTypeInText("'a'::st", "public", "st", "New T", true); got != `'a'::"New T"` {
		t.Errorf("quoted new name: %q", got)
	}
}

func TestRenameFunctionInText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"f(1) + f (2)", "g(1) + g (2)"},
		{"public.f(x)", "public.g(x)"},
		{"other.f(x)", "other.f(x)"},
		{"f + t.f", "f + t.f"}, // columns
		{"x::f", "x::f"},       // a type
		{"SELECT f FROM f", "SELECT f FROM f"},
	} {
		got, _, ok := RenameFunctionInText(c.in, "public", "f", "g")
		if !ok || got != c.want {
			t.Errorf("RenameFunctionInText(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestMoveTypeInText(t *testing.T) {
	for _, c := range []struct {
		in, schema, toSchema, want string
	}{
		{"'a'::st", "public", "r", "'a'::r.st"},
		{"'a'::public.st[]", "public", "r", "'a'::r.st[]"},
		{"CAST(x AS st)", "public", "r", "CAST(x AS r.st)"},
		{"'a'::r.st", "r", "public", "'a'::public.st"},
		{"'a'::st", "r", "public", "'a'::st"}, // bare finds it in public
		{"'a'::st", "r", "My S", `'a'::"My S".st`},
		{"'a'::other.st", "public", "r", "'a'::other.st"},
		{"SELECT st FROM st", "public", "r", "SELECT st FROM st"},
	} {
		got, _, ok := MoveTypeInText(c.in, c.schema, "st", c.toSchema, "st", true)
		if !ok || got != c.want {
			t.Errorf("MoveTypeInText(%q, %s -> %s) = %q, %v; want %q", c.in, c.schema, c.toSchema, got, ok, c.want)
		}
	}
}
