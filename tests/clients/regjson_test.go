package clients

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestRegAndJSONTypesMatchPostgres: values of the reg* types (regclass,
// regtype, regproc, regprocedure, regnamespace, regrole) and of json and
// jsonb carry PostgreSQL's type OIDs in RowDescription and print as
// PostgreSQL prints them: reg* values as names (schema-qualified when not
// on the search path, "-" for 0, the number for an OID no object has),
// json as written, jsonb normalised. Each statement runs over the extended
// protocol on sqlgate and on PostgreSQL 15 over the same tables, in text
// format and - where the OIDs are PostgreSQL's own, so the same on both -
// in binary (where a reg* value is its uint32 OID), and the column type
// OIDs and the value bytes must be equal.
func TestRegAndJSONTypesMatchPostgres(t *testing.T) {
	p := startOraclePair(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pg, sg := connectPgconn(t, ctx, p.pgURL()), connectPgconn(t, ctx, p.sgURL())
	cases := []struct {
		sql    string
		binary bool // also compare the binary format
	}{
		{sql: "SELECT 'pg_class'::regclass, 'pg_catalog.pg_type'::regclass, 'information_schema.tables'::regclass, 0::regclass, 99999::regclass", binary: true},
		{sql: "SELECT 'every_type'::regclass, 'public.events'::regclass, to_regclass('events'), to_regclass('nosuch')"},
		{sql: "SELECT 'int4'::regtype, 'character varying'::regtype, 'text'::regtype, 0::regtype, 99999::regtype, to_regtype('bool')", binary: true},
		{sql: "SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('x'::text), pg_typeof(pg_typeof(1)), pg_typeof('{}'::json)", binary: true},
		{sql: "SELECT 'public'::regnamespace, 'information_schema'::regnamespace, 11::regnamespace, 0::regnamespace", binary: true},
		{sql: "SELECT 'sqlgate'::regrole, 10::regrole, 0::regrole", binary: true},
		{sql: "SELECT 'now'::regproc, 0::regproc, 0::regprocedure"},
		// comparisons, casts and joins treat reg* values as oids
		{sql: "SELECT 'pg_class'::regclass = 1259, 'pg_class'::regclass::oid, 'pg_class'::regclass::oid::int, 'pg_class'::regclass::text, 'events'::regclass::name", binary: true},
		{sql: "SELECT 'x: ' || 'pg_class'::regclass, 'int4'::regtype::text || '!'"},
		{sql: "SELECT c.relname, c.oid::regclass, c.reltype::regtype, c.relnamespace::regnamespace, c.relowner::regrole FROM pg_catalog.pg_class c WHERE c.oid = 'every_type'::regclass"},
		{sql: "SELECT count(*) FROM pg_catalog.pg_attribute WHERE attrelid = 'every_type'::regclass AND attnum > 0", binary: true},
		{sql: "SELECT a.attname, a.atttypid::regtype FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'events'::regclass AND a.attnum > 0 ORDER BY a.attnum"},
		{sql: "SELECT c.oid::regclass FROM pg_catalog.pg_class c WHERE c.relname IN ('pg_class', 'every_type', 'events') ORDER BY 1"},
		// off the search path, a relation's name is qualified
		{sql: "SET search_path TO pg_catalog"},
		{sql: "SELECT 'public.every_type'::regclass, 'pg_class'::regclass, 'public'::regnamespace"},
		{sql: "RESET search_path"},
		// json and jsonb
		{sql: `SELECT '{"b":1e2,  "a":[1.50,-0]}'::json, '{"b":1e2, "a":[1.50, -0], "b": true, "aa": "x/\u00e9"}'::jsonb, '[]'::jsonb, 'null'::json`, binary: true},
		{sql: `SELECT json_build_object('a', 1, 'b', 'x', 'c', '{"d":[1,2]}'::json), json_build_array(1, 'x', NULL, true, '{"z":1}'::json), json_build_object(), json_build_array()`, binary: true},
		{sql: `SELECT to_json('x'::text), to_json(1.5), row_to_json(ROW(1, 'x'))`, binary: true},
		{sql: `SELECT '[1, 2]'::json::text, '{"b":1,"a":2}'::jsonb::text, ('{"a" : 1}'::text)::json, ('{"a" : 1}'::text)::jsonb, '{"a":1}'::json::jsonb`, binary: true},
		{sql: `SELECT '{a'::json`},
		{sql: `SELECT '{"a":1'::jsonb`},
		{sql: `SELECT 1::json`},
	}
	for _, c := range cases {
		formats := []int16{0}
		if c.binary {
			formats = append(formats, 1)
		}
		for _, f := range formats {
			want := runTyped(ctx, pg, c.sql, f)
			got := runTyped(ctx, sg, c.sql, f)
			if got != want {
				t.Errorf("%s (format %d) differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", c.sql, f, got, want)
			}
		}
	}
}

// runTyped runs q with every result column in format f and renders the
// column type OIDs, then each row's values (text as it is, binary in hex),
// or the SQLSTATE of an error.
func runTyped(ctx context.Context, c *pgconn.PgConn, q string, f int16) string {
	res := c.ExecParams(ctx, q, nil, nil, nil, []int16{f}).Read()
	if res.Err != nil {
		if pe, ok := res.Err.(*pgconn.PgError); ok {
			return "ERROR " + pe.Code + ": " + pe.Message
		}
		return "ERROR " + res.Err.Error()
	}
	var b strings.Builder
	for i, fd := range res.FieldDescriptions {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s:%d", fd.Name, fd.DataTypeOID)
	}
	for _, r := range res.Rows {
		b.WriteString("\n")
		for i, v := range r {
			if i > 0 {
				b.WriteString(" | ")
			}
			switch {
			case v == nil:
				b.WriteString("NULL")
			case f == 1:
				fmt.Fprintf(&b, "%x", v)
			default:
				b.Write(v)
			}
		}
	}
	return b.String()
}
