package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
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
	var in []meta.FunctionArg
	var outs []udf.Column
	for _, a := range m.Args {
		t, err := e.typeNamed(a.Type)
		if err != nil {
			return udf.Scalar{}, err
		}
		if a.Mode == "v" {
			sc.SQL.Variadic = true
		}
		if a.Mode == "o" || a.Mode == "b" {
			outs = append(outs, udf.Column{Name: a.Name, Type: t})
		}
		if a.Mode == "o" {
			continue
		}
		in = append(in, a)
		sc.Args = append(sc.Args, t)
		named = named || a.Name != ""
		defaults = defaults || a.Default != ""
	}
	if len(outs) > 0 {
		// every parameter with its mode, for pg_proc
		for _, a := range m.Args {
			t, _ := e.typeNamed(a.Type)
			mode := byte('i')
			if a.Mode != "" {
				mode = a.Mode[0]
			}
			sc.SQL.Params = append(sc.SQL.Params, udf.Param{Name: a.Name, Type: t, Mode: mode})
		}
	}
	for _, a := range in {
		if named {
			sc.ArgNames = append(sc.ArgNames, a.Name)
		}
		if defaults {
			sc.SQL.Defaults = append(sc.SQL.Defaults, a.Default)
		}
	}
	sc.SQL.SetOf, sc.SQL.Rows = m.SetOf || len(m.Table) > 0, m.Rows
	if len(outs) > 0 {
		// the OUT parameters: the result's columns
		sc.SQL.Columns = outs
		sc.Returns = outs[0].Type
		if len(outs) > 1 {
			fields := make([]types.Field, len(outs))
			for i, c := range outs {
				fields[i] = types.Field{Name: c.Name, Type: c.Type.Nullable()}
			}
			sc.Returns = types.T{Kind: types.Row, Fields: fields, Variant: types.AnonRecord}
		}
		return sc, nil
	}
	if len(m.Table) == 0 {
		t, err := e.typeNamed(m.Returns)
		if err != nil {
			return udf.Scalar{}, err
		}
		sc.Returns = t
		if t.IsComposite() {
			// a composite result (a table's row type, CREATE TYPE's):
			// its attributes are the result's columns, as OUT
			// parameters' are
			for _, f := range t.Fields {
				sc.SQL.Columns = append(sc.SQL.Columns, udf.Column{Name: f.Name, Type: f.Type})
			}
		}
		return sc, nil
	}
	// RETURNS TABLE: rows of its columns, or of the one column's values
	fields := make([]types.Field, len(m.Table))
	for i, c := range m.Table {
		t, err := e.typeNamed(c.Type)
		if err != nil {
			return udf.Scalar{}, err
		}
		sc.SQL.Columns = append(sc.SQL.Columns, udf.Column{Name: c.Name, Type: t})
		fields[i] = types.Field{Name: c.Name, Type: t.Nullable()}
	}
	sc.Returns = fields[0].Type
	if len(fields) > 1 {
		sc.Returns = types.T{Kind: types.Row, Fields: fields, Variant: types.AnonRecord}
	}
	return sc, nil
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
	case f.SetOf:
		return sqlerr.NotSupported("RETURNS SETOF for LANGUAGE python")
	}
	return nil
}

