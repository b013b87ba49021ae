package pgtypes

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgConn connects to a database of the test's own on the package's
// PostgreSQL 15 (sharedPG); the context bounds the test's queries.
func pgConn(t *testing.T) (context.Context, *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx, sharedPG.Conn(t)
}

// pgOut is a value as PostgreSQL prints it (its type's output function)
// and sends it (its send function).
type pgOut struct {
	Text   string
	Binary []byte
}

// pgTextAndBinary runs query, whose $1 is inputs as text[] and whose rows
// (one per input, in order) are a text and a bytea, and returns them.
func pgTextAndBinary(t *testing.T, ctx context.Context, conn *pgx.Conn, query string, inputs []string) []pgOut {
	t.Helper()
	rows, err := conn.Query(ctx, query, inputs)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[pgOut])
	if err != nil || len(out) != len(inputs) {
		t.Fatalf("%s: %d rows for %d inputs, %v", query, len(out), len(inputs), err)
	}
	return out
}
