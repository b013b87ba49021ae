package relop

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// sortDistinct is a DISTINCT aggregate over an argument whose equal values
// may print differently (numeric 1.5 and 1.50, interval '1 day' and '24
// hours', float -0 and 0, jsonb 1 and 1.0, bpchar 'a' and 'a '), when the
// aggregate shows which of them it kept (everything but count). PostgreSQL
// (nodeAgg.c's process_ordered_aggregate_single and _multi) puts every
// input row of a group in a tuplesort, sorts it and passes on the first of
// each run of equal values, so the survivor is the one its quicksort puts
// first: sortDistinct holds each group's rows in input order and, when the
// group finishes, sorts them with pgSort on the same key, keeps the first
// of each run and feeds those to the aggregate, in sorted order (float
// sums round in that order). A DISTINCT over values whose equal ones are
// alike (integers, text, dates) keeps the first it meets instead
// (distinctAcc), without holding the duplicates.
type sortDistinct struct {
	inner accumulator
	// cols are the input columns inner reads (the argument, string_agg's
	// separator, the ORDER BY keys)
	cols []int
	// order is the sort: the aggregate's ORDER BY (its keys are the
	// arguments), else the argument ascending, NULLs last
	order []SortKeySpec
	// strict: the aggregate's transition function is strict, so
	// PostgreSQL skips a NULL argument before the sort (ExecBuildAggTrans'
	// strict input check comes first); the others sort their NULLs with
	// the rest, which moves where ties end (strictTransition)
	strict bool
	src    [][]arrow.Array // per batch kept, its columns cols
	refs   [][]rowRef      // per group, its rows in input order
	keys   [][]byte        // per group, the rows' keys end to end
	ends   [][]uint32      // per group, where each row's key ends in keys
	fed    []bool
	held   int64
	// all feeds every row in the sorted order (an ORDER BY without
	// DISTINCT: newSortOrdered), not the first of each run of equals
	all bool
	// strictCols are the columns whose NULL makes a strict transition
	// skip the row (the argument, and X of the (Y, X) statistics)
	strictCols []int
}

// newSortDistinct wraps inner, the aggregate fn of spec over argType, in
// a sortDistinct.
func newSortDistinct(inner accumulator, fn string, spec AggSpec, argType arrow.DataType) *sortDistinct {
	s := &sortDistinct{inner: inner, cols: []int{spec.Arg}, order: spec.OrderBy, strict: strictTransition(fn, argType),
		strictCols: []int{spec.Arg}}
	if len(s.order) == 0 {
		s.order = []SortKeySpec{{Column: spec.Arg, Form: spec.Form}}
	}
	if spec.Sep >= 0 {
		s.cols = append(s.cols, spec.Sep)
	}
	for _, k := range spec.OrderBy {
		s.cols = append(s.cols, k.Column)
	}
	return s
}

// newSortOrdered wraps inner, the aggregate fn of spec (with an ORDER BY,
// without DISTINCT) over argType, in a sortDistinct that feeds every row
// of a group in the ORDER BY's order, as PostgreSQL's tuplesort of the
// aggregate's input does (ties where its quicksort leaves them).
func newSortOrdered(inner accumulator, fn string, spec AggSpec, argType arrow.DataType) *sortDistinct {
	s := newSortDistinct(inner, fn, spec, argType)
	s.all = true
	if spec.X >= 0 {
		s.cols = append(s.cols, spec.X)
		s.strictCols = append(s.strictCols, spec.X)
	}
	return s
}

// floatAccumulates reports whether aggregate fn over argType sums floats
// in its transition state, so that the order of its input shows in the
// result's last digits: sum, avg, the variance family and the (Y, X)
// statistics over float8 or float4.
func floatAccumulates(fn string, argType arrow.DataType) bool {
	if argType.ID() != arrow.FLOAT64 && argType.ID() != arrow.FLOAT32 {
		return false
	}
	switch fn {
	case "sum", "avg", "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop",
		"corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_intercept", "regr_r2",
		"regr_slope", "regr_sxx", "regr_sxy", "regr_syy":
		return true
	}
	return false
}

func (s *sortDistinct) resize(n int) {
	s.inner.resize(n)
	s.refs, s.keys, s.ends, s.fed = grow(s.refs, n), grow(s.keys, n), grow(s.ends, n), grow(s.fed, n)
}

func (s *sortDistinct) size() int64 { return s.inner.size() + s.held }

