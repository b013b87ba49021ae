package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// The DROP statements of objects sqlgate's catalog has none of, or none
// of the kind named, answered as PostgreSQL 15 answers them when the
// object does not exist: DROP PROCEDURE and DROP AGGREGATE (sqlgate's
// routines are functions, its aggregates built in), DROP TRIGGER, DROP
// POLICY and DROP RULE (no relation has any). DROP ROUTINE drops a
// function (pyfunctions.go dropFunction), as PostgreSQL's does.

// dropTag is the command tag of DROP FUNCTION / PROCEDURE / ROUTINE /
// AGGREGATE.
func dropTag(f *sql.FunctionStmt) string {
	if f.Object == "" {
		return "DROP FUNCTION"
	}
	return "DROP " + strings.ToUpper(f.Object)
}

// noticeIf is tag's result with notice n, nil when n is nil (a statement
// that failed instead).
func noticeIf(tag string, n *sqlerr.Error) pgwire.Result {
	if n == nil {
		return nil
	}
	return noticeResult(tag, n)
}

// dropSignature is the input argument types' names f's list names, for
// DROP's lookup. A type that does not exist is LookupTypeName's 42704,
// or with IF EXISTS (DROP only) the NOTICE of PostgreSQL's
// type_in_list_does_not_exist_skipping: the statement skips.
func (s *session) dropSignature(f *sql.FunctionStmt) (want []string, oids []uint32, skip *sqlerr.Error, err error) {
	for _, a := range f.Args {
		if a.Mode == 'o' && f.Object == "aggregate" {
			continue
		}
		t, name, err := s.eng.signatureType(a.Type)
		if err != nil {
			if f.Drop && f.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedObject {
				return nil, nil, skipped("type", typeNameText(a.Type)), nil
			}
			return nil, nil, nil, err
		}
		oid, _, _ := pgtypes.OIDOf(t)
		want, oids = append(want, name), append(oids, oid)
	}
	return want, oids, nil, nil
}

// builtinKind is the prokind of the built-in routine named with exactly
// argument types oids ('f', 'a' or 'w'), 0 when there is none.
func builtinKind(name string, oids []uint32) byte {
	for _, r := range pgproc.Rows() {
		if r.Name == name && slices.Equal(r.Args, oids) {
			return r.Kind
		}
	}
	return 0
}

// builtinDropError is DROP's error for the built-in routine of kind k
// (prokind) f names with argument types want: the kind is checked first
// (PostgreSQL's LookupFuncWithArgs, then RemoveObjects' refusal of an
// aggregate for DROP FUNCTION), then that the system needs it (2BP01).
func builtinDropError(f *sql.FunctionStmt, want []string, k byte) error {
	sig := qualifiedText(f.Name.Schema, f.Name.Name) + "(" + strings.Join(want, ", ") + ")"
	switch {
	case f.Object == "procedure":
		return sqlerr.New(sqlerr.WrongObjectType, "%s is not a procedure", sig)
	case f.Object == "aggregate" && k != 'a':
		return sqlerr.New(sqlerr.WrongObjectType, "function %s is not an aggregate", sig)
	case f.Object == "" && k == 'a':
		return sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is an aggregate function", qualifiedText(f.Name.Schema, f.Name.Name)).
			WithHint("Use DROP AGGREGATE to drop aggregate functions.")
	}
	return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop function %s(%s) because it is required by the database system", f.Name.Name, strings.Join(want, ", "))
}

