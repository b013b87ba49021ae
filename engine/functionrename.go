package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/udf"
)

// ALTER FUNCTION name [(args)] RENAME TO new. PostgreSQL's views, defaults
// and function bodies hold the function's OID, so they keep calling it;
// sqlgate's hold its name as text, which the rename rewrites in the same
// way as a type's (typerename.go): every call of the name becomes a call
// of the new one, and when the name has other overloads, which keep it, a
// text calling it refuses the rename (0A000), since sqlgate cannot tell
// which overload it calls.

// planFunctionRename is the rewrite of f's rename and its plan for the
// tables' texts (nothing changes yet); want are f's argument types.
func (s *session) planFunctionRename(ctx context.Context, f *sql.FunctionStmt, want []string) (*typeRename, []tableEdit, error) {
	n := 0
	for _, m := range s.eng.meta.Functions().All() {
		if m.Name == f.Name.Name {
			n++
		}
	}
	r := &typeRename{schema: fluss.DefaultDatabase, from: f.Name.Name, to: f.RenameTo, function: true, overloaded: n > 1}
	if n == 0 {
		return r, nil, nil // the metadata update says it does not exist
	}
	edits, err := s.typeRenameTables(ctx, *r)
	return r, edits, err
}

// renameFunction renames the function of signature sig in tx and
// rewrites the texts that call it.
func (s *session) renameFunction(tx *meta.Tx, sig string, r *typeRename) error {
	m := tx.Functions[sig]
	if m.Owner != s.info.User && !s.superuser {
		return mustOwn("function", m.Name)
	}
	newSig := r.to + sig[len(m.Name):]
	if _, taken := tx.Functions[newSig]; taken {
		return sqlerr.New(sqlerr.Code("42723"), "function %s already exists in schema \"%s\"", newSig, r.schema)
	}
	delete(tx.Functions, sig)
	m.Name = r.to
	tx.Functions[newSig] = m
	if err := r.inMeta(tx); err != nil {
		return err
	}
	// the new name must make valid UDFs beside the others (a built-in's,
	// a Go UDF's), as CREATE FUNCTION's
	reg := s.eng.opts.UDFs.Clone()
	if reg == nil {
		reg = udf.NewRegistry()
	}
	for _, o := range tx.Functions {
		if err := s.eng.addFunction(reg, o); err != nil {
			return sqlerr.New(sqlerr.Code("42723"), "function %s: %v", newSig, err)
		}
	}
	return binder.CheckUDFNames(reg)
}
