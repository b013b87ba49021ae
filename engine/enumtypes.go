package engine

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// Enum types (CREATE TYPE ... AS ENUM, DROP TYPE, ALTER TYPE ... ADD VALUE
// | RENAME VALUE). A type is a row of the metadata store (meta.EnumType),
// so it persists and a cluster's servers share it; its columns are STRING
// in Fluss, each naming the type by OID in its table's metadata
// (fluss.ColumnMeta.PGType "enum:<oid>"). The engine publishes its types
// to the store's registry (Engine.Types, Registry.PublishEnums), where text input, output names
// and ordering find a type from a value's T.TypeOID.

// typesMeta is the metadata store's enum types (*meta.Store has them).
type typesMeta interface{ Types() *meta.Types }

// publication is the version V of a metadata set (enum types, domains) an
// engine last published to the store's registry (the enums', the domains'), and the OIDs it held
// (Engine.enumsPublished, Engine.domainsPublished).
type publication[V comparable] struct {
	version V
	oids    []uint32
}

// publishSet publishes all, the set of version cur, to a registry of
// types (publish, given the definitions def makes and the OIDs gone since
// the last publication in *last), unless *last already holds cur.
func publishSet[V comparable, M any, D any](last *atomic.Pointer[publication[V]], cur V, all map[uint32]M,
	def func(M) D, publish func(defs []D, gone []uint32)) {
	if isPublished(last, cur) {
		return
	}
	prev := last.Load()
	defs := make([]D, 0, len(all))
	oids := make([]uint32, 0, len(all))
	for oid, m := range all {
		defs = append(defs, def(m))
		oids = append(oids, oid)
	}
	var gone []uint32
	if prev != nil {
		for _, o := range prev.oids {
			if _, still := all[o]; !still {
				gone = append(gone, o)
			}
		}
	}
	publish(defs, gone)
	last.Store(&publication[V]{version: cur, oids: oids})
}

// publishEnumTypes publishes the metadata's enum types to the store's registry
// when they are not the version published last (a restart, or a change
// through another server of a cluster), at the start of each statement
// (refreshMeta): a statement that names no type (a scan of an enum
// column, COPY into one) still finds its labels there. It reports whether
// it published.
func (e *Engine) publishEnumTypes() bool {
	tm, ok := e.meta.(typesMeta)
	if !ok || isPublished(&e.enumsPublished, tm.Types()) {
		return false
	}
	e.enumTypes()
	return true
}

// isPublished reports whether *last holds the version cur: the types of
// a publishSet are those of the metadata now.
func isPublished[V comparable](last *atomic.Pointer[publication[V]], cur V) bool {
	p := last.Load()
	return p != nil && p.version == cur
}

// enumTypes is the current enum types, published to the store's registry.
func (e *Engine) enumTypes() map[uint32]meta.EnumType {
	enums, _ := e.storedTypes()
	return enums
}

// storedTypes publishes the stored enums and composites of the metadata's
// current version to the store's registry, unless published already, and
// returns them apart (nil without a types store).
func (e *Engine) storedTypes() (enums, composites map[uint32]meta.EnumType) {
	tm, ok := e.meta.(typesMeta)
	if !ok {
		return nil, nil
	}
	cur := tm.Types()
	enums, composites = splitTypes(cur.All()) // compositetypes.go
	publishSet(&e.enumsPublished, cur, enums, enumDef, e.typeReg.PublishEnums)
	e.publishComposites(cur, composites, enums)
	return enums, composites
}

// enumDef is the registry's form of a stored type.
func enumDef(t meta.EnumType) *types.EnumType {
	d := &types.EnumType{OID: t.OID, ArrayOID: t.OID + 1, Schema: t.Schema, Name: t.Name, Owner: t.Owner}
	for _, l := range t.Labels {
		d.Labels = append(d.Labels, l.Label)
		d.Sorts = append(d.Sorts, l.Sort)
		d.LabelOIDs = append(d.LabelOIDs, l.OID)
	}
	return d
}

// EnumTypeNamed finds an enum type by schema ("" for the default) and name
// (binder.TypeCatalog).
//
// Type names reach the binder without their schema (sql.ParseTypeName
// drops it), so a name without one is the default schema's type, else the
// one type of that name in another schema (s2.mood names it too).
func (e *Engine) EnumTypeNamed(schema, name string) (types.T, bool) {
	t, ok := namedType(maps.Values(e.enumTypes()), func(t meta.EnumType) (string, string) { return t.Schema, t.Name }, schema, name) // compositetypes.go
	if !ok {
		return types.T{}, false
	}
	return e.typeReg.Bind(types.T{Kind: types.String, Variant: types.Enum, TypeOID: t.OID}), true
}