// dropNonFunction is DROP PROCEDURE and DROP AGGREGATE, and DROP of any
// routine named in a schema other than public: sqlgate has no procedures,
// no user-defined aggregates and no functions outside public, so the
// routine named is missing, or is a built-in or a function of that
// signature, which PostgreSQL's LookupFuncWithArgs refuses as the wrong
// kind (42809) even with IF EXISTS. A name without an argument list
// looks for routines of the kind alone: none.
// It returns the NOTICE of an IF EXISTS that skips, or the error.
func (s *session) dropNonFunction(ctx context.Context, f *sql.FunctionStmt) (*sqlerr.Error, error) {
	if f.Name.Schema != "" && f.Name.Schema != "public" {
		if !f.IfExists {
			// LookupFuncWithArgs resolves the argument types before
			// the name's schema
			if _, _, _, err := s.dropSignature(f); err != nil {
				return nil, err
			}
		}
		if f.Name.Schema != "pg_catalog" {
			if err := s.missingSchema(ctx, f.Name.Schema); err != nil {
				if f.IfExists {
					return skipped("schema", f.Name.Schema), nil
				}
				return nil, err
			}
		}
	}
	want, oids, skip, err := s.dropSignature(f)
	if err != nil || skip != nil {
		return skip, err
	}
	name := qualifiedText(f.Name.Schema, f.Name.Name)
	args := strings.Join(want, ", ")
	if f.Star {
		args = "*"
	}
	if f.HasArgs && (f.Name.Schema == "" || f.Name.Schema == "pg_catalog") { // (*): no arguments
		if k := builtinKind(f.Name.Name, oids); k != 0 {
			return nil, builtinDropError(f, want, k)
		}
	}
	if f.HasArgs && !f.Star && (f.Name.Schema == "" || f.Name.Schema == fluss.DefaultDatabase) && (f.Object == "procedure" || f.Object == "aggregate") {
		if _, ok := s.eng.meta.Functions().All()[f.Name.Name+"("+args+")"]; ok {
			if f.Object == "aggregate" {
				return nil, sqlerr.New(sqlerr.WrongObjectType, "function %s(%s) is not an aggregate", name, args)
			}
			return nil, sqlerr.New(sqlerr.WrongObjectType, "%s(%s) is not a procedure", name, args)
		}
	}
	if f.IfExists {
		return functionSkipped(f), nil
	}
	word := f.Object
	if word == "" || word == "routine" {
		word = "function" // LookupFuncWithArgs words a routine so
	}
	if !f.HasArgs {
		return nil, sqlerr.New(sqlerr.UndefinedFunction, "could not find a %s named \"%s\"", word, name)
	}
	return nil, sqlerr.New(sqlerr.UndefinedFunction, "%s %s(%s) does not exist", word, name, args)
}

// notPublicFunction reports whether DROP f names a routine that cannot be
// one of sqlgate's functions (dropNonFunction answers it): a procedure, an
// aggregate, or a routine in a schema other than public.
func notPublicFunction(f *sql.FunctionStmt) bool {
	return f.Object == "procedure" || f.Object == "aggregate" || f.Name.Schema != "" && f.Name.Schema != fluss.DefaultDatabase
}

