package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// powerSyncer remembers what a power loss would leave of the files whose
// writes are made durable by syncs: each bucket log's size at its last
// fsync, and each pebble write-ahead log's and the commit log's bytes at
// their last sync.
type powerSyncer struct {
	mu      sync.Mutex
	buckets map[string]int64
	wals    map[string][]byte
	clog    []byte // commit.wal at its last sync (nil before one)
	logged  int    // syncs of the commit log
}

func (p *powerSyncer) Sync(name string, kind SyncKind, sync func() error) error {
	if err := sync(); err != nil {
		return err
	}
	if kind == SyncRange {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case filepath.Base(name) == commitLogName:
		p.logged++
		if b, err := os.ReadFile(name); err == nil {
			p.clog = b
		}
	case strings.HasPrefix(filepath.Base(name), "bucket-"):
		if st, err := os.Stat(name); err == nil {
			p.buckets[name] = st.Size()
		}
	case isWAL(name):
		if b, err := os.ReadFile(name); err == nil {
			p.wals[name] = b
		}
	}
	return nil
}

// powerLoss copies the open store's directory at src to dst as a power
// loss would leave it: pebble's buffered records are not in it (they were
// never written), its write-ahead logs and the commit log hold what their
// last sync made durable and nothing written since, and each bucket log
// what its last fsync did (nothing if it had none).
func (p *powerSyncer) powerLoss(t *testing.T, src, dst string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	err := filepath.WalkDir(src, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, name)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if d.Name() == "LOCK" {
			return nil
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		switch {
		case strings.HasPrefix(d.Name(), "bucket-"):
			b = b[:min(int64(len(b)), p.buckets[name])]
		case d.Name() == commitLogName:
			b = p.clog
		case isWAL(name):
			if synced, ok := p.wals[name]; ok {
				b = synced
			} else {
				b = nil
			}
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCommitLogAfterPowerLoss: lone commits (commit.wal is their commit
// point, pebble holds them unsynced) into a primary-key table and a log
// table, a transaction over both, an unsynced commit and the synced one
// after it (pebble's own sync), then a power loss: every acknowledged
// write must be there after Open, state and changelog, the bucket logs'
// bytes restored from the append records that the commit log's batches
// carried. With a short commit log it also starts again from its start
// many times.
func TestCommitLogAfterPowerLoss(t *testing.T) {
	defaultSpan := commitLogSpan
	for _, span := range []int64{defaultSpan, 3 << 10} {
		t.Run(fmt.Sprintf("span=%d", span), func(t *testing.T) {
			defer func(old int64) { commitLogSpan = old }(commitLogSpan)
			commitLogSpan = span
			ctx := context.Background()
			dir, lost := t.TempDir(), t.TempDir()
			s, ps, pt, lt := openPowerLossStore(t, dir, "cl")
			defer s.Close()
			pkRow := func(k, v int32) fluss.TableWrite {
				return fluss.TableWrite{Path: path("cl_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert,
					Rec: intRecord([]string{"k", "v"}, []int32{k, v})}
			}
			logRow := func(id int32) fluss.TableWrite {
				return fluss.TableWrite{Path: path("cl_log"), TableID: lt.Info().TableID, Kind: fluss.WriteAppend,
					Rec: intRecord([]string{"id", "v"}, []int32{id, -id})}
			}
			state := map[int32]int32{}
			var appended []int32
			apply := func(ctx context.Context, ws ...fluss.TableWrite) {
				t.Helper()
				defer func() {
					for _, w := range ws {
						w.Rec.Release()
					}
				}()
				var err error
				if len(ws) == 1 {
					tb := pt
					if ws[0].Path == path("cl_log") {
						tb = lt
					}
					_, err = ws[0].Apply(ctx, tb)
				} else {
					_, err = s.WriteAtomically(ctx, ws)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for i := range int32(125) { // the last five logged only
				k, v := i%17, i
				switch i % 10 {
				case 3:
					apply(ctx, pkRow(k, v), logRow(i))
					state[k], appended = v, append(appended, i)
				case 6:
					apply(ctx, logRow(i))
					appended = append(appended, i)
				case 8:
					// Unsynced, then a synced one: pebble syncs both.
					apply(fluss.WithoutSyncWait(ctx), pkRow(k, v))
					state[k] = v
				default:
					apply(ctx, pkRow(k, v))
					state[k] = v
				}
			}
			// a sync the unsynced commits before it share is one sync for
			// several commits, and how many share one is the machine's
			// timing: more than half of the 120 synced ones is the route
			if ps.logged <= 60 {
				t.Fatalf("%d syncs of the commit log, want more than half of the 120 synced commits", ps.logged)
			}
			if span < defaultSpan && s.clog.full < 3 {
				t.Fatalf("the commit log filled %d times with a span of %d bytes: the test does not wrap it", s.clog.full, span)
			}
			t.Logf("the commit log filled %d times", s.clog.full)
			ps.powerLoss(t, dir, lost)

			s2, err := Open(lost, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			if s2.clog.replayed == 0 {
				t.Error("Open committed no record of the commit log again: the test lost nothing")
			}
			checkAfterPowerLoss(ctx, t, s2, "cl", state, appended)
			// The primary-key table's changelog ends, key by key, at the state.
			last := map[int32]int32{}
			for _, e := range readChangelog(t, s2, "cl_pk") {
				last[e.id] = e.v
			}
			if fmt.Sprint(last) != fmt.Sprint(state) {
				t.Errorf("changelog's last images after the power loss:\n got %v\nwant %v", last, state)
			}
		})
	}
}

// TestCommitLogGroupsAfterPowerLoss: writers committing at once, so that
// groups of several writers form and go through the commit log as the lone
// ones do (commitBatch), then a power loss: every acknowledged write must be
// there after Open, the groups' records committed again in order.
func TestCommitLogGroupsAfterPowerLoss(t *testing.T) {
	ctx := context.Background()
	dir, lost := t.TempDir(), t.TempDir()
	s, ps, pt, lt := openPowerLossStore(t, dir, "clg")
	defer s.Close()
	const writers, each = 6, 30
	groups := s.groups.Load()
	states := make([]map[int32]int32, writers)
	appends := make([][]int32, writers)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for g := range int32(writers) {
		states[g] = map[int32]int32{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range int32(each) {
				k, v := g*100+i%7, g*1000+i
				ws := []fluss.TableWrite{{Path: path("clg_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert,
					Rec: intRecord([]string{"k", "v"}, []int32{k, v})}}
				if i%5 == 2 {
					ws = append(ws, fluss.TableWrite{Path: path("clg_log"), TableID: lt.Info().TableID, Kind: fluss.WriteAppend,
						Rec: intRecord([]string{"id", "v"}, []int32{v, -v})})
				}
				var err error
				if len(ws) == 1 {
					_, err = ws[0].Apply(ctx, pt)
				} else {
					_, err = s.WriteAtomically(ctx, ws)
				}
				for _, w := range ws {
					w.Rec.Release()
				}
				if err != nil {
					errs <- err
					return
				}
				states[g][k] = v
				if len(ws) == 2 {
					appends[g] = append(appends[g], v)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := s.groups.Load() - groups; n >= writers*each {
		t.Fatalf("%d group commits for %d writes: no group of several writers formed, the test shows nothing", n, writers*each)
	}
	ps.powerLoss(t, dir, lost)

	s2, err := Open(lost, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.clog.replayed == 0 {
		t.Error("Open committed no record of the commit log again: the test lost nothing")
	}
	state := map[int32]int32{}
	var appended []int32
	for g := range writers {
		maps.Copy(state, states[g])
		appended = append(appended, appends[g]...)
	}
	slices.Sort(appended)
	checkAfterPowerLoss(ctx, t, s2, "clg", state, appended)
}

// TestReadCommitLog: the log is read from its start while its records are
// whole and consecutive.
func TestReadCommitLog(t *testing.T) {
	rec := func(seq uint64, body string) []byte {
		b := make([]byte, commitLogHeader, commitLogHeader+len(body))
		binary.LittleEndian.PutUint32(b, uint32(len(body)))
		binary.LittleEndian.PutUint64(b[8:], seq)
		b = append(b, body...)
		binary.LittleEndian.PutUint32(b[4:], crc32.Checksum(b[8:], crc32c))
		return b
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	torn := rec(8, "gamma")
	flipped := rec(8, "gamma")
	flipped[len(flipped)-1] ^= 1
	cases := []struct {
		name string
		log  []byte
		want string
	}{
		{"empty", nil, ""},
		{"zeros", make([]byte, 100), ""},
		{"records then zeros", join(rec(6, "alpha"), rec(7, "beta"), make([]byte, 64)), "6:alpha 7:beta"},
		{"torn last record", join(rec(6, "alpha"), rec(7, "beta"), torn[:len(torn)-2]), "6:alpha 7:beta"},
		{"damaged last record", join(rec(6, "alpha"), rec(7, "beta"), flipped), "6:alpha 7:beta"},
		{"an older record behind the newest", join(rec(9, "alpha"), rec(10, "beta"), rec(4, "old"), rec(5, "older")), "9:alpha 10:beta"},
		{"a gap in the sequence", join(rec(6, "alpha"), rec(8, "gamma")), "6:alpha"},
		{"a header alone", rec(6, "")[:commitLogHeader], ""},
		{"a length past the end", join(rec(6, "alpha"), []byte{200, 0, 0, 0, 1, 2, 3, 4}), "6:alpha"},
	}
	for _, c := range cases {
		var got []string
		for _, r := range readCommitLog(c.log) {
			got = append(got, fmt.Sprintf("%d:%s", r.seq, r.batch))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%s: read %q, want %q", c.name, g, c.want)
		}
	}
}

// checkAfterPowerLoss compares, in the store s2 reopened after a power
// loss, the primary-key table prefix_pk with state and the log table
// prefix_log's ids with appended (sorted): what was acknowledged before
// openPowerLossStore opens a store in dir whose syncs a powerSyncer
// records, with the two tables the power-loss tests write: prefix_pk
// (primary key k) and prefix_log (a log table), two buckets each.
func openPowerLossStore(t *testing.T, dir, prefix string) (*Store, *powerSyncer, fluss.Table, fluss.Table) {
	t.Helper()
	ps := &powerSyncer{buckets: map[string]int64{}, wals: map[string][]byte{}}
	s, err := Open(dir, Options{Syncer: ps})
	if err != nil {
		t.Fatal(err)
	}
	pt := createTable(t, s, prefix+"_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	lt := createTable(t, s, prefix+"_log", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v")}, BucketCount: 2})
	return s, ps, pt, lt
}

// the loss, nothing more.
func checkAfterPowerLoss(ctx context.Context, t *testing.T, s2 *Store, prefix string, state map[int32]int32, appended []int32) {
	t.Helper()
	pt2, err := s2.Table(ctx, path(prefix+"_pk"))
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := scanAll(t, pt2, fluss.ScanOptions{})
	got := map[int32]int32{}
	if rec != nil {
		ks, vs := int32Values(rec, 0), int32Values(rec, 1)
		for i := range ks {
			got[ks[i]] = vs[i]
		}
		rec.Release()
	}
	if fmt.Sprint(got) != fmt.Sprint(state) {
		t.Errorf("state after the power loss:\n got %v\nwant %v", got, state)
	}
	var ids []int32
	for _, e := range readChangelog(t, s2, prefix+"_log") {
		ids = append(ids, e.id)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, appended) {
		t.Errorf("log table after the power loss: %v, want %v", ids, appended)
	}
}
