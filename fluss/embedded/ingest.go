package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/batchrepr"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// A group commit whose state batch is large (a bulk load: COPY of a million
// rows is ~60 MB) is not committed as a pebble batch: pebble would write it to
// its WAL, hold it as a flushable batch, flush it to L0 and then compact it
// down, rewriting every byte three or four times on the same two cores the
// load runs on. Instead its entries are sorted into sstables, one per table
// prefix, and ingested in one pebble Ingest call. An ingestion is atomic and
// durable like a synced batch (one version edit, or one synced WAL record when
// it has to queue behind the memtable), and the committed log lengths ride in
// the same call, so the state still never disagrees with the logs. An
// sstable of a table's fresh key range (a load into a new table, or past its
// last key) lands in the lowest level and is never compacted again.

// defaultIngestBytes is the state-batch size from which a group commit
// ingests sstables (Options.IngestBytes).
const defaultIngestBytes = 8 << 20

// ingestDir is where sstables are built before Ingest moves them into kv/;
// leftovers of a crash are removed on Open.
const ingestDir = "ingest"

// kvEntry is one state change of a batch being ingested.
type kvEntry struct {
	key, value []byte
	del        bool
}

// ingestBatch commits kv's changes by ingesting sstables built from them.
// Later entries of a key replace earlier ones, as in the batch.
func (s *Store) ingestBatch(kv *pebble.Batch) error {
	entries, err := batchEntries(kv)
	if err != nil {
		return err
	}
	return s.ingestGroups(byTable(entries))
}

// ingestGroups commits groups (each in key order, distinct keys, of one
// table prefix: byTable) by ingesting sstables built from them.
func (s *Store) ingestGroups(groups [][]kvEntry) error {
	paths, err := s.buildSSTables(groups)
	defer removeFiles(paths)
	if err != nil {
		return err
	}
	return s.ingestSSTables(paths, groups)
}

// removeFiles removes what is left of built sstables: Ingest moves the
// files it took, anything left is ours to remove.
func removeFiles(paths []string) {
	for _, p := range paths {
		_ = os.Remove(p)
	}
}

// byTable cuts entries (in key order) into runs of keys with the same
// prefix and table: one sstable per run, so that a table's sstable spans
// only that table's keys and the committed lengths (which overlap the
// memtable) do not drag the data sstable above the levels it could
// otherwise skip.
func byTable(entries []kvEntry) [][]kvEntry {
	var groups [][]kvEntry
	for start := 0; start < len(entries); {
		end := start + 1
		for end < len(entries) && sameTablePrefix(entries[end].key, entries[start].key) {
			end++
		}
		groups = append(groups, entries[start:end])
		start = end
	}
	return groups
}