// Types is the store's registry of user-defined types, where the engine
// publishes its enums, domains and composites.
func (e *Engine) Types() *types.Registry { return e.typeReg }

// Types is binder.TypesCatalog: the registry the engine publishes to.
func (t engineTypes) Types() *types.Registry { return t.e.typeReg }

// Types is binder.TypesCatalog: the registry the engine publishes to.
func (c *recordingCatalog) Types() *types.Registry { return c.tables.Types() }

// engineTypes is binder.TypeCatalog over the engine's types, for the
// statements bound outside a statement's catalog (ALTER TABLE ... ADD
// COLUMN, PREPARE's parameter types).
type engineTypes struct{ e *Engine }

func (t engineTypes) EnumType(schema, name string) (types.T, bool) {
	return t.e.EnumTypeNamed(schema, name)
}

// EnumType is binder.TypeCatalog over the engine's types.
func (c *recordingCatalog) EnumType(schema, name string) (types.T, bool) {
	if c.files == nil {
		return types.T{}, false
	}
	return onTypePath(c.files, schema, name, c.files.eng.EnumTypeNamed) // typepath.go
}

// newTypeOID draws an OID for a new type (and OID+1 for its array type)
// or label: user OIDs start at 16384 in PostgreSQL; these are drawn at
// random from a range far above it, where no table's OIDs (pgcatalog's
// strides) reach.
func newTypeOID(taken map[uint32]meta.EnumType) uint32 {
	for {
		o := uint32(1<<24 + rand.IntN(1<<30)&^1)
		if _, ok := taken[o]; !ok {
			if _, ok := taken[o-1]; !ok {
				return o
			}
		}
	}
}

// enumLabelLimit is NAMEDATALEN - 1: PostgreSQL's longest label, in bytes.
const enumLabelLimit = 63

func checkEnumLabel(l string) error {
	if len(l) > enumLabelLimit {
		return sqlerr.New(sqlerr.Code("42602"), "invalid enum label \"%s\"", l).
			WithDetail("Labels must be %d bytes or less.", enumLabelLimit)
	}
	return nil
}

// execType runs CREATE TYPE ... AS ENUM, DROP TYPE and ALTER TYPE.
func (s *session) execType(ctx context.Context, st *sql.TypeStmt) (pgwire.Result, error) {
	if ds, ok := s.domainTypeStmt(st); ok { // domains.go
		tag := "DROP TYPE"
		if st.Op != sql.DropType {
			tag = "ALTER TYPE"
		}
		return s.runDomain(ctx, ds, tag)
	}
	tag := "ALTER TYPE"
	switch st.Op {
	case sql.CreateEnumType, sql.CreateCompositeType:
		tag = "CREATE TYPE"
	case sql.DropType:
		tag = "DROP TYPE"
	}
	_, stored := s.eng.meta.(typesMeta)
	return s.runTypeDDL(tag, stored, "user-defined types", func() { s.eng.enumTypes() }, func() ([]*sqlerr.Error, error) {
		switch st.Op {
		case sql.CreateEnumType:
			defer s.undoMetaObjects(ctx)() // txundo.go: a ROLLBACK drops it
			return nil, s.createEnum(ctx, st)
		case sql.DropType:
			return s.dropTypes(ctx, st)
		case sql.CreateCompositeType:
			defer s.undoMetaObjects(ctx)()
			return nil, s.createComposite(ctx, st) // compositetypes.go
		case sql.AlterTypeRename, sql.AlterTypeAddAttribute, sql.AlterTypeDropAttribute, sql.AlterTypeRenameAttribute, sql.AlterTypeSetSchema:
			return oneNotice(s.alterComposite(ctx, st))
		}
		return oneNotice(s.alterEnum(ctx, st))
	})
}

