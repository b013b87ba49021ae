package pgcatalog

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestFormatTypeMatchesPostgres compares FormatType with PostgreSQL 15's
// format_type for every type in pgTypes, with no typmod (NULL), -1, and
// typmods that mean something for the parameterised types.
func TestFormatTypeMatchesPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	typmods := []int32{-1, 3, 14, 655366, 1310724}
	cat := New(nil, Options{})
	checked := 0
	for _, ts := range pgTypes {
		var want string
		if err := conn.QueryRow(ctx, "SELECT format_type($1::oid, NULL)", ts.oid).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got := cat.FormatType(ts.oid, 0, false); got != want {
			t.Errorf("format_type(%d, NULL) = %q, PostgreSQL says %q", ts.oid, got, want)
		}
		for _, mod := range typmods {
			if (ts.oid == 1186 || ts.oid == 1187) && mod >= 0 {
				continue // interval typmods are field masks, not reproduced
			}
			if err := conn.QueryRow(ctx, "SELECT format_type($1::oid, $2::int4)", ts.oid, mod).Scan(&want); err != nil {
				t.Fatal(err)
			}
			if got := cat.FormatType(ts.oid, mod, true); got != want {
				t.Errorf("format_type(%d, %d) = %q, PostgreSQL says %q", ts.oid, mod, got, want)
			}
			checked++
		}
	}
	if got := cat.FormatType(424242, -1, true); got != "???" {
		t.Errorf("unknown type: %q", got)
	}
	if checked < 240 {
		t.Errorf("only %d checked", checked)
	}
}

// TestTypeRowsMatchPostgres checks pgTypes against PostgreSQL 15's pg_type.
func TestTypeRowsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	for _, ts := range pgTypes {
		var name, typtype, cat string
		var length int
		var elem, arr uint32
		err := conn.QueryRow(ctx, "SELECT typname::text, typlen, typtype::text, typcategory::text, typelem, typarray FROM pg_type WHERE oid = $1",
			ts.oid).Scan(&name, &length, &typtype, &cat, &elem, &arr)
		if err == pgx.ErrNoRows {
			t.Errorf("type %d not in PostgreSQL", ts.oid)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if name != ts.name || length != ts.len || typtype != ts.typtype || cat != ts.category || elem != ts.elem || arr != ts.array {
			t.Errorf("type %d: %+v, PostgreSQL: %s %d %s %s %d %d", ts.oid, ts, name, length, typtype, cat, elem, arr)
		}
	}
}