// buildSSTables writes the sstables of groups (byTable's) into the ingest
// directory and returns their paths (those of a failed build too, for the
// caller to remove). A long group is cut into sstables of IngestChunk
// entries (Options), which do not overlap, written in parallel.
func (s *Store) buildSSTables(groups [][]kvEntry) ([]string, error) {
	dir := filepath.Join(s.dir, ingestDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	var parts [][]kvEntry
	for _, g := range groups {
		for lo := 0; lo < len(g); lo += s.opts.IngestChunk {
			parts = append(parts, g[lo:min(lo+s.opts.IngestChunk, len(g))])
			paths = append(paths, filepath.Join(dir, fmt.Sprintf("%06d.sst", s.ingestSeq.Add(1))))
		}
	}
	return paths, s.writeSSTables(paths, parts)
}

// ingestSSTables ingests the built sstables of groups (the commit point)
// and has the tables' ranges settled.
func (s *Store) ingestSSTables(paths []string, groups [][]kvEntry) error {
	if len(paths) == 0 {
		return nil
	}
	s.syncWAL() // asynccommit.go: never on top of unsynced commits
	s.iters.beginWrite()
	err := s.db.Ingest(context.Background(), paths)
	s.iters.endWrite()
	if err != nil {
		return err
	}
	// The tables' new sstables likely sit above their older state: have
	// their ranges compacted to one level once the load pauses (settle.go).
	for _, g := range groups {
		if k := g[0].key; k[0] == prefixData && len(k) >= 9 {
			s.settle.schedule(int64(binary.BigEndian.Uint64(k[1:9])))
		}
	}
	return nil
}

// defaultIngestChunk is the most entries buildSSTables writes into one
// sstable (Options.IngestChunk): a million-row load is written as four, on
// as many cores as there are.
const defaultIngestChunk = 256 << 10

// writeSSTables writes parts[i] to paths[i] (several cores at a time) and
// returns their errors joined; a panic in one becomes its error.
func (s *Store) writeSSTables(paths []string, parts [][]kvEntry) error {
	errs := make([]error, len(parts))
	parallel(len(parts), func(i int) {
		defer func() {
			if p := recover(); p != nil { // not the process's end
				errs[i] = fmt.Errorf("writing %s: panic: %v", paths[i], p)
			}
		}()
		errs[i] = s.writeSSTable(paths[i], parts[i])
	})
	return errors.Join(errs...)
}

// sameTablePrefix reports whether two keys share the prefix byte and table.
func sameTablePrefix(a, b []byte) bool {
	const n = 9
	if len(a) < n || len(b) < n {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(a[:n], b[:n])
}

// batchEntries returns kv's entries in key order, one per key (the last one
// written). A bulk write's entries come in key order already (preparePK
// writes them sorted); only then is the sort skipped.
func batchEntries(kv *pebble.Batch) ([]kvEntry, error) {
	entries := make([]kvEntry, 0, kv.Count())
	r := batchrepr.Read(kv.Repr())
	for {
		kind, k, v, ok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		switch kind {
		case pebble.InternalKeyKindSet:
			entries = append(entries, kvEntry{key: k, value: v})
		case pebble.InternalKeyKindDelete:
			entries = append(entries, kvEntry{key: k, del: true})
		default:
			return nil, fmt.Errorf("unexpected %v in a state batch", kind)
		}
	}
	return sortEntries(entries), nil
}

// sortEntries orders entries by key, keeping one per key: the last one
// written. A large batch's entries (batchEntries) come in key order already
// (preparePK writes a request's sorted) and are followed by a few
// bookkeeping keys (the buckets' committed lengths, sketches): the sorted
// run is kept as it is, the rest sorted and merged into it, rather than a
// stable sort of the whole million.
func sortEntries(entries []kvEntry) []kvEntry {
	run := 1
	for run < len(entries) && bytes.Compare(entries[run-1].key, entries[run].key) < 0 {
		run++
	}
	if run >= len(entries) {
		return entries
	}
	// Stable: of equal keys the later write stays after the earlier.
	rest := slices.Clone(entries[run:])
	slices.SortStableFunc(rest, func(a, b kvEntry) int { return bytes.Compare(a.key, b.key) })
	merged := make([]kvEntry, 0, len(entries))
	i, j := 0, 0
	for i < run && j < len(rest) {
		// On a tie the sorted run's entry, written earlier, goes first.
		if bytes.Compare(rest[j].key, entries[i].key) < 0 {
			merged, j = append(merged, rest[j]), j+1
		} else {
			merged, i = append(merged, entries[i]), i+1
		}
	}
	merged = append(append(merged, entries[i:run]...), rest[j:]...)
	out := merged[:0]
	for i, e := range merged {
		if i+1 < len(merged) && bytes.Equal(merged[i+1].key, e.key) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// stateWriter receives a group commit's key-value state changes: a pebble
// batch, or bulkState for a group large enough to be ingested.
type stateWriter interface {
	Set(key, value []byte, _ *pebble.WriteOptions) error
	Delete(key []byte, _ *pebble.WriteOptions) error
}

// bulkState collects the state changes of a group that will be ingested
// (Options.IngestBytes) as entries, rather than encoding them into a batch
// only to decode them back: each request's changes as the sorted run
// preparePK made of them (writeRun), and the bookkeeping keys (committed
// lengths, sketches) set one by one. It keeps the keys and values it is
// given: its callers do not reuse them before the commit ends.
type bulkState struct {
	runs []bulkRun // in request order
	rest []kvEntry
}

// bulkRun is one request's state changes; pre, when set, is building their
// sstables already (prebuild).
type bulkRun struct {
	ents []kvEntry
	pre  *prebuiltState
}

func (b *bulkState) Set(key, value []byte, _ *pebble.WriteOptions) error {
	b.rest = append(b.rest, kvEntry{key: key, value: value})
	return nil
}

func (b *bulkState) Delete(key []byte, _ *pebble.WriteOptions) error {
	b.rest = append(b.rest, kvEntry{key: key, del: true})
	return nil
}

// groups returns the changes to build sstables of as byTable's groups,
// and the prebuilt runs to ingest beside them: each run as it is (a
// million-row load is not sorted or copied again) unless two share a table
// prefix (two requests of the group wrote one table), in which case
// everything is sorted together, in request order, the later write of a
// key winning, and nothing prebuilt is used.
func (b *bulkState) groups() ([][]kvEntry, []*prebuiltState) {
	var out [][]kvEntry
	var pre []*prebuiltState
	seen := map[string]bool{}
	distinct := true
	add := func(g []kvEntry) {
		p := string(g[0].key[:min(len(g[0].key), 9)])
		distinct = distinct && !seen[p]
		seen[p] = true
	}
	for _, r := range b.runs {
		switch {
		case len(r.ents) == 0:
		case r.pre != nil:
			add(r.ents)
			pre = append(pre, r.pre)
		default:
			add(r.ents)
			out = append(out, r.ents)
		}
	}
	for _, g := range byTable(sortEntries(b.rest)) {
		add(g)
		out = append(out, g)
	}
	if distinct {
		return out, pre
	}
	var all []kvEntry
	for _, r := range b.runs {
		all = append(all, r.ents...)
	}
	return byTable(sortEntries(append(all, b.rest...))), nil
}

// prebuiltState is the sstables of a bulk upsert's state (distinct keys
// with their rows, in key order), built in the background from the moment
// its keys are sorted, while the group commit prepares the changelog and
// appends the logs (prebuild).
type prebuiltState struct {
	state []kvEntry
	done  chan struct{}
	paths []string
	err   error
}

// prebuild starts building the sstables of state.
func (s *Store) prebuild(state []kvEntry) *prebuiltState {
	p := &prebuiltState{state: state, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.paths, p.err = s.buildSSTables([][]kvEntry{state})
	}()
	return p
}

// wait returns the built sstables' paths once they are built.
func (p *prebuiltState) wait() ([]string, error) {
	<-p.done
	return p.paths, p.err
}

// discard removes the built sstables that an ingestion did not move.
func (p *prebuiltState) discard() {
	paths, _ := p.wait()
	removeFiles(paths)
}

// writeRun writes a request's state changes (in key order, distinct keys)
// into kv: as a run of its own into a bulkState (with pre, the sstables
// being built of it, if any), else one by one (pre is then left to the
// commit's end, which removes what no ingestion took).
func writeRun(kv stateWriter, ents []kvEntry, pre *prebuiltState) error {
	if b, ok := kv.(*bulkState); ok {
		b.runs = append(b.runs, bulkRun{ents: ents, pre: pre})
		return nil
	}
	for _, e := range ents {
		var err error
		if e.del {
			err = kv.Delete(e.key, nil)
		} else {
			err = kv.Set(e.key, e.value, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeSSTable writes sorted, distinct entries into a synced sstable at p.
func (s *Store) writeSSTable(p string, entries []kvEntry) error {
	f, err := s.pebbleOpts.FS.Create(p, vfs.WriteCategoryUnspecified)
	if err != nil {
		return err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), s.pebbleOpts.MakeWriterOptions(0, s.db.TableFormat()))
	for _, e := range entries {
		if e.del {
			err = w.Delete(e.key)
		} else {
			err = w.Set(e.key, e.value)
		}
		if err != nil {
			_ = w.Close()
			return err
		}
	}
	// Close finishes the table and syncs the file (Ingest requires it).
	return w.Close()
}

// mergeInto adds b's changes (an atomic group's, prepared apart, atomic.go)
// to a group's state: as runs into a bulkState, else one by one, in order.
func (b *bulkState) mergeInto(kv stateWriter) error {
	if into, ok := kv.(*bulkState); ok {
		into.runs = append(into.runs, b.runs...)
		into.rest = append(into.rest, b.rest...)
		return nil
	}
	for _, r := range b.runs {
		if err := writeRun(kv, r.ents, nil); err != nil {
			return err
		}
	}
	for _, e := range b.rest {
		if err := writeRun(kv, []kvEntry{e}, nil); err != nil {
			return err
		}
	}
	return nil
}
