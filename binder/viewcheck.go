package binder

import (
	"context"
	"reflect"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// WITH CHECK OPTION (PostgreSQL's rewriteTargetView and
// ExecWithCheckOptions). As an INSERT or UPDATE is rewritten through a
// view that has a check option, the view's WHERE becomes a condition the
// rows it writes must meet: over the view's base relation first, then,
// level by level, over the relations under it, until it reads the base
// table's columns. LOCAL checks the view's own WHERE; CASCADED also makes
// every view under it check its WHERE, as if it were CASCADED too
// (whatever its own option). The conditions are listed innermost first,
// as the rewriter lcons them, and the executor reports the first a row
// fails: 44000 naming the view, its DETAIL the base table's row. A
// view's condition that is NULL fails, unlike a CHECK constraint's.

// viewCheck is one view's condition as the rewrite collects it: qual is
// nil for a CASCADED view without WHERE, which checks nothing itself but
// passes its CASCADED on.
type viewCheck struct {
	view     string
	qual     pt.Expr
	cascaded bool
	// partition: the view is a partition (View.Partition) and qual its
	// partition constraint, which an UPDATE through it checks.
	partition bool
}

// ViewCheck is a bound condition: Cond over the base table's row (its
// columns in table order) must be true.
type ViewCheck struct {
	View string
	Cond Expr
	// Partition: View is a partition and Cond its partition constraint:
	// a row that fails it is 23514 (sqlerr.PartitionConstraintViolation).
	Partition bool
}

// noteViewCheck maps the conditions collected so far through vw (they
// read vw's view's columns; now its base relation's, read as alias) and
// adds vw's own when the view, or a CASCADED view over it, asks for it.
// partition says to add a partition's constraint (an UPDATE's: an INSERT
// through a partition is checked as it writes, engine/pgpartitions.go).
func (b *binder) noteViewCheck(vw *viewWrite, alias string, partition bool) error {
	for i := range b.viewChecks {
		if b.viewChecks[i].qual != nil {
			if err := vw.substRefs(b, &b.viewChecks[i].qual, alias, false); err != nil {
				return err
			}
		}
	}
	has, cascaded := vw.view.CheckOption != "", vw.view.CheckOption == "cascaded"
	if len(b.viewChecks) > 0 && b.viewChecks[0].cascaded {
		has, cascaded = true, true
	}
	if has && (cascaded || vw.checkQual != nil) {
		c := viewCheck{view: vw.view.Path.Table, qual: vw.checkQual, cascaded: cascaded}
		b.viewChecks = append([]viewCheck{c}, b.viewChecks...)
	}
	if partition && vw.view.Partition && vw.checkQual != nil {
		c := viewCheck{view: vw.view.Path.Table, qual: cloneExpr(vw.checkQual), partition: true}
		b.viewChecks = append([]viewCheck{c}, b.viewChecks...)
	}
	return nil
}

// bindViewChecks binds the conditions collected over scan, the base
// table the write's target became (nil when there are none).
func (b *binder) bindViewChecks(scan *Scan) ([]ViewCheck, error) {
	var out []ViewCheck
	for _, c := range b.viewChecks {
		if c.qual == nil {
			continue
		}
		e, err := b.bindTree(newScope(scan), c.qual)
		if err != nil {
			return nil, err
		}
		if e, err = b.coerce(c.qual, e, types.BoolType, "argument of WHERE"); err != nil {
			return nil, err
		}
		out = append(out, ViewCheck{View: c.view, Cond: finishParamsExpr(b, e), Partition: c.partition})
	}
	b.viewChecks = nil
	return out, nil
}

// cloneExpr copies the tree under e (sql/tree's nodes, their slices and
// interfaces; other values are shared), so that a view column's
// expression substituted in several places is rewritten in each alone.
func cloneExpr(e pt.Expr) pt.Expr {
	if e == nil {
		return nil
	}
	c := cloneValue(reflect.ValueOf(&e).Elem())
	return c.Interface().(pt.Expr)
}

func cloneValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(cloneValue(v.Elem()))
		return n
	case reflect.Pointer:
		t := v.Type().Elem()
		if v.IsNil() || t.Kind() != reflect.Struct || t.PkgPath() != treePkg {
			return v
		}
		n := reflect.New(t)
		n.Elem().Set(cloneValue(v.Elem()))
		return n
	case reflect.Struct:
		if v.Type().PkgPath() != treePkg {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n.Field(i).Set(cloneValue(v.Field(i)))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(cloneValue(v.Index(i)))
		}
		return n
	}
	return v
}

// ViewUpdatability says whether the view v (as the catalog gives it,
// its Query parsed) is automatically updatable now, and which of its
// columns are, as PostgreSQL derives both from the view's query each time
// it is asked (information_schema, pg_relation_is_updatable, ALTER VIEW
// ... SET (check_option)); why is the reason its own query is not ("" when
// it is), and ok false when its definition no longer binds.
func ViewUpdatability(ctx context.Context, cat Catalog, v *View) (auto bool, cols []bool, why string) {
	if v == nil || v.Query == nil || v.Query.AST == nil || v.Stored {
		return false, nil, ""
	}
	q, err := sql.QueryToTree(v.Query.AST, v.Query)
	if err != nil {
		return false, nil, ""
	}
	b := &binder{ctx: context.WithValue(ctx, expandingKey{}, v), cat: cat, stmt: v.Query}
	out := &CreateView{Path: v.Path, Columns: append([]ViewColumn(nil), v.Columns...)}
	why = b.markUpdatableTree(out, q)
	cols = make([]bool, len(out.Columns))
	for i, c := range out.Columns {
		cols[i] = c.Updatable
	}
	return out.AutoUpdatable, cols, why
}
