package reliability

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/server"
)

// TestCrashVerifierCatchesLoss checks the crash test's checker itself: fed
// a database that lost an acknowledged row, kept a refused one, holds a
// stale version or shows half of a COPY, it must say so.
func TestCrashVerifierCatchesLoss(t *testing.T) {
	ctx := context.Background()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		srv.Stop(sctx)
	}()
	conn := connect(t, srv.ConnString())
	mustExec(t, conn, "CREATE TABLE log (writer INT NOT NULL, seq BIGINT NOT NULL, note TEXT)")
	mustExec(t, conn, "CREATE TABLE kv (k BIGINT PRIMARY KEY, ver BIGINT NOT NULL, writer INT NOT NULL)")
	// On disk: writer 1 logged seqs 1, 2 and 5 (of a COPY of 4..5), 9
	// (refused in BEGIN); key 1000 at version 3, key 1001 at version 7.
	mustExec(t, conn, "INSERT INTO log VALUES (1, 1, 'a'), (1, 2, 'b'), (1, 5, 'c'), (1, 9, 'd')")
	mustExec(t, conn, "INSERT INTO kv VALUES (1000, 3, 1), (1001, 7, 1)")

	cases := []struct {
		name  string
		model func(w *writer)
		want  string // a fragment of the expected problem; "" = none
	}{
		{"consistent", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.keys[1000], w.keys[1001] = keyState{true, 3}, keyState{true, 7}
		}, ""},
		{"acknowledged row lost", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 3: true, 5: true, 9: true}
			w.keys[1000], w.keys[1001] = keyState{true, 3}, keyState{true, 7}
		}, "seq 3 appears 0 times"},
		{"refused row present", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true}
			w.refused = []int64{9}
			w.keys[1000], w.keys[1001] = keyState{true, 3}, keyState{true, 7}
		}, "of a rolled-back transaction is present"},
		{"half a COPY", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 9: true}
			w.pending = &uncertainOp{seqs: []int64{4, 5}}
			w.keys[1000], w.keys[1001] = keyState{true, 3}, keyState{true, 7}
		}, "half-visible"},
		{"stale version", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.keys[1000], w.keys[1001] = keyState{true, 4}, keyState{true, 7}
		}, "key 1000 holds"},
		{"deleted key back", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.keys[1000], w.keys[1001] = keyState{true, 3}, keyState{}
		}, "key 1001 holds"},
		{"uncertain update either way", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.keys[1000] = keyState{true, 3}
			w.pending = &uncertainOp{kvs: []kvChange{{key: 1001, before: keyState{true, 6}, after: keyState{true, 7}}}}
		}, ""},
		{"uncertain update, neither state", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.keys[1000] = keyState{true, 3}
			w.pending = &uncertainOp{kvs: []kvChange{{key: 1001, before: keyState{true, 5}, after: keyState{true, 6}}}}
		}, "after an unacknowledged write"},
		{"uncertain transaction applied whole", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 9: true}
			w.pending = &uncertainOp{seqs: []int64{5}, kvs: []kvChange{
				{key: 1000, before: keyState{}, after: keyState{true, 3}}, {key: 1001, before: keyState{true, 6}, after: keyState{true, 7}}}}
		}, ""},
		{"uncertain transaction lost whole", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.pending = &uncertainOp{seqs: []int64{6}, kvs: []kvChange{
				{key: 1000, before: keyState{true, 3}, after: keyState{}}, {key: 1001, before: keyState{true, 7}, after: keyState{true, 8}}}}
		}, ""},
		{"uncertain transaction half kept", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 5: true, 9: true}
			w.pending = &uncertainOp{seqs: []int64{6}, kvs: []kvChange{
				{key: 1000, before: keyState{true, 2}, after: keyState{true, 3}}, {key: 1001, before: keyState{true, 7}, after: keyState{true, 8}}}}
		}, "half-visible"},
		{"uncertain transaction: log kept, key lost", func(w *writer) {
			w.logged = map[int64]bool{1: true, 2: true, 9: true}
			w.pending = &uncertainOp{seqs: []int64{5}, kvs: []kvChange{
				{key: 1001, before: keyState{true, 7}, after: keyState{true, 8}}}}
			w.keys[1000] = keyState{true, 3}
		}, "half-visible"},
	}
	for _, c := range cases {
		w := newWriter(1, 1)
		c.model(w)
		problems := verify(ctx, conn, []*writer{w})
		got := strings.Join(problems, "\n")
		switch {
		case c.want == "" && len(problems) > 0:
			t.Errorf("%s: unexpected problems:\n%s", c.name, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%s: want a problem mentioning %q, got:\n%s", c.name, c.want, got)
		}
	}
}
