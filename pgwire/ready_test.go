package pgwire

import (
	"bytes"
	"testing"

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