// checkSQLFunction completes m, a LANGUAGE sql function being created,
// with its result type and validates its body against its parameters'
// types (PostgreSQL's check_function_bodies): the body binds, and its
// result is one column assignable to the result type. An error of the
// body's parse or bind is placed in the statement by bodyPos, or has no
// position when the body cannot be found there (PostgreSQL then reports
// it as an internal query's, which sqlgate does not).
func (s *session) checkSQLFunction(ctx context.Context, f *sql.FunctionStmt, m *meta.Function, bodyPos func(int) int) error {
	if f.Body == "" && f.BodyKind == "" {
		return sqlerr.New(invalidFunctionDefinition, "no function body specified")
	}
	var outs []meta.FunctionArg
	variadic := false
	for _, a := range m.Args {
		switch {
		case variadic && a.Mode != "o":
			// PostgreSQL's interpret_function_parameter_list
			return sqlerr.New(invalidFunctionDefinition, "VARIADIC parameter must be the last input parameter")
		case a.Mode == "v":
			t, err := s.eng.typeNamed(a.Type)
			if err != nil {
				return err
			}
			if t.Kind != types.Array {
				return sqlerr.New(invalidFunctionDefinition, "VARIADIC parameter must be an array")
			}
			variadic = true
		case a.Mode == "o" && a.Default != "":
			return sqlerr.New(invalidFunctionDefinition, "only input parameters can have default values")
		case a.Mode == "o" || a.Mode == "b":
			outs = append(outs, a)
		}
	}
	switch {
	case f.Table != nil && len(outs) > 0:
		return sqlerr.New(sqlerr.SyntaxError, "OUT and INOUT arguments aren't allowed in TABLE functions")
	case f.Table != nil:
		m.SetOf = true // m.Table holds the columns
	case len(outs) > 0:
		// PostgreSQL's interpret_function_parameter_list: the result is
		// the OUT parameter's type, a record of them when several
		want := "record"
		if len(outs) == 1 {
			want = outs[0].Type
		}
		if f.Returns != "" {
			got := "record"
			if !strings.EqualFold(strings.TrimSpace(f.Returns), "record") {
				_, name, err := s.eng.signatureType(f.Returns)
				if err != nil {
					return err
				}
				got = name
			}
			if got != want {
				return sqlerr.New(invalidFunctionDefinition, "function result type must be %s because of OUT parameters", want)
			}
		}
		m.Returns, m.SetOf = want, f.SetOf
	case f.Returns == "":
		return sqlerr.New(invalidFunctionDefinition, "function result type must be specified")
	default:
		_, name, err := s.eng.signatureType(f.Returns)
		if err != nil {
			return err
		}
		m.Returns, m.SetOf = name, f.SetOf
	}
	if f.Rows != "" {
		// PostgreSQL's compute_function_attributes
		rows, err := strconv.ParseFloat(f.Rows, 64)
		switch {
		case err != nil:
			return sqlerr.New(sqlerr.SyntaxError, "invalid input syntax for type real: \"%s\"", f.Rows)
		case !m.SetOf:
			return sqlerr.New(sqlerr.InvalidParameterValue, "ROWS is not applicable when function does not return a set")
		case rows <= 0:
			return sqlerr.New(sqlerr.InvalidParameterValue, "ROWS must be positive")
		}
		m.Rows = rows
	}
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
	var argNames []string
	for _, a := range m.Args {
		if a.Mode != "o" {
			argNames = append(argNames, a.Type)
		}
	}
	sig := sc.Name + "(" + strings.Join(argNames, ", ") + ")" // the row's key, as createFunction's
	for k, o := range s.eng.meta.Functions().All() {
		if k != sig {
			if err := s.eng.addFunction(reg, o); err != nil {
				s.eng.log.Warn("stored function left out", "function", k, "error", err)
			}
		}
	}
	for k, o := range s.tempFns.fns { // tempfunctions.go: pg_temp's, called as pg_temp.name
		if k != sig {
			if err := s.eng.addFunction(reg, o); err != nil {
				s.eng.log.Warn("temporary function left out", "function", k, "error", err)
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
	if se := sqlerr.As(err); se != nil && se.Position > 0 {
		at := bodyPos(se.Position)
		if at == 0 {
			return se.AsUnplaced()
		}
		return se.WithPosition(at)
	}
	return err
}

// invalidFunctionDefinition is PostgreSQL's 42P13.
const invalidFunctionDefinition = sqlerr.Code("42P13")

// functionRowTypeUsers refuses DROP TABLE of info when a function takes
// or returns the table's row type, as PostgreSQL's dependency on the
// type does (2BP01 naming them; with CASCADE, where PostgreSQL drops the
// functions, 0A000): the function would no longer resolve.
func (s *session) functionRowTypeUsers(info fluss.TableInfo, cascade bool) error {
	oid := types.TableRowTypeOID(info.TableID)
	all := s.eng.meta.Functions().All()
	var users []string
	for sig, m := range all {
		texts := []string{m.Returns}
		for _, a := range m.Args {
			texts = append(texts, a.Type)
		}
		for i, text := range texts {
			if text == "" {
				continue
			}
			t, err := s.eng.typeNamed(text)
			for err == nil && t.Kind == types.Array && t.Elem != nil {
				t = *t.Elem
			}
			if err == nil && t.TypeOID == oid {
				// PostgreSQL names the type for the result, the table for
				// a parameter
				what := "table"
				if i == 0 {
					what = "type"
				}
				users = append(users, fmt.Sprintf("function %s depends on %s %s", sig, what, info.Path.Table))
				break
			}
		}
	}
	if len(users) == 0 {
		return nil
	}
	slices.Sort(users)
	if cascade {
		return sqlerr.NotSupported("DROP TABLE ... CASCADE of a table whose row type a function takes or returns (" + strings.TrimPrefix(users[0], "function ") + ")")
	}
	return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", info.Path.Table).
		WithDetail("%s", strings.Join(users, "\n")).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
}
