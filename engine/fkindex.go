package engine

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/fluss"
)

// fkIndex is every foreign key of the store by the table it references,
// built once per catalog count by the Engine and shared by its sessions:
// read-only once built.
type fkIndex struct {
	version uint64
	// referencing are the foreign keys that reference a table, in the
	// order PostgreSQL fires their triggers (the referencing tables'
	// creation order, then each table's keys in order).
	referencing map[fluss.TablePath][]fkRef
	// byName are the foreign keys by name; others the names of the other
	// constraints (primary keys, CHECKs), for SET CONSTRAINTS.
	byName map[string][]fluss.ForeignKey
	others map[string]bool
	// own are each table's own foreign keys (read once here, not per
	// write: fluss.MetaOf parses the properties).
	own map[fluss.TablePath][]fluss.ForeignKey
}

// fkIndexCache is the Engine's fkIndex: the last one built, and the lock
// under which one is built (so that sessions after a DDL wait for one
// build instead of each listing the store's tables: a GetTable per table
// on a cluster).
type fkIndexCache struct {
	mu  sync.Mutex
	cur *fkIndex // guarded by mu
}

// fkIndexNow returns the index of the store's foreign keys at the
// current catalog count.
func (s *session) fkIndexNow(ctx context.Context) (*fkIndex, error) {
	return s.eng.fkeys.at(ctx, s.eng.store, &s.eng.ddl, &s.eng.catalog)
}

// at returns the index at the current catalog count, building it when
// the one held is older. A DDL bumps the count at its start, under the
// DDL lock's write side, and changes the store after: an index built
// while one runs may hold the store before its change, under the count
// after it, and must not be kept (it would be reused until the next DDL:
// a new foreign key unenforced). So an index is kept only when built
// under the DDL lock's read side, which no DDL holds meanwhile; one built
// while a DDL runs (the DDL's own session's, or a session's that finds a
// DDL holding or awaiting the lock) serves that caller alone.
func (c *fkIndexCache) at(ctx context.Context, store fluss.Store, ddl *sync.RWMutex, catalog *atomic.Uint64) (*fkIndex, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != nil && c.cur.version == catalog.Load() {
		return c.cur, nil
	}
	if !ddl.TryRLock() {
		// (never blocks: the caller may hold either side already)
		return buildFKIndex(ctx, store, catalog.Load())
	}
	defer ddl.RUnlock()
	v := catalog.Load()
	if c.cur != nil && c.cur.version == v {
		return c.cur, nil
	}
	idx, err := buildFKIndex(ctx, store, v)
	if err != nil {
		return nil, err
	}
	c.cur = idx
	return idx, nil
}

// buildFKIndex lists the store's tables and indexes their foreign keys.
func buildFKIndex(ctx context.Context, store fluss.Store, v uint64) (*fkIndex, error) {
	idx := &fkIndex{version: v, referencing: map[fluss.TablePath][]fkRef{}, byName: map[string][]fluss.ForeignKey{}, others: map[string]bool{}, own: map[fluss.TablePath][]fluss.ForeignKey{}}
	dbs, err := store.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	var tables []fluss.TableInfo
	for _, db := range dbs {
		ts, err := store.ListTables(ctx, db)
		if err != nil {
			return nil, err
		}
		tables = append(tables, ts...)
	}
	// PostgreSQL fires a referenced row's RI triggers in the order of
	// their names, which carry the constraints' creation order
	slices.SortStableFunc(tables, func(a, b fluss.TableInfo) int { return cmp.Compare(a.TableID, b.TableID) })
	for _, t := range tables {
		m := fluss.MetaOf(t.Descriptor)
		if len(m.ForeignKeys) > 0 {
			idx.own[t.Path] = m.ForeignKeys
		}
		for _, fk := range m.ForeignKeys {
			idx.referencing[fk.RefTable] = append(idx.referencing[fk.RefTable], fkRef{child: t.Path, fk: fk})
			idx.byName[fk.Name] = append(idx.byName[fk.Name], fk)
		}
		for _, c := range m.Checks {
			idx.others[c.Name] = true
		}
		if t.HasPrimaryKey() {
			idx.others[t.PrimaryKeyName()] = true
		}
	}
	return idx, nil
}
