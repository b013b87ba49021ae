package flightsql

import (
	"errors"
	"math/bits"
	"strings"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the "proto" codec the wire codecs delegate to
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

// How results reach the socket. arrow-go's DoGet serialises each batch's
// buffers into one reused bytes.Buffer, which gRPC's protobuf codec then
// copies again into a pooled buffer that the pool had cleared first (the
// whole 1 MiB tier for a 400 KiB message). Here DoGet of a query writes
// each IPC message once, straight into a pooled buffer holding the
// FlightData's protobuf encoding, and gRPC frees that buffer back to the
// pool when the transport has written it: one copy of the batch in user
// space before the transport's own framing copy, instead of two plus a
// clear. The encoding is FlightData's: data_header (field 2) and data_body
// (field 1000), the fields a result message has.

// Wire tuning. Frames are 16 KiB (gRPC-Go's maximum); a larger write
// buffer lets one write system call carry many of them.
const (
	writeBufferSize = 256 << 10
	readBufferSize  = 256 << 10
	// clientWindow is the flow-control window DialOptions announces: a
	// result's batch (about 400 KiB at 8192 rows of six columns) and the
	// next one fit, so the server does not stop for window updates.
	clientWindow = 4 << 20
)

// Pool tiers: 4 KiB to 16 MiB, powers of two.
const (
	minTier = 12
	maxTier = 24
)

// bufferPool is gRPC's buffer pool for this server's transport and
// messages: power-of-two tiers that, unlike gRPC's default pool, do not
// clear a buffer handed out again. Every user overwrites the length it
// asked for (a frame read into it, a message encoded into it), so the clear
// only cost time: as much as the copy for a result batch.
type bufferPool struct {
	tiers [maxTier - minTier + 1]sync.Pool
}

func tierOf(n int) int {
	if n <= 1<<minTier {
		return minTier
	}
	return bits.Len(uint(n - 1))
}

func (p *bufferPool) Get(n int) *[]byte {
	t := tierOf(n)
	if t > maxTier {
		b := make([]byte, n)
		return &b
	}
	if b, ok := p.tiers[t-minTier].Get().(*[]byte); ok {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n, 1<<t)
	return &b
}

func (p *bufferPool) Put(b *[]byte) {
	c := cap(*b)
	if c < 1<<minTier || c > 1<<maxTier || c&(c-1) != 0 {
		return
	}
	p.tiers[bits.Len(uint(c))-1-minTier].Put(b)
}

// wireMessage is a FlightData message already encoded into pooled
// buffers; the codec hands them to gRPC, which frees them once written.
type wireMessage struct {
	data mem.BufferSlice
}

// codec is gRPC's protobuf codec, except that a wireMessage is sent as
// encoded and, when aliasing (the client side of DialOptions), a received
// FlightData's byte fields point into one copy of the message instead of
// being copied out of it again.
type codec struct {
	proto encoding.CodecV2
	alias bool
}

func newCodec(alias bool) *codec {
	return &codec{proto: encoding.GetCodecV2("proto"), alias: alias}
}

func (c *codec) Name() string { return "proto" }

func (c *codec) Marshal(v any) (mem.BufferSlice, error) {
	if m, ok := v.(*wireMessage); ok {
		data := m.data
		m.data = nil
		if data == nil {
			return nil, errors.New("flightsql: wire message sent twice")
		}
		return data, nil
	}
	return c.proto.Marshal(v)
}

func (c *codec) Unmarshal(data mem.BufferSlice, v any) error {
	if fd, ok := v.(*flight.FlightData); ok && c.alias {
		b, pad := materializeAligned(data)
		return unmarshalFlightData(b[pad:], fd)
	}
	return c.proto.Unmarshal(data, v)
}

// FlightData's field numbers (Flight.proto).
const (
	fdDescriptor  protowire.Number = 1
	fdDataHeader  protowire.Number = 2
	fdAppMetadata protowire.Number = 3
	fdDataBody    protowire.Number = 1000
)

// materializeAligned copies a received message into one new buffer that
// is not cleared first (every byte is written), placed so that data_body's
// value starts 8-byte aligned (Arrow's buffers are read in place as typed
// slices): the message starts at b[pad:].
func materializeAligned(data mem.BufferSlice) (b []byte, pad int) {
	n := data.Len()
	if off, ok := bodyOffset(data); ok {
		pad = (8 - off%8) % 8
	}
	// strings.Builder's growth is the standard library's one allocation
	// that skips zeroing; the bytes are handed out as a []byte that nothing
	// writes (the record batches read from them are immutable).
	var sb strings.Builder
	sb.Grow(pad + n)
	sb.WriteString("\x00\x00\x00\x00\x00\x00\x00"[:pad])
	for _, buf := range data {
		sb.Write(buf.ReadOnlyData())
	}
	s := sb.String()
	return unsafe.Slice(unsafe.StringData(s), len(s)), pad
}

// bodyOffset is where data_body's value starts in an encoded FlightData,
// found in the fields' tags and lengths before it (a few hundred bytes,
// most often within the first received buffer, read in place).
func bodyOffset(data mem.BufferSlice) (int, bool) {
	var head []byte
	for i, buf := range data {
		if i == 0 {
			head = buf.ReadOnlyData()
		} else {
			head = append(head[:len(head):len(head)], buf.ReadOnlyData()...)
		}
		if off, ok := bodyOffsetIn(head); ok {
			return off, true
		}
		if len(head) >= 64<<10 {
			break
		}
	}
	return 0, false
}

// bodyOffsetIn is bodyOffset within the message's first bytes.
func bodyOffsetIn(head []byte) (int, bool) {
	for off := 0; off < len(head); {
		num, typ, n := protowire.ConsumeTag(head[off:])
		if n < 0 {
			return 0, false
		}
		off += n
		if num == fdDataBody && typ == protowire.BytesType {
			_, m := protowire.ConsumeVarint(head[off:])
			if m < 0 {
				return 0, false
			}
			return off + m, true
		}
		if n = protowire.ConsumeFieldValue(num, typ, head[off:]); n < 0 {
			return 0, false
		}
		off += n
	}
	return 0, false
}

// unmarshalFlightData decodes b into fd, its byte fields slices of b (which
// the caller gives up: the record batches read from fd keep it alive).
func unmarshalFlightData(b []byte, fd *flight.FlightData) error {
	fd.Reset()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType || num != fdDescriptor && num != fdDataHeader && num != fdAppMetadata && num != fdDataBody {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		switch num {
		case fdDescriptor:
			d := &flight.FlightDescriptor{}
			if err := proto.Unmarshal(v, d); err != nil {
				return err
			}
			fd.FlightDescriptor = d
		case fdDataHeader:
			fd.DataHeader = v
		case fdAppMetadata:
			fd.AppMetadata = v
		case fdDataBody:
			fd.DataBody = v
		}
	}
	return nil
}

// payloadWriter is an ipc.PayloadWriter that encodes each IPC message as a
// FlightData into one pooled buffer and sends it.
type payloadWriter struct {
	pool  *bufferPool
	send  func(*wireMessage) error
	parts [][]byte // the body's pieces, valid during WritePayload
	size  int
}

func (w *payloadWriter) Start() error { return nil }
func (w *payloadWriter) Close() error { return nil }

// Write collects a piece of the body (ipc.Payload.SerializeBody's writes:
// each buffer of the batch, then its padding).
func (w *payloadWriter) Write(p []byte) (int, error) {
	w.parts = append(w.parts, p)
	w.size += len(p)
	return len(p), nil
}

func (w *payloadWriter) WritePayload(p ipc.Payload) error {
	meta := p.Meta()
	var header []byte
	if meta != nil {
		defer meta.Release()
		header = meta.Bytes()
	}
	w.parts, w.size = w.parts[:0], 0
	if err := p.SerializeBody(w); err != nil {
		return err
	}
	n := protowire.SizeTag(fdDataHeader) + protowire.SizeBytes(len(header))
	if w.size > 0 {
		n += protowire.SizeTag(fdDataBody) + protowire.SizeBytes(w.size)
	}
	buf := w.pool.Get(n)
	b := protowire.AppendTag((*buf)[:0], fdDataHeader, protowire.BytesType)
	b = protowire.AppendBytes(b, header)
	if w.size > 0 {
		b = protowire.AppendTag(b, fdDataBody, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(w.size))
		for _, part := range w.parts {
			b = append(b, part...)
		}
	}
	clear(w.parts)
	if len(b) != n {
		return errors.New("flightsql: FlightData encoding size mismatch")
	}
	*buf = b
	return w.send(&wireMessage{data: mem.BufferSlice{mem.NewBuffer(buf, w.pool)}})
}

// flightService is arrow-go's Flight SQL routing with DoGet of a query's
// rows (statement and prepared statement tickets) written by writeResult;
// the other tickets (catalog commands) go through arrow-go's writer.
type flightService struct {
	flight.FlightServer
	s *Server
}

func (f flightService) DoGet(t *flight.Ticket, stream flight.FlightService_DoGetServer) error {
	var packed anypb.Any
	if err := proto.Unmarshal(t.GetTicket(), &packed); err != nil {
		return f.FlightServer.DoGet(t, stream) // its error for a bad ticket
	}
	cmd, err := packed.UnmarshalNew()
	if err != nil {
		return f.FlightServer.DoGet(t, stream)
	}
	var (
		sc *arrow.Schema
		cc <-chan flight.StreamChunk
	)
	switch cmd := cmd.(type) {
	case *pb.TicketStatementQuery:
		sc, cc, err = f.s.DoGetStatement(stream.Context(), cmd)
	case *pb.CommandPreparedStatementQuery:
		sc, cc, err = f.s.DoGetPreparedStatement(stream.Context(), cmd)
	default:
		return f.FlightServer.DoGet(t, stream)
	}
	if err != nil {
		return err
	}
	return f.s.writeResult(stream, sc, cc)
}

// writeResult sends the chunks of cc as an IPC stream of schema sc, as
// arrow-go's DoGet does, each message encoded once by payloadWriter.
func (s *Server) writeResult(stream flight.FlightService_DoGetServer, sc *arrow.Schema, cc <-chan flight.StreamChunk) error {
	defer func() {
		for chunk := range cc {
			if chunk.Data != nil {
				chunk.Data.Release()
			}
		}
	}()
	pw := &payloadWriter{pool: s.pool, send: func(m *wireMessage) error { return stream.SendMsg(m) }}
	wr := ipc.NewWriterWithPayloadWriter(pw, ipc.WithSchema(sc))
	defer wr.Close()
	ctx := stream.Context()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case chunk, ok := <-cc:
			if !ok {
				return nil
			}
			if chunk.Err != nil {
				return chunk.Err
			}
			err := wr.Write(chunk.Data)
			chunk.Data.Release()
			if err != nil {
				return err
			}
		}
	}
}

// serverWireOptions are the gRPC server options of the wire path above.
func serverWireOptions(pool *bufferPool) []grpc.ServerOption {
	return []grpc.ServerOption{
		experimental.BufferPool(pool),
		grpc.ForceServerCodecV2(newCodec(false)),
		grpc.WriteBufferSize(writeBufferSize),
		grpc.ReadBufferSize(readBufferSize),
		grpc.SharedWriteBuffer(true),
	}
}

// DialOptions are gRPC dial options for a Go Flight SQL client of this
// server (arrow-go's flightsql.NewClient), besides the transport
// credentials: buffers that are not cleared before reuse, a received
// FlightData's header and body left in the one copy gRPC assembles rather
// than copied out again (the record batches read from it point there),
// larger read buffers and a flow-control window that holds a few batches.
// Any Flight SQL client works without them; these make a Go client cheap
// enough that a large result is bounded by the server.
func DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		experimental.WithBufferPool(&bufferPool{}),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(newCodec(true))),
		grpc.WithReadBufferSize(readBufferSize),
		grpc.WithWriteBufferSize(writeBufferSize),
		grpc.WithInitialWindowSize(clientWindow),
		grpc.WithInitialConnWindowSize(clientWindow),
	}
}
