package sqllogictest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// catalogDigestQueries read what a server keeps of a file's objects, in
// an order that does not depend on the server's memory: relations and
// their columns, types, constraints, sequences' positions, functions,
// views' and materialized views' definitions, schemas, roles, comments,
// enum labels. Temporary objects are gone with the file's sessions.
var catalogDigestQueries = []string{
	`SELECT n.nspname, c.relname, c.relkind, c.relnatts, c.relpersistence, c.oid::int8 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_temp%' ORDER BY 1, 2`,
	`SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_temp%' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2`,
	`SELECT n.nspname, t.typname, t.typtype, t.oid::int8 FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_temp%' ORDER BY 1, 2`,
	`SELECT c.conname, c.contype, pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_temp%' ORDER BY 1, 2, 3`,
	`SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2`,
	`SELECT p.proname, pg_get_function_identity_arguments(p.oid), pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
	`SELECT schemaname, viewname, definition FROM pg_views WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
	`SELECT schemaname, matviewname, ispopulated, definition FROM pg_matviews ORDER BY 1, 2`,
	`SELECT nspname FROM pg_namespace ORDER BY 1`,
	`SELECT rolname, rolsuper, rolcanlogin FROM pg_roles ORDER BY 1`,
	`SELECT objoid::int8, objsubid, description FROM pg_description ORDER BY 1, 2, 3`,
	`SELECT enumtypid::int8, enumsortorder, enumlabel FROM pg_enum ORDER BY 1, 2`,
}

// checkRestart restarts the file's target (Options.Restart) and fails
// the file when the catalogs read back otherwise than before.
func (r *fileRun) checkRestart(ctx context.Context, file string) {
	closeCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	_ = r.conn.Close(closeCtx)
	cancel()
	r.conn = nil
	before, err := catalogDigest(ctx, r.connString)
	if err != nil {
		r.fail(file, 0, fmt.Sprintf("restart check: reading the catalogs before the restart: %v", err))
		return
	}
	connString, err := r.opts.Restart(ctx, r.connString)
	if err != nil {
		r.fail(file, 0, fmt.Sprintf("restart check: the data directory does not open again: %v", err))
		return
	}
	r.connString = connString
	after, err := catalogDigest(ctx, connString)
	if err != nil {
		r.fail(file, 0, fmt.Sprintf("restart check: reading the catalogs after the restart: %v", err))
		return
	}
	var diffs []string
	for i := range before {
		if before[i] != after[i] {
			diffs = append(diffs, fmt.Sprintf("%s\nbefore:\n%safter:\n%s", catalogDigestQueries[i], before[i], after[i]))
		}
	}
	if len(diffs) > 0 {
		r.fail(file, 0, "restart check: the catalogs read back otherwise after a restart:\n"+strings.Join(diffs, "\n"))
	}
}

// catalogDigest is the text of each catalogDigestQueries answer.
func catalogDigest(ctx context.Context, connString string) ([]string, error) {
	cfg, err := pgx.ParseConfig(connString)
	if err != nil {
		return nil, err
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	out := make([]string, len(catalogDigestQueries))
	for i, q := range catalogDigestQueries {
		rows, err := conn.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		var b strings.Builder
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				rows.Close()
				return nil, err
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		out[i] = b.String()
	}
	return out, nil
}
