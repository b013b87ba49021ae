package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
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
	dir := filepath.Join(s.dir, ingestDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var paths []string
	defer func() {
		// Ingest moves the files it took; anything left is ours to remove.
		for _, p := range paths {
			_ = os.Remove(p)
		}
	}()
	// One sstable per run of keys with the same prefix and table, so that a
	// table's sstable spans only that table's keys and the committed lengths
	// (which overlap the memtable) do not drag the data sstable above the
	// levels it could otherwise skip.
	for start := 0; start < len(entries); {
		end := start + 1
		for end < len(entries) && sameTablePrefix(entries[end].key, entries[start].key) {
			end++
		}
		s.ingestSeq++
		p := filepath.Join(dir, fmt.Sprintf("%06d.sst", s.ingestSeq))
		paths = append(paths, p)
		if err := s.writeSSTable(p, entries[start:end]); err != nil {
			return err
		}
		start = end
	}
	if len(paths) == 0 {
		return nil
	}
	if err := s.db.Ingest(context.Background(), paths); err != nil {
		return err
	}
	// The tables' new sstables likely sit above their older state: have
	// their ranges compacted to one level once the load pauses (settle.go).
	for start := 0; start < len(entries); {
		end := start + 1
		for end < len(entries) && sameTablePrefix(entries[end].key, entries[start].key) {
			end++
		}
		if k := entries[start].key; k[0] == prefixData && len(k) >= 9 {
			s.settle.schedule(int64(binary.BigEndian.Uint64(k[1:9])))
		}
		start = end
	}
	return nil
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
	sorted := true
	for {
		kind, k, v, ok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		var e kvEntry
		switch kind {
		case pebble.InternalKeyKindSet:
			e = kvEntry{key: k, value: v}
		case pebble.InternalKeyKindDelete:
			e = kvEntry{key: k, del: true}
		default:
			return nil, fmt.Errorf("unexpected %v in a state batch", kind)
		}
		if n := len(entries); n > 0 && sorted && bytes.Compare(entries[n-1].key, k) >= 0 {
			sorted = false
		}
		entries = append(entries, e)
	}
	if sorted {
		return entries, nil
	}
	// Stable: of equal keys the last written stays last, and is kept.
	slices.SortStableFunc(entries, func(a, b kvEntry) int { return bytes.Compare(a.key, b.key) })
	out := entries[:0]
	for i, e := range entries {
		if i+1 < len(entries) && bytes.Equal(entries[i+1].key, e.key) {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// writeSSTable writes sorted, distinct entries into a synced sstable at p.
func (s *Store) writeSSTable(p string, entries []kvEntry) error {
	f, err := vfs.Default.Create(p, vfs.WriteCategoryUnspecified)
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
