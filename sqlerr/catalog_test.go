package sqlerr

import "testing"

// TestCatalogErrors: the shared catalog errors carry PostgreSQL's
// SQLSTATE and text (a name with a quote is not escaped, as PostgreSQL's
// messages do not).
func TestCatalogErrors(t *testing.T) {
	for _, c := range []struct {
		err  *Error
		code Code
		msg  string
	}{
		{UndefinedRelation("t"), "42P01", `relation "t" does not exist`},
		{UndefinedRelation(`a"b`), "42P01", `relation "a"b" does not exist`},
		{RelationExists("public.t"), "42P07", `relation "public.t" already exists`},
		{UndefinedSchema("s"), "3F000", `schema "s" does not exist`},
		{UndefinedRole("bob"), "42704", `role "bob" does not exist`},
		{TransactionAborted(), "25P02", "current transaction is aborted, commands ignored until end of transaction block"},
	} {
		if c.err.Code != c.code || c.err.Message != c.msg {
			t.Errorf("%s %q, want %s %q", c.err.Code, c.err.Message, c.code, c.msg)
		}
	}
}
