package meta

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/views"
)

// OwnerProperty is the Fluss custom property that names a table's owner:
// written with the table by CREATE TABLE, so that the owner commits
// atomically with the table on either store.
const OwnerProperty = fluss.OwnerProperty

// backend persists the rows of a Store and tells their version.
type backend interface {
	// load reads every row and the version they are at.
	load(ctx context.Context) (rows map[string]string, version string, err error)
	// version is the version the stored rows are at now: one cheap read.
	version(ctx context.Context) (string, error)
	// commit writes changed (a key's "" deletes it) and the new version,
	// all or nothing.
	commit(ctx context.Context, changed map[string]string, version string) error
	// close releases what the backend holds.
	close() error
}

// state is one committed version of the metadata, never changed once
// published (except access.Store.Adopt's in-memory owners).
type state struct {
	rows  map[string]string
	views *views.Store
	acl   *access.Store
	users map[string]pgwire.UserEntry
	// imported is the users file last imported (ImportUsers).
	imported usersImport
	// extra are rows of kinds this version does not know (written by a
	// newer sqlgate sharing the cluster): kept, and written back as they
	// are, so that an older server never deletes them.
	extra map[string]string
	// functions are the functions CREATE FUNCTION made (functions.go).
	functions *Functions
	// types are the enum types CREATE TYPE made (types.go).
	types *Types
	// domains are the domains CREATE DOMAIN made (domains.go).
	domains *Domains
	// schemas are the schemas' owners by name (schemas.go).
	schemas map[string]Schema
	// comments are COMMENT ON's texts by CommentKey (comments.go).
	comments map[string]string
	// defaultACLs are ALTER DEFAULT PRIVILEGES' lists (schemas.go).
	defaultACLs map[string]DefaultACL
	// indexes are CREATE INDEX's indexes by OID (indexes.go).
	indexes map[uint32]Index
	// followUps is Tx.FollowUps as last committed.
	followUps string
}

// usersImport records the users file imported last: its content's hash
// and the names it held.
type usersImport struct {
	Hash  string   `json:"hash"`
	Names []string `json:"names"`
}

// Store is sqlgate's metadata store: views, table owners and grants, and
// users, each change committed as one unit. It is safe for concurrent use.
type Store struct {
	b backend

	// mu serialises changes and reloads.
	mu      sync.Mutex
	cur     atomic.Pointer[state]
	version atomic.Pointer[string]
	// forgetTables, when set, drops the store's cached table info at each
	// reload (catalogsync.go).
	forgetTables func()
}

func open(ctx context.Context, b backend) (*Store, error) {
	m := &Store{b: b}
	rows, v, err := b.load(ctx)
	if err != nil {
		return nil, err
	}
	st, err := decode(rows)
	if err != nil {
		return nil, err
	}
	m.cur.Store(st)
	m.version.Store(&v)
	return m, nil
}

// Memory is a store that keeps everything in memory (tests, and an
// engine given none).
func Memory() *Store {
	m, _ := open(context.Background(), &memoryBackend{})
	return m
}

// Close releases the backend.
func (m *Store) Close() error { return m.b.close() }

// Views is the current views (read them; change them through Update).
func (m *Store) Views() *views.Store { return m.cur.Load().views }

// FollowUps is the follow-ups the last commit recorded (Tx.FollowUps).
func (m *Store) FollowUps() string { return m.cur.Load().followUps }

// Access is the current owners and grants (read them; change them through
// Update).
func (m *Store) Access() *access.Store { return m.cur.Load().acl }

// Tx is a change in the making: copies of the current objects, which
// Update commits together.
type Tx struct {
	Views  *views.Store
	Access *access.Store
	Users  map[string]pgwire.UserEntry
	// Functions are the functions by signature (functions.go).
	Functions map[string]Function
	// Types are the enum types by OID (types.go).
	Types map[uint32]EnumType
	// Domains are the domains by OID (domains.go).
	Domains map[uint32]Domain
	// Schemas are the schemas' owners by name (schemas.go).
	Schemas map[string]Schema
	// Comments are the comments by CommentKey (comments.go); a deleted
	// key removes the comment.
	Comments map[string]string
	// DefaultACLs are ALTER DEFAULT PRIVILEGES' lists by DefaultACLKey
	// (schemas.go).
	DefaultACLs map[string]DefaultACL
	// Indexes are CREATE INDEX's (not unique) indexes by OID (indexes.go).
	Indexes map[uint32]Index
	// FollowUps is what a change committed here leaves to do in the
	// store, recorded with it so that a crash before it is done leaves it
	// to the next start ("" when nothing is left): the engine's JSON
	// (engine/followups.go), kept as it is.
	FollowUps string

	imported usersImport
	extra    map[string]string
}

