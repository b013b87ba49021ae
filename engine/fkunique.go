package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Foreign keys that reference the columns of a UNIQUE constraint (or
// unique index) of their table rather than its primary key, as
// PostgreSQL's REFERENCES parent (u) does when u is unique. fk.go's
// events and checks carry the referenced values (a column per
// fk.RefColumns); what differs from a key's is where they come from:
//   - a referencing row's check finds the referenced row by its values
//     (parentHolds: a lookup in the constraint's index table, value ->
//     key, as the transaction sees it) rather than by key, locks the
//     rows it found FOR KEY SHARE by their keys and reads them again;
//   - the referenced table's writes keep its rows as they were
//     (fkTable.oldRows): a DELETE's rows (rowsAsWere), and an UPDATE's
//     that change a referenced column in place, its key unchanged
//     (replacedRows), whose old values the actions and NO ACTION checks
//     look for in the referencing table.

// fkRefsKey reports whether fk references its table's (info's) primary
// key: its referenced columns are the key's, in any order.
func fkRefsKey(info fluss.TableInfo, fk fluss.ForeignKey) bool {
	pk := keyIndexes(info)
	if len(pk) != len(fk.RefColumns) {
		return false
	}
	for _, c := range fk.RefColumns {
		if !slices.Contains(pk, c) {
			return false
		}
	}
	return true
}

// rowsAsWere are the table's rows with keys (its primary key's columns,
// in key order) as the transaction sees them, aligned with keys: a key
// the table lacks has a row of NULLs but for its key (present false).
func (pt *pendingTable) rowsAsWere(ctx context.Context, keys arrow.RecordBatch) (arrow.RecordBatch, []bool, error) {
	info := pt.Info()
	pk := keyIndexes(info)
	ncols := len(info.Descriptor.Schema.Columns)
	found, err := pt.Table.Lookup(ctx, keys, nil) // the overlay's own
	if err != nil {
		return nil, nil, err
	}
	byKey := map[string][]any{}
	if found != nil {
		for r := 0; r < int(found.NumRows()); r++ {
			row := make([]any, ncols)
			for c := range row {
				row[c] = types.ValueAt(found.Column(c), r)
			}
			key := make([]any, len(pk))
			for j, c := range pk {
				key[j] = row[c]
			}
			byKey[rowKeyText(key)] = row
		}
		found.Release()
	}
	rows := make([][]any, keys.NumRows())
	present := make([]bool, len(rows))
	for r := range rows {
		key := make([]any, len(pk))
		for j := range pk {
			key[j] = types.ValueAt(keys.Column(j), r)
		}
		if row, ok := byKey[rowKeyText(key)]; ok {
			rows[r], present[r] = row, true
			continue
		}
		rows[r] = make([]any, ncols)
		for j, c := range pk {
			rows[r][c] = key[j]
		}
	}
	rec, err := buildRows(info.ArrowSchema(), rows)
	return rec, present, err
}

// replacedRows is the event of an upsert of rec that replaces rows the
// table holds (an UPDATE in place, ON CONFLICT DO UPDATE), read before
// the write: their keys, their rows as they were and rec's rows that
// replace them (fkEvent{} when rec replaces none).
func (pt *pendingTable) replacedRows(ctx context.Context, rec arrow.RecordBatch) (fkEvent, error) {
	info := pt.Info()
	keys, err := projectRows(rec, keyIndexes(info))
	if err != nil {
		return fkEvent{}, err
	}
	defer keys.Release()
	old, present, err := pt.rowsAsWere(ctx, keys)
	if err != nil {
		return fkEvent{}, err
	}
	defer old.Release()
	var keep []int
	for r, p := range present {
		if p {
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 {
		return fkEvent{}, nil
	}
	e := fkEvent{table: info}
	if e.oldKeys, err = takeRows(keys, keep); err != nil {
		return fkEvent{}, err
	}
	if e.oldRows, err = takeRows(old, keep); err != nil {
		e.release()
		return fkEvent{}, err
	}
	if e.newRows, err = takeRows(rec, keep); err != nil {
		e.release()
		return fkEvent{}, err
	}
	return e, nil
}

// parentHolds reports which of vals (values of fk's referenced columns,
// in fk.RefColumns' order) the referenced table at path holds, by
// rowKeyText of each, as the transaction sees it. lock takes FOR KEY
// SHARE locks on the rows found first (a referencing row's check), as
// PostgreSQL's RI check does: a row found by a unique constraint's values
// is read again after its lock, and counts only if it still holds them.
func (s *session) parentHolds(ctx context.Context, path fluss.TablePath, fk fluss.ForeignKey, vals [][]any, lock bool) (map[string]bool, error) {
	t, err := s.readTable(ctx, path)
	if err != nil {
		return nil, err
	}
	info := t.Info()
	pk := keyIndexes(info)
	out := map[string]bool{}
	if fkRefsKey(info, fk) {
		keys := make([][]any, len(vals))
		for i, v := range vals {
			keys[i] = make([]any, len(pk))
			for j, c := range pk {
				keys[i][j] = v[slices.Index(fk.RefColumns, c)]
			}
		}
		if lock {
			if err := s.lockKeyShare(ctx, info, keys); err != nil {
				return nil, err
			}
		}
		found, err := lookupKeys(ctx, t, info, keys)
		if err != nil {
			return nil, err
		}
		for i, v := range vals {
			out[rowKeyText(v)] = found[rowKeyText(keys[i])]
		}
		return out, nil
	}
	c, ok := fluss.ReferencedUnique(info, fk)
	if !ok { // (a foreign key references the key or a unique constraint: fkddl.go)
		return nil, sqlerr.New(sqlerr.InternalError, "foreign key constraint \"%s\" references no unique constraint of table \"%s\"", fk.Name, info.Path.Table)
	}
	want := map[string]bool{}
	for _, v := range vals {
		want[rowKeyText(v)] = true
	}
	// the rows holding the values: the constraint's index, value -> key
	keys, err := s.indexOwners(ctx, info, c, fk.RefColumns, vals)
	if err != nil {
		return nil, err
	}
	if len(pk) == 0 {
		// a log table's entries are its values, held for good (unique.go:
		// its rows are never updated or deleted one by one)
		for _, k := range keys {
			out[rowKeyText(k)] = true
		}
		return out, nil
	}
	if len(keys) == 0 {
		return out, nil
	}
	if lock {
		if err := s.lockKeyShare(ctx, info, keys); err != nil {
			return nil, err
		}
		// read again once locked: a writer waited for may have moved a value
		if t, err = s.readTable(ctx, path); err != nil {
			return nil, err
		}
	}
	// the rows the entries name, as they are: an entry left by a crash
	// names a row that no longer holds its value
	got, err := lookupRows(ctx, t, info, keys, fk.RefColumns)
	if err != nil {
		return nil, err
	}
	if got == nil {
		return out, nil
	}
	defer got.Release()
	for row := 0; row < int(got.NumRows()); row++ {
		v := make([]any, len(fk.RefColumns))
		for k := range v {
			v[k] = types.ValueAt(got.Column(k), row)
		}
		if want[rowKeyText(v)] {
			out[rowKeyText(v)] = true
		}
	}
	return out, nil
}

// indexOwners looks vals (values of cols, a permutation of c's columns)
// up in unique constraint c's index table of info's table, as the
// transaction sees it, and returns the primary keys of the rows its
// entries name (a log table's: the values found, in cols' order). An
// index table a crash lost is built again first, as a write would.
func (s *session) indexOwners(ctx context.Context, info fluss.TableInfo, c fluss.UniqueConstraint, cols []int, vals [][]any) ([][]any, error) {
	path := fluss.IndexTablePath(info.TableID, c.ID)
	idx, err := s.readTable(ctx, path)
	if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		if err = s.buildIndex(ctx, info, c, true); err == nil { // uniqueddl.go
			idx, err = s.readTable(ctx, path)
		}
	}
	if err != nil {
		return nil, err
	}
	nk := len(c.Columns)
	at := make([]int, nk) // c's k-th column in cols
	for k, col := range c.Columns {
		at[k] = slices.Index(cols, col)
	}
	probes := make([][]any, len(vals))
	for i, v := range vals {
		probes[i] = make([]any, nk)
		for k := range at {
			probes[i][k] = v[at[k]]
		}
	}
	schema := idx.Info().ArrowSchema()
	rec, err := buildRows(arrow.NewSchema(schema.Fields()[:nk], nil), probes) // fk.go
	if err != nil {
		return nil, err
	}
	found, err := idx.Lookup(ctx, rec, nil)
	rec.Release()
	if err != nil || found == nil {
		return nil, err
	}
	defer found.Release()
	out := make([][]any, 0, found.NumRows())
	for r := 0; r < int(found.NumRows()); r++ {
		if int(found.NumCols()) == nk { // a log table's entry: the value
			v := make([]any, len(cols))
			for k := range at {
				v[at[k]] = types.ValueAt(found.Column(k), r)
			}
			out = append(out, v)
			continue
		}
		key := make([]any, int(found.NumCols())-nk)
		for j := range key {
			key[j] = types.ValueAt(found.Column(nk+j), r)
		}
		out = append(out, key)
	}
	return out, nil
}
