package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// MERGE's checks around the writes it shares with INSERT, UPDATE and
// DELETE (binder.Merge, engine/merge.go).

// CheckTargets fails with 21000 when two rows of batches (MERGE's join,
// each row's action number in column actionAt) pick an action that
// updates or deletes (changes) the same target row, as PostgreSQL's MERGE
// refuses to change a row a second time. only, when set (a second pass),
// limits the check to those keys.
func (m MergeRows) CheckTargets(batches []arrow.RecordBatch, actionAt int, changes []int32, only map[string]bool) error {
	if len(changes) == 0 {
		return nil
	}
	kt := keyTypes(m.Info)
	seen := map[string]bool{}
	for _, b := range batches {
		acts, ok := b.Column(actionAt).(*array.Int32)
		if !ok {
			return sqlerr.New(sqlerr.InternalError, "MERGE action column of type %s", b.Column(actionAt).DataType())
		}
		var keys []string
		for r := 0; r < int(b.NumRows()); r++ {
			if acts.IsNull(r) || !changing(acts.Value(r), changes) {
				continue
			}
			if keys == nil {
				var err error
				if keys, err = m.keys(kt, b); err != nil {
					return err
				}
			}
			k := keys[r]
			if only != nil && !only[k] {
				continue
			}
			if seen[k] {
				return sqlerr.New(sqlerr.CardinalityViolation, "MERGE command cannot affect row a second time").
					WithHint("Ensure that not more than one source row matches any one target row.")
			}
			seen[k] = true
		}
	}
	return nil
}

func changing(a int32, changes []int32) bool {
	for _, c := range changes {
		if a == c {
			return true
		}
	}
	return false
}

// MergeRows locates a MERGE's join rows' parts (binder.Merge): the target's
// key columns, the matched marker (NULL: no target row joined) and the
// source's columns [SourceFrom, SourceTo).
type MergeRows struct {
	Info                 fluss.TableInfo
	KeyCols              []int
	MatchedAt            int
	SourceFrom, SourceTo int
}

// DeferredSources are the source rows (their values) that joined a target
// row whose key is in deferred: the rows a second pass re-reads, where
// one that no longer joins a target row takes the WHEN NOT MATCHED
// clauses, as PostgreSQL's MERGE does when a concurrent change made its
// row fail the join.
func (m MergeRows) DeferredSources(batches []arrow.RecordBatch, deferred map[string]bool) (map[string]bool, error) {
	src := m.sourceCols()
	out := map[string]bool{}
	kt := keyTypes(m.Info)
	for _, b := range batches {
		keys, err := m.keys(kt, b)
		if err != nil {
			return nil, err
		}
		for r, k := range keys {
			if k != "" && deferred[k] {
				out[rowKey(b, r, src)] = true
			}
		}
	}
	return out, nil
}

// Retry reduces a second pass's join rows to those it writes: the rows
// joined to a deferred target row (only), and the rows of the deferred
// sources that no longer join any. The batches are released.
func (m MergeRows) Retry(ec *EvalContext, batches []arrow.RecordBatch, only, sources map[string]bool) ([]arrow.RecordBatch, error) {
	src := m.sourceCols()
	kt := keyTypes(m.Info)
	out := batches[:0]
	for i, b := range batches {
		keys, err := m.keys(kt, b)
		if err != nil {
			releaseAll(batches[i:])
			releaseAll(out)
			return nil, err
		}
		var idx []int32
		for r, k := range keys {
			if k != "" && only[k] || k == "" && sources[rowKey(b, r, src)] {
				idx = append(idx, int32(r))
			}
		}
		kept, err := takeRows(ec, b, idx)
		b.Release()
		if err != nil {
			releaseAll(batches[i+1:])
			releaseAll(out)
			return nil, err
		}
		out = append(out, kept)
	}
	return out, nil
}

// keys are the target keys of b's rows, as the store and the row locks
// encode them ("" where no target row joined).
func (m MergeRows) keys(kt []types.T, b arrow.RecordBatch) ([]string, error) {
	arrs := make([]arrow.Array, len(m.KeyCols))
	for i, c := range m.KeyCols {
		arrs[i] = b.Column(c)
	}
	marker := b.Column(m.MatchedAt)
	out := make([]string, b.NumRows())
	var buf []byte
	var err error
	for r := range out {
		if marker.IsNull(r) {
			continue
		}
		if buf, err = format.AppendKey(buf[:0], kt, arrs, r); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key: %v", err)
		}
		out[r] = string(buf)
	}
	return out, nil
}

func (m MergeRows) sourceCols() []int {
	var cols []int
	for c := m.SourceFrom; c < m.SourceTo; c++ {
		cols = append(cols, c)
	}
	return cols
}

func releaseAll(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}
