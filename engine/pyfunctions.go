package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
	"github.com/sqlgate/sqlgate/views"
)

// Functions made by CREATE FUNCTION ... LANGUAGE python: kept in the
// metadata store (meta.Function, one row each, so they persist and a
// cluster's servers share them) and run by the Python worker pool
// (Options.Python, package pyudf). Statements bind against one registry
// holding the Go UDFs and these (UDFs), rebuilt when the functions change.

// pyRegistry is the registry of one version of the stored functions.
type pyRegistry struct {
	fns *meta.Functions
	reg *udf.Registry
	// rowTypes are the tables' row types its functions take or return,
	// as they were when it was built: an ALTER TABLE since makes it stale
	rowTypes []types.T
}

// UDFs is the registry statements bind against now: the server's Go UDFs
// and the functions CREATE FUNCTION made (pg_proc lists the same).
func (e *Engine) UDFs() *udf.Registry {
	fns := e.meta.Functions()
	if fns.Len() == 0 {
		return e.opts.UDFs
	}
	if c := e.pyReg.Load(); c != nil && c.fns == fns && e.rowTypesCurrent(c.rowTypes) {
		return c.reg
	}
	reg := e.opts.UDFs.Clone()
	if reg == nil {
		reg = udf.NewRegistry()
	}
	all := fns.All()
	sigs := make([]string, 0, len(all))
	for sig := range all {
		sigs = append(sigs, sig)
	}
	slices.Sort(sigs)
	for _, sig := range sigs {
		if err := e.addFunction(reg, all[sig]); err != nil {
			// a stored function that no longer resolves (a type this
			// version spells differently) is left out, not fatal
			e.log.Warn("stored function left out", "function", sig, "error", err)
		}
	}
	e.pyReg.Store(&pyRegistry{fns: fns, reg: reg, rowTypes: e.tableRowTypesOf(reg)})
	return reg
}

