package engine

import (
	"context"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// COMMENT ON VIEW | MATERIALIZED VIEW | SEQUENCE | TYPE | DOMAIN | INDEX |
// SCHEMA | ROLE | CONSTRAINT c ON t | FUNCTION: the text is kept in the
// metadata store by meta.CommentKey (a function's in its own row), one
// Update per statement, and shown by pgcatalog in pg_description and
// pg_shdescription. As in PostgreSQL, the object must exist and be of the
// kind named (42809 otherwise), and only its owner or a superuser may
// comment on it (a role: a superuser, sqlgate's only CREATEROLE roles).
// IS NULL and IS '' remove the comment.

// commentOnObject runs COMMENT ON an object other than a table or column.
func (s *session) commentOnObject(ctx context.Context, d *sql.DDLStmt) error {
	text := ""
	if d.Comment != nil {
		text = *d.Comment
	}
	if d.CommentObject == "FUNCTION" {
		return s.commentOnFunction(ctx, d.Function, text)
	}
	s.eng.catalog.Add(1)
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		key, owner, kind, name, err := s.commentTarget(ctx, tx, d)
		if err != nil {
			return err
		}
		if !s.superuser && (owner != s.info.User || s.info.User == "") {
			if kind == "role" {
				return sqlerr.New(sqlerr.InsufficientPrivilege, "must have CREATEROLE privilege")
			}
			return mustOwn(kind, name)
		}
		if tx.Comments == nil {
			tx.Comments = map[string]string{}
		}
		switch {
		case text != "":
			tx.Comments[key] = text
		case key == meta.CommentKey(meta.CommentSchema, fluss.DefaultDatabase):
			tx.Comments[key] = "" // hides PostgreSQL's built-in "standard public schema"
		default:
			delete(tx.Comments, key)
		}
		return nil
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}

// commentTarget finds the object a COMMENT ON names: its comment key, its
// owner (for the privilege check), and PostgreSQL's word and name for it
// in errors.
func (s *session) commentTarget(ctx context.Context, tx *meta.Tx, d *sql.DDLStmt) (key, owner, kind, name string, err error) {
	switch d.CommentObject {
	case "SCHEMA":
		name = d.Names[0]
		if err := s.schemaExists(ctx, name); err != nil { // enumtypes.go
			return "", "", "", "", err
		}
		owner = tx.Schemas[name].Owner // "": the bootstrap superuser's
		return meta.CommentKey(meta.CommentSchema, name), owner, "schema", name, nil
	case "ROLE":
		name = d.Names[0]
		if _, known := tx.Users[name]; !known && name != s.info.User {
			return "", "", "", "", sqlerr.UndefinedRole(name)
		}
		return meta.CommentKey(meta.CommentRole, name), "", "role", name, nil
	case "TYPE", "DOMAIN":
		n := d.Table
		domains, enums := tx.Domains, tx.Types
		if oid := findDomain(domains, n); oid != 0 {
			dm := domains[oid]
			return meta.CommentKey(meta.CommentDomain, strconv.FormatUint(uint64(oid), 10)), dm.Owner, "type", dm.Name, nil
		}
		if oid := findType(enums, n); oid != 0 {
			t := enums[oid]
			if d.CommentObject == "DOMAIN" {
				return "", "", "", "", notA("domain", t.Name)
			}
			return meta.CommentKey(meta.CommentType, strconv.FormatUint(uint64(oid), 10)), t.Owner, "type", t.Name, nil
		}
		return "", "", "", "", sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", n.Name)
	case "SEQUENCE":
		path := sequencePath(d.Table)
		q, err := s.sequenceStore()
		if err != nil {
			return "", "", "", "", err
		}
		info, err := q.GetSequence(ctx, path)
		if err != nil {
			if sqlerr.CodeOf(err) == sqlerr.UndefinedTable && s.relationAtPath(ctx, path) {
				return "", "", "", "", notA("sequence", path.Table)
			}
			return "", "", "", "", err
		}
		return meta.CommentKey(meta.CommentSequence, strconv.FormatInt(info.ID, 10)), info.Def.Owner, "sequence", path.Table, nil
	case "VIEW", "MATERIALIZED VIEW":
		path, err := s.resolvePath(ctx, d.Table)
		if err != nil {
			return "", "", "", "", err
		}
		want := strings.ToLower(d.CommentObject)
		v, ok := s.eng.meta.Views().Get(path)
		if !ok || v.Materialized() != (d.CommentObject == "MATERIALIZED VIEW") {
			if ok || s.relationAtPath(ctx, path) {
				return "", "", "", "", notA(want, path.Table)
			}
			return "", "", "", "", sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", path.Table)
		}
		return meta.CommentKey(meta.CommentView, strconv.FormatInt(v.ID, 10)), s.eng.meta.Access().Owner(v.ACLKey()), want, path.Table, nil
	case "CONSTRAINT":
		info, err := s.resolveTable(ctx, d.Table)
		if err != nil {
			return "", "", "", "", err
		}
		s.eng.meta.AdoptOwner(info)
		if !binder.ConstraintNames(info.Path.Table, fluss.MetaOf(info.Descriptor), info.HasPrimaryKey())[d.Column] || isUniqueIndex(info, d.Column) {
			return "", "", "", "", sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" for table \"%s\" does not exist", d.Column, info.Path.Table)
		}
		key = meta.CommentKey(meta.CommentConstraint, strconv.FormatInt(info.TableID, 10), d.Column)
		return key, s.eng.meta.Access().Owner(info.TableID), "table", info.Path.Table, nil
	case "INDEX":
		return s.indexCommentTarget(ctx, d.Table)
	}
	return "", "", "", "", sqlerr.NotSupported("COMMENT ON " + d.CommentObject)
}

