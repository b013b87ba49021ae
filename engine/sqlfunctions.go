package engine

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// Functions made by CREATE FUNCTION ... LANGUAGE sql: stored as the Python
// ones are (meta.Function, pyfunctions.go), registered as udf.Scalar with
// their definition (udf.SQLFunc) and no Go function, and expanded by the
// binder where they are called (binder/sqlfunc.go), so they run in the
// statement's own plan.

// sqlScalar is a stored LANGUAGE sql function as the registry holds it.
func (e *Engine) sqlScalar(m meta.Function) (udf.Scalar, error) {
	sc := udf.Scalar{Name: m.Name, Language: "sql", Source: m.Body, Owner: m.Owner, Comment: m.Comment,
		SQL: &udf.SQLFunc{Body: m.Body, BodyKind: m.BodyKind, Volatility: m.Volatility, Strict: m.Strict}}
	if sc.SQL.Volatility == 0 {
		sc.SQL.Volatility = 'v'
	}
	named, defaults := false, false
	for _, a := range m.Args {
		t, err := e.typeNamed(a.Type)
		if err != nil {
			return udf.Scalar{}, err
		}
		sc.Args = append(sc.Args, t)
		named = named || a.Name != ""
		defaults = defaults || a.Default != ""
	}
	for _, a := range m.Args {
		if named {
			sc.ArgNames = append(sc.ArgNames, a.Name)
		}
		if defaults {
			sc.SQL.Defaults = append(sc.SQL.Defaults, a.Default)
		}
	}
	t, err := e.typeNamed(m.Returns)
	if err != nil {
		return udf.Scalar{}, err
	}
	sc.Returns = t
	return sc, nil
}

func typeList(ts []types.T) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.PGName()
	}
	return strings.Join(names, ", ")
}

// pythonOptions refuses the CREATE FUNCTION clauses a LANGUAGE python
// function has no use for (it is volatile and sees its NULLs).
func pythonOptions(f *sql.FunctionStmt) error {
	switch {
	case f.Volatility == 'i':
		return sqlerr.NotSupported("CREATE FUNCTION option IMMUTABLE for LANGUAGE python")
	case f.Volatility == 's':
		return sqlerr.NotSupported("CREATE FUNCTION option STABLE for LANGUAGE python")
	case f.Strict:
		return sqlerr.NotSupported("CREATE FUNCTION option STRICT for LANGUAGE python")
	case f.Defaults != nil:
		return sqlerr.NotSupported("parameter defaults for LANGUAGE python")
	case f.BodyKind != "":
		return sqlerr.New(invalidFunctionDefinition, "inline SQL function body only valid for language SQL")
	}
	return nil
}

// checkSQLFunction completes m, a LANGUAGE sql function being created,
// with its result type and validates its body against its parameters'
// types (PostgreSQL's check_function_bodies): the body binds, and its
// result is one column assignable to the result type.
func (s *session) checkSQLFunction(ctx context.Context, f *sql.FunctionStmt, m *meta.Function) error {
	if f.Table != nil || strings.HasPrefix(strings.ToUpper(f.Returns), "SETOF ") {
		return sqlerr.NotSupported("set-returning LANGUAGE sql functions (RETURNS SETOF, RETURNS TABLE)")
	}
	if f.Body == "" && f.BodyKind == "" {
		return sqlerr.New(invalidFunctionDefinition, "no function body specified")
	}
	_, name, err := s.eng.signatureType(f.Returns)
	if err != nil {
		return err
	}
	m.Returns = name
	sc, err := s.eng.sqlScalar(*m)
	if err != nil {
		return err
	}
	for i, d := range sc.SQL.Defaults {
		if d == "" && i > 0 && sc.SQL.Defaults[i-1] != "" {
			return sqlerr.New(invalidFunctionDefinition, "input parameters after one with a default value must also have defaults")
		}
	}
	if on, err := boolSetting("check_function_bodies", s.settings["check_function_bodies"]); err == nil && !on && f.BodyKind == "" {
		// a body written as text is not looked at (pg_dump creates
		// functions before the tables their bodies read); RETURN and
		// BEGIN ATOMIC bodies are part of the statement, always checked
		return nil
	}
	// the body sees the function itself, as PostgreSQL's validator, which
	// runs once the pg_proc row is in
	reg := s.eng.opts.UDFs.Clone()
	if reg == nil {
		reg = udf.NewRegistry()
	}
	argNames := make([]string, len(m.Args))
	for i, a := range m.Args {
		argNames[i] = a.Type
	}
	sig := sc.Name + "(" + strings.Join(argNames, ", ") + ")" // the row's key, as createFunction's
	for k, o := range s.eng.meta.Functions().All() {
		if k != sig {
			if err := s.eng.addFunction(reg, o); err != nil {
				s.eng.log.Warn("stored function left out", "function", k, "error", err)
			}
		}
	}
	if err := reg.AddScalar(sc); err != nil {
		return sqlerr.New(sqlerr.Code("42723"), "function %s: %v", sig, err)
	}
	cat := &recordingCatalog{tables: s.eng.tables, udfs: reg, meta: s.eng.meta, parse: s.parseView, files: s, hidden: s.hidden}
	ctx = s.planContext(ctx)
	s.eng.ddl.RLock()
	cat.views = s.eng.meta.Views()
	err = binder.CheckSQLFunction(ctx, cat, &sc)
	s.eng.ddl.RUnlock()
	return err
}

// invalidFunctionDefinition is PostgreSQL's 42P13.
const invalidFunctionDefinition = sqlerr.Code("42P13")
