package access

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/sqlgate/sqlgate/internal/atomicfile"
)

// BootstrapRole is the bootstrap superuser's name: the role PostgreSQL's
// initdb makes (OID 10 in pg_roles), which owns what has no recorded
// owner. Every package that names the role takes it from here.
const BootstrapRole = "sqlgate"

// Privilege is a set of table privileges.
type Privilege uint8

// The table privileges, in the order of PostgreSQL's aclitem letters.
const (
	Insert     Privilege = 1 << iota // a
	Select                           // r
	Update                           // w
	Delete                           // d
	Truncate                         // D
	References                       // x
	Trigger                          // t
	// All is every table privilege (GRANT ALL).
	All = Insert | Select | Update | Delete | Truncate | References | Trigger
)

var privilegeNames = []struct {
	p      Privilege
	name   string
	letter byte
}{
	{Insert, "INSERT", 'a'}, {Select, "SELECT", 'r'}, {Update, "UPDATE", 'w'}, {Delete, "DELETE", 'd'},
	{Truncate, "TRUNCATE", 'D'}, {References, "REFERENCES", 'x'}, {Trigger, "TRIGGER", 't'},
}

// ParsePrivilege returns the privilege an upper-case SQL name stands for.
func ParsePrivilege(name string) (Privilege, bool) {
	for _, n := range privilegeNames {
		if n.name == name {
			return n.p, true
		}
	}
	return 0, false
}

// String lists the privileges by name ("SELECT, INSERT").
func (p Privilege) String() string {
	var names []string
	for _, n := range privilegeNames {
		if p&n.p != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ", ")
}

// Public is the grantee that stands for every role.
const Public = "public"

// TableACL is one table's owner and grants.
type TableACL struct {
	// Path names the table, for people reading the file.
	Path  string `json:"path"`
	Owner string `json:"owner"`
	// Grants maps a grantee (a role, or Public) to its privileges;
	// GrantOptions to those it may grant on.
	Grants       map[string]Privilege `json:"grants,omitempty"`
	GrantOptions map[string]Privilege `json:"grant_options,omitempty"`
}

// Store holds every table's ACL and persists each change before it
// returns. It is safe for concurrent use.
type Store struct {
	path string // "" = in memory only

	mu     sync.RWMutex
	tables map[int64]*TableACL
}

type fileFormat struct {
	Tables map[string]*TableACL `json:"tables"` // by table id
}

// Open reads the privileges file at path (a missing file is an empty
// store). path "" keeps the privileges in memory.
func Open(path string) (*Store, error) {
	s := &Store{path: path, tables: map[int64]*TableACL{}}
	if path == "" {
		return s, nil
	}
	var f fileFormat
	found, err := atomicfile.ReadJSON(path, "privileges file", &f)
	if err != nil {
		return nil, err
	}
	if !found {
		return s, nil
	}
	for id, acl := range f.Tables {
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("privileges file %s: table id %q is not a number", path, id)
		}
		s.tables[n] = acl
	}
	return s, nil
}

// save writes the file atomically; the caller holds mu.
func (s *Store) save() error {
	if s.path == "" {
		return nil
	}
	f := fileFormat{Tables: map[string]*TableACL{}}
	for id, acl := range s.tables {
		f.Tables[strconv.FormatInt(id, 10)] = acl
	}
	return atomicfile.WriteJSON(s.path, f)
}

// clone copies an ACL so that a failed save leaves the store unchanged.
func (a *TableACL) clone() *TableACL {
	c := &TableACL{Path: a.Path, Owner: a.Owner, Grants: map[string]Privilege{}, GrantOptions: map[string]Privilege{}}
	for k, v := range a.Grants {
		c.Grants[k] = v
	}
	for k, v := range a.GrantOptions {
		c.GrantOptions[k] = v
	}
	return c
}

