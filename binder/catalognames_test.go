package binder_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// withCatalogFallback answers an unqualified (public) name from
// pg_catalog when no table has it, as the engine's catalog does.
type withCatalogFallback struct{ fakeCatalog }

func (c withCatalogFallback) GetTable(ctx context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if (p.Database == fluss.DefaultDatabase || p.Database == "pg_catalog") && p.Table == "pg_class" {
		return fluss.TableInfo{Path: fluss.TablePath{Database: "pg_catalog", Table: "pg_class"}, Descriptor: fluss.TableDescriptor{
			Schema: fluss.Schema{Columns: []fluss.Column{{Name: "relname", Type: types.T{Kind: types.Name}}}}}}, nil
	}
	return c.fakeCatalog.GetTable(ctx, p)
}

// TestSchemaQualifiedNamesResolveInThatSchema: public.pg_class is no
// relation (PostgreSQL: 42P01), while pg_class and pg_catalog.pg_class are.
func TestSchemaQualifiedNamesResolveInThatSchema(t *testing.T) {
	for _, c := range []struct {
		sql  string
		code sqlerr.Code // "" = binds
	}{
		{"SELECT relname FROM pg_class", ""},
		{"SELECT relname FROM pg_catalog.pg_class", ""},
		{"SELECT relname FROM public.pg_class", sqlerr.UndefinedTable},
		{"SELECT c.relname FROM t JOIN public.pg_class c ON true", sqlerr.UndefinedTable},
		{"SELECT id FROM public.t", ""},
	} {
		stmts, err := sql.NewParser().Parse(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		_, err = binder.Bind(context.Background(), withCatalogFallback{catalog()}, stmts[0], nil)
		if got := sqlerr.CodeOf(err); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%s: got %v, want SQLSTATE %q", c.sql, err, c.code)
		}
	}
}
