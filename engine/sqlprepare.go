package engine

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SQL-level PREPARE / EXECUTE / DEALLOCATE. A statement PREPAREd in SQL and
// one the client prepared with the protocol's Parse share PostgreSQL's one
// namespace: PREPARE of a name Parse used is 42P05, DEALLOCATE drops either
// (through pgwire.ProtocolStatements), EXECUTE runs SQL-level ones.

// SetProtocolStatements implements pgwire.ProtocolStatementsUser.
func (s *session) SetProtocolStatements(p pgwire.ProtocolStatements) { s.protocol = p }

func undefinedPrepared(name string) error {
	return sqlerr.New(sqlerr.UndefinedPreparedStatement, "prepared statement \"%s\" does not exist", name)
}

// sqlPrepare runs PREPARE name [(types)] AS statement: the statement is
// bound and planned now, as PostgreSQL does, and planned again at EXECUTE
// after a catalog change.
func (s *session) sqlPrepare(ctx context.Context, p *sql.PrepareStmt, source string) (pgwire.Result, error) {
	if _, ok := s.sqlPrepared[p.Name]; ok || s.protocol != nil && s.protocol.Has(p.Name) {
		return nil, sqlerr.New(sqlerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", p.Name)
	}
	declared := make([]types.T, len(p.Types))
	for i, tn := range p.Types {
		t, err := binder.TypeOfIn(tn, engineTypes{s.eng}) // enumtypes.go
		if err != nil {
			return nil, err
		}
		declared[i] = withoutTypmod(t)
	}
	stmts, err := s.parser.Parse(p.Body)
	if err != nil {
		return nil, placeInQuery(err, "", p.BodyPos) // matview.go
	}
	if len(stmts) != 1 {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \";\"")
	}
	ps, err := s.prepareOne(ctx, stmts[0], declared)
	if err != nil {
		return nil, placeInQuery(err, "", p.BodyPos)
	}
	if s.sqlPrepared == nil {
		s.sqlPrepared = map[string]*statement{}
	}
	s.sqlPrepared[p.Name] = ps
	s.notePrepared(p.Name, source) // preparedstmts.go
	return tagOnly("PREPARE"), nil
}

// withoutTypmod is a PREPAREd parameter's type: PostgreSQL keeps a
// parameter's type OID only, so PREPARE p(varchar(2)) takes 'abcdef'
// whole and p(numeric(5,1)) 1.2345 unrounded. (A timestamp's precision
// stays: sqlgate stores its values at it; so does a bit string's length,
// which its comparisons read.)
func withoutTypmod(t types.T) types.T {
	switch {
	case t.Kind == types.Array && t.Elem != nil:
		e := withoutTypmod(*t.Elem)
		t.Elem = &e
	case t.Kind == types.Decimal:
		t.Precision, t.Scale = 0, 0
	case t.Kind == types.Char && !t.IsBitString():
		t.Length = 0
	case t.Kind == types.String && t.Variant == types.NoVariant && t.Length > 0:
		t.Length = -1
	}
	return t
}

// prepareExecute gives EXECUTE the result columns of the statement it
// runs (none when it does not exist yet: EXECUTE then fails with 26000).
func (s *session) prepareExecute(_ context.Context, ps *statement) (*statement, error) {
	if target, ok := s.sqlPrepared[ps.parsed.DDL.Execute.Name]; ok {
		ps.cols = target.cols
	}
	return ps, nil
}

// sqlExecute runs EXECUTE name [(args)]: each argument is a constant
// expression, evaluated and passed as the parameter's text.
func (s *session) sqlExecute(ctx context.Context, ps *statement, _ []any) (pgwire.Result, error) {
	ex := ps.parsed.DDL.Execute
	target, ok := s.sqlPrepared[ex.Name]
	if !ok {
		return nil, undefinedPrepared(ex.Name)
	}
	if len(ex.Args) != len(target.params) {
		return nil, sqlerr.New(sqlerr.SyntaxError, "wrong number of parameters for prepared statement \"%s\"", ex.Name).
			WithDetail("Expected %d parameters but got %d.", len(target.params), len(ex.Args))
	}
	var values []any
	if len(ex.Args) > 0 {
		var err error
		if values, err = s.evalArgs(ctx, ex, target.params); err != nil {
			return nil, err
		}
	}
	if !sameColumns(target.cols, ps.cols) {
		return nil, cachedPlanChanged()
	}
	s.notePlanUsed(ex.Name)
	return target.execute(ctx, values)
}

// evalArgs evaluates EXECUTE's arguments to their text (nil for NULL),
// each coerced to its parameter's type as PostgreSQL's EvaluateParams
// does (binder.ExecuteArg: the assignment rules, 42804 at the argument
// where none applies), then cast to text, which the statement reads as
// the parameter's value.
func (s *session) evalArgs(ctx context.Context, ex *sql.ExecuteStmt, params []types.T) ([]any, error) {
	args := ex.Args
	parts := make([]string, len(args))
	cat := &recordingCatalog{tables: s.eng.tables, udfs: s.udfs(), meta: s.eng.meta, parse: s.parseView, files: s, hidden: s.hidden}
	pctx := s.planContext(ctx)
	for i, a := range args {
		s.eng.ddl.RLock() // bound as prepareFresh binds, the catalog steady
		cat.views = s.eng.meta.Views()
		castTo, err := binder.ExecuteArg(pctx, cat, i+1, a, params[i])
		s.eng.ddl.RUnlock()
		if err != nil {
			return nil, argError(err, ex.ArgPos[i])
		}
		parts[i] = "CAST((" + a + ") AS text)"
		if castTo != "" {
			parts[i] = "CAST(CAST((" + a + ") AS " + castTo + ") AS text)"
		}
	}
	stmts, err := s.parser.Parse("SELECT " + strings.Join(parts, ", "))
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 || stmts[0].Kind != sql.Select {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error in EXECUTE's arguments")
	}
	qps, err := s.prepareOne(ctx, stmts[0], nil)
	if err != nil {
		return nil, err
	}
	res, err := qps.execute(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	out := make([]any, len(args))
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return out, nil
		}
		if b.NumRows() > 0 {
			for i := range args {
				col := b.Column(i).(*array.String)
				if col.IsValid(0) {
					out[i] = col.Value(0)
				}
			}
		}
		b.Release()
	}
}

// argError places an error about an EXECUTE argument: a position in the
// argument's text moves to its place in the statement (argPos), an error
// without one points at the argument, as PostgreSQL's do.
func argError(err error, argPos int) error {
	e := sqlerr.As(err)
	if e == nil {
		return err
	}
	if e.Position == 0 {
		return e.WithPosition(argPos)
	}
	return e.WithPosition(argPos + e.Position - 1)
}

// deallocate runs DEALLOCATE [PREPARE] name | ALL.
func (s *session) deallocate(d *sql.DeallocateStmt) (pgwire.Result, error) {
	if d.All {
		clear(s.sqlPrepared)
		clear(s.sqlPreparedMeta)
		if s.protocol != nil {
			s.protocol.DeallocateAll()
		}
		return tagOnly("DEALLOCATE ALL"), nil
	}
	_, found := s.sqlPrepared[d.Name]
	delete(s.sqlPrepared, d.Name)
	delete(s.sqlPreparedMeta, d.Name)
	if s.protocol != nil && s.protocol.Deallocate(d.Name) {
		found = true
	}
	if !found {
		return nil, undefinedPrepared(d.Name)
	}
	return tagOnly("DEALLOCATE"), nil
}
