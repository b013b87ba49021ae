package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Unique constraints and DDL (unique.go enforces them): CREATE TABLE
// makes a constraint's index table (empty) after the table; ALTER TABLE
// ... ADD UNIQUE and CREATE UNIQUE INDEX build it from the stored rows
// first (23505 "could not create unique index" for a duplicate, as
// PostgreSQL's index build reports it) and then add the constraint to
// the table's metadata; DROP CONSTRAINT, DROP INDEX and DROP TABLE drop
// it. Index tables are named by the table's id and the constraint's
// (fluss.IndexTablePath), so that RENAME of the table or a column moves
// nothing. A crash between the steps leaves an index table no constraint
// names (never read; a later constraint of the same number drops it
// first, and the next start of the server drops it: dropOrphanIndexTables)
// or a constraint whose index table is missing (built again, from the
// rows, by the first write that needs it: unique.go).

// uniqueStore refuses unique constraints on a store that cannot enforce
// them: a Fluss cluster writes no two tables atomically and has no lock
// that other servers' writers honour.
func (s *session) uniqueStore() error {
	_, atomic := s.eng.store.(fluss.AtomicWriter)
	rl, ok := s.eng.store.(fluss.RowLockable)
	if atomic && ok && rl.RowLocksSerializeWriters() {
		return nil
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE constraints other than the primary key are not supported on a Fluss cluster").
		WithDetail("A Fluss table has no secondary unique index, and on a cluster sqlgate can neither write a table and an index of its own atomically nor lock a value against other servers' writers.").
		WithHint("Make the columns the PRIMARY KEY, or drop the UNIQUE constraint.")
}

// checkUniqueTypes refuses a unique constraint whose columns the store
// cannot use as an index table's key (the store's error for a primary key
// of those types).
func (s *session) checkUniqueTypes(info fluss.TableInfo, c fluss.UniqueConstraint) error {
	if _, err := fluss.ValidateDescriptor(indexDescriptor(info, c)); err != nil {
		return sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE constraint \"%s\" is not supported on its column types", c.Name).
			WithDetail("%s", strings.TrimSpace(err.Error()))
	}
	return nil
}

// beforeCreate checks a new table's unique constraints before CREATE
// TABLE makes it.
func (s *session) beforeCreate(path fluss.TablePath, desc fluss.TableDescriptor) error {
	if !hasUniques(desc) {
		return nil
	}
	if err := s.uniqueStore(); err != nil {
		return err
	}
	info := fluss.TableInfo{Path: path, Descriptor: desc}
	for _, c := range fluss.MetaOf(desc).Uniques {
		if err := s.checkUniqueTypes(info, c); err != nil {
			return err
		}
	}
	return nil
}

// createIndexes makes the (empty) index tables of a table CREATE TABLE
// made; on failure the table is dropped again.
func (s *session) createIndexes(ctx context.Context, info fluss.TableInfo) error {
	if !hasUniques(info.Descriptor) {
		return nil
	}
	pk := keyIndexes(info)
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if !enforced(c, pk) {
			continue
		}
		if _, err := s.eng.store.CreateTable(ctx, fluss.IndexTablePath(info.TableID, c.ID), indexDescriptor(info, c), true); err != nil {
			_ = s.eng.store.DropTable(context.WithoutCancel(ctx), info.Path, true) // (whatever ended ctx)
			return err
		}
	}
	return nil
}

// dropIndexes drops the index tables of a dropped table (from its
// constraints' ids; one a crash left behind is never read).
func (s *session) dropIndexes(ctx context.Context, info fluss.TableInfo) {
	s.dropPlainIndexes(ctx, info) // ddlindex.go
	if !hasUniques(info.Descriptor) {
		return
	}
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if err := s.eng.store.DropTable(ctx, fluss.IndexTablePath(info.TableID, c.ID), true); err != nil {
			s.eng.log.Error("dropping a unique constraint's index table (never read again)", "table", info.Path.String(), "constraint", c.Name, "error", err)
		}
	}
}

