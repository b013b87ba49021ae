package flightsql

import (
	"bytes"
	"io"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// wireBatch is a batch of n rows: an int64, a nullable string and a list.
func wireBatch(t *testing.T, n int) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := 0; i < n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i) * 7)
		if i%5 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(string(bytes.Repeat([]byte{'a' + byte(i%26)}, i%13)))
		}
		lb := b.Field(2).(*array.ListBuilder)
		lb.Append(true)
		for j := 0; j < i%4; j++ {
			lb.ValueBuilder().(*array.Int32Builder).Append(int32(i + j))
		}
	}
	return b.NewRecordBatch()
}

// split cuts b into pieces of at most size bytes, as frames arrive.
func split(b []byte, size int) mem.BufferSlice {
	var out mem.BufferSlice
	for len(b) > 0 {
		n := min(size, len(b))
		out = append(out, mem.SliceBuffer(bytes.Clone(b[:n])))
		b = b[n:]
	}
	return out
}

// TestWireRoundTrip encodes IPC messages with payloadWriter and decodes
// them with the aliasing codec, in pieces of several sizes: the encoding
// is FlightData's (protobuf decodes it to the same fields), the body is
// 8-byte aligned, and the batches read back equal the ones written.
func TestWireRoundTrip(t *testing.T) {
	pool := &bufferPool{}
	for _, rows := range []int{0, 1, 100, 20000} {
		rec := wireBatch(t, rows)
		var msgs [][]byte
		pw := &payloadWriter{pool: pool, send: func(m *wireMessage) error {
			data, err := newCodec(false).Marshal(m)
			if err != nil {
				return err
			}
			msgs = append(msgs, data.Materialize())
			data.Free()
			return nil
		}}
		w := ipc.NewWriterWithPayloadWriter(pw, ipc.WithSchema(rec.Schema()))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if len(msgs) != 2 {
			t.Fatalf("%d rows: %d messages, want schema and batch", rows, len(msgs))
		}
		for _, size := range []int{1, 7, 16384, 1 << 30} {
			var got []*flight.FlightData
			for _, m := range msgs {
				var want flight.FlightData
				if err := proto.Unmarshal(m, &want); err != nil {
					t.Fatalf("%d rows: protobuf cannot decode the encoding: %v", rows, err)
				}
				fd := &flight.FlightData{}
				if err := newCodec(true).Unmarshal(split(m, size), fd); err != nil {
					t.Fatalf("%d rows, pieces of %d: %v", rows, size, err)
				}
				if !bytes.Equal(fd.DataHeader, want.DataHeader) || !bytes.Equal(fd.DataBody, want.DataBody) || len(want.DataHeader) == 0 {
					t.Fatalf("%d rows, pieces of %d: decoded fields differ from protobuf's", rows, size)
				}
				if len(fd.DataBody) > 0 && uintptr(unsafe.Pointer(&fd.DataBody[0]))%8 != 0 {
					t.Errorf("%d rows, pieces of %d: body at an unaligned address", rows, size)
				}
				got = append(got, fd)
			}
			rdr, err := flight.NewRecordReader(&fdStream{msgs: got})
			if err != nil {
				t.Fatal(err)
			}
			if !rdr.Next() || !array.RecordEqual(rdr.RecordBatch(), rec) {
				t.Fatalf("%d rows, pieces of %d: batch read back differs (%v)", rows, size, rdr.Err())
			}
			rdr.Release()
		}
		rec.Release()
	}
}

// fdStream replays decoded messages to flight.NewRecordReader.
type fdStream struct{ msgs []*flight.FlightData }

func (s *fdStream) Recv() (*flight.FlightData, error) {
	if len(s.msgs) == 0 {
		return nil, io.EOF
	}
	m := s.msgs[0]
	s.msgs = s.msgs[1:]
	return m, nil
}

// TestWireDecodeRejectsMalformed: a truncated or corrupt message is an
// error, never a panic or a field read past the end.
func TestWireDecodeRejectsMalformed(t *testing.T) {
	valid := []byte{0x12, 0x03, 'a', 'b', 'c', 0xc2, 0x3e, 0x02, 'x', 'y'}
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"truncated body", valid[:len(valid)-1]},
		{"truncated header", valid[:3]},
		{"bad tag", []byte{0x80}},
		{"length past the end", []byte{0x12, 0x7f, 'a'}},
		{"bad descriptor", []byte{0x0a, 0x02, 0xff, 0xff}},
	} {
		if err := newCodec(true).Unmarshal(split(c.b, 2), &flight.FlightData{}); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	fd := &flight.FlightData{}
	if err := newCodec(true).Unmarshal(split(valid, 3), fd); err != nil || string(fd.DataHeader) != "abc" || string(fd.DataBody) != "xy" {
		t.Errorf("valid message: %v %q %q", err, fd.DataHeader, fd.DataBody)
	}
}

// TestBufferPool: a buffer has the length asked for and a power-of-two
// capacity within the tiers, whether new or put back before.
func TestBufferPool(t *testing.T) {
	p := &bufferPool{}
	for _, n := range []int{0, 1, 4096, 4097, 400 << 10, 1 << 20, 16 << 20, 16<<20 + 1} {
		b := p.Get(n)
		if len(*b) != n {
			t.Errorf("Get(%d): length %d", n, len(*b))
		}
		if c := cap(*b); n <= 1<<maxTier && (c&(c-1) != 0 || c < n) {
			t.Errorf("Get(%d): capacity %d", n, c)
		}
		p.Put(b)
	}
	b := p.Get(5000)
	(*b)[0] = 42
	p.Put(b)
	if c := p.Get(6000); cap(*c) != 8192 {
		t.Errorf("reused capacity %d, want 8192", cap(*c))
	}
}
