package binder

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Composite types: a table's row type (every table has one, named as the
// table, pg_class.reltype) and CREATE TYPE name AS (f type, ...)'s. Their
// values are records (types.AnonRecord) whose TypeOID names the type
// (types/composite.go), so they print, compare and test for NULL as the
// anonymous record's do while pg_typeof, format_type and RowDescription
// name the type. A composite's name is a cast target (ROW(1, 'x')::t,
// '(1,x)'::t, CAST(... AS t)); a table's alias used as a value (SELECT t
// FROM t) has its table's row type.

// CompositeCatalog is the optional part of a Catalog (or TypeCatalog)
// that knows CREATE TYPE's composite types (the engine's metadata).
type CompositeCatalog interface {
	// CompositeType is the composite type schema.name ("" for the
	// default schema).
	CompositeType(schema, name string) (*types.CompositeType, bool)
}

// compositeNamed is the composite type a type name (without array
// dimensions) names: CREATE TYPE's, else the row type of the table of
// that name. PostgreSQL's types and tables share pg_type's names, so the
// two never clash.
func (b *binder) compositeNamed(name string) (*types.CompositeType, bool) {
	if cc, ok := b.cat.(CompositeCatalog); ok {
		if c, ok := cc.CompositeType("", name); ok {
			return c, true
		}
	}
	if b.cat == nil {
		return nil, false
	}
	path, err := b.resolvePath("", name, false)
	if err != nil {
		return nil, false
	}
	info, err := b.cat.GetTable(b.ctx, path)
	if err != nil || info.TableID <= 0 || !isUserSchema(info.Path.Database) {
		return nil, false
	}
	return b.tableRowType(info), true
}

// isUserSchema reports whether schema holds user tables (not pg_catalog
// or information_schema, whose relations sqlgate lists without row types).
func isUserSchema(schema string) bool {
	return schema != "pg_catalog" && schema != "information_schema" && schema != fluss.SystemDatabase
}

// tableRowType is table's row type, published to the catalog's registry
// (b.registry()) so that messages and text input find it from its T.
func (b *binder) tableRowType(info fluss.TableInfo) *types.CompositeType {
	cols := info.Descriptor.Schema.Columns
	fs := make([]types.Field, len(cols))
	for i, c := range cols {
		fs[i] = types.Field{Name: c.Name, Type: c.Type}
	}
	c := types.TableRowType(info.TableID, info.Path.Database, info.Path.Table, fs)
	return b.registry().PublishComposite(c)
}

// compositeCastTarget is the type of a cast to a composite type, or to an
// array of one (t[]): ok is false when tn names no composite type.
func (b *binder) compositeCastTarget(tn *sql.TypeName) (types.T, bool) {
	leaf, dims := typeLeaf(tn)
	if leaf.Key != nil || leaf.Value != nil || len(leaf.Fields) > 0 {
		return types.T{}, false
	}
	if leaf.Schema != "" { // a type of that schema, wherever the search path reaches
		if t, ok := compositeNamed(tn, b.typeCatalog()); ok {
			return t, true
		}
	}
	c, ok := b.compositeNamed(leaf.Name)
	if !ok {
		return types.T{}, false
	}
	return arrayOfDims(c.T(), dims), true
}

// typeLeaf is the innermost type of a type name (its array's element
// type: T[] and T[][] are one "array" node per dimension) and the number
// of array dimensions around it.
func typeLeaf(tn *sql.TypeName) (*sql.TypeName, int) {
	dims := 0
	for tn.Elem != nil && tn.Name == "array" {
		tn = tn.Elem
		dims++
	}
	return tn, dims
}

// scanRowType is the row type of the FROM item alias of s when it is a
// scan of a table (every column of the table, in order, qualified by
// alias): nil otherwise, where the whole row stays an anonymous record
// (a derived table's, a function's, VALUES').
func (b *binder) scanRowType(s *scope, alias string) *types.CompositeType {
	var id int64
	n := 0
	for i := range s.cols {
		c := &s.cols[i]
		if c.Table != alias {
			continue
		}
		n++
		if c.TableID == 0 || c.Ordinal != n || id != 0 && c.TableID != id {
			return nil
		}
		id = c.TableID
	}
	if id == 0 {
		return nil
	}
	for _, sc := range b.scans {
		if sc.Table.TableID == id && sc.Alias == alias && !sc.Changelog && len(sc.Table.Descriptor.Schema.Columns) == n {
			return b.tableRowType(sc.Table)
		}
	}
	return nil
}

// asTableRow gives whole-row reference w (wholeRowOf's, over the columns
// of alias in s) its table's row type when alias is a table's scan.
func (b *binder) asTableRow(s *scope, alias string, w *FuncCall) *FuncCall {
	c := b.scanRowType(s, alias)
	if c == nil || len(c.Fields) != len(w.T.Fields) {
		return w
	}
	w.T.TypeOID = c.OID
	w.T = b.registry().Bind(w.T) // the registry c is in, which names it
	return w
}