// tableRowTypesOf are the tables' row types reg's LANGUAGE sql functions
// take or return (an array's element type too).
func (e *Engine) tableRowTypesOf(reg *udf.Registry) []types.T {
	var out []types.T
	for _, name := range reg.Names() {
		for _, f := range reg.Scalars(name) {
			if f.SQL == nil {
				continue
			}
			for _, t := range append([]types.T{f.Returns}, f.Args...) {
				for t.Kind == types.Array && t.Elem != nil {
					t = *t.Elem
				}
				if c := e.typeReg.Composite(t.TypeOID); t.IsComposite() && c != nil && c.RelOID != 0 {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// rowTypesCurrent reports whether the tables' row types ts are still
// their tables' (no ALTER TABLE changed their columns since).
func (e *Engine) rowTypesCurrent(ts []types.T) bool {
	for _, t := range ts {
		c := e.typeReg.Composite(t.TypeOID)
		if c == nil {
			return false
		}
		now, ok := signatureTypes{engineTypes{e}}.CompositeType(c.Schema, c.Name) // compositetypes.go
		if !ok || !now.T().Equal(t) {
			return false
		}
	}
	return true
}

// UDFs makes tables (through engineTypes) a binder.UDFCatalog: an
// expression bound over the tables alone (a CHECK constraint, a column's
// DEFAULT or generation expression, evaluated by every write and by COPY)
// calls the user's functions as a statement's expressions do.
func (t engineTypes) UDFs() *udf.Registry { return t.e.UDFs() }

// addFunction adds a stored function to reg.
func (e *Engine) addFunction(reg *udf.Registry, m meta.Function) error {
	if m.Language == "sql" {
		sc, err := e.sqlScalar(m) // sqlfunctions.go
		if err != nil {
			return err
		}
		return reg.AddScalar(sc)
	}
	f, err := e.resolveFunction(m)
	if err != nil {
		return err
	}
	if len(f.Table) > 0 {
		b := e.opts.Python.Batch(f)
		b.Owner, b.Comment = m.Owner, m.Comment
		return reg.AddBatch(b)
	}
	sc := e.opts.Python.Scalar(f)
	sc.Owner, sc.Comment = m.Owner, m.Comment
	return reg.AddScalar(sc)
}

// resolveFunction turns a stored function's type names into types.
func (e *Engine) resolveFunction(m meta.Function) (*pyudf.Function, error) {
	f := &pyudf.Function{Name: m.Name, Body: m.Body}
	cols := func(as []meta.FunctionArg) ([]udf.Column, error) {
		out := make([]udf.Column, len(as))
		for i, a := range as {
			t, err := e.typeNamed(a.Type)
			if err != nil {
				return nil, err
			}
			out[i] = udf.Column{Name: a.Name, Type: t}
		}
		return out, nil
	}
	var err error
	if f.Args, err = cols(m.Args); err != nil {
		return nil, err
	}
	if f.Table, err = cols(m.Table); err != nil {
		return nil, err
	}
	if len(m.Table) == 0 {
		if f.Returns, err = e.typeNamed(m.Returns); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// typeNamed is the type a stored or written type name of a function's
// signature stands for, user-defined types (enums, composites, domains,
// arrays of them) included: a domain stands for its base type, which the
// body and the callers see.
func (e *Engine) typeNamed(text string) (types.T, error) {
	t, _, err := e.signatureType(text)
	return t, err
}

// signatureType is typeNamed with the name the function's row keeps for
// the type: PostgreSQL's name of a built-in type (pg_proc's signature
// text), a user-defined type's name (schema-qualified outside the
// default schema, quoted where needed, [] for an array of it). ALTER TYPE
// and ALTER DOMAIN ... RENAME TO rewrite these names (typerename.go).
func (e *Engine) signatureType(text string) (types.T, string, error) {
	tn, err := sql.ParseTypeName(text)
	if err != nil {
		return types.T{}, "", err
	}
	ut := signatureTypes{engineTypes{e}}
	t, err := binder.TypeOfIn(tn, ut)
	if err != nil {
		return types.T{}, "", err
	}
	if d, array := binder.DomainOfTypeName(tn, ut); d != nil {
		return t, signatureName(d.Schema, d.Name, array), nil
	}
	return t, t.PGName(), nil
}

// paramTypeError is CREATE FUNCTION's error for a parameter's type that
// does not exist: PostgreSQL's interpret_function_parameter_list prints
// the name unquoted, as written (TypeNameToString: nosuch[], s.t).
func paramTypeError(text string, err error) error {
	if sqlerr.CodeOf(err) != sqlerr.UndefinedObject || strings.Contains(text, `"`) {
		return err
	}
	return sqlerr.New(sqlerr.UndefinedObject, "type %s does not exist", strings.Join(strings.Fields(strings.ToLower(text)), " "))
}

// signatureName is the stored name of the user-defined type schema.name
// (or an array of it when array).
func signatureName(schema, name string, array bool) string {
	n := sql.NameText(name)
	if schema != "" && schema != fluss.DefaultDatabase {
		n = sql.NameText(schema) + "." + n
	}
	if array {
		n += "[]"
	}
	return n
}

// execFunction runs CREATE [OR REPLACE] FUNCTION and DROP FUNCTION (st's
// Function).
func (s *session) execFunction(ctx context.Context, st *sql.Statement) (pgwire.Result, error) {
	f := st.Function
	tag := "CREATE FUNCTION"
	switch {
	case f.Drop:
		tag = dropTag(f)
	case f.Owner != "" || f.RenameTo != "":
		tag = "ALTER FUNCTION"
	}
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	if f.Drop && len(f.More) > 0 {
		return s.dropRoutineList(ctx, f, tag) // droproutines.go
	}
	if f.Drop && s.tempRoutine(f) {
		return s.dropTempFunction(f, tag) // tempfunctions.go
	}
	if f.Drop && notPublicFunction(f) {
		n, err := s.dropNonFunction(ctx, f) // droproutines.go
		return noticeIf(tag, n), err
	}
	if f.Name.Schema != "" && f.Name.Schema != "public" && !(s.tempRoutine(f) && f.Owner == "" && f.RenameTo == "") {
		if f.Name.Schema != "pg_catalog" {
			if err := s.missingSchema(ctx, f.Name.Schema); err != nil {
				return nil, err
			}
		}
		return nil, sqlerr.NotSupported("functions outside schema public")
	}
	if f.Drop || f.Owner != "" || f.RenameTo != "" {
		return s.dropFunction(ctx, f)
	}
	defer s.undoMetaObjects(ctx)() // txundo.go: the function as it was, or none
	return s.createFunction(ctx, f, st.BodyPosition)
}

// createFunction runs CREATE [OR REPLACE] FUNCTION f; bodyPos places an
// error's position in f's body in the statement (sql.Statement's
// BodyPosition).
func (s *session) createFunction(ctx context.Context, f *sql.FunctionStmt, bodyPos func(int) int) (pgwire.Result, error) {
	lang := f.Language
	switch lang {
	case "python", "plpython3u":
		lang = "python"
		if !s.superuser {
			// Python is untrusted, as PostgreSQL's plpython3u
			return nil, sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for language python").
				WithDetail("Only superusers can create functions in an untrusted language.")
		}
		if err := pythonOptions(f); err != nil {
			return nil, err
		}
	case "sql":
		// trusted: anyone may create one, as PUBLIC has USAGE on it
	case "plpgsql", "c", "internal":
		return nil, sqlerr.NotSupported("CREATE FUNCTION ... LANGUAGE " + f.Language + " (sqlgate runs LANGUAGE sql and python functions)")
	default:
		return nil, sqlerr.New(sqlerr.UndefinedObject, "language \"%s\" does not exist", f.Language)
	}
	temp := s.tempRoutine(f)
	if temp && lang != "sql" {
		return nil, sqlerr.NotSupported("temporary LANGUAGE " + lang + " functions (pg_temp's functions are LANGUAGE sql)")
	}
	m := meta.Function{Name: f.Name.Name, Language: lang, Body: f.Body, Owner: s.info.User}
	if temp {
		m.Name = binder.TempFunctionName(f.Name.Name) // tempfunctions.go
	}
	if lang == "sql" {
		m.BodyKind, m.Volatility, m.Strict = f.BodyKind, f.Volatility, f.Strict
		if m.Volatility == 0 {
			m.Volatility = 'v'
		}
	}
	canon := func(as []sql.FunctionArg, what string) ([]meta.FunctionArg, []string, error) {
		out, names := make([]meta.FunctionArg, len(as)), make([]string, len(as))
		seen := map[string]bool{}
		for i, a := range as {
			_, name, err := s.eng.signatureType(a.Type)
			if err != nil {
				return nil, nil, paramTypeError(a.Type, err)
			}
			if a.Name != "" {
				if seen[a.Name] {
					return nil, nil, sqlerr.New(sqlerr.Code("42P13"), "%s name \"%s\" used more than once", what, a.Name)
				}
				seen[a.Name] = true
				if lang == "python" && !pythonName(a.Name) {
					return nil, nil, sqlerr.New(sqlerr.Code("42P13"), "%s name \"%s\" is not a Python identifier", what, a.Name)
				}
			}
			out[i], names[i] = meta.FunctionArg{Name: a.Name, Type: name}, name
			if a.Mode != 0 {
				if lang != "sql" {
					return nil, nil, sqlerr.NotSupported("OUT, INOUT and VARIADIC parameters for LANGUAGE " + lang)
				}
				out[i].Mode = string(a.Mode)
			}
		}
		// the signature: the input parameters' types
		sig := names[:0:0]
		for i, a := range out {
			if a.Mode != "o" {
				sig = append(sig, names[i])
			}
		}
		return out, sig, nil
	}
	var argTypes []string
	var err error
	if m.Args, argTypes, err = canon(f.Args, "parameter"); err != nil {
		return nil, err
	}
	for i, d := range f.Defaults {
		m.Args[i].Default = d
	}
	if lang == "sql" {
		if f.Table != nil {
			// RETURNS TABLE's columns are output parameters, whose
			// names may repeat an input one's (PostgreSQL's
			// interpret_function_parameter_list), not each other's
			if m.Table, _, err = canon(f.Table, "parameter"); err != nil {
				return nil, err
			}
		}
		if err := s.checkSQLFunction(ctx, f, &m, bodyPos); err != nil { // sqlfunctions.go
			return nil, err
		}
	} else if f.Table != nil {
		if len(f.Args) == 0 {
			return nil, sqlerr.New(sqlerr.Code("42P13"), "a LANGUAGE python function RETURNS TABLE maps an input relation: it needs arguments (the relation's columns)")
		}
		if m.Table, _, err = canon(f.Table, "column"); err != nil {
			return nil, err
		}
	} else {
		_, name, err := s.eng.signatureType(f.Returns)
		if err != nil {
			return nil, err
		}
		if len(f.Args) == 0 && lang == "python" {
			return nil, sqlerr.New(sqlerr.Code("42P13"), "a LANGUAGE python scalar function needs at least one argument (it maps batches of them)")
		}
		m.Returns = name
	}
	sig := m.Name + "(" + strings.Join(argTypes, ", ") + ")"
	if temp {
		return s.createTempFunction(ctx, f, m, sig) // tempfunctions.go
	}
	// the function must make a valid UDF next to the others (names of
	// built-ins, a Go UDF's, the other kind's)
	if lang == "python" {
		if _, err := s.eng.resolveFunction(m); err != nil {
			return nil, err
		}
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		old, exists := tx.Functions[sig]
		switch {
		case exists && !f.OrReplace:
			return sqlerr.New(sqlerr.Code("42723"), "function \"%s\" already exists with same argument types", m.Name)
		case exists && (old.Returns != m.Returns || old.SetOf != m.SetOf || !slices.Equal(old.Table, m.Table)):
			return sqlerr.New(sqlerr.Code("42P13"), "cannot change return type of existing function").
				WithHint("Use DROP FUNCTION %s first.", sig)
		case exists && old.Owner != s.info.User && !s.superuser:
			return mustOwn("function", m.Name)
		case exists:
			if err := replaceableArgs(old, m, sig); err != nil {
				return err
			}
		}
		if exists { // CREATE OR REPLACE keeps the owner and the comment
			m.Owner, m.Comment = old.Owner, old.Comment
		}
		reg := s.eng.opts.UDFs.Clone()
		if reg == nil {
			reg = udf.NewRegistry()
		}
		for k, o := range tx.Functions {
			if k != sig {
				if err := s.eng.addFunction(reg, o); err != nil {
					return err
				}
			}
		}
		if err := s.eng.addFunction(reg, m); err != nil {
			return sqlerr.New(sqlerr.Code("42723"), "function %s: %v", sig, err)
		}
		if err := binder.CheckUDFNames(reg); err != nil {
			return err
		}
		tx.Functions[sig] = m
		return nil
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly("CREATE FUNCTION"), nil
}

// dropFunction runs DROP FUNCTION and ALTER FUNCTION ... OWNER TO
// (f.Owner, owners.go's rules), which find the function alike.
func (s *session) dropFunction(ctx context.Context, f *sql.FunctionStmt) (pgwire.Result, error) {
	tag, role := dropTag(f), ""
	if f.RenameTo != "" {
		tag = "ALTER FUNCTION"
	}
	if f.Owner != "" {
		tag = "ALTER FUNCTION"
		var err error
		if role, err = s.ownerRole(f.Owner); err != nil { // owners.go
			return nil, err
		}
	}
	want, oids, skip, err := s.dropSignature(f) // droproutines.go
	if err != nil || skip != nil {
		return noticeIf(tag, skip), err
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	var rename *typeRename
	var edits []tableEdit
	if f.RenameTo != "" {
		if rename, edits, err = s.planFunctionRename(ctx, f, want); err != nil { // functionrename.go
			return nil, err
		}
	}
	var tableUses []tableFunctionUse
	if f.Drop {
		if tableUses, err = s.tableFunctionUses(ctx, f.Name.Name); err != nil {
			return nil, err
		}
	}
	var notice *sqlerr.Error
	var cascaded []views.View // the views DROP ... CASCADE took
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		notice, cascaded = nil, nil
		sig, skip, err := s.findFunction(tx.Functions, f, want, oids)
		if err != nil || skip != nil {
			notice = skip
			return err
		}
		if rename != nil {
			if err := s.renameFunction(tx, sig, rename); err != nil { // functionrename.go
				return err
			}
			return recordTableEdits(tx, edits)
		}
		if role != "" {
			m := tx.Functions[sig]
			if same, err := s.mayGiveTo("function", f.Name.Name, m.Owner, role); same || err != nil {
				return err
			}
			m.Owner = role
			tx.Functions[sig] = m
			return nil
		}
		cascaded, err = s.removeFunction(tx, f, sig, tableUses)
		if len(cascaded) > 0 {
			notice = cascadeNotice(cascaded)
		}
		return err
	})
	if err == nil {
		err = s.followTableEdits(ctx, edits) // typerename.go
	}
	if err != nil {
		return nil, metaErr(err)
	}
	s.dropBackingHeld(ctx, cascaded) // matview.go: a materialized view's table
	if notice != nil {
		return noticeResult(tag, notice), nil
	}
	return tagOnly(tag), nil
}

// findFunction is the signature of the function DROP / ALTER FUNCTION f
// names among fns (want and oids its argument types), or with DROP ... IF
// EXISTS the NOTICE of a function that does not exist.
func (s *session) findFunction(fns map[string]meta.Function, f *sql.FunctionStmt, want []string, oids []uint32) (sig string, skip *sqlerr.Error, err error) {
	var match []string
	for sig, m := range fns {
		if m.Name != f.Name.Name {
			continue
		}
		if f.HasArgs && sig != m.Name+"("+strings.Join(want, ", ")+")" {
			continue
		}
		match = append(match, sig)
	}
	switch {
	case len(match) == 0 && len(s.eng.opts.UDFs.Scalars(f.Name.Name))+len(s.eng.opts.UDFs.Tables(f.Name.Name))+len(s.eng.opts.UDFs.Batches(f.Name.Name)) > 0:
		return "", nil, sqlerr.New(sqlerr.InsufficientPrivilege, "cannot drop function %s because it is a Go UDF of the server", f.Name.Name)
	case len(match) == 0 && f.HasArgs && f.Drop && builtinKind(f.Name.Name, oids) != 0:
		return "", nil, builtinDropError(f, want, builtinKind(f.Name.Name, oids)) // droproutines.go
	case len(match) == 0:
		if f.IfExists && f.Drop {
			return "", functionSkipped(f), nil
		}
		return "", nil, functionMissing(f, want)
	case len(match) > 1:
		return "", nil, sqlerr.New(sqlerr.Code("42725"), "function name \"%s\" is not unique", f.Name.Name).
			WithHint("Specify the argument list to select the function unambiguously.")
	}
	return match[0], nil, nil
}

// removeFunction drops the function of signature sig that DROP FUNCTION f
// found in tx: its owner's, refused while views or table expressions
// (tableUses) depend on it, unless CASCADE, which drops the views (the
// ones it returns).
func (s *session) removeFunction(tx *meta.Tx, f *sql.FunctionStmt, sig string, tableUses []tableFunctionUse) ([]views.View, error) {
	if o := tx.Functions[sig].Owner; o != s.info.User && !s.superuser {
		return nil, mustOwn("function", f.Name.Name)
	}
	deps, lines := functionDependents(tx.Views, sig)
	tlines := tableDependentLines(tableUses, sig)
	if len(deps)+len(tlines) > 0 && !f.Cascade {
		lines = append(lines, tlines...)
		return nil, sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop function %s because other objects depend on it", sig).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	if len(tlines) > 0 {
		// PostgreSQL drops the constraint, the default or the column
		return nil, sqlerr.NotSupported(fmt.Sprintf("DROP FUNCTION ... CASCADE of a function a table's expression calls (%s)", tlines[0]))
	}
	if len(deps) > 0 {
		if err := dropViewsIn(tx, deps); err != nil { // cascade.go
			return nil, err
		}
	}
	delete(tx.Functions, sig)
	return deps, nil
}

// functionDependents are the views that depend on the function of
// signature sig, directly or through other views, in PostgreSQL's order,
// and the DETAIL lines of DROP FUNCTION's 2BP01 naming them.
func functionDependents(vs *views.Store, sig string) ([]views.View, []string) {
	var out []views.View
	var lines []string
	seen := map[fluss.TablePath]bool{}
	var walk func(kind, name string, ds []views.View)
	walk = func(kind, name string, ds []views.View) {
		for _, d := range ds {
			if seen[d.Path] {
				continue
			}
			seen[d.Path] = true
			out = append(out, d)
			lines = append(lines, fmt.Sprintf("%s %s depends on %s %s", relationKind(d), d.Path.Table, kind, name))
			walk(relationKind(d), d.Path.Table, vs.Dependents(d.Path))
		}
	}
	walk("function", sig, vs.FunctionDependents(sig))
	return out, lines
}

// tableFunctionUse is an expression of a table that calls LANGUAGE sql
// functions (binder.TableFunctionUses).
type tableFunctionUse struct {
	table string
	binder.TableFunctionUse
}

// tableFunctionUses are the expressions of the user tables (CHECK
// constraints, defaults, generation expressions) that call a LANGUAGE sql
// function named name: none unless such a function exists, so a DROP
// FUNCTION of another kind binds nothing.
func (s *session) tableFunctionUses(ctx context.Context, name string) ([]tableFunctionUse, error) {
	found := false
	for _, m := range s.eng.meta.Functions().All() {
		found = found || m.Name == name && m.Language == "sql"
	}
	if !found {
		return nil, nil
	}
	infos, err := s.userTables(ctx) // tables.go
	if err != nil {
		return nil, err
	}
	var out []tableFunctionUse
	for _, info := range infos {
		for _, u := range binder.TableFunctionUses(s.sessionCtx(ctx), s.eng.tables, info) {
			out = append(out, tableFunctionUse{table: info.Path.Table, TableFunctionUse: u})
		}
	}
	return out, nil
}

// tableDependentLines are DROP FUNCTION's DETAIL lines, in PostgreSQL's
// words, for the table expressions of uses that call the function of
// signature sig.
func tableDependentLines(uses []tableFunctionUse, sig string) []string {
	var lines []string
	for _, u := range uses {
		if !slices.Contains(u.Funcs, sig) {
			continue
		}
		switch u.Kind {
		case "check":
			lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on function %s", u.Name, u.table, sig))
		case "default":
			lines = append(lines, fmt.Sprintf("default value for column %s of table %s depends on function %s", u.Name, u.table, sig))
		default:
			lines = append(lines, fmt.Sprintf("column %s of table %s depends on function %s", u.Name, u.table, sig))
		}
	}
	return lines
}

// replaceableArgs is CREATE OR REPLACE's rule on the arguments
// (PostgreSQL's ProcedureCreate): a named input parameter keeps its name,
// and the parameters that had defaults keep having them.
func replaceableArgs(old, m meta.Function, sig string) error {
	hint := "Use DROP FUNCTION " + sig + " first."
	olddefs, newdefs := 0, 0
	for i, a := range old.Args {
		if i < len(m.Args) && a.Name != "" && a.Name != m.Args[i].Name {
			return sqlerr.New(sqlerr.Code("42P13"), "cannot change name of input parameter \"%s\"", a.Name).WithHint("%s", hint)
		}
		if a.Default != "" {
			olddefs++
		}
		if i < len(m.Args) && m.Args[i].Default != "" {
			newdefs++
		}
	}
	if newdefs < olddefs {
		return sqlerr.New(sqlerr.Code("42P13"), "cannot remove parameter defaults from existing function").WithHint("%s", hint)
	}
	return nil
}

// pythonName reports whether an argument name is a Python identifier
// (arguments are the function's parameters there).
func pythonName(n string) bool {
	for i, r := range n {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return n != "" && n != "batch" && n != "pa" && n != "pc"
}
