package relop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// fusedSum is the hash aggregation's one-pass loop for the commonest
// grouped shape (issue 27's SUM/COUNT by an int32 of 100 groups): one
// integer-like group key whose groups sit in the dense array, count(*) and
// count/sum without NULLs reading the shared row counts, and one sum (or
// avg) of integers whose batch bound fits: into bigint (sumIntAcc's sums)
// or into numeric (decAcc's int64 partial sums). Each row
// reads its key, its group from the dense array, and adds to the group's
// count and sum in the same iteration, instead of the group table writing
// every row's group (assign) and the sum reading it back in a second pass
// over the batch. It stops at the first row whose key has no dense group
// yet (a new group, a negative or large key); the caller aggregates the
// rest of the batch the general way. Same additions in the same order, so
// the sums and the 22003 boundary are those of the two passes.
type fusedSum struct {
	key, arg int
	acc      fusable
	// countArgs are count(x)'s arguments: a batch with NULLs in one is
	// left to the general way, which counts them
	countArgs []int
}

// fusable is an integer sum whose int64 sums (or partial sums) a fused
// batch adds to, unchecked while their bound allows (sumIntAcc.bound).
type fusable interface {
	fusedTarget() (sums []int64, bound *uint64)
}

func (a *sumIntAcc) fusedTarget() ([]int64, *uint64) { return a.sums, &a.bound }
func (a *decAcc) fusedTarget() ([]int64, *uint64)    { return a.parts, &a.bound }

// newFusedSum returns the fused loop of o's aggregation when it qualifies
// (nil otherwise).
func newFusedSum(o *HashAggregate) *fusedSum {
	t := o.table
	if len(o.GroupBy) != 1 || !t.intKey || t.rows == nil {
		return nil
	}
	var f *fusedSum
	var countArgs []int
	for i, acc := range o.accs {
		spec := o.Aggs[i]
		if spec.Filter >= 0 || spec.Distinct {
			return nil
		}
		switch a := acc.(type) {
		case *countAcc:
			if a.cnt.shared == nil {
				return nil
			}
			if a.arg >= 0 {
				countArgs = append(countArgs, a.arg)
			}
		case *sumIntAcc:
			if f != nil || a.cnt.shared == nil {
				return nil
			}
			f = &fusedSum{key: o.GroupBy[0], arg: a.arg, acc: a}
		case *decAcc:
			// integer arguments only (run checks the column's type)
			if f != nil || a.cnt.shared == nil {
				return nil
			}
			f = &fusedSum{key: o.GroupBy[0], arg: a.arg, acc: a}
		default:
			return nil
		}
	}
	if f != nil {
		f.countArgs = countArgs
	}
	return f
}

// run adds b's rows from the first on while their keys have dense groups,
// and returns how many it added (0: the batch does not qualify). Columns
// other than the key and the sum's argument are never read: count(x)
// shares the counts only while x has no NULLs, checked here.
func (f *fusedSum) run(t *groupTable, b arrow.RecordBatch) int {
	key, arg := b.Column(f.key), b.Column(f.arg)
	sums, bound := f.acc.fusedTarget()
	if key.NullN() > 0 || arg.NullN() > 0 || len(t.dense) == 0 || len(sums) < t.n {
		return 0
	}
	for _, c := range f.countArgs {
		if b.Column(c).NullN() > 0 {
			return 0
		}
	}
	switch k := key.(type) {
	case *array.Int32:
		return fusedRunKeys(t, sums, bound, k.Int32Values(), arg)
	case *array.Int64:
		return fusedRunKeys(t, sums, bound, k.Int64Values(), arg)
	case *array.Int16:
		return fusedRunKeys(t, sums, bound, k.Int16Values(), arg)
	}
	return 0
}

func fusedRunKeys[K physInt](t *groupTable, sums []int64, bound *uint64, keys []K, arg arrow.Array) int {
	switch v := arg.(type) {
	case *array.Int64:
		return fusedRun(t, sums, bound, keys, v.Int64Values())
	case *array.Int32:
		return fusedRun(t, sums, bound, keys, v.Int32Values())
	case *array.Int16:
		return fusedRun(t, sums, bound, keys, v.Int16Values())
	}
	return 0
}

// fusedRun is run's loop over keys and values of one type each.
func fusedRun[K physInt, V sumInt](t *groupTable, sums []int64, sumBound *uint64, keys []K, vals []V) int {
	vals = vals[:len(keys)]
	bound, ok := batchBound(vals, len(vals))
	if !ok || !fits(*sumBound, bound) {
		return 0
	}
	dense, counts := t.dense, t.rows.n
	i := 0
	for ; i < len(keys); i++ {
		k := int64(keys[i])
		if uint64(k) >= uint64(len(dense)) {
			break
		}
		d := dense[k]
		if d == 0 {
			break
		}
		counts[d-1]++
		sums[d-1] += int64(vals[i])
	}
	if i > 0 {
		*sumBound += bound // the whole batch's: an upper bound of what was added
	}
	return i
}