// unknownField is PostgreSQL's error for (x).name where x's type t has no
// field name.
func unknownField(name string, t types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" not found in data type %s", name, t.PGName())
}

// compositeCastNode is where the errors of a cast of a ROW constructor to
// target point: at the cast's :: (place) for a composite type, as
// PostgreSQL's coerce_record_to_complex reports them, else at the cast.
func compositeCastNode(n, place sourceNode, target types.T) sourceNode {
	if target.IsComposite() {
		return place
	}
	return n
}

// fieldSelectPlace is where an error of (x).f points: at x, as PostgreSQL
// places it (exprLocation), which for a cast is its ::.
func fieldSelectPlace(n *pt.FieldSelect) sourceNode {
	if c, ok := n.X.(*pt.Cast); ok {
		return castPlace(c)
	}
	return n
}

// CompositeAttrType is the type of a composite type's attribute written
// text: a built-in, enum or domain type (ut's), or another composite type
// (ut's CompositeCatalog), or an array of one.
func CompositeAttrType(text string, ut TypeCatalog) (types.T, error) {
	tn, err := sql.ParseTypeName(text)
	if err != nil {
		return types.T{}, sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", text)
	}
	t, err := typeFromNameIn(tn, ut)
	if err == nil || sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		return t.Nullable(), err
	}
	if c, ok := compositeNamed(tn, ut); ok {
		return c, nil
	}
	return t, err
}

// compositeNamed is the composite type (or array of one) tn names in
// ut, when ut knows composites: the types typeFromNameIn does not.
func compositeNamed(tn *sql.TypeName, ut TypeCatalog) (types.T, bool) {
	cc, ok := ut.(CompositeCatalog)
	if !ok {
		return types.T{}, false
	}
	leaf, dims := typeLeaf(tn)
	c, ok := cc.CompositeType(leaf.Schema, leaf.Name)
	if !ok {
		return types.T{}, false
	}
	return arrayOfDims(c.T(), dims), true
}

// refuseCompositeColumn is CREATE TABLE's error for column name declared
// with type tn when resolving it failed with err: a composite type (or an
// array of one) is refused as such (0A000), since a Fluss ROW column
// would keep neither the type's name nor follow its ALTERs; any other
// failure is err.
func (b *binder) refuseCompositeColumn(name string, tn *sql.TypeName, err error) error {
	if sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		return err
	}
	leaf, _ := typeLeaf(tn)
	c, ok := b.compositeNamed(leaf.Name)
	if !ok {
		return err
	}
	return compositeColumnError(name, c)
}

// emptyRowCast is ROW()::t: the composite without attributes, or
// PostgreSQL's error for a composite that has some (at place, the cast's
// ::).
func (b *binder) emptyRowCast(place sourceNode, t types.T) (Expr, error) {
	if len(t.Fields) > 0 {
		return nil, b.errAt(place, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type record to %s", t.PGName()).
			WithDetail("Input has too few columns."))
	}
	return &Const{Value: []any{}, T: t}, nil
}

// refuseTypeNamed refuses a relation being created at path whose name a
// composite type of its schema has: the composite's pg_class row has the
// name (PostgreSQL's 42P07).
func (b *binder) refuseTypeNamed(path fluss.TablePath) error {
	cc, ok := b.cat.(CompositeCatalog)
	if !ok {
		return nil
	}
	if _, ok := cc.CompositeType(path.Database, path.Table); !ok {
		return nil
	}
	return sqlerr.New(sqlerr.Code("42P07"), "relation \"%s\" already exists", path.Table)
}

// RefuseCompositeColumn is refuseCompositeColumn for ALTER TABLE ... ADD
// COLUMN, which knows the composites of ut (CREATE TYPE's) only.
func RefuseCompositeColumn(name string, tn *sql.TypeName, ut TypeCatalog, err error) error {
	cc, ok := ut.(CompositeCatalog)
	if !ok || sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		return err
	}
	leaf, _ := typeLeaf(tn)
	c, ok := cc.CompositeType(leaf.Schema, leaf.Name)
	if !ok {
		return err
	}
	return compositeColumnError(name, c)
}

// compositeColumnError is the refusal of column name of composite type c.
func compositeColumnError(name string, c *types.CompositeType) *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "column \"%s\" of composite type %s cannot be stored in a Fluss table", name, c.QualifiedName()).
		WithHint("Declare its attributes as columns of their own, or a jsonb column.")
}

// noteScan records sc, a FROM clause's scan of a table, for scanRowType.
func (b *binder) noteScan(sc *Scan) {
	if b.scans == nil {
		b.scans = b.scanBuf[:0]
	}
	b.scans = append(b.scans, sc)
}