// buildIndex makes c's index table of info's table and fills it from the
// table's committed rows (fillIndex): 23505 for two rows with the same
// value (unless repair, when it rebuilds an index a crash lost and a
// duplicate cannot be). An index table already there (left by a crash)
// is dropped first, and the one made is dropped again when the build
// fails.
func (s *session) buildIndex(ctx context.Context, info fluss.TableInfo, c fluss.UniqueConstraint, repair bool) error {
	if !enforced(c, keyIndexes(info)) {
		return nil
	}
	path := fluss.IndexTablePath(info.TableID, c.ID)
	if err := s.eng.store.DropTable(ctx, path, true); err != nil {
		return err
	}
	_, err := s.eng.store.CreateTable(ctx, path, indexDescriptor(info, c), false)
	var t fluss.Table
	if err == nil {
		t, err = s.eng.store.Table(ctx, info.Path)
	}
	if err == nil {
		err = s.fillIndex(ctx, t, c, path, repair)
	}
	if err != nil {
		// (whatever ended ctx: a cancel must not leave the index table)
		_ = s.eng.store.DropTable(context.WithoutCancel(ctx), path, true)
		return err
	}
	return nil
}

// fillIndex writes the index entries of constraint c for the rows of src
// into the (empty) index table at path, batch by batch: a value met twice
// (within a batch, or already in the index from an earlier one: looked
// up) fails with 23505, unless repair (the first row's entry is kept).
// Memory holds one batch's entries, not the index. The one index build:
// of a constraint added to a table (buildIndex) and of a rewritten
// table's constraints (rewriteunique.go).
func (s *session) fillIndex(ctx context.Context, src fluss.Table, c fluss.UniqueConstraint, path fluss.TablePath, repair bool) error {
	info := src.Info()
	it, err := s.eng.store.Table(ctx, path)
	if err != nil {
		return err
	}
	ui := &uniqueIndex{c: c, path: path}
	u := &uniqueTable{s: s, info: info, pk: keyIndexes(info), cons: []*uniqueIndex{ui}}
	schema := it.Info().ArrowSchema()
	keySchema := arrow.NewSchema(schema.Fields()[:len(c.Columns)], nil)
	return scanEach(ctx, src, fluss.ScanOptions{BatchRows: copyBatchRows}, func(b arrow.RecordBatch) (bool, error) { // tables.go
		var rows [][]any
		var owners []uniqueRow
		seen := map[string]bool{}
		for i := 0; i < int(b.NumRows()); i++ {
			row := u.rowOf(b, i)
			k := u.keyOf(row.vals, c.Columns)
			if k == "" {
				continue // a null: no entry (NULLS DISTINCT)
			}
			if seen[k] {
				if repair {
					continue
				}
				b.Release()
				return false, s.duplicateIn(info, c, row)
			}
			seen[k] = true
			rows = append(rows, u.entry(ui, row))
			owners = append(owners, row)
		}
		b.Release()
		if len(rows) == 0 {
			return false, nil
		}
		for {
			k, err := firstIndexed(ctx, it, keySchema, rows, len(c.Columns))
			if err != nil || k < 0 {
				if err != nil {
					return false, err
				}
				break
			}
			if !repair {
				return false, s.duplicateIn(info, c, owners[k])
			}
			rows, owners = slices.Delete(rows, k, k+1), slices.Delete(owners, k, k+1)
		}
		if len(rows) == 0 {
			return false, nil
		}
		rec, err := buildRows(schema, rows) // fk.go
		if err != nil {
			return false, err
		}
		_, err = it.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		return false, err
	})
}

// firstIndexed is the first of entries (index rows, their first n values
// the key) whose key the index table it already holds (-1 for none).
func firstIndexed(ctx context.Context, it fluss.Table, keySchema *arrow.Schema, entries [][]any, n int) (int, error) {
	keys := make([][]any, len(entries))
	for i, e := range entries {
		keys[i] = e[:n]
	}
	rec, err := buildRows(keySchema, keys)
	if err != nil {
		return -1, err
	}
	found, err := it.Lookup(ctx, rec, nil)
	rec.Release()
	if err != nil || found == nil {
		return -1, err
	}
	defer found.Release()
	if found.NumRows() == 0 {
		return -1, nil
	}
	u := &uniqueTable{}
	have := map[string]bool{}
	idx := seq(0, n) // unique.go
	for r := 0; r < int(found.NumRows()); r++ {
		vals := make([]any, n)
		for c := 0; c < n; c++ {
			vals[c] = types.ValueAt(found.Column(c), r)
		}
		have[u.keyOf(vals, idx)] = true
	}
	return slices.IndexFunc(entries, func(e []any) bool { return have[u.keyOf(e[:n], idx)] }), nil
}

