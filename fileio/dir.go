package fileio

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// SQLSTATEs of server-side files that sqlerr does not name.
const (
	// UndefinedFile is PostgreSQL's 58P01 (could not open file ...).
	UndefinedFile sqlerr.Code = "58P01"
	// BadCopyFileFormat is PostgreSQL's 22P04 (bad_copy_file_format).
	BadCopyFileFormat sqlerr.Code = "22P04"
)

// Dir is the one directory server-side files may be read from and written
// to (sqlgate serve --file-dir). Every name is resolved inside it through an
// os.Root, so neither ".." nor a symbolic link can lead out of it, whatever
// the name looks like; only regular files are read (a FIFO or a device
// under the directory would hang or leak). A nil *Dir is "server-side files
// are off": every method fails with a clear error.
type Dir struct {
	// path is the directory as configured (absolute); real is the same
	// with symbolic links resolved, so that an absolute name may use
	// either spelling.
	path, real string
}

// OpenDir returns the Dir of path, which must be an existing directory.
func OpenDir(path string) (*Dir, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, errors.New(path + " is not a directory")
	}
	return &Dir{path: abs, real: real}, nil
}

// Path is the directory's absolute path.
func (d *Dir) Path() string { return d.path }

func errFilesOff() error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "server-side files are off").
		WithHint("Start sqlgate serve with --file-dir DIR to read and write files under DIR, or use COPY ... FROM STDIN / TO STDOUT (psql's \\copy).")
}

func errOutside(name string) error {
	return sqlerr.New(sqlerr.InsufficientPrivilege, "path \"%s\" is outside the server's file directory", name).
		WithHint("Server-side files must be under the directory given to sqlgate serve --file-dir; \"..\" and symbolic links may not lead out of it.")
}

// rel turns name (absolute, or relative to the directory) into a name
// relative to the directory, refusing what is lexically outside it.
func (d *Dir) rel(name string) (string, error) {
	if d == nil {
		return "", errFilesOff()
	}
	if name == "" || strings.ContainsRune(name, 0) {
		return "", sqlerr.New(sqlerr.InvalidParameterValue, "invalid file name \"%s\"", name)
	}
	clean := filepath.Clean(name)
	if filepath.IsAbs(clean) {
		r := ""
		for _, base := range []string{d.path, d.real} {
			if x, err := filepath.Rel(base, clean); err == nil && filepath.IsLocal(x) {
				r = x
				break
			}
			if clean == base {
				r = "."
				break
			}
		}
		if r == "" {
			return "", errOutside(name)
		}
		clean = r
	}
	if !filepath.IsLocal(clean) {
		return "", errOutside(name)
	}
	return clean, nil
}

// rootError turns an os.Root error into PostgreSQL's: a name escaping
// the root through a symbolic link is refused like a lexical escape.
func rootError(name, verb string, err error) error {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return errOutside(name)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return sqlerr.Wrap(err, UndefinedFile, "could not open file \"%s\" for %s: No such file or directory", name, verb)
	}
	if errors.Is(err, fs.ErrPermission) {
		return sqlerr.Wrap(err, sqlerr.InsufficientPrivilege, "could not open file \"%s\" for %s: Permission denied", name, verb)
	}
	return sqlerr.Wrap(err, sqlerr.IOError, "could not open file \"%s\" for %s: %v", name, verb, err)
}

// Open opens name under the directory for reading; it must be a regular file.
func (d *Dir) Open(name string) (*os.File, error) {
	rel, err := d.rel(name)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(d.real)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.IOError, "could not open the server's file directory: %v", err)
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, rootError(name, "reading", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, rootError(name, "reading", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		if st.IsDir() {
			return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is a directory", name)
		}
		return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a regular file", name)
	}
	return f, nil
}

// Output is a file being written under the directory: the data goes to a
// temporary file beside it, which Commit renames over the name, so that a
// failed COPY TO leaves no half-written file (and an existing one intact).
type Output struct {
	*os.File
	root      *os.Root
	tmp, name string
	shown     string
	done      bool
}

// Create starts writing name under the directory.
func (d *Dir) Create(name string) (*Output, error) {
	rel, err := d.rel(name)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is a directory", name)
	}
	root, err := os.OpenRoot(d.real)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.IOError, "could not open the server's file directory: %v", err)
	}
	// The target, when it exists, must be a regular file inside the
	// directory (a symbolic link out of it is refused here).
	if st, err := root.Stat(rel); err == nil && !st.Mode().IsRegular() {
		root.Close()
		return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a regular file", name)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		root.Close()
		return nil, rootError(name, "writing", err)
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := filepath.Join(filepath.Dir(rel), "."+filepath.Base(rel)+".sqlgate-"+hex.EncodeToString(rnd[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		root.Close()
		return nil, rootError(name, "writing", err)
	}
	return &Output{File: f, root: root, tmp: tmp, name: rel, shown: name}, nil
}

// Commit syncs the file and puts it in place.
func (o *Output) Commit() error {
	if o.done {
		return nil
	}
	o.done = true
	defer o.root.Close()
	err := o.File.Sync()
	if cerr := o.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = o.root.Rename(o.tmp, o.name)
	}
	if err != nil {
		_ = o.root.Remove(o.tmp)
		return sqlerr.Wrap(err, sqlerr.IOError, "could not write file \"%s\": %v", o.shown, err)
	}
	return nil
}

// Discard removes what was written; a no-op after Commit.
func (o *Output) Discard() {
	if o.done {
		return
	}
	o.done = true
	o.File.Close()
	_ = o.root.Remove(o.tmp)
	o.root.Close()
}
