package engine

import (
	"cmp"
	"context"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Composite types (CREATE TYPE name AS (f type, ...), ALTER TYPE ...
// RENAME TO | ADD ATTRIBUTE | DROP ATTRIBUTE | RENAME ATTRIBUTE, DROP
// TYPE). A composite is a row of the metadata store beside the enums
// (meta.EnumType with Composite set), so that the two share one namespace
// and persist alike; its attributes keep their types' SQL spelling, which
// publishing resolves. The engine publishes the composites to types'
// registry (Engine.Types, Registry.PublishComposites) with the enums (enumTypes), where
// casts, text input and output names find a composite from its OID.
//
// A composite is a value type only: a table column of one is refused
// (binder.refuseCompositeColumn), since a Fluss ROW column would keep
// neither the type's name nor follow its ALTERs. So no stored data ever
// depends on a composite, and every ALTER TYPE on one is a catalog change.

// isComposite reports whether a stored type is a composite, not an enum.
func isComposite(t meta.EnumType) bool { return t.Composite }

// splitTypes is the stored types' enums and composites.
func splitTypes(all map[uint32]meta.EnumType) (enums, composites map[uint32]meta.EnumType) {
	enums, composites = map[uint32]meta.EnumType{}, map[uint32]meta.EnumType{}
	for oid, t := range all {
		if isComposite(t) {
			composites[oid] = t
		} else {
			enums[oid] = t
		}
	}
	return enums, composites
}

// publishComposites publishes the composites of version cur (all) to
// the store's registry, unless that version is published already; enums are
// that version's enum types, which attributes may name.
func (e *Engine) publishComposites(cur *meta.Types, all, enums map[uint32]meta.EnumType) {
	r := &attrResolver{enums: enums, composites: all, defs: map[uint32]*types.CompositeType{}}
	publishSet(&e.compositesPublished, cur, all, r.def, e.typeReg.PublishComposites)
}

// attrResolver makes the registry's definitions of one version's
// composites, resolving attribute types against that version's enums and
// composites alone (the engine's lookups would publish again).
type attrResolver struct {
	enums, composites map[uint32]meta.EnumType
	defs              map[uint32]*types.CompositeType
	// self is the composite whose attributes are being resolved, which
	// no attribute may name (directly).
	self uint32
}

// def is the registry's form of a stored composite: its attributes' types
// resolved (an attribute whose type is gone, or that would nest the type
// in itself, reads as text, as an enum column whose type is gone does).
func (r *attrResolver) def(t meta.EnumType) *types.CompositeType {
	if d, ok := r.defs[t.OID]; ok {
		return d
	}
	d := &types.CompositeType{OID: t.OID, ArrayOID: t.OID + 1, RelOID: t.RelOID, Schema: t.Schema, Name: t.Name}
	r.defs[t.OID] = d // a cycle meets this one, still without fields
	for _, a := range t.Attrs {
		ft, err := r.attrType(a.Type, t.OID)
		if err != nil {
			ft = types.StringType
		}
		d.Fields = append(d.Fields, types.Field{Name: a.Name, Type: ft})
	}
	return d
}

// attrType resolves an attribute's type text for composite self.
func (r *attrResolver) attrType(text string, self uint32) (types.T, error) {
	prev := r.self
	r.self = self
	defer func() { r.self = prev }()
	return binder.CompositeAttrType(text, r)
}

// EnumType is binder.TypeCatalog over the version's enums.
func (r *attrResolver) EnumType(schema, name string) (types.T, bool) {
	if oid, ok := storedTypeNamed(r.enums, schema, name); ok {
		return types.T{Kind: types.String, Variant: types.Enum, TypeOID: oid}, true
	}
	return types.T{}, false
}

// CompositeType is binder.CompositeCatalog over the version's composites.
func (r *attrResolver) CompositeType(schema, name string) (*types.CompositeType, bool) {
	oid, ok := storedTypeNamed(r.composites, schema, name)
	if !ok || oid == r.self {
		return nil, false
	}
	return r.def(r.composites[oid]), true
}

// storedTypeNamed finds a stored type by schema ("" for the default) and
// name, by namedType's rule.
func storedTypeNamed(ts map[uint32]meta.EnumType, schema, name string) (uint32, bool) {
	t, ok := namedType(maps.Values(ts), func(t meta.EnumType) (string, string) { return t.Schema, t.Name }, schema, name)
	return t.OID, ok
}

// namedType finds among all the type a possibly schema-qualified name
// names (at gives a type's schema and name): the one in schema or, for an
// unqualified name, the default schema's, else the only one of that name
// in any schema. Enums, domains and composite types are looked up alike.
func namedType[T any](all iter.Seq[T], at func(T) (schema, name string), schema, name string) (T, bool) {
	var only T
	found := 0
	for t := range all {
		s, n := at(t)
		if n != name {
			continue
		}
		if s == schema || schema == "" && s == fluss.DefaultDatabase {
			return t, true
		}
		only = t
		found++
	}
	if schema == "" && found == 1 {
		return only, true
	}
	var none T
	return none, false
}

// CompositeType is binder.CompositeCatalog over the engine's types.
func (t engineTypes) CompositeType(schema, name string) (*types.CompositeType, bool) {
	return t.e.CompositeTypeNamed(schema, name)
}

// CompositeType is binder.CompositeCatalog over the engine's types.
func (c *recordingCatalog) CompositeType(schema, name string) (*types.CompositeType, bool) {
	if c.files == nil {
		return nil, false
	}
	return onTypePath(c.files, schema, name, c.files.eng.CompositeTypeNamed) // typepath.go
}

// CompositeTypeNamed finds a composite type by schema ("" for the
// default) and name, as EnumTypeNamed finds an enum.
func (e *Engine) CompositeTypeNamed(schema, name string) (*types.CompositeType, bool) {
	_, all := e.storedTypes() // enumtypes.go
	oid, ok := storedTypeNamed(all, schema, name)
	if !ok {
		return nil, false
	}
	d := e.typeReg.Composite(oid)
	return d, d != nil
}

// CompositeTypeDefs lists the composite types now, sorted by OID
// (pgcatalog.Options.CompositeTypes).
func (e *Engine) CompositeTypeDefs() []*types.CompositeType {
	_, all := e.storedTypes() // enumtypes.go
	out := make([]*types.CompositeType, 0, len(all))
	for oid := range all {
		if d := e.typeReg.Composite(oid); d != nil {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *types.CompositeType) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// checkAttrs refuses a composite's attribute list PostgreSQL refuses: a
// name twice (42701), a type that does not exist (42704) or that is the
// composite self itself. ts are the stored types the list may name.
func checkAttrs(ts map[uint32]meta.EnumType, attrs []meta.CompositeAttr, self uint32) error {
	enums, composites := splitTypes(ts)
	r := &attrResolver{enums: enums, composites: composites, defs: map[uint32]*types.CompositeType{}}
	seen := map[string]bool{}
	for _, a := range attrs {
		if seen[a.Name] {
			return sqlerr.New(sqlerr.Code("42701"), "column \"%s\" specified more than once", a.Name)
		}
		seen[a.Name] = true
		if _, err := r.attrType(a.Type, self); err != nil {
			return err
		}
	}
	return nil
}

// tableNamed reports whether a table of that name is in schema: its row
// type has the name.
func (s *session) tableNamed(ctx context.Context, n sql.ObjectName) bool {
	_, err := s.eng.storeTable(ctx, fluss.TablePath{Database: typeSchema(n), Table: n.Name})
	return err == nil
}

func (s *session) createComposite(ctx context.Context, st *sql.TypeStmt) error {
	n := st.Names[0]
	if err := s.schemaExists(ctx, typeSchema(n)); err != nil {
		return err
	}
	attrs := make([]meta.CompositeAttr, len(st.Attrs))
	for i, a := range st.Attrs {
		attrs[i] = meta.CompositeAttr{Name: a.Name, Type: a.Type}
	}
	if err := checkAttrs(s.eng.typesNow(), attrs, 0); err != nil {
		return err
	}
	if s.tableNamed(ctx, n) {
		return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists", n.Name)
	}
	return s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.Types == nil {
			tx.Types = map[uint32]meta.EnumType{}
		}
		if typeNameTaken(tx, n) { // domains.go
			return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists", n.Name)
		}
		t := meta.EnumType{OID: newTypeOID(tx.Types), Schema: typeSchema(n), Name: n.Name, Owner: s.info.User,
			Composite: true, Attrs: attrs}
		tx.Types[t.OID] = t
		t.RelOID = newTypeOID(tx.Types)
		tx.Types[t.OID] = t
		return nil
	})
}

// alterComposite runs ALTER TYPE ... RENAME TO | ADD ATTRIBUTE | DROP
// ATTRIBUTE | RENAME ATTRIBUTE on a composite (or RENAME TO on an enum).
func (s *session) alterComposite(ctx context.Context, st *sql.TypeStmt) (*sqlerr.Error, error) {
	var notice *sqlerr.Error
	n := st.Names[0]
	if st.Op == sql.AlterTypeRename && s.tableNamed(ctx, sql.ObjectName{Schema: n.Schema, Name: st.NewValue}) {
		return nil, sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists in schema \"%s\"", st.NewValue, typeSchema(n))
	}
	var rename typeRename
	var edits []tableEdit
	if st.Op == sql.AlterTypeSetSchema {
		if err := s.schemaExists(ctx, st.NewValue); err != nil {
			return nil, err
		}
		if st.NewValue != typeSchema(n) && s.tableNamed(ctx, sql.ObjectName{Schema: st.NewValue, Name: n.Name}) {
			return nil, sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists in schema \"%s\"", n.Name, st.NewValue)
		}
	}
	if st.Op == sql.AlterTypeRename || st.Op == sql.AlterTypeSetSchema {
		if st.Op == sql.AlterTypeRename {
			rename = s.eng.newTypeRename(typeSchema(n), n.Name, st.NewValue)
		} else {
			rename = s.eng.newTypeRename(typeSchema(n), n.Name, n.Name)
			rename.toSchema = st.NewValue
		}
		var err error
		if edits, err = s.typeRenameTables(ctx, rename); err != nil { // typerename.go
			return nil, err
		}
	}
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		oid := findType(tx.Types, n)
		if oid == 0 && s.tableNamed(ctx, n) {
			return tableRowTypeAlter(st)
		}
		if oid == 0 {
			return sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", n.Name)
		}
		t := tx.Types[oid]
		if t.Owner != s.info.User && !s.superuser {
			return mustOwn("type", t.Name)
		}
		if st.Op == sql.AlterTypeSetSchema {
			if t.Schema == st.NewValue {
				return nil // PostgreSQL: nothing to do
			}
			if typeNameTaken(tx, sql.ObjectName{Schema: st.NewValue, Name: t.Name}) {
				return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists in schema \"%s\"", t.Name, st.NewValue)
			}
			t.Schema = st.NewValue
			tx.Types[oid] = t
			if err := rename.inMeta(tx); err != nil {
				return err
			}
			return recordTableEdits(tx, edits) // typerename.go
		}
		if st.Op == sql.AlterTypeRename {
			to := sql.ObjectName{Schema: n.Schema, Name: st.NewValue}
			if typeNameTaken(tx, to) {
				return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists in schema \"%s\"", st.NewValue, typeSchema(n))
			}
			renameAttrTypes(tx.Types, t.Name, st.NewValue)
			t = tx.Types[oid]
			t.Name = st.NewValue
			tx.Types[oid] = t
			if err := rename.inMeta(tx); err != nil {
				return err
			}
			return recordTableEdits(tx, edits) // typerename.go
		}
		if !t.Composite {
			return sqlerr.New(sqlerr.WrongObjectType, "%s is not a composite type", t.Name)
		}
		attrs := slices.Clone(t.Attrs)
		index := func(name string) int {
			return slices.IndexFunc(attrs, func(a meta.CompositeAttr) bool { return a.Name == name })
		}
		noAttr := func(name string) *sqlerr.Error {
			return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
		}
		switch st.Op {
		case sql.AlterTypeAddAttribute:
			a := meta.CompositeAttr{Name: st.Attrs[0].Name, Type: st.Attrs[0].Type}
			if index(a.Name) >= 0 {
				return sqlerr.New(sqlerr.Code("42701"), "column \"%s\" of relation \"%s\" already exists", a.Name, t.Name)
			}
			if err := refuseSelfMember(tx.Types, t, a.Type); err != nil {
				return err
			}
			attrs = append(attrs, a)
		case sql.AlterTypeDropAttribute:
			k := index(st.Value)
			if k < 0 {
				if st.IfExists {
					notice = sqlerr.New(sqlerr.SuccessfulCompletion, "column \"%s\" of relation \"%s\" does not exist, skipping", st.Value, t.Name)
					return nil
				}
				return noAttr(st.Value)
			}
			attrs = slices.Delete(attrs, k, k+1)
		case sql.AlterTypeRenameAttribute:
			k := index(st.Value)
			if k < 0 {
				return noAttr(st.Value)
			}
			if index(st.NewValue) >= 0 {
				return sqlerr.New(sqlerr.Code("42701"), "column \"%s\" of relation \"%s\" already exists", st.NewValue, t.Name)
			}
			attrs[k].Name = st.NewValue
		}
		if err := checkAttrs(tx.Types, attrs, oid); err != nil {
			return err
		}
		t.Attrs = attrs
		tx.Types[oid] = t
		return nil
	})
	if err == nil {
		err = s.followTableEdits(ctx, edits)
	}
	return notice, err
}

