package meta

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/views"
)

// The files of older versions, in the data directory: views and
// privileges were kept in a JSON file each, committed one after the other.
const (
	legacyViewsFile      = "views.json"
	legacyPrivilegesFile = "privileges.json"
)

// MigrateFiles moves the views and privileges of older versions' files in
// dir into m, then renames each file to NAME.migrated. It is idempotent
// (an object m already holds is kept), so a crash between the commit and
// the rename only repeats it.
func MigrateFiles(ctx context.Context, m *Store, dir string) error {
	vpath, apath := filepath.Join(dir, legacyViewsFile), filepath.Join(dir, legacyPrivilegesFile)
	vfound, afound := exists(vpath), exists(apath)
	if !vfound && !afound {
		return nil
	}
	vs, err := views.Open(pathIf(vfound, vpath))
	if err != nil {
		return err
	}
	acl, err := access.Open(pathIf(afound, apath))
	if err != nil {
		return err
	}
	if err := m.importObjects(ctx, vs.Snapshot(), acl.Snapshot()); err != nil {
		return err
	}
	for _, p := range []string{vpath, apath} {
		if exists(p) {
			if err := os.Rename(p, p+".migrated"); err != nil {
				return fmt.Errorf("metadata: migrated %s but could not rename it: %w", p, err)
			}
		}
	}
	return nil
}

// importObjects adds views and ACLs that m does not hold yet (by view
// path and id, by ACL key).
func (m *Store) importObjects(ctx context.Context, sn views.Snapshot, acls map[int64]*access.TableACL) error {
	return m.Update(ctx, func(tx *Tx) error {
		cur := tx.Views.Snapshot()
		taken := map[int64]bool{}
		for _, v := range cur.Views {
			taken[v.ID] = true
		}
		for _, v := range sn.Views {
			if _, ok := tx.Views.Get(v.Path); ok || taken[v.ID] {
				continue
			}
			cur.Views = append(cur.Views, v)
			taken[v.ID] = true
			cur.NextID = max(cur.NextID, v.ID+1, sn.NextID)
		}
		vs, err := views.Restore(cur, "migrated views")
		if err != nil {
			return err
		}
		tx.Views = vs
		have := tx.Access.Snapshot()
		for id, a := range acls {
			if _, ok := have[id]; !ok {
				have[id] = a
			}
		}
		tx.Access = access.Restore(have)
		return nil
	})
}

// ImportUsers brings a users file's users into m when the file changed
// since it was last imported: the file's users replace m's entries of the
// same names, and the users an earlier import brought that the file no
// longer lists are removed (`sqlgate user add|remove` edit the file; the
// server imports it when it starts). Users created with CREATE ROLE are
// left alone.
func (m *Store) ImportUsers(ctx context.Context, u *pgwire.Users) error {
	if u == nil {
		return nil
	}
	b, err := json.Marshal(u.Users) // map keys sorted: the same users hash the same
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	hash := hex.EncodeToString(sum[:])
	return m.Update(ctx, func(tx *Tx) error {
		if tx.imported.Hash == hash {
			return nil
		}
		if tx.Users == nil {
			tx.Users = map[string]pgwire.UserEntry{}
		}
		for _, n := range tx.imported.Names {
			if _, ok := u.Users[n]; !ok {
				delete(tx.Users, n)
			}
		}
		names := make([]string, 0, len(u.Users))
		for n, e := range u.Users {
			tx.Users[n] = e
			names = append(names, n)
		}
		sort.Strings(names)
		tx.imported = usersImport{Hash: hash, Names: names}
		return nil
	})
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, fs.ErrNotExist)
}

func pathIf(ok bool, p string) string {
	if ok {
		return p
	}
	return ""
}
