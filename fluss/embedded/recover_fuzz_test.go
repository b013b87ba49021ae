package embedded

import (
	"context"
	"encoding/binary"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// FuzzRecover damages the files recovery reads — the bucket logs and
// pebble's write-ahead log of a small store whose whole write history is
// known — and reopens the store. Open must either fail with an *sqlerr.Error
// or come up; when it comes up without reporting corruption, the two tables
// must hold the state after some prefix of the write history (the same
// prefix for both: each write was its own group commit), and the primary-key
// table's changelog must replay to its state. Nothing may panic or hang.
//
// An input is a list of 7-byte edits: file (index into the damageable
// files, sorted by path), operation (0 flip bits, 1 truncate, 2 set byte),
// a 4-byte offset (modulo the file's size) and a byte.
func FuzzRecover(f *testing.F) {
	tmpl := f.TempDir()
	hist := buildRecoverTemplate(f, tmpl)
	files := damageableFiles(f, tmpl)
	f.Logf("damageable files: %v", files)
	f.Add([]byte{})
	for i := range files {
		for _, op := range []byte{0, 1, 2} {
			for _, off := range []uint32{0, 7, 61, 300, 1 << 30} {
				f.Add(recoverEdit(byte(i), op, off, 0x5a))
			}
		}
	}
	f.Fuzz(func(t *testing.T, edits []byte) {
		dir := t.TempDir()
		copyTree(t, tmpl, dir)
		for len(edits) >= 7 && len(files) > 0 {
			applyEdit(t, filepath.Join(dir, files[int(edits[0])%len(files)]), edits[1], binary.LittleEndian.Uint32(edits[2:6]), edits[6])
			edits = edits[7:]
		}
		checkRecovered(t, dir, hist)
	})
}

func recoverEdit(file, op byte, off uint32, v byte) []byte {
	e := []byte{file, op, 0, 0, 0, 0, v}
	binary.LittleEndian.PutUint32(e[2:], off)
	return e
}

// recoverHistory is the template's write history: after write k (1-based;
// 0 = before any), the log table holds logRows[k] and the primary-key
// table pkState[k].
type recoverHistory struct {
	logRows [][]int32
	pkState []map[int32]int32
}

// buildRecoverTemplate writes the template store: writes alternate between
// appends to a log table (one bucket) and upserts/deletes on a primary-key
// table (two buckets), each its own durable call.
func buildRecoverTemplate(t testing.TB, dir string) recoverHistory {
	ctx := context.Background()
	s := openStore(t, dir)
	defer s.Close()
	lt := createTable(t, s, "l", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v")}, BucketCount: 1})
	pt := createTable(t, s, "p", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	h := recoverHistory{logRows: [][]int32{nil}, pkState: []map[int32]int32{{}}}
	record := func(logRows []int32, pk map[int32]int32) {
		h.logRows = append(h.logRows, logRows)
		h.pkState = append(h.pkState, pk)
	}
	for w := int32(0); w < 4; w++ {
		var rows [][]int32
		for i := int32(0); i < 3; i++ {
			rows = append(rows, []int32{w*3 + i, w})
		}
		rec := intRecord([]string{"id", "v"}, rows...)
		if _, err := lt.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		logRows := slices.Clone(h.logRows[len(h.logRows)-1])
		for _, r := range rows {
			logRows = append(logRows, r[0])
		}
		record(logRows, h.pkState[len(h.pkState)-1])

		pk := maps.Clone(h.pkState[len(h.pkState)-1])
		if w == 2 {
			// delete two keys, one of which exists
			keys := intRecord([]string{"k"}, []int32{1}, []int32{99})
			if _, err := pt.Delete(ctx, keys); err != nil {
				t.Fatal(err)
			}
			keys.Release()
			delete(pk, 1)
		} else {
			// keys 0..3: inserts first, then updates
			var up [][]int32
			for k := int32(0); k < 4; k++ {
				up = append(up, []int32{k, w*10 + k})
				pk[k] = w*10 + k
			}
			rec := intRecord([]string{"k", "v"}, up...)
			if _, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
				t.Fatal(err)
			}
			rec.Release()
		}
		record(logRows, pk)
	}
	return h
}

// damageableFiles lists the bucket logs and pebble WAL files under dir.
func damageableFiles(t testing.TB, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(rel, ".log") && (strings.HasPrefix(rel, "tables"+string(filepath.Separator)) || strings.HasPrefix(rel, "kv"+string(filepath.Separator))) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	if len(out) < 4 {
		t.Fatalf("expected three bucket logs and a WAL, found %v", out)
	}
	return out
}

func copyTree(t testing.TB, src, dst string) {
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if rel == "kv/LOCK" || rel == filepath.Join("kv", "LOCK") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// applyEdit damages one file: op%3 0 flips the bits of v (at least one) at
// off, 1 truncates to off, 2 sets the byte at off to v; off wraps around
// the file's size.
func applyEdit(t testing.TB, p string, op byte, off uint32, v byte) {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	switch op % 3 {
	case 0:
		if len(b) > 0 {
			b[int(off)%len(b)] ^= v | 1
		}
	case 1:
		b = b[:int(off)%(len(b)+1)]
	case 2:
		if len(b) > 0 {
			b[int(off)%len(b)] = v
		}
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkRecovered opens the damaged store and checks the outcome.
func checkRecovered(t *testing.T, dir string, h recoverHistory) {
	type opened struct {
		s   *Store
		err error
		pan any
	}
	done := make(chan opened, 1)
	go func() {
		var o opened
		defer func() {
			if p := recover(); p != nil {
				o.pan = p
			}
			done <- o
		}()
		o.s, o.err = Open(dir, Options{})
	}()
	var o opened
	select {
	case o = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Open of a damaged store did not return within 30s")
	}
	if o.pan != nil {
		t.Fatalf("Open panicked: %v", o.pan)
	}
	if o.err != nil {
		if e := sqlerr.As(o.err); e == nil || e.Message == "" {
			t.Fatalf("Open failed without a clear error: %T %v", o.err, o.err)
		}
		t.Logf("Open refused the store: %v", o.err)
		return
	}
	s := o.s
	defer s.Close()
	ctx := context.Background()
	lt, err := s.Table(ctx, path("l"))
	if err != nil {
		t.Fatalf("log table lost: %v", err)
	}
	pt, err := s.Table(ctx, path("p"))
	if err != nil {
		t.Fatalf("primary-key table lost: %v", err)
	}
	logRows, lerr := readInts(ctx, lt, false)
	pkRows, perr := readInts(ctx, pt, false)
	changes, cerr := readInts(ctx, pt, true)
	if len(s.Corruptions()) > 0 {
		// Damage was found and reported: reads may fail, but cleanly.
		for _, e := range append(s.Corruptions(), lerr, perr, cerr) {
			if e != nil && sqlerr.As(e) == nil {
				t.Fatalf("unclear error after reported corruption: %T %v", e, e)
			}
		}
		t.Logf("corruption reported: %v", s.Corruptions()[0])
		return
	}
	for _, e := range []error{lerr, perr, cerr} {
		if e != nil {
			t.Fatalf("store opened without reporting corruption, but a read failed: %v", e)
		}
	}
	state := map[int32]int32{}
	for _, r := range pkRows {
		state[r[0]] = r[1]
	}
	var ids []int32
	for _, r := range logRows {
		ids = append(ids, r[0])
	}
	k := -1
	for i := range h.logRows {
		if slices.Equal(h.logRows[i], ids) && maps.Equal(h.pkState[i], state) {
			k = i
		}
	}
	if k < 0 {
		t.Fatalf("recovered state is no prefix of the history: log ids %v, primary-key state %v", ids, state)
	}
	// The changelog replays to the state.
	replay := map[int32]int32{}
	for _, c := range changes {
		switch format.ChangeType(c[2]) {
		case format.Insert, format.UpdateAfter:
			replay[c[0]] = c[1]
		case format.Delete, format.UpdateBefore:
			delete(replay, c[0])
		}
	}
	if !maps.Equal(replay, state) {
		t.Fatalf("changelog replays to %v, state is %v (prefix %d)", replay, state, k)
	}
	t.Logf("recovered the first %d of %d writes", k, len(h.logRows)-1)
}

// readInts reads a table of two INT columns: rows, or with changelog the
// changes as (key, value, change type).
func readInts(ctx context.Context, tb fluss.Table, changelog bool) ([][3]int32, error) {
	var r fluss.RecordReader
	var err error
	if changelog {
		r, err = tb.(fluss.ChangelogScanner).ScanChangelog(ctx, fluss.ScanOptions{})
	} else {
		r, err = tb.Scan(ctx, fluss.ScanOptions{})
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	names := map[string]format.ChangeType{"insert": format.Insert, "update_before": format.UpdateBefore, "update_after": format.UpdateAfter, "delete": format.Delete}
	var out [][3]int32
	for {
		rec, err := r.Next(ctx)
		if err != nil {
			return nil, err
		}
		if rec == nil {
			return out, nil
		}
		c0, c1 := 0, 1
		if changelog {
			c0, c1 = 3, 4
		}
		a, b := rec.Column(c0).(*array.Int32), rec.Column(c1).(*array.Int32)
		for i := 0; i < int(rec.NumRows()); i++ {
			row := [3]int32{a.Value(i), b.Value(i), 0}
			if changelog {
				ct, ok := names[rec.Column(0).(*array.String).Value(i)]
				if !ok {
					rec.Release()
					return nil, fmt.Errorf("unknown change type %q", rec.Column(0).(*array.String).Value(i))
				}
				row[2] = int32(ct)
			}
			out = append(out, row)
		}
		rec.Release()
	}
}
