package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// prepareCopy prepares a COPY statement (see pgwire.CopyStatement).
func (s *session) prepareCopy(ctx context.Context, st *sql.Statement) (*statement, error) {
	return nil, sqlerr.NotSupported("COPY")
}