// indexCommentTarget finds the index COMMENT ON INDEX names: a primary
// key's or a unique index's, in the schema named or public.
func (s *session) indexCommentTarget(ctx context.Context, n sql.ObjectName) (key, owner, kind, name string, err error) {
	db := n.Schema
	if db == "" {
		db = fluss.DefaultDatabase
	}
	tables, err := s.eng.store.ListTables(ctx, db)
	if err != nil {
		return "", "", "", "", err
	}
	for _, info := range tables {
		if (info.HasPrimaryKey() && info.PrimaryKeyName() == n.Name) || hasUnique(info, n.Name) {
			s.eng.meta.AdoptOwner(info)
			key = meta.CommentKey(meta.CommentIndex, strconv.FormatInt(info.TableID, 10), n.Name)
			return key, s.eng.meta.Access().Owner(info.TableID), "index", n.Name, nil
		}
	}
	if s.relationAtPath(ctx, fluss.TablePath{Database: db, Table: n.Name}) {
		return "", "", "", "", sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not an index", n.Name)
	}
	return "", "", "", "", sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", n.Name)
}

// hasUnique reports whether the table has a unique constraint or index
// named name (each has an index of that name).
func hasUnique(info fluss.TableInfo, name string) bool {
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		if u.Name == name {
			return true
		}
	}
	return false
}

// isUniqueIndex reports whether name is a CREATE UNIQUE INDEX's index,
// which is no constraint in PostgreSQL.
func isUniqueIndex(info fluss.TableInfo, name string) bool {
	for _, u := range fluss.MetaOf(info.Descriptor).Uniques {
		if u.Name == name && u.Index {
			return true
		}
	}
	return false
}

// relationAtPath reports whether path names a table, view or sequence
// (for 42809 "is not a ..." rather than 42P01).
func (s *session) relationAtPath(ctx context.Context, path fluss.TablePath) bool {
	if _, err := s.eng.storeTable(ctx, path); err == nil {
		return true
	}
	if _, ok := s.eng.meta.Views().Get(path); ok {
		return true
	}
	if q, ok := s.eng.store.(fluss.SequenceStore); ok {
		if _, err := q.GetSequence(ctx, path); err == nil {
			return true
		}
	}
	return false
}

// commentOnFunction sets a function's comment, kept in its row.
func (s *session) commentOnFunction(ctx context.Context, f *sql.FunctionStmt, text string) error {
	var want []string
	for _, a := range f.Args {
		_, name, err := s.eng.signatureType(a.Type)
		if err != nil {
			return err
		}
		want = append(want, name)
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		var match []string
		for sig, m := range tx.Functions {
			if m.Name == f.Name.Name && (!f.HasArgs || sig == m.Name+"("+strings.Join(want, ", ")+")") {
				match = append(match, sig)
			}
		}
		switch {
		case len(match) == 0 && f.HasArgs:
			return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", f.Name.Name, strings.Join(want, ", "))
		case len(match) == 0:
			return sqlerr.New(sqlerr.UndefinedFunction, "could not find a function named \"%s\"", f.Name.Name)
		case len(match) > 1:
			return sqlerr.New(sqlerr.Code("42725"), "function name \"%s\" is not unique", f.Name.Name).
				WithHint("Specify the argument list to select the function unambiguously.")
		}
		m := tx.Functions[match[0]]
		if m.Owner != s.info.User && !s.superuser {
			return mustOwn("function", f.Name.Name)
		}
		m.Comment = text
		tx.Functions[match[0]] = m
		return nil
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}
