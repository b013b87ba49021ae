package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Row locks in write statements.
//
// A write operator whose table is a RowLocker (a transaction's view of a
// store whose writes all pass through this server) locks every row before it
// writes it, as PostgreSQL does: an INSERT (upsert) locks the keys it
// writes before it reads whether they exist, so what it reads is the newest
// committed state; an UPDATE or DELETE reads its target rows first (the plan
// finds them) and locks them after. A target row that another transaction
// held, or that a commit changed after the statement started reading, may
// be stale: it is not written, and its key goes to Recheck.Deferred. The
// engine then runs the statement's plan a second time, reading the newest
// committed rows, with Recheck.Only set to those keys: only those rows are
// written, each if it still satisfies the WHERE, with its SET computed from
// the newest version. That is PostgreSQL's EvalPlanQual at READ COMMITTED
// (the second pass needs no locks it does not hold already, so it cannot
// find a row stale again).

// RowLocker is implemented by tables whose writes take row locks.
type RowLocker interface {
	// LockInsert locks the primary keys of rec's rows (the table's
	// columns) for an insert or upsert, waiting for other transactions. A
	// large write may lock the whole table instead.
	LockInsert(ctx context.Context, rec arrow.RecordBatch) error
	// LockRows locks the rows whose key encodings are keys, in mode, for
	// writing them, and reports which may have changed since the
	// statement started reading (nil: none).
	LockRows(ctx context.Context, keys []string, mode rowlock.Mode) ([]bool, error)
}

// Recheck carries the rows an UPDATE or DELETE must re-read between its two
// passes (see above).
type Recheck struct {
	// Deferred (first pass) collects the key encodings of stale rows.
	Deferred map[string]bool
	// Only, when set (second pass), restricts the writes to these keys.
	Only map[string]bool
}

// keyTypes returns the types of the table's primary-key columns.
func keyTypes(info fluss.TableInfo) []types.T {
	var ts []types.T
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		ts = append(ts, info.Descriptor.Schema.Columns[info.ColumnIndex(k)].Type)
	}
	return ts
}

// keyStrings encodes the primary key held in columns cols of each row of b,
// as the store (and the lock manager) key rows.
func keyStrings(kt []types.T, b arrow.RecordBatch, cols []int) ([]string, error) {
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arrs[i] = b.Column(c)
	}
	out := make([]string, b.NumRows())
	var buf []byte
	var err error
	for r := range out {
		if buf, err = format.AppendKey(buf[:0], kt, arrs, r); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key: %v", err)
		}
		out[r] = string(buf)
	}
	return out, nil
}

// lockTargets locks the target rows of b (their keys in columns keyCols)
// and returns b reduced to the rows to write now: the first pass drops the
// stale ones (into rc.Deferred), the second keeps rc.Only's. b is released
// when a new batch is returned.
func lockTargets(ctx context.Context, ec *EvalContext, t fluss.Table, kt []types.T, rc *Recheck, b arrow.RecordBatch, keyCols []int, mode rowlock.Mode) (arrow.RecordBatch, error) {
	l, ok := t.(RowLocker)
	if !ok || b.NumRows() == 0 {
		return b, nil
	}
	keys, err := keyStrings(kt, b, keyCols)
	if err != nil {
		b.Release()
		return nil, err
	}
	idx := make([]int32, 0, len(keys))
	lock := keys[:0:0]
	for r, k := range keys {
		if rc != nil && rc.Only != nil && !rc.Only[k] {
			continue
		}
		idx = append(idx, int32(r))
		lock = append(lock, k)
	}
	changed, err := l.LockRows(ctx, lock, mode)
	if err != nil {
		b.Release()
		return nil, err
	}
	if changed != nil {
		kept := idx[:0]
		for j, r := range idx {
			if !changed[j] {
				kept = append(kept, r)
				continue
			}
			if rc == nil || rc.Only != nil {
				// No second pass can re-read it: never write a stale row.
				b.Release()
				return nil, serializationFailure()
			}
			if rc.Deferred == nil {
				rc.Deferred = map[string]bool{}
			}
			rc.Deferred[lock[j]] = true
		}
		idx = kept
	}
	if len(idx) == int(b.NumRows()) {
		return b, nil
	}
	out, err := takeRows(ec, b, idx)
	b.Release()
	return out, err
}

// serializationFailure is PostgreSQL's error for a write that met a row
// changed by a concurrent transaction it cannot re-read.
func serializationFailure() error {
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update")
}

// lockInsert locks rec's keys when t takes row locks.
func lockInsert(ctx context.Context, t fluss.Table, rec arrow.RecordBatch) error {
	if l, ok := t.(RowLocker); ok && rec.NumRows() > 0 {
		return l.LockInsert(ctx, rec)
	}
	return nil
}
