package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
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
		if err := s.fillIndex(ctx, dst, c, path, false); err != nil { // uniqueddl.go
			return made, err
		}
	}
	return made, nil
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
