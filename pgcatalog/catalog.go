package pgcatalog

import (
	"context"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
	"github.com/sqlgate/sqlgate/views"
)

// Fixed OIDs. Namespaces, roles, access methods, collations and the
// database use PostgreSQL 15's own OIDs (information_schema's is what
// initdb gave it on PostgreSQL 15), so that queries with those numbers
// spelled out still work.
const (
	nsPgCatalog  = 11
	nsPublic     = 2200
	nsInfoSchema = 13207
	nsToast      = 99

	ownerOID         = 10   // the bootstrap superuser: sqlgate's one user
	dbOwnerRoleOID   = 6171 // pg_database_owner, owner of public in PostgreSQL 15
	amHeap           = 2
	amBtree          = 403
	collDefault      = 100
	collC            = 950
	tablespaceDef    = 1663
	tablespaceGlobal = 1664
	langInternal     = 12
	encodingUTF8     = 6
	classPgClass     = 1259  // pg_description.classoid of relations and columns
	classPgNamespace = 2615  // ... of schemas
	classPgAttrdef   = 2604  // pg_depend.classid of a column default (coldefs.go)
	pgTypeOID        = 1247  // pg_get_expr's relation of a domain's typdefaultbin
	classPgRewrite   = 2618  // pg_depend.classid of a view's rule (views.go)
	classPgExtension = 3079  // ... of extensions
	classPgAm        = 2601  // ... of access methods
	plpgsqlOID       = 13535 // the one extension, plpgsql (its language's handlers are the next three OIDs)
	langPlpgsql      = 13539 // plpgsql's pg_language row
	classPgLanguage  = 2612  // pg_description.classoid of languages
	procOIDBase      = 100000
)

// OIDs of user tables and the objects derived from them. A table's OID is
// 16384 + TableID (as engine/prepare.go's tableOID reports in
// RowDescription); its row type, primary-key index and primary-key
// constraint are the same number plus 1<<22, 2<<22 and 3<<22, so they never
// collide for the first four million tables and survive restarts (TableID
// is persistent).
const (
	firstUserOID = 16384
	oidStride    = 1 << 22
)

// RelationOID is the OID of the table with the given TableID.
func RelationOID(tableID int64) uint32 { return uint32(firstUserOID + tableID) }

func rowTypeOID(tableID int64) uint32      { return RelationOID(tableID) + oidStride }
func pkIndexOID(tableID int64) uint32      { return RelationOID(tableID) + 2*oidStride }
func pkConstraintOID(tableID int64) uint32 { return RelationOID(tableID) + 3*oidStride }

// Options describe the server the catalog reports.
type Options struct {
	// ServerVersion is PostgreSQL's version sqlgate speaks for, e.g. "15.8".
	ServerVersion string
	// Version is sqlgate's own version, e.g. "0.1.0".
	Version string
	// Database is the one database's name; "" = "sqlgate".
	Database string
	// User is the one user's name; "" = access.BootstrapRole.
	User string
	// StartTime is when the server started (pg_postmaster_start_time).
	StartTime time.Time
	// Roles, when set, lists the roles besides User and says who owns
	// each table and what was granted on it; nil: User is the only role
	// and owns everything.
	Roles Roles
	// Comments, when set, keeps COMMENT ON's texts (comments.go); else
	// Roles does when it is a CommentSource.
	Comments CommentSource
	// Views, when set, lists the views (views.go).
	Views ViewLister
	// ViewUpdatability, when set, derives whether a view is automatically
	// updatable, and which of its columns are, from its definition (else
	// the flags stored with it are shown).
	ViewUpdatability func(ctx context.Context, v views.View) (auto bool, cols []bool)
	// Locks, when set, lists the locks pg_locks shows (locks.go).
	Locks LockLister
	// Activity, when set, is the server's session registry
	// (pg_stat_activity, pg_stat_progress_copy; activity.go).
	Activity Activity
	// UDFs, when set, returns the server's UDFs now (Go UDFs and the
	// functions CREATE FUNCTION made), listed in pg_proc (udfprocs.go).
	UDFs func() *udf.Registry
	// EnumTypes, when set, returns the enum types CREATE TYPE made now
	// (enums.go).
	EnumTypes func() []*types.EnumType
	// Domains, when set, returns the domains CREATE DOMAIN made now
	// (domains.go).
	Domains func() []*types.Domain
	// CompositeTypes, when set, returns the composite types CREATE TYPE
	// made now (composites.go).
	CompositeTypes func() []*types.CompositeType
	// Types is the store's registry of user-defined types (its owner's,
	// the engine's): format_type, pg_attribute and information_schema
	// name an enum, domain or composite type from its OID there. Nil
	// knows none.
	Types *types.Registry
}

// Roles is the role and privilege information the catalog shows in
// pg_roles, pg_class.relowner / relacl and pg_tables.tableowner.
type Roles interface {
	// RoleList lists the roles that can log in, sorted by name.
	RoleList() []RoleInfo
	// TableOwner is a table's owner ("" = User, the bootstrap superuser).
	TableOwner(tableID int64) string
	// TableACL is a table's aclitem list (nil = NULL: default privileges).
	TableACL(tableID int64) []string
}

