package fluss

import "context"

// TableRecreator is implemented by stores that can replace a table by an
// empty one in one commit: the table at path gets a new id and no rows or
// log, under the same name and with the descriptor given, and there is no
// moment at which the name names nothing. TRUNCATE of a log table (which
// Fluss only appends to) is that; a store without it is sent a drop and a
// create, between which a crash loses the table. The embedded store
// implements it (its catalog is sqlgate's own); a Fluss 0.9.1 cluster's
// Admin API has no such call.
type TableRecreator interface {
	// RecreateTable replaces the table at path (42P01 when there is none)
	// and returns the new table's info. An error with a non-zero TableID
	// is the store's work after its commit failing: the table is
	// recreated all the same. Past the commit ctx's end stops nothing.
	RecreateTable(ctx context.Context, path TablePath, desc TableDescriptor) (TableInfo, error)
}