// Update runs change over copies of the current objects and commits what
// it changed as one unit: on the embedded store one atomic file write,
// on a cluster one PutKv batch (see doc.go). Sessions keep reading the
// previous version until the commit succeeded; when change or the commit
// fails, nothing changes.
func (m *Store) Update(ctx context.Context, change func(tx *Tx) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	// Change the newest version: another server may have committed.
	if err := m.refreshLocked(ctx); err != nil {
		return err
	}
	cur := m.cur.Load()
	tx := cur.tx()
	if err := change(tx); err != nil {
		return err
	}
	rows, err := encode(tx)
	if err != nil {
		return err
	}
	changed := map[string]string{}
	for k, v := range rows {
		if cur.rows[k] != v {
			changed[k] = v
		}
	}
	for k := range cur.rows {
		if _, ok := rows[k]; !ok {
			changed[k] = ""
		}
	}
	if len(changed) == 0 {
		return nil
	}
	v := newVersion()
	if err := m.b.commit(ctx, changed, v); err != nil {
		return fmt.Errorf("could not commit the metadata: %w", err)
	}
	m.cur.Store(&state{rows: rows, views: tx.Views, acl: tx.Access, users: tx.Users, imported: tx.imported, extra: tx.extra,
		functions: newFunctions(tx.Functions), types: newTypes(tx.Types), domains: newDomains(tx.Domains), schemas: tx.Schemas, comments: tx.Comments, defaultACLs: tx.DefaultACLs, indexes: tx.Indexes, followUps: tx.FollowUps})
	m.version.Store(&v)
	return nil
}

// Current returns copies of the newest objects (another server may have
// committed), as Update's change would see them, without changing them.
func (m *Store) Current(ctx context.Context) (*Tx, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.refreshLocked(ctx); err != nil {
		return nil, err
	}
	return m.cur.Load().tx(), nil
}

// tx is a change in the making over copies of st's objects.
func (st *state) tx() *Tx {
	return &Tx{Views: st.views.Clone(), Access: st.acl.Clone(), Users: maps.Clone(st.users), Functions: maps.Clone(st.functions.bySig()),
		Types: maps.Clone(st.types.byOID()), Domains: maps.Clone(st.domains.byOID()), Schemas: maps.Clone(st.schemas), Comments: maps.Clone(st.comments), DefaultACLs: maps.Clone(st.defaultACLs), Indexes: cloneIndexes(st.indexes), FollowUps: st.followUps, imported: st.imported, extra: st.extra}
}

