package pgcatalog

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
)

// COMMENT ON's texts beyond tables and columns (whose comments live in the
// table's descriptor): pg_description rows for schemas, views, sequences,
// types, domains, constraints, indexes and functions, pg_shdescription
// rows for roles, read by obj_description and shobj_description and so by
// psql's \dn+, \dv+, \dT+, \ds+, \df+, \di+ and \du+.

// CommentSource keeps COMMENT ON's texts by meta.CommentKey (the engine's
// metadata store; Options.Comments, or the Roles that implement it).
type CommentSource interface {
	Comments() map[string]string
}

// More pg_description.classoid values.
const (
	classPgType       = 1247
	classPgProc       = 1255
	classPgAuthid     = 1260
	classPgConstraint = 2606
)

func (c *Catalog) comments() map[string]string {
	if c.opts.Comments != nil {
		return c.opts.Comments.Comments()
	}
	if cs, ok := c.opts.Roles.(CommentSource); ok {
		return cs.Comments()
	}
	return nil
}

// objectCommentRows are the pg_description rows of the comments kept by
// key (CommentSource) and of the functions' comments (pg_proc's objects).
// A key whose object is gone (a dropped view's) shows nothing.
func (c *Catalog) objectCommentRows(ctx context.Context, s *snapshot) []row {
	var rows []row
	add := func(class, oid uint32, text string) {
		if text != "" {
			rows = append(rows, row{"objoid": oid, "classoid": class, "objsubid": 0, "description": text})
		}
	}
	tables := map[int64]fluss.TableInfo{}
	for _, t := range s.tables {
		tables[t.TableID] = t
	}
	var cons []row
	for key, text := range c.comments() {
		kind, id, _ := strings.Cut(key, "/")
		switch kind {
		case meta.CommentSchema:
			if id == fluss.DefaultDatabase || slices.Contains(s.schemas, id) {
				add(classPgNamespace, namespaceOID(id), text)
			}
		case meta.CommentView:
			if n, err := strconv.ParseInt(id, 10, 64); err == nil {
				for _, v := range c.listViews() {
					if v.ID == n {
						add(classPgClass, ViewOID(n), text)
					}
				}
			}
		case meta.CommentSequence:
			if n, err := strconv.ParseInt(id, 10, 64); err == nil {
				for _, q := range s.sequences {
					if q.ID == n {
						add(classPgClass, SequenceOID(n), text)
					}
				}
			}
		case meta.CommentType, meta.CommentDomain:
			if n, err := strconv.ParseUint(id, 10, 32); err == nil {
				add(classPgType, uint32(n), text)
			}
		case meta.CommentConstraint, meta.CommentIndex:
			tid, name, _ := strings.Cut(id, "/")
			n, err := strconv.ParseInt(tid, 10, 64)
			t, ok := tables[n]
			if err != nil || !ok {
				continue
			}
			if kind == meta.CommentIndex {
				if oid, ok := c.indexOIDNamed(t, name); ok {
					add(classPgClass, oid, text)
				}
				continue
			}
			if cons == nil {
				cons, _ = c.constraintRows(ctx, s)
			}
			for _, r := range cons {
				if oidValue(r["conrelid"]) == RelationOID(n) && r["conname"] == name {
					add(classPgConstraint, oidValue(r["oid"]), text)
				}
			}
		}
	}
	for _, p := range c.allProcs() {
		add(classPgProc, p.oid, p.comment)
	}
	return rows
}

// indexOIDNamed is the OID of t's index named name: its primary key's or
// one of its unique indexes (unique.go).
func (c *Catalog) indexOIDNamed(t fluss.TableInfo, name string) (uint32, bool) {
	if t.HasPrimaryKey() && pkName(t) == name {
		return pkIndexOID(t.TableID), true
	}
	for _, r := range c.uniqueClassRows(t, nil) {
		if r["relname"] == name {
			return oidValue(r["oid"]), true
		}
	}
	return 0, false
}

// shdescriptionRows is pg_shdescription: the roles' comments.
func (c *Catalog) shdescriptionRows(_ context.Context, _ *snapshot) ([]row, error) {
	var rows []row
	for _, r := range c.roles() {
		if text := c.comments()[meta.CommentKey(meta.CommentRole, r.Name)]; text != "" {
			rows = append(rows, row{"objoid": c.roleOID(r.Name), "classoid": uint32(classPgAuthid), "description": text})
		}
	}
	return rows, nil
}

// catalogClass is the pg_description.classoid obj_description's catalog
// name means (0 when sqlgate keeps no comment there).
func catalogClass(catalog string) uint32 {
	return map[string]uint32{"pg_class": classPgClass, "pg_namespace": classPgNamespace, "pg_extension": classPgExtension,
		"pg_type": classPgType, "pg_proc": classPgProc, "pg_constraint": classPgConstraint, "pg_authid": classPgAuthid, "pg_operator": classPgOperator,
		"pg_collation": classPgCollation, "pg_ts_dict": classPgTSDict, "pg_ts_parser": classPgTSParser, "pg_ts_config": classPgTSConfig,
		"pg_ts_template": classPgTSTemplate, "pg_am": classPgAm}[catalog] // collations.go
}

// oidValue reads an OID column of a generated row (a uint32, or an int
// where the row was built from an untyped constant).
func oidValue(v any) uint32 {
	switch x := v.(type) {
	case uint32:
		return x
	case int:
		return uint32(x)
	case int64:
		return uint32(x)
	}
	return 0
}
