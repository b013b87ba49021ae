package binder

import (
	"context"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// TempFunctionName is the name a session's temporary function f
// (CREATE FUNCTION pg_temp.f) has in the session's UDF registry: PostgreSQL
// never finds a function in pg_temp by its name alone, so only a call
// qualified by pg_temp (or by the session's own pg_temp_N) reaches it.
func TempFunctionName(name string) string { return "pg_temp." + name }

// IsTempSchema reports whether schema names the session's temporary
// schema in a qualified name: pg_temp, or its pg_temp_N (tempSchema, ""
// before the session has one).
func IsTempSchema(schema, tempSchema string) bool {
	return strings.EqualFold(schema, "pg_temp") || tempSchema != "" && schema == tempSchema
}

// tempFunctionCall is n, a call qualified by the session's temporary
// schema, as the call of the temporary function (ok false for another
// call). Before the session made its temporary schema the call is left
// to the schema's 3F000, as PostgreSQL's LookupExplicitNamespace leaves
// it.
func (b *binder) tempFunctionCall(ctx context.Context, n *pt.FuncCall) (*pt.FuncCall, bool) {
	if !strings.HasPrefix(strings.ToLower(n.Schema), "pg_temp") {
		return nil, false
	}
	r, ok := b.cat.(TempSchemaResolver)
	c, checks := b.cat.(SchemaChecker)
	if !ok || !checks {
		return nil, false
	}
	own := r.TempSchema(ctx)
	if exists, err := c.SchemaExists(ctx, own); err != nil || !exists || !IsTempSchema(n.Schema, own) {
		return nil, false
	}
	q := *n
	q.Schema, q.Name = "", TempFunctionName(n.Name)
	return &q, true
}
