package pgwire

import (
	"bufio"
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestAppendReadyForQuery: the ReadyForQuery sendReady appends by hand is
// the message pgproto3 encodes, for every transaction status, after what
// the output buffer already holds.
func TestAppendReadyForQuery(t *testing.T) {
	for _, st := range []byte{'I', 'T', 'E'} {
		prefix := []byte("C\x00\x00\x00\x0bCOMMIT\x00")
		want, err := (&pgproto3.ReadyForQuery{TxStatus: st}).Encode(bytes.Clone(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendReadyForQuery(bytes.Clone(prefix), st); !bytes.Equal(got, want) {
			t.Errorf("status %c: %q, want %q", st, got, want)
		}
	}
}

// TestReadFull: conn.readFull fills its buffer whether the reader holds all
// of it already (the copy out of the buffer) or must read on (io.ReadFull),
// across messages split anywhere, and reports a short stream.
func TestReadFull(t *testing.T) {
	data := []byte("Q\x00\x00\x00\x0bcommit\x00B\x00\x00\x00\x0cw10s\x00\x00\x00\x00")
	for _, tc := range []struct {
		name string
		r    io.Reader
	}{
		{"whole", bytes.NewReader(data)},
		{"a byte at a time", iotest.OneByteReader(bytes.NewReader(data))},
		{"halves", iotest.HalfReader(bytes.NewReader(data))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &conn{br: bufio.NewReaderSize(tc.r, 16)}
			var got []byte
			for _, n := range []int{5, 7, 1, 5, 7} {
				p := make([]byte, n)
				if err := c.readFull(p); err != nil {
					t.Fatalf("after %q: %v", got, err)
				}
				got = append(got, p...)
			}
			if !bytes.Equal(got, data[:len(got)]) || len(got) != len(data) {
				t.Errorf("read %q, want %q", got, data)
			}
			if err := c.readFull(make([]byte, 4)); err == nil {
				t.Error("no error past the end")
			}
		})
	}
}
