package clients

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestUnknownCatalogObjectsFailAsPostgres: an unknown catalog relation,
// function, type or role is an error with PostgreSQL's SQLSTATE (42P01,
// 42883, 42704, ...), never a silently wrong answer; a lookup function that
// answers NULL for unknown names (to_regclass, ...) does so on both. Each
// statement runs on sqlgate and on PostgreSQL 15 over the same tables, over
// the extended protocol, and the SQLSTATEs (or the answers) must be equal.
func TestUnknownCatalogObjectsFailAsPostgres(t *testing.T) {
	p := startOraclePair(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pg, sg := connectPgconn(t, ctx, p.pgURL()), connectPgconn(t, ctx, p.sgURL())
	for _, q := range []string{
		// relations
		"SELECT * FROM pg_catalog.pg_nosuch",
		"SELECT * FROM information_schema.nosuch",
		"SELECT * FROM pg_nosuch",
		"SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_nosuch x ON x.oid = c.oid",
		"SELECT * FROM nosuch_schema.pg_class",
		"SELECT relname FROM pg_catalog.pg_class WHERE oid IN (SELECT attrelid FROM pg_catalog.pg_attributes)",
		"SELECT * FROM public.pg_class",
		// columns
		"SELECT nosuchcolumn FROM pg_catalog.pg_class",
		"SELECT c.nosuch FROM information_schema.columns c",
		// functions
		"SELECT pg_catalog.pg_nosuch_function(1)",
		"SELECT pg_nosuch_function()",
		"SELECT information_schema.nosuch_function(1)",
		"SELECT pg_catalog.format_type(1)",
		"SELECT pg_catalog.pg_get_indexdef('x', 'y', 'z', 'w')",
		"SELECT pg_catalog.obj_description()",
		"SELECT current_schemas()",
		"SELECT pg_catalog.nosuch_func(relname) FROM pg_catalog.pg_class",
		// names resolved through the reg* types and the lookup functions
		"SELECT 'nosuch'::regclass",
		"SELECT 'pg_catalog.nosuch'::regclass",
		"SELECT 'nosuch'::regtype",
		"SELECT 'nosuch'::regnamespace",
		"SELECT 'nosuch'::regproc",
		"SELECT 'nosuch'::regrole",
		"SELECT to_regclass('nosuch') IS NULL",
		"SELECT to_regclass('pg_catalog.pg_class')::oid",
		"SELECT to_regtype('nosuch') IS NULL",
		"SELECT to_regnamespace('nosuch') IS NULL",
		"SELECT pg_catalog.pg_total_relation_size('nosuch')",
		"SELECT pg_catalog.pg_relation_size('nosuch')",
		"SELECT has_table_privilege('nosuch', 'SELECT')",
		"SELECT has_table_privilege('every_type', 'NOSUCH')",
		"SELECT has_schema_privilege('nosuch', 'USAGE')",
		"SELECT has_database_privilege('nosuch', 'CONNECT')",
		"SELECT pg_get_userbyid(999999)",
		"SELECT current_setting('nosuch')",
		"SELECT current_setting('nosuch', true) IS NULL",
		"SELECT obj_description('nosuch'::regclass, 'pg_class')",
		"SELECT col_description('every_type'::regclass, 99) IS NULL",
		"SELECT pg_table_is_visible(999999) IS NULL",
		"SELECT format_type(999999, NULL)",
		"SELECT pg_type_is_visible(999999) IS NULL",
		"SELECT pg_function_is_visible(999999) IS NULL",
		"SELECT pg_function_is_visible(p.oid), pg_get_function_result(p.oid) FROM pg_catalog.pg_proc p WHERE p.proname = 'lower' AND pg_get_function_arguments(p.oid) = 'text'",
		"SELECT pg_typeof(1), pg_typeof(1.5::numeric(5,2)), pg_typeof(ARRAY[1]), pg_typeof(now()), pg_typeof(NULL::text)",
		"SELECT pg_typeof(1, 2)",
		"SELECT pg_get_serial_sequence('nosuch', 'id')",
		"SELECT pg_get_serial_sequence('every_type', 'id') IS NULL",
		"SELECT 'every_type'::regclass::text, 'int4'::regtype::text, 'pg_catalog'::regnamespace::text",
		"SELECT c.oid::regclass::text FROM pg_catalog.pg_class c WHERE c.relname IN ('every_type', 'every_type_pkey', 'pg_class', 'columns') ORDER BY 1",
		// (the catalog relations' own row types are not in sqlgate's pg_type: reltype 0)
		"SELECT c.reltype::regtype::text, format_type(c.reltype, NULL), pg_type_is_visible(c.reltype) FROM pg_catalog.pg_class c WHERE c.relname IN ('every_type', 'events') ORDER BY 1",
		"SELECT 999999::regclass::text",
	} {
		want := sqlstateOf(ctx, pg, q)
		got := sqlstateOf(ctx, sg, q)
		if got != want {
			t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, got, want)
		}
	}
}

// sqlstateOf runs q and returns "ERROR <SQLSTATE>", or the text rows.
func sqlstateOf(ctx context.Context, c *pgconn.PgConn, q string) string {
	res := c.ExecParams(ctx, q, nil, nil, nil, nil).Read()
	var pe *pgconn.PgError
	if errors.As(res.Err, &pe) {
		return "ERROR " + pe.Code
	}
	if res.Err != nil {
		return "ERROR " + res.Err.Error()
	}
	out := "ok:"
	for _, r := range res.Rows {
		for _, v := range r {
			if v == nil {
				out += " <null>"
			} else {
				out += " " + string(v)
			}
		}
	}
	return out
}
