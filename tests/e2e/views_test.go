package e2e

import (
	"context"
	"testing"
)

// TestViewSurvivesRestart creates views over the wire, restarts the
// server on the same directory and reads them back: the rows through the
// view, the catalog rows, the definition and the dependency check.
func TestViewSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	srv := startServerIn(t, dir)
	conn := connect(t, srv.ConnString())
	mustExec(t, conn, "CREATE TABLE orders (id INT PRIMARY KEY, amount NUMERIC(10,2), status TEXT)")
	mustExec(t, conn, "INSERT INTO orders VALUES (1, 10.50, 'open'), (2, 20.00, 'paid'), (3, 5.25, 'open')")
	mustExec(t, conn, "CREATE VIEW open_orders AS SELECT id, amount FROM orders WHERE status = 'open'")
	mustExec(t, conn, "CREATE VIEW open_total (total) AS SELECT sum(amount) FROM open_orders")
	conn.Close(ctx)
	if err := srv.Stop(ctx); err != nil {
		t.Fatal(err)
	}

	srv = startServerIn(t, dir)
	conn = connect(t, srv.ConnString())
	var total string
	if err := conn.QueryRow(ctx, "SELECT total::text FROM open_total").Scan(&total); err != nil || total != "15.75" {
		t.Errorf("total after restart: %q %v", total, err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_catalog.pg_class WHERE relkind = 'v' AND relname LIKE 'open%'").Scan(&n); err != nil || n != 2 {
		t.Errorf("views in pg_class: %d %v", n, err)
	}
	var def string
	if err := conn.QueryRow(ctx, "SELECT pg_get_viewdef('open_orders'::regclass)").Scan(&def); err != nil ||
		def != " SELECT orders.id,\n    orders.amount\n   FROM orders\n  WHERE (orders.status = 'open'::text);" {
		t.Errorf("definition: %q %v", def, err)
	}
	if _, err := conn.Exec(ctx, "DROP TABLE orders"); pgError(t, err).Code != "2BP01" {
		t.Errorf("DROP TABLE under views: %v", err)
	}
	// a prepared statement (extended protocol) over a view
	rows, err := conn.Query(ctx, "SELECT id FROM open_orders WHERE amount > $1 ORDER BY id", 6)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int32
	for rows.Next() {
		var id int32
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if rows.Err() != nil || len(ids) != 1 || ids[0] != 1 {
		t.Errorf("prepared query over the view: %v %v", ids, rows.Err())
	}
	mustExec(t, conn, "DROP VIEW open_total, open_orders")
	mustExec(t, conn, "DROP TABLE orders")
}
