package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// DROP TABLE | VIEW ... CASCADE: the views that depend on what is dropped,
// directly or through other views, are dropped with it, with PostgreSQL's
// NOTICE naming them (dbt drops its x__dbt_backup relations so, and the
// views over a table model go with the old table). Without CASCADE such
// views refuse the drop (2BP01, noDependents). A table is dropped before
// its views: a crash between the two leaves views over a table that is
// gone, which meta.Reconcile sweeps at the next start. DROP SCHEMA ...
// CASCADE takes, beside the schema's own objects, the other schemas'
// views over them and foreign keys into its tables (schemaDependents).

// dependentViews returns the views to drop with the relation at path:
// with cascade every view depending on it (those in dropping aside), each
// once, else none, or 2BP01 when there are some.
func (s *session) dependentViews(kind string, path fluss.TablePath, dropping map[fluss.TablePath]bool, cascade bool) ([]views.View, error) {
	if !cascade {
		return nil, s.noDependents(kind, path, dropping)
	}
	var out []views.View
	seen := map[fluss.TablePath]bool{}
	var walk func(p fluss.TablePath)
	walk = func(p fluss.TablePath) {
		for _, d := range s.eng.meta.Views().Dependents(p) {
			if dropping[d.Path] || seen[d.Path] {
				continue
			}
			seen[d.Path] = true
			out = append(out, d)
			walk(d.Path)
		}
	}
	walk(path)
	return out, nil
}

// schemaDependents are what DROP SCHEMA ... CASCADE of schema takes from
// other schemas, as PostgreSQL's dependency walk does: the views over its
// tables and views (directly or through other views) and the foreign keys
// that reference its tables.
func (s *session) schemaDependents(ctx context.Context, schema string, tables []fluss.TableInfo, inside []views.View) ([]views.View, []fkRef, error) {
	var out []views.View
	seen := map[fluss.TablePath]bool{}
	add := func(p fluss.TablePath) {
		deps, _ := s.dependentViews("", p, nil, true) // (no error with cascade)
		for _, d := range deps {
			if d.Path.Database != schema && !seen[d.Path] {
				seen[d.Path] = true
				out = append(out, d)
			}
		}
	}
	paths := make([]fluss.TablePath, len(tables))
	for i, t := range tables {
		paths[i] = t.Path
		add(t.Path)
	}
	for _, v := range inside {
		add(v.Path)
	}
	own := pathSet(paths)
	var keys []fkRef
	for _, p := range paths {
		refs, err := s.fkOthers(ctx, p, own) // fkddl.go
		if err != nil {
			return nil, nil, err
		}
		keys = append(keys, refs...)
	}
	return out, keys, nil
}

// outsideName is how a DROP SCHEMA ... CASCADE notice names an object of
// another schema: public's bare, as PostgreSQL names what its search path
// reaches.
func outsideName(p fluss.TablePath) string {
	if p.Database == fluss.DefaultDatabase {
		return p.Table
	}
	return p.Database + "." + p.Table
}

// dropCascaded drops the views a CASCADE took, with their grants, in one
// metadata commit, and returns PostgreSQL's NOTICE naming them (nil when
// none).
func (s *session) dropCascaded(ctx context.Context, vs []views.View) (*sqlerr.Error, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return dropViewsIn(tx, vs) })
	if err != nil {
		return nil, metaErr(err)
	}
	s.dropBackingHeld(ctx, vs) // matview.go
	return cascadeNotice(vs), nil
}

// dropViewsIn drops the views vs (those still there) with their grants,
// in the metadata change tx.
func dropViewsIn(tx *meta.Tx, vs []views.View) error {
	for _, v := range vs {
		if _, ok := tx.Views.Get(v.Path); !ok {
			continue
		}
		if err := tx.Views.Drop(v.Path); err != nil {
			return err
		}
		if err := tx.Access.Forget(v.ACLKey()); err != nil {
			return err
		}
	}
	return nil
}

// cascadeNotice is PostgreSQL's NOTICE of a DROP ... CASCADE that took
// the views vs (at least one).
func cascadeNotice(vs []views.View) *sqlerr.Error {
	if len(vs) == 1 {
		return sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to %s %s", relationKind(vs[0]), vs[0].Path.Table)
	}
	lines := make([]string, len(vs))
	for i, v := range vs {
		lines[i] = fmt.Sprintf("drop cascades to %s %s", relationKind(v), v.Path.Table)
	}
	return sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to %d other objects", len(vs)).
		WithDetail("%s", strings.Join(lines, "\n"))
}
