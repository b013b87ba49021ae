// Package atomicfile replaces small files (the users file, the privileges
// file) so that a crash leaves the old content or the new one, never a
// mix: write a temporary file beside the target with its final mode, fsync
// it, rename it over the target, fsync the directory. ReadJSON and WriteJSON
// are the read and replace of the JSON files built on it (privileges, views).
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data, created with mode perm.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename is durable once the directory is.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