// duplicateIn is PostgreSQL's error of an index build that met a value
// twice.
func (s *session) duplicateIn(info fluss.TableInfo, c fluss.UniqueConstraint, row uniqueRow) error {
	loc, st := s.location(), s.style()
	cols := info.Descriptor.Schema.Columns
	names := make([]string, len(c.Columns))
	vals := make([]string, len(c.Columns))
	for k, col := range c.Columns {
		names[k] = cols[col].Name
		vals[k] = exec.DetailValue(row.vals[col], cols[col].Type, loc, st)
	}
	return sqlerr.New(sqlerr.UniqueViolation, "could not create unique index \"%s\"", c.Name).
		WithDetail("Key (%s)=(%s) is duplicated.", strings.Join(names, ", "), strings.Join(vals, ", "))
}

// uniqueNumbers are the numbers of d's unique constraints' metadata keys
// (sqlgate.unique.K.*), by constraint name.
func uniqueNumbers(d fluss.TableDescriptor) (map[string]int, int) {
	byName := map[string]int{}
	next := 1
	for _, props := range []map[string]string{d.Properties, d.CustomProperties} {
		for k, v := range props {
			rest, ok := strings.CutPrefix(k, fluss.MetaPrefix+"unique.")
			if !ok {
				continue
			}
			num, field, _ := strings.Cut(rest, ".")
			n := 0
			for _, ch := range num {
				if ch < '0' || ch > '9' {
					n = -1
					break
				}
				n = n*10 + int(ch-'0')
			}
			if n < 1 {
				continue
			}
			next = max(next, n+1)
			if field == "name" {
				byName[v] = n
			}
		}
	}
	return byName, next
}

// addUniqueChanges are the metadata changes that add c to work's table.
func addUniqueChanges(work fluss.TableInfo, c fluss.UniqueConstraint) []fluss.TableChange {
	_, n := uniqueNumbers(work.Descriptor)
	props := fluss.UniqueProperties(n, c)
	var out []fluss.TableChange
	for _, k := range slices.Sorted(maps.Keys(props)) {
		out = append(out, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: props[k]})
	}
	return out
}

// dropUniqueChanges are the metadata changes that drop the constraint
// named name of work's table (nil when it has none of that name).
func dropUniqueChanges(work fluss.TableInfo, name string) ([]fluss.TableChange, *fluss.UniqueConstraint) {
	m := fluss.MetaOf(work.Descriptor)
	k := slices.IndexFunc(m.Uniques, func(u fluss.UniqueConstraint) bool { return u.Name == name })
	if k < 0 {
		return nil, nil
	}
	byName, _ := uniqueNumbers(work.Descriptor)
	n := byName[name]
	var out []fluss.TableChange
	for key := range fluss.UniqueProperties(n, m.Uniques[k]) {
		out = append(out, fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: key})
	}
	slices.SortFunc(out, func(a, b fluss.TableChange) int { return strings.Compare(a.Key, b.Key) })
	return out, &m.Uniques[k]
}