// SchemaOwners is implemented by the Roles that know who owns each
// schema besides public (ALTER SCHEMA ... OWNER TO, CREATE SCHEMA).
type SchemaOwners interface {
	// SchemaOwner is a schema's owner ("" = User).
	SchemaOwner(name string) string
}

// schemaOwner is the name of a schema's owner.
func (c *Catalog) schemaOwner(name string) string {
	if so, ok := c.opts.Roles.(SchemaOwners); ok {
		if o := so.SchemaOwner(name); o != "" {
			return o
		}
	}
	return c.opts.User
}

// RoleInfo is one role.
type RoleInfo struct {
	Name      string
	Superuser bool
	// NoLogin: the role may not log in (rolcanlogin false; not in pg_user).
	NoLogin bool
}

// roleOID is a role's OID: 10 for the bootstrap superuser (User), else a
// hash of the name in a range no table OID reaches, so it is stable
// across restarts.
func (c *Catalog) roleOID(name string) uint32 {
	if name == "" || name == c.opts.User {
		return ownerOID
	}
	for _, p := range predefinedRoles {
		if p.name == name {
			return p.oid // rows.go
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return 1<<31 | h.Sum32()>>1
}

// roles lists every role: User first (the bootstrap superuser), then the
// others.
func (c *Catalog) roles() []RoleInfo {
	out := []RoleInfo{{Name: c.opts.User, Superuser: true}}
	if c.opts.Roles == nil {
		return out
	}
	for _, r := range c.opts.Roles.RoleList() {
		if r.Name != c.opts.User {
			out = append(out, r)
		}
	}
	return out
}

// tableOwner is the name of a table's owner.
// storedTableOwner is a stored table's owner: as Roles records it, else as
// the table names it (fluss.OwnerProperty, written with the table: what
// a table created through another server, or just before a crash, shows
// before its owner's row is recorded).
func (c *Catalog) storedTableOwner(t fluss.TableInfo) string {
	if c.opts.Roles != nil {
		if o := c.opts.Roles.TableOwner(t.TableID); o != "" {
			return o
		}
	}
	if o := t.Descriptor.CustomProperties[fluss.OwnerProperty]; o != "" {
		return o
	}
	return c.opts.User
}

func (c *Catalog) tableOwner(tableID int64) string {
	if c.opts.Roles != nil {
		if o := c.opts.Roles.TableOwner(tableID); o != "" {
			return o
		}
	}
	return c.opts.User
}

// Catalog serves pg_catalog and information_schema relations computed from
// a live fluss.Catalog. It implements engine.VirtualTables and
// functions.CatalogInfo. It holds no mutable state: every scan reads the
// store's catalog afresh.
type Catalog struct {
	store  fluss.Catalog
	opts   Options
	specs  map[string]*relSpec // "schema.name"
	rows   map[string]rowsFunc
	byOID  map[uint32]*relSpec
	types  map[uint32]*typeSpec
	typeBy map[string]*typeSpec
	procs  []procInfo
	// udfProcs caches the UDFs' pg_proc rows by registry (udfprocs.go).
	udfProcs atomic.Pointer[udfProcCache]
	// schemas are the user schemas' OIDs seen (schemas.go).
	schemas schemaNames
}

// New returns the catalog of store.
func New(store fluss.Catalog, opts Options) *Catalog {
	if opts.Database == "" {
		opts.Database = "sqlgate"
	}
	if opts.User == "" {
		opts.User = access.BootstrapRole
	}
	if opts.ServerVersion == "" {
		opts.ServerVersion = "15.8"
	}
	if opts.StartTime.IsZero() {
		opts.StartTime = time.Now()
	}
	c := &Catalog{store: store, opts: opts, specs: map[string]*relSpec{}, byOID: map[uint32]*relSpec{},
		types: map[uint32]*typeSpec{}, typeBy: map[string]*typeSpec{}}
	for i := range relationSpecs {
		s := &relationSpecs[i]
		c.specs[s.schema+"."+s.name] = s
		c.byOID[s.oid] = s
	}
	for i := range pgTypes {
		t := &pgTypes[i]
		c.types[t.oid] = t
		c.typeBy[t.name] = t
	}
	// procs first: the pg_proc generator snapshots them
	c.procs = withOperatorProcs(functionProcs()) // operators.go
	c.rows = c.generators()
	c.withViewRows()
	c.withMatviewRows()      // matviews.go
	c.withPartitionRows()    // pgpartitions.go
	c.withPartitionKeyRows() // pgpartitions.go
	return c
}

// Table implements engine.VirtualTables.
func (c *Catalog) Table(ctx context.Context, schema, name string) (fluss.Table, bool) {
	spec, ok := c.specs[schema+"."+name]
	if !ok {
		return c.sequenceRelation(ctx, schema, name) // seqrelation.go
	}
	t := newVirtualTable(c, spec, c.rows[spec.name])
	t.session, t.hasSession = functions.SessionIn(ctx)
	return t, true
}

// snapshot is the store's catalog as one scan sees it.
type snapshot struct {
	tables []fluss.TableInfo
	// sequences are the store's sequences (coldefs.go).
	sequences []fluss.SequenceInfo
	// schemas are the store's databases (public among them).
	schemas []string
}

func (c *Catalog) snapshot(ctx context.Context) (*snapshot, error) {
	ts, dbs, err := c.allTables(ctx)
	if err != nil {
		return nil, err
	}
	seqs, err := c.listSequences(ctx)
	if err != nil {
		return nil, err
	}
	return &snapshot{tables: ts, sequences: seqs, schemas: dbs}, nil
}

// typeSpec is one pg_type row for a built-in type.
type typeSpec struct {
	oid       uint32
	name      string
	len       int
	byVal     bool
	typtype   string
	category  string
	preferred bool
	elem      uint32
	array     uint32
	align     string
	storage   string
	collation uint32
}

// colType is what pg_attribute says about a column of type t.
type colType struct {
	oid       uint32
	typmod    int32
	len       int
	byVal     bool
	align     string
	storage   string
	collation uint32
	ndims     int
}

func (c *Catalog) colType(t types.T) colType {
	oid, typmod, _ := pgtypes.OIDOf(t)
	ct := colType{oid: oid, typmod: typmod, len: -1, align: "i", storage: "x"}
	if ts, ok := c.types[oid]; ok {
		ct.len, ct.byVal, ct.align, ct.storage, ct.collation = ts.len, ts.byVal, ts.align, ts.storage, ts.collation
	} else if t.Variant == types.Enum { // enums.go
		ct.len, ct.byVal, ct.storage = 4, true, "p"
	}
	if t.Kind == types.Array {
		ct.ndims = 1
	}
	return ct
}

// tableComment is what obj_description shows for a table: its comment, or
// else a summary of its Fluss properties (kind, buckets, bucket key).
func tableComment(t fluss.TableInfo) string {
	if t.Descriptor.Comment != "" {
		return t.Descriptor.Comment
	}
	var b strings.Builder
	if t.HasPrimaryKey() {
		b.WriteString("fluss primary-key table")
	} else {
		b.WriteString("fluss log table")
	}
	n := t.Descriptor.BucketCount
	if n <= 0 {
		n = 1
	}
	if n == 1 {
		b.WriteString(", 1 bucket")
	} else {
		fmt.Fprintf(&b, ", %d buckets", n)
	}
	if t.IsPartitioned() { // each partition's
		fmt.Fprintf(&b, " per partition, partitioned by (%s)", strings.Join(t.Descriptor.PartitionKeys, ", "))
	}
	key := t.Descriptor.BucketKey
	if len(key) == 0 && t.HasPrimaryKey() {
		key = t.Descriptor.Schema.PrimaryKey
	}
	if len(key) > 0 {
		fmt.Fprintf(&b, ", bucket key (%s)", strings.Join(key, ", "))
	}
	if len(t.Descriptor.Properties) > 0 {
		keys := make([]string, 0, len(t.Descriptor.Properties))
		for k := range t.Descriptor.Properties {
			if k != "bucket.num" && k != "bucket.key" { // already said above
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, ", %s=%s", k, t.Descriptor.Properties[k])
		}
	}
	return b.String()
}

// pkAttnums are the attnums of t's primary-key columns, in key order.
func pkAttnums(t fluss.TableInfo) []int {
	var out []int
	for _, name := range t.Descriptor.Schema.PrimaryKey {
		if i := t.ColumnIndex(name); i >= 0 {
			out = append(out, i+1)
		}
	}
	return out
}

func pkName(t fluss.TableInfo) string { return t.PrimaryKeyName() }

func int2s(ns []int) []any {
	out := make([]any, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

func namespaceOID(schema string) uint32 {
	switch schema {
	case pgCatalog:
		return nsPgCatalog
	case infoSchema:
		return nsInfoSchema
	case "pg_toast":
		return nsToast
	case fluss.DefaultDatabase:
		return nsPublic
	}
	return userSchemaOID(schema)
}

func namespaceName(oid uint32) (string, bool) {
	switch oid {
	case nsPgCatalog:
		return pgCatalog, true
	case nsInfoSchema:
		return infoSchema, true
	case nsToast:
		return "pg_toast", true
	case nsPublic:
		return fluss.DefaultDatabase, true
	}
	return "", false
}

// TypeStorage is pg_type.typstorage of a column type ('p' for the
// fixed-length types, 'x' for text, bytea, arrays, ...): ALTER COLUMN SET
// STORAGE and SET COMPRESSION refuse what PostgreSQL refuses for it.
func TypeStorage(t types.T) byte {
	if t.Variant == types.Enum {
		return 'p'
	}
	oid, _, _ := pgtypes.OIDOf(t)
	for i := range pgTypes {
		if pgTypes[i].oid == oid {
			return pgTypes[i].storage[0]
		}
	}
	return 'x'
}

// Types is the store's registry of user-defined types (Options.Types):
// functions.TypesCatalog, for format_type's names of them.
func (c *Catalog) Types() *types.Registry { return c.opts.Types }
