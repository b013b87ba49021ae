package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/exec/functions"
	"github.com/sqlgate/sqlgate/pgwire/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

// RegNamer implements pgwire.RegNamers: the text output of reg* result
// columns (regclass ...) asks the catalog with the session's search_path,
// under ctx (the portal's). Without a catalog the values print as numbers.
func (s *session) RegNamer(ctx context.Context) pgtypes.RegNamer {
	ci, ok := s.eng.opts.Virtual.(functions.CatalogInfo)
	if !ok {
		return nil
	}
	ctx = functions.WithCatalog(ctx, ci)
	ctx = functions.WithSession(ctx, functions.Session{User: s.info.User, Database: s.info.Database,
		BackendPID: int32(s.info.ProcessID), Setting: s.Status, Location: s.location()})
	return func(v types.Variant, oid uint32) (string, bool) {
		name, err := functions.RegName(ctx, v, oid)
		return name, err == nil
	}
}