// runTypeDDL runs a statement on enum types or domains (tagged tag; what
// names them in the error when stored is false, as the metadata store
// keeps them): refused in a block that forbids DDL, under the engine's
// DDL lock, counted as a catalog change, and followed by publish, which
// republishes the types to the store's registry (even when run fails: a
// failed metadata update changes nothing, publishing again is harmless).
// run makes the change and returns its notices.
func (s *session) runTypeDDL(tag string, stored bool, what string, publish func(), run func() ([]*sqlerr.Error, error)) (pgwire.Result, error) {
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	if !stored {
		return nil, sqlerr.NotSupported(what + " without a metadata store")
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	defer publish()
	notices, err := run()
	if err != nil {
		return nil, metaErr(err)
	}
	if len(notices) > 0 {
		return noticeResult(tag, notices...), nil
	}
	return tagOnly(tag), nil
}

// oneNotice is an ALTER's optional notice as runTypeDDL's list.
func oneNotice(n *sqlerr.Error, err error) ([]*sqlerr.Error, error) {
	if n == nil {
		return nil, err
	}
	return []*sqlerr.Error{n}, err
}

// schemaExists refuses a type's schema that is not a database of the
// store (3F000, as PostgreSQL's missing schema); the default one always
// is.
func (s *session) schemaExists(ctx context.Context, schema string) error {
	if schema == fluss.DefaultDatabase {
		return nil
	}
	dbs, err := s.eng.store.ListDatabases(ctx)
	if err != nil {
		return err
	}
	if !slices.Contains(dbs, schema) {
		return sqlerr.New(sqlerr.Code("3F000"), "schema \"%s\" does not exist", schema)
	}
	return nil
}

// typeSchema is the schema a type name means: the one written, else the
// default.
func typeSchema(n sql.ObjectName) string {
	if n.Schema == "" {
		return fluss.DefaultDatabase
	}
	return n.Schema
}

// findType is the OID of the type schema.name in ts, 0 when none.
func findType(ts map[uint32]meta.EnumType, n sql.ObjectName) uint32 {
	schema := typeSchema(n)
	for oid, t := range ts {
		if t.Name == n.Name && t.Schema == schema {
			return oid
		}
	}
	return 0
}

func (s *session) createEnum(ctx context.Context, st *sql.TypeStmt) error {
	n := st.Names[0]
	seen := map[string]bool{}
	for _, l := range st.Labels {
		if err := checkEnumLabel(l); err != nil {
			return err
		}
		if seen[l] {
			// PostgreSQL's words: pg_enum's unique index refuses the row
			return sqlerr.New(sqlerr.UniqueViolation, "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"")
		}
		seen[l] = true
	}
	if err := s.schemaExists(ctx, typeSchema(n)); err != nil {
		return err
	}
	return s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.Types == nil {
			tx.Types = map[uint32]meta.EnumType{}
		}
		if typeNameTaken(tx, n) { // domains.go
			return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists", n.Name)
		}
		t := meta.EnumType{OID: newTypeOID(tx.Types), Schema: typeSchema(n), Name: n.Name, Owner: s.info.User}
		for i, l := range st.Labels {
			t.Labels = append(t.Labels, meta.EnumLabel{Label: l, Sort: float32(i + 1), OID: newTypeOID(tx.Types)})
		}
		tx.Types[t.OID] = t
		return nil
	})
}

func (s *session) alterEnum(ctx context.Context, st *sql.TypeStmt) (*sqlerr.Error, error) {
	var notice *sqlerr.Error
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		oid := findType(tx.Types, st.Names[0])
		if oid == 0 {
			return sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", st.Names[0].Name)
		}
		t := tx.Types[oid]
		if t.Owner != s.info.User && !s.superuser {
			return mustOwn("type", t.Name)
		}
		labels := append([]meta.EnumLabel(nil), t.Labels...)
		index := func(l string) int {
			for i, x := range labels {
				if x.Label == l {
					return i
				}
			}
			return -1
		}
		switch st.Op {
		case sql.AlterTypeAddValue:
			if err := checkEnumLabel(st.Value); err != nil {
				return err
			}
			if index(st.Value) >= 0 {
				if st.IfNotExists {
					notice = sqlerr.New(sqlerr.DuplicateObject, "enum label \"%s\" already exists, skipping", st.Value)
					return nil
				}
				return sqlerr.New(sqlerr.DuplicateObject, "enum label \"%s\" already exists", st.Value)
			}
			at := len(labels) // the position the new label takes
			if st.Neighbor != "" {
				k := index(st.Neighbor)
				if k < 0 {
					return sqlerr.New(sqlerr.InvalidParameterValue, "\"%s\" is not an existing enum label", st.Neighbor)
				}
				at = k
				if !st.Before {
					at = k + 1
				}
			}
			// the new label's sort order lies between its neighbours'
			// (pg_enum.enumsortorder is a float4, as PostgreSQL's)
			var sort float32
			switch {
			case len(labels) == 0:
				sort = 1
			case at == len(labels):
				sort = labels[at-1].Sort + 1
			case at == 0:
				sort = labels[0].Sort - 1
			default:
				sort = (labels[at-1].Sort + labels[at].Sort) / 2
			}
			l := meta.EnumLabel{Label: st.Value, Sort: sort, OID: newTypeOID(tx.Types)}
			labels = append(labels[:at], append([]meta.EnumLabel{l}, labels[at:]...)...)
		case sql.AlterTypeRenameValue:
			k := index(st.Value)
			if k < 0 {
				return sqlerr.New(sqlerr.InvalidParameterValue, "\"%s\" is not an existing enum label", st.Value)
			}
			if index(st.NewValue) >= 0 {
				return sqlerr.New(sqlerr.DuplicateObject, "enum label \"%s\" already exists", st.NewValue)
			}
			if err := checkEnumLabel(st.NewValue); err != nil {
				return err
			}
			used, err := s.enumColumns(ctx, oid)
			if err != nil {
				return err
			}
			if len(used) > 0 {
				// the stored values are the labels: renaming one would
				// have to rewrite every row that holds it
				return sqlerr.NotSupported(fmt.Sprintf("ALTER TYPE ... RENAME VALUE of a type that columns use (%s)", used[0]))
			}
			labels[k].Label = st.NewValue
		}
		t.Labels = labels
		tx.Types[oid] = t
		return nil
	})
	return notice, err
}

