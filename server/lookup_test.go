package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPreparedLookupRowsAcrossExecutions runs prepared point lookups whose
// rows go to the client through one reused record (lower.BuildForClient)
// over keys in random order: values of every length (longer than the
// record's first room for them, then shorter), NULLs, absent keys and a
// renaming projection, each checked against the row it must be.
func TestPreparedLookupRowsAcrossExecutions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := Start(ctx, Config{Listen: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(context.Background())
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const rows = 60
	text := func(id int64) *string {
		if id%5 == 0 {
			return nil
		}
		s := strings.Repeat(fmt.Sprint(id%10), int(id*37%300))
		return &s
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE pk (id BIGINT PRIMARY KEY, s VARCHAR, b BYTEA, n INT, ts TIMESTAMP)"); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for id := int64(1); id <= rows; id++ {
		s := text(id)
		var b []byte
		var n *int32
		if s != nil {
			b = []byte(*s)
			v := int32(id) * 3
			n = &v
		}
		if _, err := conn.Exec(ctx, "INSERT INTO pk VALUES ($1, $2, $3, $4, $5)", id, s, b, n, base.Add(time.Duration(id)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for pass := range 3 {
		for _, id := range rng.Perm(rows + 5) {
			key := int64(id) + 1 // past rows: absent
			var (
				gotID int64
				s     *string
				b     []byte
				n     *int32
				ts    time.Time
			)
			err := conn.QueryRow(ctx, "SELECT * FROM pk WHERE id = $1", key).Scan(&gotID, &s, &b, &n, &ts)
			if key > rows {
				if err != pgx.ErrNoRows {
					t.Fatalf("pass %d: absent key %d: %v", pass, key, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("pass %d key %d: %v", pass, key, err)
			}
			want := text(key)
			if gotID != key || (s == nil) != (want == nil) || s != nil && *s != *want || (b == nil) != (want == nil) ||
				want != nil && string(b) != *want || (n == nil) != (want == nil) || n != nil && *n != int32(key)*3 ||
				!ts.Equal(base.Add(time.Duration(key)*time.Second)) {
				t.Fatalf("pass %d key %d: got (%d, %v, %q, %v, %v)", pass, key, gotID, s, b, n, ts)
			}
			// The same row under other names and in another order.
			var renamed *string
			var again int64
			if err := conn.QueryRow(ctx, "SELECT s AS x, id AS k FROM pk WHERE id = $1", key).Scan(&renamed, &again); err != nil {
				t.Fatalf("pass %d key %d renamed: %v", pass, key, err)
			}
			if again != key || (renamed == nil) != (want == nil) || renamed != nil && *renamed != *want {
				t.Fatalf("pass %d key %d renamed: got (%v, %d)", pass, key, renamed, again)
			}
		}
	}
}
