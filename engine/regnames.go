package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// RegNamer implements pgwire.RegNamers: the text output of reg* result
// columns (regclass ...) asks the catalog with the session's search_path,
// under ctx (the portal's). Without a catalog the values print as numbers.
func (s *session) RegNamer(ctx context.Context) pgtypes.RegNamer {
	ctx, ok := s.regContext(ctx)
	if !ok {
		return nil
	}
	return func(v types.Variant, oid uint32) (string, bool) {
		name, err := functions.RegName(ctx, v, oid)
		return name, err == nil
	}
}

// regParam reads a reg* parameter the client sent as text with the type's
// input function (a relation name for regclass ...), as PostgreSQL's Bind
// does.
func (s *session) regParam(ctx context.Context, v types.Variant, text string) (uint32, error) {
	rctx, ok := s.regContext(ctx)
	if !ok {
		return 0, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type %s: %q", v.Name(), text)
	}
	return functions.RegIn(rctx, v, text)
}

// regContext is ctx with the catalog and the session the reg* input and
// output functions read; false without a catalog.
func (s *session) regContext(ctx context.Context) (context.Context, bool) {
	ci, ok := s.eng.opts.Virtual.(functions.CatalogInfo)
	if !ok {
		return ctx, false
	}
	ctx = functions.WithCatalog(ctx, ci)
	ctx = functions.WithSession(ctx, functions.Session{User: s.info.User, SchemaUsable: s.usableFn, Database: s.info.Database,
		BackendPID: int32(s.info.ProcessID), Setting: s.Status, Style: &s.parsedStyle, Location: s.location()})
	return ctx, true
}
