package e2e

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestReturningThroughPgx drives INSERT/UPDATE/DELETE ... RETURNING through
// pgx's extended protocol (Parse/Describe/Bind/Execute, as QueryRow does)
// and its simple protocol: rows come before the write's own command tag,
// Describe reports them, and they show what the statement wrote.
func TestReturningThroughPgx(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, `CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT, qty INT)`)
	mustExec(t, conn, `CREATE TABLE tags (item_id BIGINT PRIMARY KEY, tag TEXT)`)

	// Describe of a prepared INSERT ... RETURNING: the columns as
	// PostgreSQL names them, the parameters typed from their columns.
	sd, err := conn.Prepare(ctx, "ins", `INSERT INTO items (id, name, qty) VALUES ($1, $2, $3) RETURNING id, name AS label, qty * 2`)
	if err != nil {
		t.Fatal(err)
	}
	wantFields := []struct {
		name string
		oid  uint32
	}{{"id", 20}, {"label", 25}, {"?column?", 23}}
	if len(sd.Fields) != len(wantFields) {
		t.Fatalf("Describe: %d fields", len(sd.Fields))
	}
	for i, f := range sd.Fields {
		if f.Name != wantFields[i].name || f.DataTypeOID != wantFields[i].oid {
			t.Errorf("field %d: %s oid %d, want %s oid %d", i, f.Name, f.DataTypeOID, wantFields[i].name, wantFields[i].oid)
		}
	}
	if len(sd.ParamOIDs) != 3 || sd.ParamOIDs[0] != 20 || sd.ParamOIDs[1] != 25 || sd.ParamOIDs[2] != 23 {
		t.Errorf("parameter OIDs %v", sd.ParamOIDs)
	}

	// QueryRow of an INSERT ... RETURNING id (the common pgx idiom).
	var id int64
	var label string
	var doubled int32
	if err := conn.QueryRow(ctx, "ins", int64(1), "apple", int32(5)).Scan(&id, &label, &doubled); err != nil {
		t.Fatal(err)
	}
	if id != 1 || label != "apple" || doubled != 10 {
		t.Errorf("QueryRow: %d %q %d", id, label, doubled)
	}

	// Several rows, then the INSERT's own tag.
	rows, err := conn.Query(ctx, `INSERT INTO items VALUES ($1, 'pear', 2), ($2, 'plum', 3) RETURNING id`, int64(2), int64(3))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[0] != 2 || ids[1] != 3 {
		t.Errorf("ids %v", ids)
	}
	if tag := rows.CommandTag().String(); tag != "INSERT 0 2" {
		t.Errorf("tag %q", tag)
	}

	// An upsert returns the merged row; DO NOTHING returns nothing.
	var qty int32
	if err := conn.QueryRow(ctx, `INSERT INTO items VALUES (1, 'apple', 7) ON CONFLICT (id) DO UPDATE SET qty = items.qty + excluded.qty RETURNING qty`).Scan(&qty); err != nil || qty != 12 {
		t.Errorf("upsert RETURNING: %d %v", qty, err)
	}
	if err := conn.QueryRow(ctx, `INSERT INTO items VALUES (1, 'x', 0) ON CONFLICT DO NOTHING RETURNING qty`).Scan(&qty); err != pgx.ErrNoRows {
		t.Errorf("DO NOTHING on an existing key: %v", err)
	}

	// UPDATE ... FROM ... RETURNING with parameters.
	mustExec(t, conn, `INSERT INTO tags VALUES (1, 'red'), (2, 'green')`)
	rows, err = conn.Query(ctx, `UPDATE items SET name = items.name || '/' || tags.tag FROM tags WHERE tags.item_id = items.id AND tags.tag <> $1 RETURNING items.id, items.name`, "green")
	if err != nil {
		t.Fatal(err)
	}
	type idName struct {
		ID   int64
		Name string
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[idName])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != (idName{1, "apple/red"}) {
		t.Errorf("UPDATE ... FROM RETURNING: %v", got)
	}
	if tag := rows.CommandTag().String(); tag != "UPDATE 1" {
		t.Errorf("tag %q", tag)
	}

	// The simple protocol: DELETE ... USING ... RETURNING.
	var name string
	err = conn.QueryRow(ctx, `DELETE FROM items USING tags WHERE tags.item_id = items.id AND tags.tag = $1 RETURNING items.name`,
		pgx.QueryExecModeSimpleProtocol, "green").Scan(&name)
	if err != nil || name != "pear" {
		t.Errorf("simple DELETE RETURNING: %q %v", name, err)
	}
	// Exec discards the rows and keeps the tag.
	tag, err := conn.Exec(ctx, `UPDATE items SET qty = 0 WHERE id = 3 RETURNING *`, pgx.QueryExecModeSimpleProtocol)
	if err != nil || tag.String() != "UPDATE 1" {
		t.Errorf("Exec of UPDATE RETURNING: %q %v", tag, err)
	}

	// Inside a transaction block, and rolled back.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(ctx, `INSERT INTO items VALUES (9, 'tmp', 1) RETURNING name`).Scan(&name); err != nil || name != "tmp" {
		t.Errorf("in a block: %q %v", name, err)
	}
	if err := tx.QueryRow(ctx, `UPDATE items SET qty = qty + 1 WHERE id = 9 RETURNING qty`).Scan(&qty); err != nil || qty != 2 {
		t.Errorf("in a block, the block's own row: %d %v", qty, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM items WHERE id = 9`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after ROLLBACK: %d %v", n, err)
	}

	// An unknown RETURNING column is 42703 with its position, and the
	// session goes on.
	_, err = conn.Exec(ctx, `DELETE FROM items RETURNING nope`)
	if pe := pgError(t, err); pe.Code != "42703" || pe.Position != 29 {
		t.Errorf("error %s at %d: %s", pe.Code, pe.Position, pe.Message)
	}
	_, err = conn.Exec(ctx, `UPDATE items SET qty = 1 RETURNING nope`, pgx.QueryExecModeSimpleProtocol)
	if pe := pgError(t, err); pe.Code != "42703" {
		t.Errorf("simple protocol error %s: %s", pe.Code, pe.Message)
	}
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM items`).Scan(&n); err != nil || n != 2 {
		t.Errorf("after the errors: %d rows, %v", n, err)
	}

	// A write without RETURNING describes no rows.
	sd, err = conn.Prepare(ctx, "plain", `UPDATE items SET qty = $1 WHERE id = $2`)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.Fields) != 0 {
		t.Errorf("plain UPDATE describes %d fields", len(sd.Fields))
	}
}
