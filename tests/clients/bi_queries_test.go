package clients

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// biQuery is one query of bi/queries.sql.
type biQuery struct {
	name, source string
	param        string // "" or nsp:NAME, rel:NAME, text:VALUE
	ordered      bool
	// pgOnly: rows with a cell of this value are left out on both sides
	// (PostgreSQL's own objects, such as its postgres database).
	pgOnly string
	// simple: sent as one simple Query (several statements, as
	// psycopg 3 sends a string without parameters); each statement's
	// result is compared.
	simple bool
	// shape, when set, says why only the result's shape (column names
	// and types) is compared: the rows are the server's own activity
	// (sessions, counters, other databases) and differ by nature.
	shape string
	sql   string
}

// loadBIQueries parses bi/queries.sql (format described at its top).
func loadBIQueries(t *testing.T) []biQuery {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("bi", "queries.sql"))
	if err != nil {
		t.Fatal(err)
	}
	var out []biQuery
	var cur *biQuery
	var body []string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "-- name: "):
			cur, body = &biQuery{name: strings.TrimPrefix(line, "-- name: ")}, nil
		case cur == nil:
		case strings.HasPrefix(line, "-- source: "):
			cur.source = strings.TrimPrefix(line, "-- source: ")
		case strings.HasPrefix(line, "-- param: "):
			cur.param = strings.TrimPrefix(line, "-- param: ")
		case line == "-- ordered":
			cur.ordered = true
		case line == "-- protocol: simple":
			cur.simple = true
		case strings.HasPrefix(line, "-- postgres only: "):
			cur.pgOnly = strings.TrimPrefix(line, "-- postgres only: ")
		case strings.HasPrefix(line, "-- compare: shape "):
			cur.shape = strings.TrimPrefix(line, "-- compare: shape ")
		case line == "-- end":
			cur.sql = strings.Join(body, "\n")
			if cur.source == "" || cur.sql == "" {
				t.Fatalf("bi/queries.sql: %s has no source or no SQL", cur.name)
			}
			out = append(out, *cur)
			cur = nil
		default:
			body = append(body, line)
		}
	}
	if cur != nil {
		t.Fatalf("bi/queries.sql: %s has no -- end", cur.name)
	}
	return out
}

// biNormalisedColumns are the columns whose values legitimately differ
// between the two servers; both sides show them as "<normalised>".
var biNormalisedColumns = map[string]string{
	// PostgreSQL gives every table with a variable-length column a TOAST
	// table (pg_toast.pg_toast_NNNN); sqlgate stores no TOAST tables (0)
	"reltoastrelid": "no TOAST tables",
	// the ID of the transaction that created the table on PostgreSQL
	"relfrozenxid": "a transaction ID",
	"datfrozenxid": "a transaction ID",
	// sizes on disk: PostgreSQL's heap and index pages, sqlgate's store's
	// files (pgcatalog/sizes.go)
	"total_rel_size":          "a size on disk",
	"Toast table size":        "no TOAST tables",
	"Toast blocks read":       "no TOAST tables: PostgreSQL's 0, sqlgate's NULL (no TOAST table to count)",
	"Toast blocks hit":        "no TOAST tables",
	"Toast index blocks read": "no TOAST tables",
	"Toast index blocks hit":  "no TOAST tables",
	// PostgreSQL counts its primary-key index build's heap scan
	"Sequential scans": "an index build's scan",
	// the oracle's initdb --locale=C; sqlgate reports C.UTF-8, which
	// orders strings as C does (by code point)
	"datcollate":     "the oracle's locale",
	"rel_size":       "a size on disk",
	"index_rel_size": "a size on disk",
	"Table size":     "a size on disk",
	"Indexes size":   "a size on disk",
}

// biGaps are the queries sqlgate cannot answer like PostgreSQL yet, with
// the exact error sqlgate gives; the test fails once one of them answers
// anything else, so the list stays true.
var biGaps = map[string]string{}

