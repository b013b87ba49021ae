package pgtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A cluster's data directory is a copy of a template made once by initdb
// and kept under os.TempDir(), like the Go build cache: initdb runs
// PostgreSQL's bootstrap twice over and takes a second or two of CPU, a
// copy of its ~40 MB a tenth of that, and the test packages start a few
// hundred clusters between them (tests/difftest one per test). Copies of
// one fresh initdb are fresh clusters: nothing in a data directory names
// its path or port.
//
// The template's directory name holds a hash of everything its contents
// depend on (the initdb and postgres binaries' identity, initdb's options,
// the account it belongs to), so that a new PostgreSQL or new options make
// a new one. It is made in a directory of its own and renamed into place,
// so that a template seen is complete; processes racing to make it keep
// the first one renamed.

// templateData returns the data directory of the template for binDir and
// cred, making it when missing; ok is false when it cannot be made or
// trusted, and the caller then runs initdb for its own cluster.
func templateData(ctx context.Context, binDir string, cred *syscall.Credential) (data string, ok bool) {
	parent := os.TempDir()
	if cred != nil && !reachableBy(parent, cred) {
		return "", false
	}
	key, err := templateKey(binDir, cred)
	if err != nil {
		return "", false
	}
	dir := filepath.Join(parent, "pgtest-template-"+key)
	if trustedTemplate(dir, cred) {
		return filepath.Join(dir, "data"), true
	}
	stage, err := os.MkdirTemp(parent, "pgtest-template-new-")
	if err != nil {
		return "", false
	}
	defer os.RemoveAll(stage) // gone once renamed
	if err := os.Chmod(stage, 0o700); err != nil {
		return "", false
	}
	if cred != nil {
		if err := os.Chown(stage, int(cred.Uid), int(cred.Gid)); err != nil {
			return "", false
		}
	}
	if err := initdb(ctx, binDir, cred, stage, filepath.Join(stage, "data")); err != nil {
		return "", false
	}
	// Fails when another process renamed its template first: use that one.
	_ = os.Rename(stage, dir)
	if !trustedTemplate(dir, cred) {
		return "", false
	}
	return filepath.Join(dir, "data"), true
}

// templateKey hashes what a template's contents depend on.
func templateKey(binDir string, cred *syscall.Credential) (string, error) {
	h := sha256.New()
	for _, tool := range []string{"initdb", "postgres"} {
		fi, err := os.Stat(filepath.Join(binDir, tool))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d %d\n", filepath.Join(binDir, tool), fi.Size(), fi.ModTime().UnixNano())
	}
	fmt.Fprintf(h, "%s\n", strings.Join(initdbArgs, " "))
	if cred != nil {
		fmt.Fprintf(h, "uid %d gid %d\n", cred.Uid, cred.Gid)
	}
	fmt.Fprintf(h, "euid %d\n", os.Geteuid())
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// trustedTemplate reports whether dir is a complete template that only
// this process's account or cred's can have written: os.TempDir() is
// writable by everyone.
func trustedTemplate(dir string, cred *syscall.Credential) bool {
	owner := uint32(os.Geteuid())
	if cred != nil {
		owner = cred.Uid
	}
	for _, p := range []string{dir, filepath.Join(dir, "data"), filepath.Join(dir, "data", "global", "pg_control")} {
		fi, err := os.Lstat(p)
		if err != nil {
			return false
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || st.Uid != owner || fi.Mode().Perm()&0o022 != 0 {
			return false
		}
	}
	return true
}

// copyTree copies the directory src to dst (which must not exist) with
// the same permission bits, owned by cred's account when one is given.
func copyTree(src, dst string, cred *syscall.Credential) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(target, info.Mode().Perm()); err != nil {
				return err
			}
		case d.Type().IsRegular():
			if err := copyFile(path, target, info.Mode().Perm()); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: not a file or directory", path)
		}
		// Mkdir and OpenFile apply the umask.
		if err := os.Chmod(target, info.Mode().Perm()); err != nil {
			return err
		}
		if cred != nil {
			return os.Lchown(target, int(cred.Uid), int(cred.Gid))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("copy the template data directory: %w", err)
	}
	return nil
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