// uniqueAlter runs ALTER TABLE ... ADD UNIQUE and DROP CONSTRAINT of a
// unique constraint (handled false for a DROP of another constraint).
// An added constraint's index is built (and the stored rows checked)
// at once; a dropped one's index table is dropped.
func (s *session) uniqueAlter(ctx context.Context, c *checkActions, a sql.AlterAction) (changes []fluss.TableChange, handled bool, err error) {
	switch a.Kind {
	case sql.AlterAddUnique:
		if err := s.uniqueStore(); err != nil {
			return nil, true, err
		}
		u, err := binder.AddUnique(ctx, s.eng.tables, c.work, *a.Unique, false)
		if err != nil {
			return nil, true, err
		}
		if err := s.checkUniqueTypes(c.work, u); err != nil {
			return nil, true, err
		}
		if err := s.lockForBuild(ctx, c.stored); err != nil {
			return nil, true, err
		}
		if slices.ContainsFunc(u.Columns, func(col int) bool { return col >= len(c.stored.Descriptor.Schema.Columns) }) {
			// a column the statement adds: null in every stored row
			if _, err := s.eng.store.CreateTable(ctx, fluss.IndexTablePath(c.work.TableID, u.ID), indexDescriptor(c.work, u), true); err != nil {
				return nil, true, err
			}
		} else if err := s.buildIndex(ctx, c.stored, u, false); err != nil {
			return nil, true, err
		} else if err := s.carryEntries(ctx, c.stored, u); err != nil { // uniquecarry.go: the block's rows
			_ = s.eng.store.DropTable(context.WithoutCancel(ctx), fluss.IndexTablePath(c.work.TableID, u.ID), true)
			return nil, true, err
		}
		c.built = append(c.built, fluss.IndexTablePath(c.work.TableID, u.ID))
		return addUniqueChanges(c.work, u), true, nil
	case sql.AlterDropConstraint:
		changes, u := dropUniqueChanges(c.work, a.Constraint)
		if u == nil || u.Index {
			return nil, false, nil
		}
		refs, err := s.uniqueDependents(ctx, c.work, *u)
		if err != nil {
			return nil, true, err
		}
		if len(refs) > 0 && !a.Cascade {
			return nil, true, dependentsError(fmt.Sprintf("constraint %s on table %s", u.Name, c.work.Path.Table), u.Name, refs)
		}
		// CASCADE: the foreign keys go with it, those of other tables and
		// the index table only once the statement's own change is made
		// (alterTable runs c.after): a later action that fails leaves
		// them all, as PostgreSQL's.
		own, others := cascadeSplit(c.work, refs)
		changes = append(changes, own...)
		index := fluss.IndexTablePath(c.work.TableID, u.ID)
		c.after = append(c.after, func(ctx context.Context) error {
			for _, r := range others {
				s.eng.ddl.Lock()
				err := s.dropFKey(ctx, r) // fkddl.go
				s.eng.ddl.Unlock()
				if err != nil {
					return err
				}
			}
			return s.eng.store.DropTable(ctx, index, true)
		})
		c.notices = append(c.notices, cascadeNotices(refs)...)
		return changes, true, nil
	}
	return nil, false, nil
}

// createUniqueIndex is CREATE UNIQUE INDEX [IF NOT EXISTS] [name] ON t
// (cols): a unique index of plain columns, kept and enforced as a unique
// constraint is, listed as an index only. An expression or partial
// unique index is refused (0A000).
func (s *session) createUniqueIndex(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	info, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		return nil, err
	}
	if err := s.uniqueStore(); err != nil {
		return nil, err
	}
	if err := s.mayDrop(info); err != nil { // an index is made by its table's owner
		return nil, err
	}
	if d.IndexNullsNotDistinct {
		// refused as the constraint is (binder/unique.go), not built as
		// an index whose NULLs are distinct
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE NULLS NOT DISTINCT is not supported").
			WithHint("Declare the columns NOT NULL, which makes NULLS NOT DISTINCT the same as the default.")
	}
	if d.IndexPartial {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "partial unique indexes are not supported").
			WithHint("Index the columns without a WHERE clause, or enforce the rule in a CHECK constraint.")
	}
	var cols []string
	for _, text := range d.IndexColumns {
		name, ok := plainIndexColumn(text)
		if !ok {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "unique indexes on expressions are not supported").
				WithDetail("Index element %s is not a plain column.", strings.TrimSpace(text)).
				WithHint("Index the table's columns; store the expression in a generated column and index that.")
		}
		cols = append(cols, name)
	}
	if d.Index != "" && d.IfNotExists && s.relationNamed(ctx, info.Path.Database, d.Index) {
		return noticeResult("CREATE INDEX", sqlerr.New(sqlerr.SuccessfulCompletion, "relation \"%s\" already exists, skipping", d.Index)), nil
	}
	if d.Index != "" && s.relationNamed(ctx, info.Path.Database, d.Index) {
		return nil, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", d.Index)
	}
	if err := s.blockDDL("CREATE INDEX", pathIn([]fluss.TablePath{info.Path})); err != nil {
		return nil, err
	}
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return nil, s.uniqueStore()
	}
	// The build waits for the table's writers (lockForBuild) and reads its
	// rows before the server-wide DDL lock, as ALTER TABLE ... ADD UNIQUE
	// does: a writer's next statement takes that lock's read side, so
	// holding it while waiting for the writer deadlocked the two across
	// lock systems and stalled every other session for the build.
	if err := s.lockForBuild(ctx, info); err != nil {
		return nil, err
	}
	if info, err = s.resolveTable(ctx, d.Table); err != nil { // as it is once the writers are done
		return nil, err
	}
	u, err := binder.AddUnique(ctx, s.eng.tables, info, sql.UniqueClause{Name: d.Index, Columns: cols}, true)
	if err != nil {
		return nil, err
	}
	if err := s.checkUniqueTypes(info, u); err != nil {
		return nil, err
	}
	if err := s.buildIndex(ctx, info, u, false); err != nil {
		return nil, err
	}
	// a built index table the statement does not keep goes, whatever
	// ended ctx (a cancel before the table takes the index)
	dropBuilt := func() {
		_ = s.eng.store.DropTable(context.WithoutCancel(ctx), fluss.IndexTablePath(info.TableID, u.ID), true)
	}
	if err := s.carryEntries(ctx, info, u); err != nil { // uniquecarry.go: the block's rows
		dropBuilt()
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if err := s.sameTableAsBuilt(ctx, d, info, u); err != nil {
		return nil, err
	}
	if _, err := alt.AlterTable(ctx, info.Path, addUniqueChanges(info, u)); err != nil {
		dropBuilt()
		return nil, err
	}
	return tagOnly("CREATE INDEX"), nil
}

