package engine

import (
	"context"
	"maps"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/udf"
)

// Temporary functions: CREATE FUNCTION pg_temp.f(...) (or in the
// session's own pg_temp_N) makes a LANGUAGE sql function that only its
// session sees, as PostgreSQL's functions in the temporary schema: kept
// in the session (not in the metadata store), in the session's UDF
// registry under binder.TempFunctionName, so that only a call qualified
// by pg_temp finds it (PostgreSQL never searches pg_temp for functions),
// and gone when the session ends. Creating one makes the session's
// temporary schema (pg_my_temp_schema, current_schemas(true)) as a
// temporary table does. A block's ROLLBACK does not undo a temporary
// function's CREATE or DROP, and pg_proc does not list them.

// tempFunctions are a session's temporary functions.
type tempFunctions struct {
	// fns are the functions by signature (their names TempFunctionName's).
	fns map[string]meta.Function
	gen int // counts the changes of fns
	// reg is the session's registry, built over base at generation regGen.
	reg    *udf.Registry
	base   *udf.Registry
	regGen int
}

// tempRoutine reports whether f names a routine in the session's
// temporary schema.
func (s *session) tempRoutine(f *sql.FunctionStmt) bool {
	return f.Name.Schema != "" && binder.IsTempSchema(f.Name.Schema, tempSchemaOf(s.eng.store, int32(s.info.ProcessID)))
}

// sessionTempSchema is the session's temporary schema once it made it
// (functions.Session's TempSchema).
func (s *session) sessionTempSchema() string { return s.tempSchema }

// udfs is the registry the session's statements bind against: the
// engine's (UDFs), with the session's temporary functions when it has
// any.
func (s *session) udfs() *udf.Registry {
	base, t := s.eng.UDFs(), &s.tempFns
	if len(t.fns) == 0 {
		return base
	}
	if t.reg != nil && t.base == base && t.regGen == t.gen {
		return t.reg
	}
	reg := s.withTempFunctions(base, "")
	t.reg, t.base, t.regGen = reg, base, t.gen
	return reg
}

// withTempFunctions is a copy of base with the session's temporary
// functions but the one of signature except.
func (s *session) withTempFunctions(base *udf.Registry, except string) *udf.Registry {
	reg := base.Clone()
	if reg == nil {
		reg = udf.NewRegistry()
	}
	for _, sig := range slices.Sorted(maps.Keys(s.tempFns.fns)) {
		if sig == except {
			continue
		}
		if err := s.eng.addFunction(reg, s.tempFns.fns[sig]); err != nil {
			s.eng.log.Warn("temporary function left out", "function", sig, "error", err)
		}
	}
	return reg
}

// createTempFunction ends CREATE [OR REPLACE] FUNCTION pg_temp.f: m is
// the checked function, sig its signature. OR REPLACE follows the rules
// of a stored function's (createFunction).
func (s *session) createTempFunction(ctx context.Context, f *sql.FunctionStmt, m meta.Function, sig string) (pgwire.Result, error) {
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	old, exists := s.tempFns.fns[sig]
	switch {
	case exists && !f.OrReplace:
		return nil, sqlerr.New(sqlerr.Code("42723"), "function \"%s\" already exists with same argument types", f.Name.Name)
	case exists && (old.Returns != m.Returns || old.SetOf != m.SetOf || !slices.Equal(old.Table, m.Table)):
		return nil, sqlerr.New(sqlerr.Code("42P13"), "cannot change return type of existing function").
			WithHint("Use DROP FUNCTION %s first.", sig)
	case exists:
		if err := replaceableArgs(old, m, sig); err != nil {
			return nil, err
		}
	}
	if err := s.eng.addFunction(s.withTempFunctions(s.eng.UDFs(), sig), m); err != nil {
		return nil, sqlerr.New(sqlerr.Code("42723"), "function %s: %v", sig, err)
	}
	if err := s.noteTempSchema(ctx, tempSchemaOf(s.eng.store, int32(s.info.ProcessID))); err != nil { // temptables.go
		return nil, err
	}
	if s.tempFns.fns == nil {
		s.tempFns.fns = map[string]meta.Function{}
	}
	s.tempFns.fns[sig] = m
	s.tempFns.gen++
	s.eng.catalog.Add(1) // plans bound before are bound again
	return tagOnly("CREATE FUNCTION"), nil
}

// findTempFunction looks up the temporary function DROP FUNCTION f names:
// its signature, or IF EXISTS's NOTICE, or the error (the schema's 3F000
// before the session has a temporary schema, as PostgreSQL's
// LookupExplicitNamespace).
func (s *session) findTempFunction(f *sql.FunctionStmt) (sig string, skip *sqlerr.Error, err error) {
	want, oids, skip, err := s.dropSignature(f) // droproutines.go
	if err != nil || skip != nil {
		return "", skip, err
	}
	if s.tempSchema == "" {
		if f.IfExists {
			return "", skipped("schema", f.Name.Schema), nil
		}
		return "", nil, sqlerr.UndefinedSchema(f.Name.Schema)
	}
	q := *f
	q.Name = sql.ObjectName{Name: binder.TempFunctionName(f.Name.Name)}
	return s.findFunction(s.tempFns.fns, &q, want, oids) // pyfunctions.go
}

// dropTempFunction is DROP FUNCTION of one temporary function.
func (s *session) dropTempFunction(f *sql.FunctionStmt, tag string) (pgwire.Result, error) {
	sig, skip, err := s.findTempFunction(f)
	if err != nil || skip != nil {
		return noticeIf(tag, skip), err
	}
	s.forgetTempFunction(sig)
	return tagOnly(tag), nil
}

// forgetTempFunction drops the temporary function of signature sig.
func (s *session) forgetTempFunction(sig string) {
	delete(s.tempFns.fns, sig)
	s.tempFns.gen++
	s.eng.catalog.Add(1)
}
