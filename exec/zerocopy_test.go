package exec

import (
	"context"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// bufferAddr is the address of a's buffer i (0 when absent).
func bufferAddr(a arrow.Array, i int) uintptr {
	b := a.Data().Buffers()[i]
	if b == nil || b.Len() == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b.Bytes())))
}

// Projection of columns and a filter that keeps every row pass the input
// buffers through: the output's buffers are the input's, by address.
func TestProjectionAndIdentityPassBuffersThrough(t *testing.T) {
	rng := newTestRand()
	rec := randomBatch(rng, 1000, 0.2, 0)
	defer rec.Release()
	ec := &EvalContext{Ctx: context.Background(), Mem: NewPoolAllocator(1 << 20)}
	// projection: i64a, sa, deca (reordered)
	idx := []int{4, 8, 16}
	var exprs []Expr
	var fields []arrow.Field
	for _, i := range idx {
		exprs = append(exprs, &ColExpr{Index: i, Name: crossCols[i].name, T: crossCols[i].t})
		fields = append(fields, rec.Schema().Field(i))
	}
	rec.Retain()
	p := &Project{EC: ec, Input: &sliceOperator{batches: []arrow.RecordBatch{rec}, schema: rec.Schema()}, Exprs: exprs, Out: arrow.NewSchema(fields, nil)}
	out, err := p.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for k, i := range idx {
		in, got := rec.Column(i), out.Column(k)
		for b := range in.Data().Buffers() {
			if bufferAddr(in, b) != bufferAddr(got, b) {
				t.Errorf("projected column %s buffer %d copied: %#x -> %#x", crossCols[i].name, b, bufferAddr(in, b), bufferAddr(got, b))
			}
		}
	}
	out.Release()
	p.Close()
	// identity: a filter whose condition holds for every row, over the
	// whole batch (text columns: the varwidth family, native) and over its
	// fixed-width columns (the family arrow-go serves)
	var fixed []arrow.Array
	var fixedFields []arrow.Field
	for i, f := range rec.Schema().Fields() {
		if _, ok := f.Type.(arrow.FixedWidthDataType); ok {
			fixed, fixedFields = append(fixed, rec.Column(i)), append(fixedFields, f)
		}
	}
	fixedRec := array.NewRecordBatch(arrow.NewSchema(fixedFields, nil), fixed, rec.NumRows())
	defer fixedRec.Release()
	if FilterFamily(fixedRec.Schema()) != FamFilter || FilterFamily(rec.Schema()) != FamFilterVar {
		t.Fatalf("filter families %s %s", FilterFamily(fixedRec.Schema()), FilterFamily(rec.Schema()))
	}
	for _, c := range []struct {
		backend Backend
		rec     arrow.RecordBatch
	}{{BackendNative, rec}, {BackendArrow, rec}, {BackendNative, fixedRec}, {BackendArrow, fixedRec}} {
		backend, rec := c.backend, c.rec
		ec.Backend, ec.Kernels = backend, &KernelLog{}
		rec.Retain()
		f := &Filter{EC: ec, Input: &sliceOperator{batches: []arrow.RecordBatch{rec}, schema: rec.Schema()}, Cond: &ConstExpr{Value: true, T: types.BoolType}}
		out, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// both backends: arrow-go's filter would copy every buffer, so the
		// arrow backend, as the native one, passes a batch whose rows all
		// pass through
		for c := range rec.Columns() {
			for b := range rec.Column(c).Data().Buffers() {
				if bufferAddr(rec.Column(c), b) != bufferAddr(out.Column(c), b) {
					t.Errorf("%s: identity filter copied column %d buffer %d", backend, c, b)
				}
			}
		}
		if ran := ec.Kernels.Ran(); len(ran) != 1 || ran[0] != (Choice{Family: FilterFamily(rec.Schema()), Selected: SelectBackend(backend, FilterFamily(rec.Schema())).Selected}) {
			t.Errorf("%s: the filter ran %v", backend, ran)
		}
		out.Release()
		f.Close()
	}
}

// The recycling allocator hands a released output buffer to the next
// batch: evaluating the same kernel repeatedly allocates nothing new.
func TestPoolAllocatorRecyclesKernelOutputs(t *testing.T) {
	rec := int64Batch(1 << 14)
	defer rec.Release()
	pool := NewPoolAllocator(1 << 24)
	ec := &EvalContext{Ctx: context.Background(), Mem: pool, Backend: BackendNative}
	e := aTimes2PlusB()
	var first uintptr
	for i := 0; i < 10; i++ {
		out, err := e.Eval(ec, rec)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = bufferAddr(out, 1)
		} else if got := bufferAddr(out, 1); got != first {
			t.Errorf("batch %d: output at %#x, want the recycled %#x", i, got, first)
		}
		out.Release()
	}
	st := pool.Stats()
	if st.Reused < 9 || st.Allocs-st.Reused > 1 {
		t.Errorf("pool stats %+v: want every allocation after the first reused", st)
	}
	// a full pool drops what it cannot keep
	small := NewPoolAllocator(64)
	b := small.AllocateUninit(1000)
	small.Free(b)
	if st := small.Stats(); st.Dropped != 1 {
		t.Errorf("over the limit: %+v", st)
	}
	// reused memory is zeroed for Allocate, as Go's allocator's is
	p := NewPoolAllocator(1 << 20)
	x := p.AllocateUninit(100)
	for i := range x {
		x[i] = 0xAB
	}
	p.Free(x)
	y := p.Allocate(100)
	for i, v := range y {
		if v != 0 {
			t.Fatalf("byte %d of a reused buffer is %#x", i, v)
		}
	}
	if st := p.Stats(); st.Reused != 1 {
		t.Errorf("the freed kernel buffer was not reused: %+v", st)
	}
	// a buffer from Allocate (a builder's, perhaps string bytes that a
	// Value still aliases) is never recycled
	p.Free(y)
	z := p.AllocateUninit(100)
	if unsafe.SliceData(z) == unsafe.SliceData(y) {
		t.Error("a buffer from Allocate was recycled")
	}
}