// dropRoutineList is DROP FUNCTION / PROCEDURE / ROUTINE / AGGREGATE of
// several routines, as PostgreSQL's RemoveObjects runs it: each looked up
// in the order written (the first that is missing is the statement's
// 42883, or with IF EXISTS a NOTICE each, the routine skipped), then all
// that were found dropped together, in one metadata update: all or none.
func (s *session) dropRoutineList(ctx context.Context, f *sql.FunctionStmt, tag string) (pgwire.Result, error) {
	rs := append([]sql.FunctionStmt{*f}, f.More...)
	type routine struct {
		pre        error         // the lookup's error outside the metadata
		skip       *sqlerr.Error // its IF EXISTS NOTICE
		want       []string
		oids       []uint32
		tableUses  []tableFunctionUse
		ownRoutine bool   // one of sqlgate's functions, looked up in tx
		tempSig    string // a temporary function's (tempfunctions.go)
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	looked := make([]routine, len(rs))
	for i := range rs {
		r, l := &rs[i], &looked[i]
		if s.tempRoutine(r) {
			l.tempSig, l.skip, l.pre = s.findTempFunction(r) // tempfunctions.go
			continue
		}
		if notPublicFunction(r) {
			l.skip, l.pre = s.dropNonFunction(ctx, r)
			continue
		}
		if l.want, l.oids, l.skip, l.pre = s.dropSignature(r); l.pre != nil || l.skip != nil {
			continue
		}
		l.ownRoutine = true
		l.tableUses, l.pre = s.tableFunctionUses(ctx, r.Name.Name)
	}
	var notices []*sqlerr.Error
	var cascaded []views.View
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		notices, cascaded = nil, nil
		var sigs []string
		var of []int
		for i, l := range looked {
			if l.pre != nil {
				return l.pre
			}
			if l.skip != nil {
				notices = append(notices, l.skip)
			}
			if l.skip != nil || !l.ownRoutine {
				continue
			}
			sig, skip, err := s.findFunction(tx.Functions, &rs[i], l.want, l.oids) // pyfunctions.go
			switch {
			case err != nil:
				return err
			case skip != nil:
				notices = append(notices, skip)
			case !slices.Contains(sigs, sig):
				sigs, of = append(sigs, sig), append(of, i)
			}
		}
		for k, sig := range sigs {
			deps, err := s.removeFunction(tx, &rs[of[k]], sig, looked[of[k]].tableUses)
			if err != nil {
				return err
			}
			cascaded = append(cascaded, deps...)
		}
		return nil
	})
	if err != nil {
		// the NOTICEs of the routines looked up before the one that
		// failed, sent before the error as PostgreSQL's are
		noticeResult(tag, notices...) // (their severity and SQLSTATE)
		for _, n := range notices {
			s.warn(n) // advisory.go
		}
		return nil, metaErr(err)
	}
	s.dropBackingHeld(ctx, cascaded) // matview.go: a materialized view's table
	for _, l := range looked {
		if l.tempSig != "" {
			s.forgetTempFunction(l.tempSig)
		}
	}
	if len(cascaded) > 0 {
		notices = append(notices, cascadeNotice(cascaded))
	}
	return noticeResult(tag, notices...), nil
}

// dropOnRelation is DROP TRIGGER, DROP POLICY and DROP RULE: the relation
// must exist (3F000 for a qualified name's missing schema, else 42P01
// naming it as written; with IF EXISTS the NOTICE of PostgreSQL's
// owningrel_does_not_exist_skipping), and then has no such object: 42704
// as get_trigger_oid, get_relation_policy_oid and get_rewrite_oid word
// it, or with IF EXISTS does_not_exist_skipping's NOTICE. A view's
// "_RETURN" rule is its query, which only dropping the view drops.
func (s *session) dropOnRelation(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	kind := strings.ToLower(strings.TrimPrefix(d.Verb, "DROP "))
	name, rel := d.Names[0], d.Table
	if rel.Schema != "" {
		if exists, err := s.eng.tables.SchemaExists(ctx, rel.Schema); err == nil && !exists {
			if d.IfExists {
				return noticeResult(d.Verb, skipped("schema", rel.Schema)), nil
			}
			return nil, sqlerr.UndefinedSchema(rel.Schema)
		}
	}
	path, err := s.resolvePath(ctx, rel)
	if err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return nil, err
	}
	if err != nil || !s.relationAtPath(ctx, path) { // comments.go
		if d.IfExists {
			return noticeResult(d.Verb, skipped("relation", qualifiedText(rel.Schema, rel.Name))), nil
		}
		return nil, sqlerr.UndefinedRelation(qualifiedText(rel.Schema, rel.Name))
	}
	if kind == "rule" && name == "_RETURN" {
		if v, ok := s.eng.meta.Views().Get(path); ok {
			what := relationKind(v)
			return nil, sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop rule _RETURN on %s %s because %s %s requires it", what, path.Table, what, path.Table).
				WithHint("You can drop %s %s instead.", what, path.Table)
		}
	}
	if d.IfExists {
		return noticeResult(d.Verb, sqlerr.New(sqlerr.SuccessfulCompletion, "%s \"%s\" for relation \"%s\" does not exist, skipping", kind, name, qualifiedText(rel.Schema, rel.Name))), nil
	}
	of := "table" // get_trigger_oid's and get_relation_policy_oid's word for any relation
	if kind == "rule" {
		of = "relation"
	}
	return nil, sqlerr.New(sqlerr.UndefinedObject, "%s \"%s\" for %s \"%s\" does not exist", kind, name, of, path.Table)
}
