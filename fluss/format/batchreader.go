package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BatchReader decodes a sequence of batches of one schema without copying
// them: the arrays of a decoded record point into the batch bytes it was
// given (an uncompressed Arrow body is used in place; a compressed one is
// decompressed buffer by buffer by arrow-go's reader). The schema message is
// parsed once per reader instead of once per batch, as Decode does.
//
// The caller must not modify the bytes of a batch once it has decoded it:
// the records share them (Go's collector keeps them alive as long as any
// array does). A BatchReader is not safe for concurrent use; Release it when
// done.
type BatchReader struct {
	dec   *BatchDecoder
	feed  *messageFeed
	alloc *decodeAllocator // bounds each batch's decompressed buffers
	r     *ipc.Reader
}

// NewReader returns a zero-copy reader of batches of d's schema.
func (d *BatchDecoder) NewReader() *BatchReader { return &BatchReader{dec: d} }

// Release frees the reader's state.
func (r *BatchReader) Release() {
	if r.r != nil {
		r.r.Release()
		r.r = nil
	}
}

// messageFeed is the ipc.MessageReader the reader pulls from: the table's
// schema message first, then the one message Decode placed in next.
type messageFeed struct {
	schema *ipc.Message
	next   *ipc.Message
}

func (f *messageFeed) Message() (*ipc.Message, error) {
	if f.schema != nil {
		m := f.schema
		f.schema = nil
		return m, nil
	}
	if f.next == nil {
		return nil, io.EOF
	}
	m := f.next
	f.next = nil
	return m, nil
}

func (f *messageFeed) Retain()  {}
func (f *messageFeed) Release() {}

// Decode verifies the CRC of one whole batch (b holds exactly one batch, as
// VerifyBatch wants) and decodes it, sharing b's bytes.
func (r *BatchReader) Decode(b []byte) (Batch, error) {
	h, changes, pos, err := verifiedParts(b)
	if err != nil {
		return Batch{}, err
	}
	if h.RecordCount == 0 {
		return r.dec.empty(h, changes), nil
	}
	msg, err := splitMessage(b[pos:], ipc.MessageRecordBatch)
	if err != nil {
		return Batch{}, fmt.Errorf("decoding arrow record batch: %w", err)
	}
	if r.r == nil {
		schema, err := splitMessage(r.dec.schemaMsg, ipc.MessageSchema)
		if err != nil {
			return Batch{}, fmt.Errorf("decoding arrow schema: %w", err)
		}
		r.feed = &messageFeed{schema: schema}
		r.alloc = newDecodeAllocator()
		rd, err := ipc.NewReaderFromMessageReader(r.feed, ipc.WithSchema(r.dec.wire), ipc.WithAllocator(r.alloc))
		if err != nil {
			return Batch{}, fmt.Errorf("decoding arrow schema: %w", err)
		}
		r.r = rd
	}
	r.feed.next = msg
	r.alloc.reset(len(b))
	if !r.r.Next() {
		err := r.r.Err()
		// A reader that failed stays failed: the next batch gets a new one.
		r.Release()
		if err == nil {
			err = errors.New("no record")
		}
		return Batch{}, fmt.Errorf("decoding arrow record batch: %w", err)
	}
	rec := r.r.RecordBatch()
	if rec.NumRows() != int64(h.RecordCount) {
		return Batch{}, fmt.Errorf("batch header says %d records, arrow data has %d", h.RecordCount, rec.NumRows())
	}
	rec.Retain()
	return Batch{Header: h, Changes: changes, Record: r.dec.fromWire(rec)}, nil
}

// splitMessage parses one encapsulated IPC message (continuation marker,
// metadata length, flatbuffer metadata, body) that b starts with, without
// copying: the message's buffers are slices of b (capacity-limited, so no
// offset in the metadata reaches past the message). A body that is not
// 8-byte aligned (after a change-type vector) is copied to one that is,
// since Arrow's typed views of it need aligned memory.
func splitMessage(b []byte, want ipc.MessageType) (msg *ipc.Message, err error) {
	defer func() {
		// The flatbuffer accessors index b; damaged metadata panics there.
		if p := recover(); p != nil {
			msg, err = nil, fmt.Errorf("invalid message metadata: %v", p)
		}
	}()
	if len(b) < 8 {
		return nil, fmt.Errorf("message of %d bytes is too short", len(b))
	}
	le := binary.LittleEndian
	pos, metaLen := 4, int64(int32(le.Uint32(b)))
	if uint32(metaLen) == 0xFFFFFFFF {
		metaLen = int64(int32(le.Uint32(b[4:])))
		pos = 8
	}
	if metaLen < 4 || metaLen > int64(len(b)-pos) {
		return nil, fmt.Errorf("message metadata of %d bytes overruns the %d bytes left", metaLen, len(b)-pos)
	}
	meta := b[pos : pos+int(metaLen) : pos+int(metaLen)]
	rest := b[pos+int(metaLen):]
	head := ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(nil))
	if head.Type() != want {
		return nil, fmt.Errorf("message of type %v, want %v", head.Type(), want)
	}
	bodyLen := head.BodyLen()
	if bodyLen < 0 || bodyLen > int64(len(rest)) {
		return nil, fmt.Errorf("message body of %d bytes overruns the %d bytes left", bodyLen, len(rest))
	}
	if bodyLen == 0 {
		return head, nil
	}
	body := rest[:bodyLen:bodyLen]
	if uintptr(unsafe.Pointer(&body[0]))%8 != 0 {
		body = alignedCopy(body)
	}
	return ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(body)), nil
}

// alignedCopy returns a copy of b that starts on an 8-byte boundary.
func alignedCopy(b []byte) []byte {
	words := make([]uint64, (len(b)+7)/8)
	out := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)[:len(b):len(b)]
	copy(out, b)
	return out
}
