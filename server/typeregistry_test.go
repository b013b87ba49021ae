package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestTypeRegistryPerStore: two in-process servers of one process (as the
// slt runner serves its parallel files) each answer with their own
// user-defined types. Their first tables get the same table ID, so their
// row types share an OID: each server names, reads and prints its own
// (ROW(...)::t, format_type, pg_type, the operator error naming the
// array type), whichever server named its table last. An enum or a
// domain of one server is unknown to the other (format_type's ???), and
// each one's labels and CHECK are its own.
func TestTypeRegistryPerStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	open := func() *pgx.Conn {
		t.Helper()
		addr, stop, err := InProcess(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		conn, err := pgx.Connect(ctx, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		return conn
	}
	a, b := open(), open()
	exec := func(conn *pgx.Conn, stmts ...string) {
		t.Helper()
		for _, s := range stmts {
			if _, err := conn.Exec(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	exec(a, "CREATE TABLE ta (x int PRIMARY KEY, y text)", "CREATE TYPE mood AS ENUM ('sad', 'happy')",
		"CREATE DOMAIN posint AS int CHECK (VALUE > 0)")
	exec(b, "CREATE TABLE tb (p text PRIMARY KEY, q int, r bool)", "CREATE TYPE color AS ENUM ('red', 'green', 'blue')",
		"CREATE DOMAIN shortstr AS text CHECK (length(VALUE) < 3)")
	oid := func(conn *pgx.Conn, q string) uint32 {
		t.Helper()
		var o uint32
		if err := conn.QueryRow(ctx, q).Scan(&o); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return o
	}
	rowA, rowB := oid(a, "SELECT reltype FROM pg_class WHERE relname = 'ta'"), oid(b, "SELECT reltype FROM pg_class WHERE relname = 'tb'")
	if rowA == 0 || rowA != rowB {
		t.Fatalf("the tables' row types are %d and %d: the test needs them to share an OID", rowA, rowB)
	}
	arrA := oid(a, "SELECT typarray FROM pg_type WHERE typname = 'ta'")
	moodOID, posintOID := oid(a, "SELECT 'mood'::regtype::oid"), oid(a, "SELECT 'posint'::regtype::oid")
	colorOID, shortOID := oid(b, "SELECT 'color'::regtype::oid"), oid(b, "SELECT 'shortstr'::regtype::oid")

	text := func(conn *pgx.Conn, q string, args ...any) string {
		t.Helper()
		var s string
		if err := conn.QueryRow(ctx, q, args...).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s
	}
	want := func(what, got, w string) {
		t.Helper()
		if got != w {
			t.Errorf("%s: %q, want %q", what, got, w)
		}
	}
	fails := func(conn *pgx.Conn, q, msg string) {
		t.Helper()
		_, err := conn.Exec(ctx, q)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an error with %q", q, err, msg)
		}
	}
	// each server names its table's row type last in turn: the other's
	// answers stay its own
	for range 2 {
		want("a: ROW::ta", text(a, "SELECT ROW(1, 'a')::ta::text || ' ' || pg_typeof(ROW(1, 'a')::ta)::text"), "(1,a) ta")
		want("b: ROW::tb", text(b, "SELECT ROW('z', 2, true)::tb::text || ' ' || pg_typeof(ROW('z', 2, true)::tb)::text"), "(z,2,t) tb")
		want("a: format_type of its row type", text(a, "SELECT format_type($1, NULL)", rowA), "ta")
		want("a: format_type of its row type's array", text(a, "SELECT format_type($1, NULL)", arrA), "ta[]")
		want("a: pg_type", text(a, "SELECT typname::text FROM pg_type WHERE oid = $1", rowA), "ta")
		want("a: text input", text(a, "SELECT ('(7,q)'::ta).y"), "q")
		fails(a, "SELECT ARRAY[r] = ARRAY[ROW(1, 2)] FROM ta r", "operator does not exist: ta[] = record[]")
		want("b: format_type of its row type", text(b, "SELECT format_type($1, NULL)", rowB), "tb")
		want("b: pg_type", text(b, "SELECT typname::text FROM pg_type WHERE oid = $1", rowB), "tb")
		fails(b, "SELECT ARRAY[x] = ARRAY[ROW(1, 2)] FROM tb x", "operator does not exist: tb[] = record[]")
	}
	// enums and domains: each server's own, unknown to the other
	want("a: format_type(mood)", text(a, "SELECT format_type($1, NULL)", moodOID), "mood")
	want("b: format_type(a's mood)", text(b, "SELECT format_type($1, NULL)", moodOID), "???")
	want("a: format_type(b's color)", text(a, "SELECT format_type($1, NULL)", colorOID), "???")
	want("b: format_type(shortstr)", text(b, "SELECT format_type($1, NULL)", shortOID), "shortstr")
	want("b: format_type(a's posint)", text(b, "SELECT format_type($1, NULL)", posintOID), "???")
	want("a: format_type(b's shortstr)", text(a, "SELECT format_type($1, NULL)", shortOID), "???")
	want("a: enum labels", text(a, "SELECT array_to_string(enum_range(NULL::mood), ',')"), "sad,happy")
	want("b: enum labels", text(b, "SELECT array_to_string(enum_range(NULL::color), ',')"), "red,green,blue")
	fails(a, "SELECT 'red'::mood", `invalid input value for enum mood: "red"`)
	fails(b, "SELECT 'sad'::color", `invalid input value for enum color: "sad"`)
	fails(a, "SELECT 0::posint", `value for domain posint violates check constraint "posint_check"`)
	want("a: posint", text(a, "SELECT 5::posint::text"), "5")
	fails(b, "SELECT 'abcd'::shortstr", `value for domain shortstr violates check constraint "shortstr_check"`)
	want("b: shortstr", text(b, "SELECT 'ab'::shortstr::text"), "ab")
}