// sameTableAsBuilt re-checks, under the DDL lock, that the table the
// index u was built for (info) is still the table named and has taken no
// constraint with u's id or name since: else (a DDL of another session
// in between) the built index table is dropped and the statement fails
// with 40001, to be retried.
func (s *session) sameTableAsBuilt(ctx context.Context, d *sql.DDLStmt, info fluss.TableInfo, u fluss.UniqueConstraint) error {
	now, err := s.resolveTable(ctx, d.Table)
	same := err == nil && now.TableID == info.TableID
	taken, idTaken := false, false
	if same {
		for _, c := range fluss.MetaOf(now.Descriptor).Uniques {
			taken = taken || c.ID == u.ID || c.Name == u.Name
			idTaken = idTaken || c.ID == u.ID
		}
		if !taken {
			return nil
		}
	}
	if !idTaken { // the index table built is nobody else's
		_ = s.eng.store.DropTable(ctx, fluss.IndexTablePath(info.TableID, u.ID), true)
	}
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update").
		WithDetail("Table \"%s\" was altered while its unique index \"%s\" was built.", info.Path.Table, u.Name)
}

// plainIndexColumn reads an index element that is a column name,
// optionally with ASC / DESC / NULLS FIRST | LAST (which a unique
// index's equality ignores).
func plainIndexColumn(text string) (string, bool) {
	text = strings.TrimSpace(text)
	var name, rest string
	if strings.HasPrefix(text, `"`) { // a quoted name, "" inside for "
		end := 1
		for end < len(text) && (text[end] != '"' || end+1 < len(text) && text[end+1] == '"') {
			if text[end] == '"' {
				end++
			}
			end++
		}
		if end >= len(text) {
			return "", false
		}
		name, rest = strings.ReplaceAll(text[1:end], `""`, `"`), text[end+1:]
	} else {
		n, r, _ := strings.Cut(text, " ")
		for _, c := range n {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$') {
				return "", false
			}
		}
		name, rest = strings.ToLower(n), r
	}
	for _, w := range strings.Fields(rest) {
		switch strings.ToUpper(w) {
		case "ASC", "DESC", "NULLS", "FIRST", "LAST":
		default:
			return "", false
		}
	}
	return name, name != ""
}

// uniqueIndexOf finds the unique constraint or index named name in
// database db: its table and the constraint.
func (s *session) uniqueIndexOf(ctx context.Context, db, name string) (fluss.TableInfo, fluss.UniqueConstraint, bool) {
	ts, err := s.eng.store.ListTables(ctx, db)
	if err != nil {
		return fluss.TableInfo{}, fluss.UniqueConstraint{}, false
	}
	for _, t := range ts {
		if !hasUniques(t.Descriptor) {
			continue
		}
		for _, u := range fluss.MetaOf(t.Descriptor).Uniques {
			if u.Name == name {
				return t, u, true
			}
		}
	}
	return fluss.TableInfo{}, fluss.UniqueConstraint{}, false
}

