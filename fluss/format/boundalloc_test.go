package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

func TestDecodeBudget(t *testing.T) {
	for _, tc := range []struct {
		encoded int
		want    int64
	}{
		{0, minDecodeBudget},
		{100, minDecodeBudget},
		{1 << 10, 4 << 20},
		{64 << 10, 256 << 20},
		{2 << 20, maxDecodedBatch},
	} {
		if got := decodeBudget(tc.encoded); got != tc.want {
			t.Errorf("decodeBudget(%d) = %d, want %d", tc.encoded, got, tc.want)
		}
	}
}

func TestDecodeAllocatorBudget(t *testing.T) {
	a := newDecodeAllocator()
	a.reset(0) // minDecodeBudget
	b := a.Allocate(minDecodeBudget / 2)
	b = a.Reallocate(minDecodeBudget*3/4, b)
	a.Free(b)
	func() {
		defer func() {
			var e errDecodeBudget
			err, _ := recover().(error)
			if !errors.As(err, &e) || e.budget != minDecodeBudget {
				t.Errorf("allocation past the budget: recovered %v, want errDecodeBudget", err)
			}
		}()
		a.Allocate(minDecodeBudget / 2) // freed bytes are not given back
		t.Error("allocation past the budget returned")
	}()
	a.reset(0)
	if got := len(a.Allocate(minDecodeBudget)); got != minDecodeBudget {
		t.Errorf("after reset: allocated %d bytes, want %d", got, minDecodeBudget)
	}
}

// A compressed batch decodes through both readers; the same batch with its
// buffer's stated uncompressed size raised to 4 GiB (CRC re-sealed) is
// refused with an error, without allocating it.
func TestCompressedBatchDecodeBounded(t *testing.T) {
	const rows = 1000
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range rows {
		bld.Append(int64(i % 7))
	}
	col := bld.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, rows)
	defer rec.Release()
	for _, codec := range []struct {
		name string
		opt  ipc.Option
	}{{"lz4", ipc.WithLZ4()}, {"zstd", ipc.WithZstd()}} {
		b, err := encodeBatch(rec, []types.T{types.Int64Type}, nil, 1, codec.opt)
		if err != nil {
			t.Fatal(err)
		}
		dec := NewTableBatchDecoder(schema, []types.T{types.Int64Type})
		decode := map[string]func([]byte) (Batch, error){
			"Decode": dec.Decode,
			"BatchReader": func(b []byte) (Batch, error) {
				r := dec.NewReader()
				defer r.Release()
				return r.Decode(b)
			},
		}
		for how, fn := range decode {
			got, err := fn(b)
			if err != nil {
				t.Fatalf("%s %s: %v", codec.name, how, err)
			}
			if v := got.Record.Column(0).(*array.Int64); v.Len() != rows || v.Value(999) != 999%7 {
				t.Errorf("%s %s: decoded %v", codec.name, how, v)
			}
			got.Record.Release()
		}

		// The data buffer's prefix states 8000 uncompressed bytes.
		var size [8]byte
		binary.LittleEndian.PutUint64(size[:], rows*8)
		at := bytes.Index(b, size[:])
		if at < 0 || bytes.Count(b, size[:]) != 1 {
			t.Fatalf("%s: the uncompressed-size prefix is not found once", codec.name)
		}
		damaged := bytes.Clone(b)
		binary.LittleEndian.PutUint64(damaged[at:], 1<<32)
		binary.LittleEndian.PutUint32(damaged[offCRC:], crc32.Checksum(damaged[offSchemaID:], castagnoli))
		for how, fn := range decode {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := fn(damaged)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "exceeds") {
				t.Errorf("%s %s of a 4 GiB claim: err %v, want the budget's error", codec.name, how, err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("%s %s of a 4 GiB claim allocated %d bytes", codec.name, how, grew)
			}
		}
	}
}
