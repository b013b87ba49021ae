package meta

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
)

// Table DDL and the metadata version row. A store that caches table info
// across statements (remote.Store, whose GetTableInfo is a coordinator
// round trip) must learn when another sqlgate server changed a table. The
// version row that every server already reads at each statement (Refresh)
// carries that news: each DDL through the store rewrites the row
// (Announce), and a server whose Refresh sees a version it does not hold
// drops its cached table info (ForgetTables) along with reloading the
// rows. No extra request per statement, and none per DDL beyond one PutKv.

// catalogCache is a store that caches table info (remote.Store).
type catalogCache interface {
	// ForgetTables drops every cached table info.
	ForgetTables()
	// OnCatalogChange sets what the store calls after each DDL it makes.
	OnCatalogChange(announce func(context.Context) error)
}

// watchCatalog ties store's table-info cache to the version row.
func (m *Store) watchCatalog(store fluss.Store) {
	cc, ok := store.(catalogCache)
	if !ok {
		return
	}
	m.forgetTables = cc.ForgetTables
	cc.OnCatalogChange(m.Announce)
}

// Announce writes a new version row and nothing else: every server,
// this one included (the new version is not taken as held), reloads at
// its next statement and drops its cached table info. Without a lock:
// whichever of two concurrent version writes lands last, it is a version
// some server does not hold, and that is all the news needs.
func (m *Store) Announce(ctx context.Context) error {
	return m.b.commit(ctx, nil, newVersion())
}