// dropUniqueIndex is DROP INDEX of a unique index CREATE UNIQUE INDEX
// made (done false for another name). The index of a UNIQUE constraint
// is refused as PostgreSQL refuses it (2BP01).
//
// The name is resolved as PostgreSQL resolves a relation's: in its schema
// when qualified, else in the first schema of the search path that holds
// it; an index of a schema the name does not reach is not this one.
func (s *session) dropUniqueIndex(ctx context.Context, d *sql.DDLStmt, schema, name string) (done bool, notices []*sqlerr.Error, err error) {
	var info fluss.TableInfo
	var u fluss.UniqueConstraint
	found := false
	dbs := []string{schema}
	if schema == "" {
		if dbs, err = s.eng.tables.existingPath(s.sessionCtx(ctx)); err != nil {
			return true, nil, err
		}
	}
	for _, db := range dbs {
		if info, u, found = s.uniqueIndexOf(ctx, db, name); found {
			break
		}
	}
	if !found {
		return false, nil, nil
	}
	if err := s.mayDrop(info); err != nil { // the index is its table owner's
		return true, nil, mustOwn("index", name)
	}
	if !u.Index {
		return true, nil, sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it", name, name, info.Path.Table).
			WithHint("You can drop constraint %s on table %s instead.", name, info.Path.Table)
	}
	refs, err := s.uniqueDependents(ctx, info, u)
	if err != nil {
		return true, nil, err
	}
	if len(refs) > 0 && !d.Cascade {
		return true, nil, dependentsError("index "+name, name, refs)
	}
	if err := s.blockDDL("DROP INDEX", pathIn([]fluss.TablePath{info.Path})); err != nil {
		return true, nil, err
	}
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return true, nil, s.uniqueStore()
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	changes, _ := dropUniqueChanges(info, name)
	own, others := cascadeSplit(info, refs) // CASCADE: the foreign keys go with it
	changes = append(changes, own...)
	if _, err := alt.AlterTable(ctx, info.Path, changes); err != nil {
		return true, nil, err
	}
	// Other tables' foreign keys once the index is gone from its table: a
	// failed change above leaves them. Past that change the statement
	// finishes whatever ends ctx: a cancel would leave keys over an index
	// that is gone.
	ctx = context.WithoutCancel(ctx)
	for _, r := range others {
		if err := s.dropFKey(ctx, r); err != nil { // fkddl.go
			return true, nil, err
		}
	}
	if err := s.eng.store.DropTable(ctx, fluss.IndexTablePath(info.TableID, u.ID), true); err != nil {
		s.eng.log.Error("dropping a unique index's table (never read again)", "table", info.Path.String(), "index", name, "error", err)
	}
	return true, cascadeNotices(refs), nil
}