// enumColumns names the columns whose type is the enum oid (or an array
// of it), as PostgreSQL's dependency messages do: "column c of table t".
func (s *session) enumColumns(ctx context.Context, oid uint32) ([]string, error) {
	ts, err := s.userTables(ctx)
	if err != nil {
		return nil, err
	}
	want := EnumPGType(oid)
	var out []string
	for _, t := range ts {
		m := fluss.MetaOf(t.Descriptor)
		for i, c := range t.Descriptor.Schema.Columns {
			if pg := m.Column(i).PGType; pg == want || pg == want+"[]" {
				name := t.Path.Table
				if t.Path.Database != fluss.DefaultDatabase {
					name = t.Path.Database + "." + name
				}
				out = append(out, fmt.Sprintf("column %s of table %s", c.Name, name))
			}
		}
	}
	return out, nil
}

// EnumPGType is the PGType a column of the enum oid records
// (fluss.ColumnMeta.PGType).
func EnumPGType(oid uint32) string { return "enum:" + strconv.FormatUint(uint64(oid), 10) }

func (s *session) dropTypes(ctx context.Context, st *sql.TypeStmt) ([]*sqlerr.Error, error) {
	var notices []*sqlerr.Error
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		var drop []uint32
		// the types the statement drops: one's attributes using another
		// go with it, as PostgreSQL drops the set together
		dropping := map[uint32]bool{}
		for _, n := range st.Names {
			if oid := findType(tx.Types, n); oid != 0 {
				dropping[oid] = true
			}
		}
		for _, n := range st.Names {
			oid := findType(tx.Types, n)
			if oid == 0 {
				if st.IfExists {
					notices = append(notices, s.skippedNamed(ctx, "type", n.Schema, qualifiedText(n.Schema, n.Name)))
					continue
				}
				if s.tableNamed(ctx, n) { // compositetypes.go: a table's row type
					return sqlerr.New(sqlerr.Code("2BP01"), "cannot drop type %s because table %s requires it", n.Name, n.Name).
						WithHint("You can drop table %s instead.", n.Name)
				}
				return s.typeMissing(ctx, n)
			}
			t := tx.Types[oid]
			if t.Owner != s.info.User && !s.superuser {
				return mustOwn("type", t.Name)
			}
			used, err := s.enumColumns(ctx, oid)
			if err != nil {
				return err
			}
			attrs := compositeUsers(tx.Types, oid, dropping) // compositetypes.go
			if len(used) == 0 && len(attrs) > 0 && st.Cascade {
				// only composites' attributes use it: they go with it
				notices = append(notices, dropUserAttrs(tx.Types, oid, attrs))
			}
			if !st.Cascade {
				used = append(used, attrs...)
			}
			if len(used) > 0 {
				if st.Cascade {
					// PostgreSQL drops the columns; a Fluss table cannot
					// lose a column
					return sqlerr.NotSupported(fmt.Sprintf("DROP TYPE ... CASCADE of a type columns use (%s)", used[0]))
				}
				e := sqlerr.New(sqlerr.Code("2BP01"), "cannot drop type %s because other objects depend on it", t.Name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
				return e.WithDetail("%s", strings.Join(dependsOn(used, t.Name), "\n"))
			}
			drop = append(drop, oid)
		}
		for _, oid := range drop {
			delete(tx.Types, oid)
			delete(tx.Comments, meta.CommentKey(meta.CommentType, strconv.FormatUint(uint64(oid), 10)))
		}
		return nil
	})
	return notices, err
}