// update applies change to a copy of the table's ACL (a fresh one owned by
// nobody when it has none) and persists it.
func (s *Store) update(tableID int64, path string, change func(*TableACL)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.tables[tableID]
	acl := &TableACL{Path: path}
	if old != nil {
		acl = old.clone()
	}
	if path != "" {
		acl.Path = path
	}
	change(acl)
	s.tables[tableID] = acl
	if err := s.save(); err != nil {
		if old == nil {
			delete(s.tables, tableID)
		} else {
			s.tables[tableID] = old
		}
		return err
	}
	return nil
}

// SetOwner records the owner of a new table.
func (s *Store) SetOwner(tableID int64, path, owner string) error {
	return s.update(tableID, path, func(a *TableACL) { a.Owner = owner })
}

// Forget removes a dropped table's ACL.
func (s *Store) Forget(tableID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.tables[tableID]
	if !ok {
		return nil
	}
	delete(s.tables, tableID)
	if err := s.save(); err != nil {
		s.tables[tableID] = old
		return err
	}
	return nil
}

// Owner returns the table's owner ("" when none was recorded: tables
// created before privileges existed belong to the superusers).
func (s *Store) Owner(tableID int64) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if a := s.tables[tableID]; a != nil {
		return a.Owner
	}
	return ""
}

// Has reports whether role holds every privilege of need on the table,
// as its owner, through its own grants or through PUBLIC's.
func (s *Store) Has(role string, tableID int64, need Privilege) bool {
	return s.holds(role, tableID, need, func(a *TableACL) map[string]Privilege { return a.Grants })
}

// CanGrant reports whether role may grant every privilege of p on the
// table: as its owner or through grant options.
func (s *Store) CanGrant(role string, tableID int64, p Privilege) bool {
	return s.holds(role, tableID, p, func(a *TableACL) map[string]Privilege { return a.GrantOptions })
}

// holds is Has and CanGrant: the owner holds everything; anyone else what
// the chosen map gives them or PUBLIC.
func (s *Store) holds(role string, tableID int64, need Privilege, from func(*TableACL) map[string]Privilege) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a := s.tables[tableID]
	if a == nil {
		return false
	}
	if a.Owner != "" && a.Owner == role {
		return true
	}
	m := from(a)
	return (m[role]|m[Public])&need == need
}

// Grant gives grantee the privileges p on the table (with the right to
// grant them on when withOption).
func (s *Store) Grant(tableID int64, path, grantee string, p Privilege, withOption bool) error {
	return s.update(tableID, path, func(a *TableACL) {
		if a.Grants == nil {
			a.Grants = map[string]Privilege{}
		}
		a.Grants[grantee] |= p
		if withOption {
			if a.GrantOptions == nil {
				a.GrantOptions = map[string]Privilege{}
			}
			a.GrantOptions[grantee] |= p
		}
	})
}

// Revoke takes the privileges p on the table from grantee (only the right
// to grant them when optionOnly).
func (s *Store) Revoke(tableID int64, path, grantee string, p Privilege, optionOnly bool) error {
	return s.update(tableID, path, func(a *TableACL) {
		if !optionOnly {
			if a.Grants[grantee] &^= p; a.Grants[grantee] == 0 {
				delete(a.Grants, grantee)
			}
		}
		if a.GrantOptions[grantee] &^= p; a.GrantOptions[grantee] == 0 {
			delete(a.GrantOptions, grantee)
		}
	})
}

// ACL returns the table's ACL as PostgreSQL's aclitem[] text
// ({owner=arwdDxt/owner,alice=r/owner,=r/owner}), or "" when it has no
// grants (PostgreSQL shows NULL then: the owner's default privileges).
func (s *Store) ACL(tableID int64) string {
	items := s.Items(tableID, "")
	if items == nil {
		return ""
	}
	return "{" + strings.Join(items, ",") + "}"
}