// biResultGaps are the queries sqlgate runs but answers differently, with
// the reason; the test fails once one answers like PostgreSQL.
var biResultGaps = map[string]string{}

// TestBIIntrospectionQueries runs the Grafana, Metabase, DBeaver, pgcli,
// pgAdmin and Superset introspection queries of bi/queries.sql on sqlgate
// and on PostgreSQL 15 over the same tables and compares the results
// (for a "compare: shape" query, whose rows are each server's own
// activity, the column names and types only): the command tag, column
// names and type OIDs, then rows
// (in order for "ordered" queries, else as multisets), every value in
// PostgreSQL's text form. Normalisations, applied to both sides alike: the
// columns of biNormalisedColumns; a
// value that is the OID of a user object (>= 16384: the tables, their row
// types and indexes, the role and the database, which each server numbers
// its own way) is replaced by the object's kind and name; system OIDs
// (< 16384) are PostgreSQL's fixed ones on both servers and stay numbers.
func TestBIIntrospectionQueries(t *testing.T) {
	queries := loadBIQueries(t)
	if len(queries) < 15 {
		t.Fatalf("bi/queries.sql holds %d queries", len(queries))
	}
	p := startOraclePair(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pg, sg := connectPgconn(t, ctx, p.pgURL()), connectPgconn(t, ctx, p.sgURL())
	pgNames, sgNames := oidNames(t, ctx, pg), oidNames(t, ctx, sg)
	for _, q := range queries {
		t.Run(q.name, func(t *testing.T) {
			want, err := runBIQuery(ctx, pg, q, pgNames)
			if err != nil {
				t.Fatalf("PostgreSQL: %v\n%s", err, q.sql)
			}
			got, err := runBIQuery(ctx, sg, q, sgNames)
			if gap, ok := biGaps[q.name]; ok {
				if err == nil || err.Error() != gap {
					t.Fatalf("known gap no longer fails as listed (compare it with PostgreSQL now): got %v, listed %s", err, gap)
				}
				return
			}
			if err != nil {
				t.Fatalf("sqlgate: %v\n%s", err, q.sql)
			}
			if why, ok := biResultGaps[q.name]; ok {
				if got == want {
					t.Fatalf("known difference (%s) is gone: the query now answers like PostgreSQL; remove it from biResultGaps", why)
				}
				return
			}
			if got != want {
				t.Errorf("%s (%s) differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", q.name, q.source, got, want)
			}
		})
	}
}

func connectPgconn(t *testing.T, ctx context.Context, url string) *pgconn.PgConn {
	t.Helper()
	c, err := pgconn.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// oidNames maps the text of each user-object OID on one server to
// "kind:name".
func oidNames(t *testing.T, ctx context.Context, c *pgconn.PgConn) map[string]string {
	t.Helper()
	const q = `SELECT oid::text, 'class:' || relname FROM pg_catalog.pg_class WHERE oid >= 16384
	UNION ALL SELECT oid::text, 'type:' || typname FROM pg_catalog.pg_type WHERE oid >= 16384
	UNION ALL SELECT oid::text, 'namespace:' || nspname FROM pg_catalog.pg_namespace WHERE oid >= 16384
	UNION ALL SELECT oid::text, 'role:' || rolname FROM pg_catalog.pg_roles WHERE oid >= 16384
	UNION ALL SELECT oid::text, 'database:' || datname FROM pg_catalog.pg_database WHERE oid >= 16384
	UNION ALL SELECT oid::text, 'constraint:' || conname FROM pg_catalog.pg_constraint WHERE oid >= 16384`
	res := c.ExecParams(ctx, q, nil, nil, nil, nil).Read()
	if res.Err != nil {
		t.Fatalf("OIDs of user objects: %v", res.Err)
	}
	m := map[string]string{}
	for _, r := range res.Rows {
		m[string(r[0])] = string(r[1])
	}
	return m
}

// runBIQuery runs q with its parameter (if any) resolved on that server,
// all results in text format, and renders the result: a header of column
// names, then one line per row (sorted unless q is ordered).
func runBIQuery(ctx context.Context, c *pgconn.PgConn, q biQuery, names map[string]string) (string, error) {
	var params [][]byte
	if q.param != "" {
		kind, value, _ := strings.Cut(q.param, ":")
		var lookup string
		switch kind {
		case "nsp":
			lookup = "SELECT oid::text FROM pg_catalog.pg_namespace WHERE nspname = $1"
		case "rel":
			lookup = "SELECT oid::text FROM pg_catalog.pg_class WHERE relname = $1"
		case "text":
		default:
			return "", fmt.Errorf("bad param %q", q.param)
		}
		if lookup != "" {
			res := c.ExecParams(ctx, lookup, [][]byte{[]byte(value)}, nil, nil, nil).Read()
			if res.Err != nil || len(res.Rows) != 1 {
				return "", fmt.Errorf("resolve %s: %v (%d rows)", q.param, res.Err, len(res.Rows))
			}
			value = string(res.Rows[0][0])
		}
		params = [][]byte{[]byte(value)}
	}
	if q.simple {
		results, err := c.Exec(ctx, q.sql).ReadAll()
		if err != nil {
			return "", pgErrorText(err)
		}
		var out []string
		for _, r := range results {
			out = append(out, renderBIResult(r, q.ordered, q.pgOnly, names))
		}
		return strings.Join(out, "\n--\n"), nil
	}
	res := c.ExecParams(ctx, q.sql, params, nil, nil, nil).Read()
	if res.Err != nil {
		return "", pgErrorText(res.Err)
	}
	if q.shape != "" {
		// The statement's description, which a result without rows
		// leaves out of res.
		sd, err := c.Prepare(ctx, "", q.sql, nil)
		if err != nil {
			return "", err
		}
		var cols []string
		for _, f := range sd.Fields {
			cols = append(cols, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
		}
		return strings.Join(cols, " | "), nil
	}
	return renderBIResult(res, q.ordered, q.pgOnly, names), nil
}

// pgErrorText is a server error as the gap lists spell it.
func pgErrorText(err error) error {
	if pe, ok := err.(*pgconn.PgError); ok {
		return fmt.Errorf("%s: %s (position %d)", pe.Code, pe.Message, pe.Position)
	}
	return err
}

// renderBIResult renders one result: its command tag, a header of column
// names with their type OIDs, then one line per row (sorted unless
// ordered), normalised as TestBIIntrospectionQueries says.
func renderBIResult(res *pgconn.Result, ordered bool, dropCell string, names map[string]string) string {
	var head []string
	normalised := map[int]bool{}
	for i, f := range res.FieldDescriptions {
		head = append(head, fmt.Sprintf("%s:%d", f.Name, f.DataTypeOID))
		if _, ok := biNormalisedColumns[f.Name]; ok {
			normalised[i] = true
		}
	}
	lines := make([]string, 0, len(res.Rows))
	rows := 0
	for _, r := range res.Rows {
		if dropCell != "" && slices.ContainsFunc(r, func(v []byte) bool { return v != nil && string(v) == dropCell }) {
			continue
		}
		rows++
		cells := make([]string, len(r))
		for i, v := range r {
			switch {
			case normalised[i]:
				cells[i] = "<normalised>"
			case v == nil:
				cells[i] = "<null>"
			case names[string(v)] != "":
				cells[i] = names[string(v)]
			default:
				cells[i] = string(v)
			}
		}
		lines = append(lines, strings.Join(cells, " | "))
	}
	if !ordered {
		sort.Strings(lines)
	}
	tag := res.CommandTag.String()
	if dropCell != "" { // the count of the rows compared
		tag = fmt.Sprintf("%s (%d compared)", strings.Fields(tag)[0], rows)
	}
	return tag + "\n" + strings.Join(head, " | ") + "\n" + strings.Join(lines, "\n")
}
