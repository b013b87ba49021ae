package clients

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestCatalogColumnTypes compares, for every relation sqlgate serves in
// pg_catalog and information_schema, the columns a client sees in
// RowDescription (names, in order, and type OIDs) with PostgreSQL 15's,
// so that drivers decode every column as they would PostgreSQL's
// (pg_stat_activity.client_addr is inet, backend_xid xid, pg_type.typinput
// regproc, pg_class.relacl aclitem[], pg_index.indexprs pg_node_tree).
func TestCatalogColumnTypes(t *testing.T) {
	p := startOraclePair(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pg, sg := connectPgconn(t, ctx, p.pgURL()), connectPgconn(t, ctx, p.sgURL())
	res := sg.ExecParams(ctx, `SELECT n.nspname::text, c.relname::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 'v') ORDER BY 1, 2`, nil, nil, nil, nil).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Rows) < 60 {
		t.Fatalf("sqlgate serves %d catalog relations", len(res.Rows))
	}
	for _, r := range res.Rows {
		rel := string(r[0]) + "." + string(r[1])
		want, err := describeColumns(ctx, pg, rel)
		if err != nil {
			t.Errorf("%s on PostgreSQL: %v", rel, err)
			continue
		}
		got, err := describeColumns(ctx, sg, rel)
		if err != nil {
			t.Errorf("%s on sqlgate: %v", rel, err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: sqlgate's columns %v, PostgreSQL's %v", rel, got, want)
			continue
		}
		for i := range want {
			switch {
			case got[i].name != want[i].name:
				t.Errorf("%s column %d: sqlgate %q, PostgreSQL %q", rel, i+1, got[i].name, want[i].name)
			case got[i].oid != want[i].oid:
				t.Errorf("%s.%s: sqlgate's type %d, PostgreSQL's %d", rel, want[i].name, got[i].oid, want[i].oid)
			}
		}
	}
}

type describedColumn struct {
	name string
	oid  uint32
}

func (c describedColumn) String() string { return fmt.Sprintf("%s:%d", c.name, c.oid) }

// describeColumns is the RowDescription of SELECT * FROM rel.
func describeColumns(ctx context.Context, c *pgconn.PgConn, rel string) ([]describedColumn, error) {
	sd, err := c.Prepare(ctx, "", "SELECT * FROM "+rel, nil)
	if err != nil {
		return nil, err
	}
	out := make([]describedColumn, len(sd.Fields))
	for i, f := range sd.Fields {
		out[i] = describedColumn{name: f.Name, oid: f.DataTypeOID}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no columns (%s)", strings.TrimSpace(rel))
	}
	return out, nil
}
