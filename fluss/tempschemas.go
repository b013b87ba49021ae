package fluss

import "context"

// TempSchemaStore is implemented by stores that several sqlgate servers
// share (a Fluss cluster), where a session's temporary schema must be named
// apart from every other server's sessions' and dropped by the others when
// its server dies. The engine names a session's temporary schema with
// TempSchema and calls HoldTempSchemas before it creates the first one.
type TempSchemaStore interface {
	// TempSchema is the temporary schema of this server's session whose
	// backend process id is pid (a name starting with "pg_temp_").
	TempSchema(pid int32) string
	// HoldTempSchemas marks this server's temporary schemas as alive,
	// before the first is created and until the store is closed; the
	// schemas of a server that stopped doing so are dropped by the others.
	HoldTempSchemas(ctx context.Context) error
}