// dependsOn words PostgreSQL's dependency detail lines.
func dependsOn(used []string, typ string) []string {
	out := make([]string, len(used))
	for i, u := range used {
		out[i] = u + " depends on type " + typ
	}
	return out
}

// EnumTypeDefs lists the enum types now, sorted by OID
// (pgcatalog.Options.EnumTypes).
func (e *Engine) EnumTypeDefs() []*types.EnumType {
	all := e.enumTypes()
	out := make([]*types.EnumType, 0, len(all))
	for oid := range all {
		if d := e.typeReg.Enum(oid); d != nil { // the published one, whose T knows the registry
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *types.EnumType) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// typesIn is the enum and composite types of schema, sorted by name.
func (e *Engine) typesIn(schema string) []meta.EnumType {
	var out []meta.EnumType
	for _, t := range e.typesNow() { // compositetypes.go
		if t.Schema == schema {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b meta.EnumType) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// schemaTypesOnlyInside refuses DROP SCHEMA of a schema whose enum types
// columns of tables outside it use: PostgreSQL refuses it without CASCADE
// (the columns depend on the types) and with CASCADE drops the columns,
// which a Fluss table cannot lose (as DROP TYPE ... CASCADE, dropTypes).
func (s *session) schemaTypesOnlyInside(ctx context.Context, schema string, typs []meta.EnumType) error {
	for _, t := range typs {
		used, err := s.enumColumns(ctx, t.OID)
		if err != nil {
			return err
		}
		for _, u := range used {
			if !columnInSchema(u, schema) {
				return sqlerr.NotSupported(fmt.Sprintf("DROP SCHEMA %s with type %s.%s, which %s uses", schema, schema, t.Name, u))
			}
		}
	}
	return nil
}

// columnInSchema reports whether the enumColumns entry u ("column c of
// table [schema.]t") is a column of a table of schema.
func columnInSchema(u, schema string) bool {
	_, table, _ := strings.Cut(u, " of table ")
	if schema == fluss.DefaultDatabase {
		return !strings.Contains(table, ".")
	}
	return strings.HasPrefix(table, schema+".")
}

// schemaObjects names the objects in schema as PostgreSQL's dependency
// messages do ("type s.x", "table s.t", "view s.v"): PostgreSQL lists
// them in the order it created them; here the types come first, then the
// tables and views, each by name.
func schemaObjects(schema string, typs []meta.EnumType, tables []fluss.TableInfo, vs []views.View, seqs []fluss.SequenceInfo) []string {
	var out []string
	for _, t := range typs {
		out = append(out, "type "+schema+"."+t.Name)
	}
	var rels []string
	for _, t := range tables {
		rels = append(rels, "table "+schema+"."+t.Path.Table)
	}
	for _, v := range vs {
		rels = append(rels, "view "+schema+"."+v.Path.Table)
	}
	for _, q := range seqs {
		rels = append(rels, "sequence "+schema+"."+q.Path.Table)
	}
	slices.SortFunc(rels, func(a, b string) int {
		_, an, _ := strings.Cut(a, " ")
		_, bn, _ := strings.Cut(b, " ")
		return cmp.Compare(an, bn)
	})
	return append(out, rels...)
}

// schemaNotEmpty is DROP SCHEMA's error for a schema holding enum types
// (and maybe tables and views).
func schemaNotEmpty(schema string, objs []string) *sqlerr.Error {
	lines := make([]string, len(objs))
	for i, o := range objs {
		lines[i] = o + " depends on schema " + schema
	}
	return fluss.DatabaseNotEmpty(schema, nil).WithDetail("%s", strings.Join(lines, "\n"))
}

// schemaCascadeNotice is the NOTICE of DROP SCHEMA ... CASCADE that took
// the objects objs (at least one).
func schemaCascadeNotice(objs []string) *sqlerr.Error {
	if len(objs) == 1 {
		return sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to %s", objs[0])
	}
	lines := make([]string, len(objs))
	for i, o := range objs {
		lines[i] = "drop cascades to " + o
	}
	return sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to %d other objects", len(objs)).
		WithDetail("%s", strings.Join(lines, "\n"))
}