// Refresh reloads the objects when the stored version is not the one held
// (another server changed them): one cheap read when nothing changed.
func (m *Store) Refresh(ctx context.Context) error {
	v, err := m.b.version(ctx)
	if err != nil {
		return fmt.Errorf("could not read the metadata version: %w", err)
	}
	if v == *m.version.Load() {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.refreshLocked(ctx)
}

func (m *Store) refreshLocked(ctx context.Context) error {
	v, err := m.b.version(ctx)
	if err != nil {
		return fmt.Errorf("could not read the metadata version: %w", err)
	}
	if v == *m.version.Load() {
		return nil
	}
	rows, v, err := m.b.load(ctx)
	if err != nil {
		return fmt.Errorf("could not read the metadata: %w", err)
	}
	st, err := decode(rows)
	if err != nil {
		return err
	}
	m.cur.Store(st)
	m.version.Store(&v)
	if m.forgetTables != nil {
		m.forgetTables()
	}
	return nil
}

func newVersion() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// AdoptOwner takes a table's owner from its OwnerProperty into the
// current owners when they have none for it (in memory: the property is
// the durable record). The engine calls it for each table it resolves, so
// a table created through another server, or just before a crash, is
// owned by its creator here at once.
func (m *Store) AdoptOwner(info fluss.TableInfo) {
	if o := info.Descriptor.CustomProperties[OwnerProperty]; o != "" {
		m.Access().Adopt(info.TableID, info.Path.String(), o)
	}
}

// Role reports whether name is a user, and a superuser (engine.Roles).
func (m *Store) Role(name string) (exists, superuser bool) {
	e, ok := m.cur.Load().users[name]
	return ok, ok && e.Superuser
}

// LookupUser returns a user's secrets (pgwire.UserLookup). A user created
// through another server of the same cluster logs in at once: the lookup
// refreshes first.
func (m *Store) LookupUser(ctx context.Context, name string) (pgwire.UserEntry, bool) {
	_ = m.Refresh(ctx) // on failure, the version held still answers
	e, ok := m.cur.Load().users[name]
	return e, ok
}

// UserNames lists the users, sorted.
func (m *Store) UserNames() []string {
	u := m.cur.Load().users
	names := make([]string, 0, len(u))
	for n := range u {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CanLogin reports whether a role may log in.
func (m *Store) CanLogin(name string) bool {
	e, ok := m.cur.Load().users[name]
	return ok && !e.NoLogin
}

// HasSuperuser reports whether any user is a superuser.
func (m *Store) HasSuperuser() bool {
	for _, e := range m.cur.Load().users {
		if e.Superuser {
			return true
		}
	}
	return false
}

// The rows: every object is one row, keyed by kind and identity, its value
// the object's JSON. The same rows are the file's content on the embedded
// store and the rows of the metadata table on a cluster.
const (
	keyViewsNext   = "views.next_id"
	keyView        = "view/" // + view id
	keyACL         = "acl/"  // + table id (a view's: its negative id)
	keyUser        = "user/" // + name
	keyUsersImport = "users.import"
	keyFunction    = "function/" // + signature, name(type, ...)
	keyType        = "type/"     // + an enum type's OID
	keyDomain      = "domain/"   // + a domain's OID
	keySchema      = "schema/"   // + a schema's name
	keyComment     = "comment/"  // + CommentKey
	keyDefaultACL  = "defacl/"   // + DefaultACLKey
	keyIndex       = "index/"    // + an index's OID
	keyFollowUps   = "followups" // Tx.FollowUps, when not ""
)

func encode(tx *Tx) (map[string]string, error) {
	rows := maps.Clone(tx.extra)
	if rows == nil {
		rows = map[string]string{}
	}
	put := func(k string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("metadata %s: %w", k, err)
		}
		rows[k] = string(b)
		return nil
	}
	sn := tx.Views.Snapshot()
	if err := put(keyViewsNext, sn.NextID); err != nil {
		return nil, err
	}
	for _, v := range sn.Views {
		if err := put(keyView+strconv.FormatInt(v.ID, 10), v); err != nil {
			return nil, err
		}
	}
	for id, a := range tx.Access.Snapshot() {
		if err := put(keyACL+strconv.FormatInt(id, 10), a); err != nil {
			return nil, err
		}
	}
	for n, e := range tx.Users {
		if err := put(keyUser+n, e); err != nil {
			return nil, err
		}
	}
	if tx.imported.Hash != "" {
		if err := put(keyUsersImport, tx.imported); err != nil {
			return nil, err
		}
	}
	for oid, t := range tx.Types {
		if err := put(keyType+strconv.FormatUint(uint64(oid), 10), t); err != nil {
			return nil, err
		}
	}
	for oid, d := range tx.Domains {
		if err := put(keyDomain+strconv.FormatUint(uint64(oid), 10), d); err != nil {
			return nil, err
		}
	}
	for n, sc := range tx.Schemas {
		if err := put(keySchema+n, sc); err != nil {
			return nil, err
		}
	}
	for sig, f := range tx.Functions {
		if err := put(keyFunction+sig, f); err != nil {
			return nil, err
		}
	}
	for k, text := range tx.Comments {
		if err := put(keyComment+k, text); err != nil {
			return nil, err
		}
	}
	for k, d := range tx.DefaultACLs {
		if err := put(keyDefaultACL+k, d); err != nil {
			return nil, err
		}
	}
	if err := encodeIndexes(rows, tx.Indexes); err != nil {
		return nil, err
	}
	if tx.FollowUps != "" {
		rows[keyFollowUps] = tx.FollowUps
	}
	return rows, nil
}

func decode(rows map[string]string) (*state, error) {
	if rows == nil {
		rows = map[string]string{}
	}
	st := &state{rows: rows, users: map[string]pgwire.UserEntry{}}
	fns := map[string]Function{}
	tys := map[uint32]EnumType{}
	doms := map[uint32]Domain{}
	var sn views.Snapshot
	acls := map[int64]*access.TableACL{}
	for k, v := range rows {
		bad := func(err error) error { return fmt.Errorf("metadata row %q: %v", k, err) }
		switch {
		case k == keyViewsNext:
			if err := json.Unmarshal([]byte(v), &sn.NextID); err != nil {
				return nil, bad(err)
			}
		case k == keyFollowUps:
			st.followUps = v
		case k == keyUsersImport:
			if err := json.Unmarshal([]byte(v), &st.imported); err != nil {
				return nil, bad(err)
			}
		case strings.HasPrefix(k, keyView):
			var vw views.View
			if err := json.Unmarshal([]byte(v), &vw); err != nil {
				return nil, bad(err)
			}
			sn.Views = append(sn.Views, vw)
		case strings.HasPrefix(k, keyACL):
			id, err := strconv.ParseInt(k[len(keyACL):], 10, 64)
			if err != nil {
				return nil, bad(err)
			}
			var a access.TableACL
			if err := json.Unmarshal([]byte(v), &a); err != nil {
				return nil, bad(err)
			}
			acls[id] = &a
		case strings.HasPrefix(k, keyFunction):
			var f Function
			if err := json.Unmarshal([]byte(v), &f); err != nil {
				return nil, bad(err)
			}
			fns[k[len(keyFunction):]] = f
		case strings.HasPrefix(k, keyType):
			var t EnumType
			if err := json.Unmarshal([]byte(v), &t); err != nil {
				return nil, bad(err)
			}
			tys[t.OID] = t
		case strings.HasPrefix(k, keyDomain):
			var d Domain
			if err := json.Unmarshal([]byte(v), &d); err != nil {
				return nil, bad(err)
			}
			doms[d.OID] = d
		case strings.HasPrefix(k, keySchema):
			var sc Schema
			if err := json.Unmarshal([]byte(v), &sc); err != nil {
				return nil, bad(err)
			}
			if st.schemas == nil {
				st.schemas = map[string]Schema{}
			}
			st.schemas[k[len(keySchema):]] = sc
		case strings.HasPrefix(k, keyDefaultACL):
			var d DefaultACL
			if err := json.Unmarshal([]byte(v), &d); err != nil {
				return nil, bad(err)
			}
			if st.defaultACLs == nil {
				st.defaultACLs = map[string]DefaultACL{}
			}
			st.defaultACLs[k[len(keyDefaultACL):]] = d
		case strings.HasPrefix(k, keyIndex):
			if err := decodeIndex(st, v); err != nil {
				return nil, bad(err)
			}
		case strings.HasPrefix(k, keyComment):
			var text string
			if err := json.Unmarshal([]byte(v), &text); err != nil {
				return nil, bad(err)
			}
			if st.comments == nil {
				st.comments = map[string]string{}
			}
			st.comments[k[len(keyComment):]] = text
		case strings.HasPrefix(k, keyUser):
			var e pgwire.UserEntry
			if err := json.Unmarshal([]byte(v), &e); err != nil {
				return nil, bad(err)
			}
			st.users[k[len(keyUser):]] = e
		default:
			if st.extra == nil {
				st.extra = map[string]string{}
			}
			st.extra[k] = v
		}
	}
	vs, err := views.Restore(sn, "metadata")
	if err != nil {
		return nil, err
	}
	st.views, st.acl, st.functions, st.types = vs, access.Restore(acls), newFunctions(fns), newTypes(tys)
	st.domains = newDomains(doms)
	return st, nil
}

// memoryBackend keeps the rows in memory only: Memory's.
type memoryBackend struct {
	mu sync.Mutex
	v  string
}

func (b *memoryBackend) load(context.Context) (map[string]string, string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return nil, b.v, nil
}

func (b *memoryBackend) version(context.Context) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v, nil
}

func (b *memoryBackend) commit(_ context.Context, _ map[string]string, v string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.v = v
	return nil
}

func (*memoryBackend) close() error { return nil }

// List lists the views of a database ("" = every database), sorted by
// name: the current views, for pg_catalog (pgcatalog.ViewLister).
func (m *Store) List(database string) []views.View { return m.Views().List(database) }