// truncateUnique is TRUNCATE, outside a transaction block, of a table
// with unique constraints: the table's keys and its index tables' entries
// are deleted in one atomic write, the index tables kept (dropping and
// making them again failed with 40001 the COMMIT of every transaction
// that had written one meanwhile). The table is locked whole first, as
// PostgreSQL's ACCESS EXCLUSIVE lock waits for its writers: a writer
// between the reads of the keys and the write could otherwise insert a
// value whose entry the write deletes (a row left with no entry). The
// index tables are read before the table, so that an entry deleted names
// a row the table's read saw (at worst an entry is left whose row is
// gone: stale, which counts as none, unique.go).
func (s *session) truncateUnique(ctx context.Context, info fluss.TableInfo) (pgwire.Result, error) {
	aw, ok := s.eng.store.(fluss.AtomicWriter)
	if !ok {
		return nil, s.uniqueStore()
	}
	if err := s.lockForBuild(ctx, info); err != nil { // before the DDL lock: a writer's next statement takes its read side
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if info2, err := s.eng.storeTable(ctx, info.Path); err != nil {
		return nil, err
	} else if info2.TableID == info.TableID {
		info = info2 // its constraints as they are once the writers are done
	}
	var ws []fluss.TableWrite
	defer func() {
		for _, w := range ws {
			w.Rec.Release()
		}
	}()
	keysOf := func(ti fluss.TableInfo) error {
		t, err := s.eng.store.Table(ctx, ti.Path)
		if err != nil {
			return err
		}
		return scanEach(ctx, t, fluss.ScanOptions{Projection: keyIndexes(ti)}, func(b arrow.RecordBatch) (bool, error) { // tables.go
			if b.NumRows() == 0 {
				b.Release()
			} else {
				ws = append(ws, fluss.TableWrite{Path: ti.Path, TableID: t.Info().TableID, Kind: fluss.WriteDelete, Rec: b})
			}
			return false, nil
		})
	}
	pk := keyIndexes(info)
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if !enforced(c, pk) {
			continue
		}
		idx, err := s.eng.storeTable(ctx, fluss.IndexTablePath(info.TableID, c.ID))
		if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			continue // lost to a crash: built again, from the (then empty) table, by the first write that needs it
		}
		if err != nil {
			return nil, err
		}
		if err := keysOf(idx); err != nil {
			return nil, err
		}
	}
	if err := keysOf(info); err != nil {
		return nil, err
	}
	if len(ws) > 0 {
		if _, err := aw.WriteAtomically(ctx, ws); err != nil {
			return nil, err
		}
	}
	return tagOnly("TRUNCATE TABLE"), nil
}

// lockForBuild locks info's table whole until the statement's transaction
// ends, as PostgreSQL's index build holds a SHARE lock: it waits for the
// transactions writing the table, so that the build reads their rows, and
// makes later writers wait until the constraint is in the table's
// metadata (a writer that opened the table before fails its COMMIT with
// 40001: txnstore's checksAdded).
func (s *session) lockForBuild(ctx context.Context, info fluss.TableInfo) error {
	if s.eng.locks == nil {
		return nil
	}
	tx := s.writeTxn()
	s.startLocking(tx)
	return tx.Locks.LockWhole(ctx, rowlock.Request{Table: info.TableID, Name: info.Path.Table, Timeout: tx.LockTimeout,
		DeadlockTimeout: tx.DeadlockTimeout, Statement: tx.Stmt})
}

// dropOrphanIndexTables drops, when the server starts, the index tables
// no table's unique constraint names: left by a crash between making an
// index table and the catalog write naming it (ALTER TABLE ... ADD
// UNIQUE, CREATE UNIQUE INDEX, CREATE TABLE), or between a constraint's
// or table's removal from the catalog and its index table's drop. Only on
// a store this server is alone on (no other server's DDL statement is
// between its steps) and that lists its index tables.
func (e *Engine) dropOrphanIndexTables() {
	lister, ok := e.store.(fluss.IndexTableLister)
	if !ok || !e.singleServer() {
		return
	}
	ctx := context.Background()
	idx, err := lister.ListIndexTables(ctx)
	if err != nil || len(idx) == 0 {
		return
	}
	dbs, err := e.store.ListDatabases(ctx)
	if err != nil {
		return
	}
	type key struct {
		table int64
		id    int
	}
	named := map[key]bool{}
	for _, db := range dbs {
		ts, err := e.store.ListTables(ctx, db)
		if err != nil {
			return // a catalog read failing: drop nothing rather than a live index
		}
		for _, t := range ts {
			if !hasUniques(t.Descriptor) {
				continue
			}
			for _, c := range fluss.MetaOf(t.Descriptor).Uniques {
				named[key{t.TableID, c.ID}] = true
			}
		}
	}
	for _, p := range idx {
		tid, id, ok := fluss.IndexTableOf(p.Table)
		if !ok || named[key{tid, id}] {
			continue
		}
		if err := e.store.DropTable(ctx, p, true); err != nil {
			e.log.Error("dropping an index table no unique constraint names", "table", p.String(), "error", err)
			continue
		}
		e.log.Info("dropped an index table no unique constraint names (left by a crash)", "table", p.String())
	}
}

