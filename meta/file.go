package meta

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"sync"

	"github.com/sqlgate/sqlgate/internal/atomicfile"
)

// FileName is the metadata file in the data directory of the embedded
// store.
const FileName = "meta.json"

// fileBackend keeps the rows in one JSON file replaced atomically (written
// to a temporary file, fsynced, renamed): a commit is one rename, so after
// a crash the file holds the last commit whole or the one before.
type fileBackend struct {
	path string

	mu   sync.Mutex
	rows map[string]string
	v    string
}

type fileFormat struct {
	FormatVersion int               `json:"format_version"`
	Version       string            `json:"version"`
	Rows          map[string]string `json:"rows"`
}

const fileFormatVersion = 1

// OpenFile opens the metadata kept in dir/meta.json (a missing file is an
// empty store), first migrating the views and privileges files of older
// versions found in dir (see migrate.go).
func OpenFile(ctx context.Context, dir string) (*Store, error) {
	b := &fileBackend{path: filepath.Join(dir, FileName)}
	var f fileFormat
	found, err := atomicfile.ReadJSON(b.path, "metadata file", &f)
	if err != nil {
		return nil, err
	}
	if found && f.FormatVersion != fileFormatVersion {
		return nil, fmt.Errorf("metadata file %s: format version %d is not supported (want %d)", b.path, f.FormatVersion, fileFormatVersion)
	}
	b.rows, b.v = f.Rows, f.Version
	m, err := open(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("metadata file %s: %w", b.path, err)
	}
	if err := MigrateFiles(ctx, m, dir); err != nil {
		return nil, err
	}
	return m, nil
}

func (b *fileBackend) load(context.Context) (map[string]string, string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.rows), b.v, nil
}

// version is the version last loaded or committed: one server owns a data
// directory, so nobody else commits.
func (b *fileBackend) version(context.Context) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v, nil
}

func (b *fileBackend) commit(_ context.Context, changed map[string]string, v string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	rows := maps.Clone(b.rows)
	if rows == nil {
		rows = map[string]string{}
	}
	for k, val := range changed {
		if val == "" {
			delete(rows, k)
		} else {
			rows[k] = val
		}
	}
	if err := atomicfile.WriteJSON(b.path, fileFormat{FormatVersion: fileFormatVersion, Version: v, Rows: rows}); err != nil {
		return err
	}
	b.rows, b.v = rows, v
	return nil
}

func (*fileBackend) close() error { return nil }