// compositeUsers names the composites whose attributes have the type oid
// (PostgreSQL's "column f of composite type x"), which DROP TYPE refuses
// to take without CASCADE; the composites of dropping (the statement's
// other types) are not counted.
func compositeUsers(ts map[uint32]meta.EnumType, oid uint32, dropping map[uint32]bool) []string {
	name := ts[oid].Name
	var out []string
	for _, t := range ts {
		if !t.Composite || t.OID == oid || dropping[t.OID] {
			continue
		}
		for _, a := range t.Attrs {
			if attrNames(a, name) {
				out = append(out, "column "+a.Name+" of composite type "+t.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// typesNow is the stored types (enums and composites) now.
func (e *Engine) typesNow() map[uint32]meta.EnumType {
	if tm, ok := e.meta.(typesMeta); ok {
		return tm.Types().All()
	}
	return nil
}

// dropUserAttrs drops the attributes (compositeUsers' list, users) of the
// composites in ts whose type is oid, as DROP TYPE ... CASCADE does, and
// is its NOTICE ("drop cascades to column f of composite type x").
func dropUserAttrs(ts map[uint32]meta.EnumType, oid uint32, users []string) *sqlerr.Error {
	name := ts[oid].Name
	for o, t := range ts {
		if !t.Composite || o == oid {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(t.Attrs), func(a meta.CompositeAttr) bool { return attrNames(a, name) })
		if len(kept) != len(t.Attrs) {
			t.Attrs = kept
			ts[o] = t
		}
	}
	return schemaCascadeNotice(users) // enumtypes.go's wording
}

// attrNames reports whether attribute a's type is the type name, or an
// array of it.
func attrNames(a meta.CompositeAttr, name string) bool {
	_, ok := attrArrayDepth(a, name)
	return ok
}

// attrArrayDepth reports whether attribute a's type is the type name or
// an array of it, and how many array levels deep.
func attrArrayDepth(a meta.CompositeAttr, name string) (int, bool) {
	tn, err := sql.ParseTypeName(a.Type)
	if err != nil {
		return 0, false
	}
	depth := 0
	for tn.Elem != nil && tn.Name == "array" {
		tn = tn.Elem
		depth++
	}
	return depth, tn.Name == name
}

// renameAttrTypes makes the attributes of the composites in ts that have
// the type renamed from old to new (or arrays of it) name it by its new
// name: an attribute names its type, so a rename must follow it
// (PostgreSQL's attributes hold the type's OID, which a rename keeps).
func renameAttrTypes(ts map[uint32]meta.EnumType, old, new string) {
	for oid, t := range ts {
		if !t.Composite {
			continue
		}
		var attrs []meta.CompositeAttr
		for i, a := range t.Attrs {
			depth, ok := attrArrayDepth(a, old)
			if !ok {
				continue
			}
			if attrs == nil {
				attrs = slices.Clone(t.Attrs)
			}
			attrs[i].Type = quoteIdent(new) + strings.Repeat("[]", depth)
		}
		if attrs != nil {
			t.Attrs = attrs
			ts[oid] = t
		}
	}
}

// refuseSelfMember is ALTER TYPE ... ADD ATTRIBUTE's 42P16 when an
// attribute of type text would make composite t contain itself: text is
// t, an array of it, or a composite that contains it through its own
// attributes (PostgreSQL's CheckAttributeType).
func refuseSelfMember(ts map[uint32]meta.EnumType, t meta.EnumType, text string) error {
	enums, composites := splitTypes(ts)
	r := &attrResolver{enums: enums, composites: composites, defs: map[uint32]*types.CompositeType{}}
	at, err := binder.CompositeAttrType(text, r)
	if err != nil {
		return nil // checkAttrs reports the type
	}
	if containsComposite(at, t.OID) {
		return sqlerr.New(sqlerr.InvalidTableDefinition, "composite type %s cannot be made a member of itself", t.Name)
	}
	return nil
}

// containsComposite reports whether x is the composite oid or holds it in
// its fields or elements.
func containsComposite(x types.T, oid uint32) bool {
	if x.IsComposite() && x.TypeOID == oid {
		return true
	}
	if x.Kind == types.Array && x.Elem != nil {
		return containsComposite(*x.Elem, oid)
	}
	for _, f := range x.Fields {
		if containsComposite(f.Type, oid) {
			return true
		}
	}
	return false
}

// tableRowTypeAlter is ALTER TYPE's refusal of a table's row type, as
// PostgreSQL words each: a table is altered by ALTER TABLE.
func tableRowTypeAlter(st *sql.TypeStmt) error {
	name := st.Names[0].Name
	switch st.Op {
	case sql.AlterTypeRename:
		return sqlerr.New(sqlerr.WrongObjectType, "%s is a table's row type", name).WithHint("Use ALTER TABLE instead.")
	case sql.AlterTypeRenameAttribute:
		// PostgreSQL renames the table's column; sqlgate's ALTER TABLE
		// ... RENAME COLUMN does that
		return sqlerr.NotSupported("ALTER TYPE ... RENAME ATTRIBUTE of a table's row type (use ALTER TABLE ... RENAME COLUMN)")
	}
	return sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a composite type", name)
}

// signatureTypes are the types a function's parameters and result may
// name: engineTypes' and, as in PostgreSQL (where every table has a row
// type in pg_type), a table's row type by the table's name. Tables are
// looked up last: a CREATE TYPE composite of the name is found first, as
// pg_type's names are unique per schema.
type signatureTypes struct{ engineTypes }

// CompositeType is binder.CompositeCatalog over the engine's composite
// types and its tables' row types.
func (t signatureTypes) CompositeType(schema, name string) (*types.CompositeType, bool) {
	if c, ok := t.e.CompositeTypeNamed(schema, name); ok {
		return c, true
	}
	if schema == "" {
		schema = fluss.DefaultDatabase
	}
	// the registry's build (UDFs) and CREATE FUNCTION's checks resolve
	// signatures without a statement's context; the table's metadata is
	// the store's catalog, read without waiting on data
	info, err := t.e.storeTable(context.Background(), fluss.TablePath{Database: schema, Table: name})
	if err != nil || info.TableID <= 0 {
		return nil, false
	}
	cols := info.Descriptor.Schema.Columns
	fs := make([]types.Field, len(cols))
	for i, c := range cols {
		fs[i] = types.Field{Name: c.Name, Type: c.Type}
	}
	return t.e.typeReg.PublishComposite(types.TableRowType(info.TableID, info.Path.Database, info.Path.Table, fs)), true
}