func (s *sortDistinct) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	n := cols[s.cols[0]].Len()
	keys, _ := keyBuffers(n, keyWidthHint(cols, s.order), nil)
	if err := encodeKeys(cols, s.order, keys); err != nil {
		return err
	}
	b := uint32(len(s.src))
	used := false
	forRows(len(groups), rows, func(i int) {
		if s.strict && slices.ContainsFunc(s.strictCols, func(c int) bool { return cols[c].IsNull(i) }) {
			return
		}
		g := groups[i]
		s.refs[g] = append(s.refs[g], rowRef{b, uint32(i)})
		s.keys[g] = append(s.keys[g], keys[i]...)
		s.ends[g] = append(s.ends[g], uint32(len(s.keys[g])))
		s.held += int64(len(keys[i])) + 12
		used = true
	})
	if used {
		kept := make([]arrow.Array, len(s.cols))
		for j, c := range s.cols {
			cols[c].Retain()
			kept[j] = cols[c]
			s.held += arrayBytes(cols[c])
		}
		s.src = append(s.src, kept)
	}
	return nil
}

func (s *sortDistinct) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	if err := s.feedGroups(mem, groups); err != nil {
		return nil, err
	}
	return s.inner.finish(mem, groups)
}

// check feeds group g (when finish has not) and checks what inner checks
// of it (groupChecker).
func (s *sortDistinct) check(mem memory.Allocator, g uint32) error {
	if err := s.feedGroups(mem, []uint32{g}); err != nil {
		return err
	}
	if c, ok := s.inner.(groupChecker); ok {
		return c.check(mem, g)
	}
	return nil
}

// feedGroups sorts the rows of each of groups not fed yet and feeds the
// first of each run of equal values to inner.
func (s *sortDistinct) feedGroups(mem memory.Allocator, groups []uint32) error {
	var all []rowRef
	var of []uint32
	for _, g := range groups {
		if s.fed[g] {
			continue
		}
		s.fed[g] = true
		refs, keys, ends := s.refs[g], s.keys[g], s.ends[g]
		key := func(j int32) []byte {
			lo := uint32(0)
			if j > 0 {
				lo = ends[j-1]
			}
			return keys[lo:ends[j]]
		}
		idx := make([]int32, len(refs))
		for j := range idx {
			idx[j] = int32(j)
		}
		pgSort(idx, func(x, y int32) int { return bytes.Compare(key(x), key(y)) })
		for j, x := range idx {
			if !s.all && j > 0 && bytes.Equal(key(x), key(idx[j-1])) {
				continue // equal to the one kept before it
			}
			all = append(all, refs[x])
			of = append(of, g)
		}
		s.refs[g], s.keys[g], s.ends[g] = nil, nil, nil
	}
	if len(all) > 0 {
		return s.feed(mem, all, of)
	}
	return nil
}

// feed passes the rows refs, of groups of, to inner as one batch of the
// columns it reads.
func (s *sortDistinct) feed(mem memory.Allocator, refs []rowRef, of []uint32) error {
	width := 0
	for _, c := range s.cols {
		width = max(width, c+1)
	}
	cols := make([]arrow.Array, width)
	var made []arrow.Array
	defer func() { releaseAll(made) }()
	srcs := make([]arrow.Array, len(s.src))
	for j, c := range s.cols {
		if cols[c] != nil {
			continue
		}
		for b := range s.src {
			srcs[b] = s.src[b][j]
		}
		a, err := gather(mem, srcs[0].DataType(), srcs, refs)
		if err != nil {
			return err
		}
		made = append(made, a)
		cols[c] = a
	}
	return s.inner.update(cols, of, nil)
}

// strictTransition reports whether PostgreSQL 15's transition function
// of aggregate fn over argType is strict (pg_proc.proisstrict of its
// pg_aggregate.aggtransfn), for the argument types LooseEquality admits:
// array_agg, string_agg and json_agg are not (they keep or skip NULLs
// themselves), nor are numeric's sum, avg and variance family (one
// internal state, numeric_avg_accum and numeric_accum); min and max, and
// everything over floats and intervals, are.
func strictTransition(fn string, argType arrow.DataType) bool {
	switch fn {
	case "array_agg", "string_agg":
		return false
	case "sum", "avg", "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		return !types.IsNumericArrow(argType)
	}
	return true
}

// LooseEquality reports whether equal values of an argument of type dt
// with key form form may print differently, so that which one a DISTINCT
// keeps shows: floats (-0 and 0), unconstrained numerics (1.5 and 1.50),
// intervals ('1 day' and '24 hours'), bpchar and jsonb, and arrays and
// records of them. A numeric(p, s) column prints every value at scale s.
func LooseEquality(dt arrow.DataType, form types.KeyForm) bool {
	if form != types.KeyAsStored {
		return true
	}
	switch t := dt.(type) {
	case *arrow.Float32Type, *arrow.Float64Type, *arrow.MonthDayNanoIntervalType, *types.NumericArrowType:
		return true
	case arrow.ListLikeType:
		return LooseEquality(t.Elem(), form)
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if LooseEquality(f.Type, form) {
				return true
			}
		}
	}
	return false
}
