package binder

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SchemaResolver is implemented by catalogs that resolve unqualified
// relation names over the session's search_path, as PostgreSQL does; a
// catalog without it puts every unqualified name in the default database.
type SchemaResolver interface {
	// ResolveSchema returns the schema an unqualified relation name
	// refers to: the first schema of the search path that holds a
	// relation of that name. When none does, it returns the schema a
	// CREATE would put it in (create) or where a lookup reports it
	// missing; create fails with 3F000 when the path names no existing
	// schema.
	ResolveSchema(ctx context.Context, name string, create bool) (string, error)
}

// treePath resolves a possibly schema-qualified relation name of sqlgate's
// parsed tree that is looked up (not created); binder.go's tablePath does
// the same for a name of TiDB's AST (the statements not moved yet).
func (b *binder) treePath(tn *pt.TableName) fluss.TablePath {
	p, _ := b.resolvePath(tn.Schema, tn.Name, false)
	return p
}

// createPath resolves the name of a relation being created: an
// unqualified name goes to the first existing schema of the search path.
func (b *binder) createPath(tn *pt.TableName) (fluss.TablePath, error) {
	if b.stmt != nil && b.stmt.Temporary {
		r, ok := b.cat.(TempSchemaResolver)
		if !ok {
			return fluss.TablePath{}, sqlerr.NotSupported("temporary tables")
		}
		if s := tn.Schema; s != "" && !strings.HasPrefix(s, "pg_temp") {
			return fluss.TablePath{}, sqlerr.New(sqlerr.InvalidTableDefinition, "cannot create temporary relation in non-temporary schema")
		}
		return fluss.TablePath{Database: r.TempSchema(b.ctx), Table: tn.Name}, nil
	}
	return b.resolvePath(tn.Schema, tn.Name, true)
}

// TempSchemaResolver is implemented by catalogs with session-local
// (temporary) tables: they live in the session's own schema, pg_temp_N as
// in PostgreSQL, which name resolution searches first.
type TempSchemaResolver interface {
	TempSchema(ctx context.Context) string
}

// resolvePath resolves [db.]name: an unqualified name over the search
// path (SchemaResolver), for a lookup or for a CREATE.
func (b *binder) resolvePath(db, name string, create bool) (fluss.TablePath, error) {
	if db == "" {
		db = fluss.DefaultDatabase
		if r, ok := b.cat.(SchemaResolver); ok {
			s, err := r.ResolveSchema(b.ctx, name, create)
			if err != nil {
				return fluss.TablePath{Database: db, Table: name}, err
			}
			db = s
		}
	}
	return fluss.TablePath{Database: db, Table: name}, nil
}

// TypeOf is the type a type name stands for in a signature (PREPARE's
// parameter types, a function's arguments and result): what it means in
// PostgreSQL's expressions (castTypeFromName: varchar without a length is
// character varying without a limit, not text).
func TypeOf(tn *sql.TypeName) (types.T, error) { return TypeOfIn(tn, nil) }

// TypeOfIn is TypeOf knowing the user-defined types of ut.
func TypeOfIn(tn *sql.TypeName, ut TypeCatalog) (types.T, error) {
	t, err := castTypeFromNameIn(tn, ut)
	if sqlerr.CodeOf(err) == sqlerr.UndefinedObject {
		if c, ok := compositeNamed(tn, ut); ok { // composite.go
			return c, nil
		}
	}
	if t.IsBitString() {
		t.Length = 0 // a parameter has no typmod: bit is any bit string, not bit(1)
	}
	return t, err
}

// ColumnType is the type a column declared with tn gets in a Fluss table:
// TIME without precision is Fluss's TIME(0), NUMERIC without precision the
// stored numeric type (as CREATE TABLE declares it).
func ColumnType(tn *sql.TypeName) (types.T, error) { return ColumnTypeIn(tn, nil) }

// ColumnTypeIn is ColumnType knowing the user-defined types of ut.
func ColumnTypeIn(tn *sql.TypeName, ut TypeCatalog) (types.T, error) {
	t, err := typeFromNameIn(tn, ut)
	if err != nil {
		return t, err
	}
	t = ddlTimeDefaults(tn, t)
	if t.Kind == types.Decimal && t.Precision == 0 {
		t = types.StoredNumericType
	}
	return t, nil
}
