package embedded

import (
	"context"
	"io/fs"
	"path/filepath"

	"github.com/sqlgate/sqlgate/fluss"
)

var _ fluss.TableSizer = (*Store)(nil)

// TableSize implements fluss.TableSizer: Data is the size of the files
// in the table's directory (its bucket logs) and its partitions', Key
// pebble's estimate of the disk its primary-key rows' key range takes
// (the sstables overlapping it, in proportion; rows still in the
// memtable count once flushed, their log already counting in Data).
func (s *Store) TableSize(ctx context.Context, path fluss.TablePath) (fluss.TableSize, bool, error) {
	if err := ctx.Err(); err != nil {
		return fluss.TableSize{}, false, err
	}
	s.catMu.RLock()
	t, ok := s.tables[path]
	var states []*tableState
	if ok {
		states = append(states, t)
		for _, p := range s.partitions.of(t.info.TableID) {
			states = append(states, p.t)
		}
	}
	s.catMu.RUnlock()
	if !ok {
		return fluss.TableSize{}, false, nil
	}
	var size fluss.TableSize
	for _, st := range states {
		size.Data += dirBytes(st.dir)
		if st.info.HasPrimaryKey() {
			lo := tablePrefix(prefixData, st.info.TableID)
			n, err := s.db.EstimateDiskUsage(lo, prefixEnd(lo))
			if err != nil {
				return fluss.TableSize{}, false, ioErr(err, "estimating the disk use of table %s", path.Table)
			}
			size.Key += int64(n)
		}
	}
	return size, true, nil
}

// StoreSize implements fluss.TableSizer: the files under the data
// directory.
func (s *Store) StoreSize(ctx context.Context) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return dirBytes(s.dir), nil
}

// dirBytes is the size of the regular files under dir; a file removed
// while it is walked counts nothing.
func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
