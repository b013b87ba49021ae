package exec

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// SortKey orders by one input column.
type SortKey struct {
	Column     int
	Desc       bool
	NullsFirst bool
}

// Sort materialises its input and emits it ordered by Keys (stable).
// Text compares bytewise, as PostgreSQL does with the C collation.
type Sort struct {
	EC    *EvalContext
	Input Operator
	Keys  []SortKey
	// BatchRows is the output batch size.
	BatchRows int
	out       arrow.RecordBatch
	pos       int64
	done      bool
}

func (o *Sort) Schema() *arrow.Schema { return o.Input.Schema() }
func (o *Sort) Close() {
	if o.out != nil {
		o.out.Release()
		o.out = nil
	}
	o.Input.Close()
}

func (o *Sort) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !o.done {
		o.done = true
		if err := o.sortAll(ctx); err != nil {
			return nil, err
		}
	}
	if o.out == nil || o.pos >= o.out.NumRows() {
		return nil, nil
	}
	size := int64(o.BatchRows)
	if size <= 0 {
		size = 8192
	}
	end := min(o.pos+size, o.out.NumRows())
	b := o.out.NewSlice(o.pos, end)
	o.pos = end
	return b, nil
}

func (o *Sort) sortAll(ctx context.Context) error {
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for {
		b, err := o.Input.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		batches = append(batches, b)
	}
	if len(batches) == 0 {
		return nil
	}
	schema := o.Input.Schema()
	cols := make([]arrow.Array, len(schema.Fields()))
	for c := range cols {
		parts := make([]arrow.Array, len(batches))
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		merged, err := array.Concatenate(parts, o.EC.Mem)
		if err != nil {
			return err
		}
		defer merged.Release()
		cols[c] = merged
	}
	n := cols[0].Len()
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	type keyCmp struct {
		key SortKey
		arr arrow.Array
		cmp func(int) int
		l   *int
		r   *int
	}
	cmps := make([]keyCmp, len(o.Keys))
	for k, key := range o.Keys {
		arr := cols[key.Column]
		l, r := new(int), new(int)
		c, err := rowComparator(arr, arr, func(int) (int, int) { return *l, *r })
		if err != nil {
			return err
		}
		cmps[k] = keyCmp{key: key, arr: arr, cmp: c, l: l, r: r}
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		for _, k := range cmps {
			an, bn := k.arr.IsNull(int(a)), k.arr.IsNull(int(b))
			switch {
			case an && bn:
				continue
			case an || bn:
				if an == k.key.NullsFirst {
					return -1
				}
				return 1
			}
			*k.l, *k.r = int(a), int(b)
			c := k.cmp(0)
			if k.key.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	ib := array.NewInt32Builder(o.EC.Mem)
	ib.AppendValues(idx, nil)
	indices := ib.NewArray()
	ib.Release()
	defer indices.Release()
	outCols := make([]arrow.Array, len(cols))
	for c, arr := range cols {
		taken, err := compute.TakeArray(ctx, arr, indices)
		if err != nil {
			for _, done := range outCols[:c] {
				done.Release()
			}
			return err
		}
		outCols[c] = taken
	}
	o.out = array.NewRecordBatch(schema, outCols, int64(n))
	for _, c := range outCols {
		c.Release()
	}
	return nil
}
