package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// The UNIQUE constraints (beyond the primary key) of a rewritten table
// (rewrite.go) come along: their index tables are named by the table's id
// (fluss.IndexTablePath), which the rewrite changes, and hold the
// constrained columns' values by type, which ALTER COLUMN ... TYPE may
// change. So each enforced constraint's index is built anew for the
// staged table, from its converted rows, before the swap: a conversion
// that makes two values equal (numeric 1.2 and 1.4 to integer) fails the
// statement with PostgreSQL's 23505 "could not create unique index". The
// swap puts the new table in place with its indexes already filled (no
// catalog entry names them before: a crash leaves index tables of an id
// the catalog lacks, never read); the old table's index tables are dropped
// after it. DROP COLUMN drops the constraints over the column (PostgreSQL
// drops an index with any of its columns); RENAME COLUMN changes nothing
// in them (they hold the columns by position). A table that loses its
// primary key (DROP COLUMN of one of its columns) or gains one (ADD
// PRIMARY KEY of a log table, addpk.go) has its indexes built anew as
// any other: a log table's entries are the values alone (unique.go).

// planUniques checks the rewritten table's unique constraints (info is
// the new table as planned).
func (s *session) planUniques(p *rewritePlan, info fluss.TableInfo) error {
	if len(p.uniques) == 0 {
		return nil
	}
	if err := s.uniqueStore(); err != nil { // uniqueddl.go
		return err
	}
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if err := s.checkUniqueTypes(info, c); err != nil { // uniqueddl.go
			return err
		}
	}
	return nil
}

// uniqueIndexPaths are the index tables of info's enforced unique
// constraints.
func uniqueIndexPaths(info fluss.TableInfo) []fluss.TablePath {
	if !hasUniques(info.Descriptor) {
		return nil
	}
	var out []fluss.TablePath
	pk := keyIndexes(info)
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if enforced(c, pk) {
			out = append(out, fluss.IndexTablePath(info.TableID, c.ID))
		}
	}
	return out
}

// buildStagedIndexes makes and fills the index tables of the staged table
// dst's unique constraints and returns their paths (the ones made so far
// too when it fails, for the caller to drop).
func (s *session) buildStagedIndexes(ctx context.Context, dst fluss.Table) ([]fluss.TablePath, error) {
	info := dst.Info()
	var made []fluss.TablePath
	pk := keyIndexes(info)
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if !enforced(c, pk) {
			continue
		}
		path := fluss.IndexTablePath(info.TableID, c.ID)
		if err := s.eng.store.DropTable(ctx, path, true); err != nil { // (a crash's leftover)
			return made, err
		}
		if _, err := s.eng.store.CreateTable(ctx, path, indexDescriptor(info, c), false); err != nil {
			return made, err
		}
		made = append(made, path)
		if err := s.fillIndex(ctx, dst, c, path); err != nil {
			return made, err
		}
	}
	return made, nil
}

// fillIndex writes the index entries of constraint c for the rows of src
// into the (empty) index table at path, batch by batch: a value met twice
// (within a batch, or already in the index from an earlier one: looked
// up) fails with 23505. Memory holds one batch's entries, not the index.
func (s *session) fillIndex(ctx context.Context, src fluss.Table, c fluss.UniqueConstraint, path fluss.TablePath) error {
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
				b.Release()
				return false, s.duplicateIn(info, c, row) // uniqueddl.go
			}
			seen[k] = true
			rows = append(rows, u.entry(ui, row))
			owners = append(owners, row)
		}
		b.Release()
		if len(rows) == 0 {
			return false, nil
		}
		if k, err := firstIndexed(ctx, it, keySchema, rows, len(c.Columns)); err != nil || k >= 0 {
			if err == nil {
				err = s.duplicateIn(info, c, owners[k])
			}
			return false, err
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

// dropIndexTables drops index tables no catalog entry names any more (an
// error is logged: such a table is never read).
func (s *session) dropIndexTables(ctx context.Context, paths []fluss.TablePath) {
	for _, path := range paths {
		if err := s.eng.store.DropTable(context.WithoutCancel(ctx), path, true); err != nil {
			s.eng.log.Error("dropping a rewritten table's unique index table (never read again)", "index", path.Table, "error", err)
		}
	}
}