// uniqueDependents are the foreign keys that reference unique constraint
// u of info's table, by name.
func (s *session) uniqueDependents(ctx context.Context, info fluss.TableInfo, u fluss.UniqueConstraint) ([]fkRef, error) {
	idx, err := s.fkIndexNow(ctx)
	if err != nil {
		return nil, err
	}
	var out []fkRef
	for _, r := range idx.referencing[info.Path] {
		if c, ok := fluss.ReferencedUnique(info, r.fk); ok && c.ID == u.ID {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b fkRef) int { return strings.Compare(a.fk.Name, b.fk.Name) })
	return out, nil
}

// dependentsError is PostgreSQL's 2BP01 for dropping what (a unique
// constraint or index, whose index is named index) that the foreign keys
// refs depend on, without CASCADE.
func dependentsError(what, index string, refs []fkRef) error {
	lines := make([]string, len(refs))
	for i, r := range refs {
		lines[i] = fmt.Sprintf("constraint %s on table %s depends on index %s", r.fk.Name, r.child.Table, index)
	}
	return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop %s because other objects depend on it", what).
		WithDetail("%s", strings.Join(lines, "\n")).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
}

// cascadeNotices are PostgreSQL's NOTICEs of a DROP ... CASCADE that
// dropped the foreign keys refs.
// cascadeSplit parts the foreign keys a dropped UNIQUE constraint's
// CASCADE drops: those of info's own table, as changes of its one catalog
// write, and those of other tables (others), dropped after it.
func cascadeSplit(info fluss.TableInfo, refs []fkRef) (own []fluss.TableChange, others []fkRef) {
	for _, r := range refs {
		if r.child == info.Path {
			own = append(own, fkDropChanges(info, r.fk.Name)...)
		} else {
			others = append(others, r)
		}
	}
	return own, others
}

func cascadeNotices(refs []fkRef) []*sqlerr.Error {
	switch len(refs) {
	case 0:
		return nil
	case 1:
		return []*sqlerr.Error{sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to constraint %s on table %s", refs[0].fk.Name, refs[0].child.Table)}
	}
	lines := make([]string, len(refs))
	for i, r := range refs {
		lines[i] = fmt.Sprintf("drop cascades to constraint %s on table %s", r.fk.Name, r.child.Table)
	}
	return []*sqlerr.Error{sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to %d other objects", len(refs)).WithDetail("%s", strings.Join(lines, "\n"))}
}

// recreateIndexes gives a log table that TRUNCATE replaced by an empty
// one (old by created: a new table id, ddl.go's recreateLog) its unique
// constraints' index tables, empty, and drops old's. Index tables are
// named by the table's id, so old's would name no table. tx, when the
// TRUNCATE ran in a transaction block (this is its COMMIT), holds the
// entries of the rows written after the TRUNCATE, in its view of old's
// index tables: those are pointed at the new ones, which the COMMIT then
// writes. A crash between the steps leaves the new table with an index
// table missing (built by the first write that needs it, unique.go,
// from the rows: none) and old's index tables, which no constraint
// names (dropOrphanIndexTables).
func (s *session) recreateIndexes(ctx context.Context, old, created fluss.TableInfo, tx *txn) error {
	if !hasUniques(old.Descriptor) {
		return nil
	}
	var pt *pendingTable
	if tx != nil {
		var err error
		if pt, err = tx.pending(old.TableID); err != nil {
			return err
		}
	}
	pk := keyIndexes(created)
	for _, c := range fluss.MetaOf(created.Descriptor).Uniques {
		if !enforced(c, pk) {
			continue
		}
		path := fluss.IndexTablePath(created.TableID, c.ID)
		if _, err := s.eng.store.CreateTable(ctx, path, indexDescriptor(created, c), true); err != nil {
			return err
		}
		if pt != nil && pt.uq != nil {
			for _, ui := range pt.uq.cons {
				if ui.c.ID != c.ID || ui.idx == nil {
					continue
				}
				t, err := s.eng.store.Table(ctx, path)
				if err != nil {
					return err
				}
				ui.idx.Rebase(t.Info(), t)
				ui.path = path
			}
		}
		if err := s.eng.store.DropTable(ctx, fluss.IndexTablePath(old.TableID, c.ID), true); err != nil {
			s.eng.log.Error("dropping a truncated table's unique index table (never read again)", "table", old.Path.String(), "constraint", c.Name, "error", err)
		}
	}
	return nil
}