// Items returns the table's aclitems, the owner's first, or nil when it
// has no grants. bootstrap names the owner of tables that have none.
func (s *Store) Items(tableID int64, bootstrap string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a := s.tables[tableID]
	if a == nil || len(a.Grants) == 0 {
		return nil
	}
	grantor := a.Owner
	if grantor == "" {
		grantor = bootstrap
	}
	if grantor == "" {
		grantor = BootstrapRole
	}
	items := []string{aclItem(grantor, All, 0, grantor)}
	var names []string
	for g := range a.Grants {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		if g == a.Owner {
			continue
		}
		name := g
		if g == Public {
			name = ""
		}
		items = append(items, aclItem(name, a.Grants[g], a.GrantOptions[g], grantor))
	}
	return items
}

func aclItem(grantee string, p, opt Privilege, grantor string) string {
	var b strings.Builder
	b.WriteString(quoteACLName(grantee))
	b.WriteByte('=')
	for _, n := range privilegeNames {
		if p&n.p != 0 {
			b.WriteByte(n.letter)
			if opt&n.p != 0 {
				b.WriteByte('*')
			}
		}
	}
	b.WriteByte('/')
	b.WriteString(quoteACLName(grantor))
	return b.String()
}

// QuoteACLName quotes a role name in an aclitem as PostgreSQL's putid
// does (acldefault's items, package functions).
func QuoteACLName(n string) string { return quoteACLName(n) }

// quoteACLName quotes a role name in an aclitem as PostgreSQL's putid does.
func quoteACLName(n string) string {
	safe := true
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80) {
			safe = false
		}
	}
	if safe {
		return n
	}
	return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
}

// Move gives the ACL of table from to table to (a table re-created with a
// new id, as TRUNCATE of a log table does).
func (s *Store) Move(from, to int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.tables[from]
	if !ok {
		return nil
	}
	s.tables[to] = a
	delete(s.tables, from)
	if err := s.save(); err != nil {
		delete(s.tables, to)
		s.tables[from] = a
		return err
	}
	return nil
}

// Snapshot copies every table's ACL, by key: what the metadata store
// (package meta) persists and what Restore reads back.
func (s *Store) Snapshot() map[int64]*TableACL {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[int64]*TableACL, len(s.tables))
	for id, a := range s.tables {
		out[id] = a.clone()
	}
	return out
}

// Restore is an in-memory store holding a copy of acls.
func Restore(acls map[int64]*TableACL) *Store {
	s := &Store{tables: make(map[int64]*TableACL, len(acls))}
	for id, a := range acls {
		s.tables[id] = a.clone()
	}
	return s
}

// Clone is an in-memory copy of the store, for a change that replaces the
// store only once it is committed.
func (s *Store) Clone() *Store { return Restore(s.Snapshot()) }

// Adopt records owner as the owner of a table that has none, in memory
// only: the metadata store calls it with the owner a table carries in its
// own properties (the durable record, committed with the table), so a
// crash between CREATE TABLE and the commit of its ACL loses nothing.
func (s *Store) Adopt(tableID int64, path, owner string) {
	if owner == "" {
		return
	}
	// Every statement that resolves a table calls this; almost always the
	// owner is known, and the read lock keeps those calls from queueing.
	s.mu.RLock()
	known := s.tables[tableID] != nil && s.tables[tableID].Owner != ""
	s.mu.RUnlock()
	if known {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.tables[tableID]
	if a == nil {
		s.tables[tableID] = &TableACL{Path: path, Owner: owner}
	} else if a.Owner == "" {
		a.Owner = owner
	}
}

// Keys lists the keys of every ACL held.
func (s *Store) Keys() []int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]int64, 0, len(s.tables))
	for id := range s.tables {
		out = append(out, id)
	}
	return out
}

// PathOf is the path recorded with a table's ACL ("" when none).
func (s *Store) PathOf(tableID int64) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if a := s.tables[tableID]; a != nil {
		return a.Path
	}
	return ""
}
