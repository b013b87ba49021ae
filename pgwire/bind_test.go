package pgwire

import (
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestBindDecodeMatchesPgproto3: the in-place Bind decoder accepts and
// rejects what pgproto3.Bind.Decode does, with the same fields, and its
// reused slices carry nothing over from one message to the next.
func TestBindDecodeMatchesPgproto3(t *testing.T) {
	enc := func(b pgproto3.Bind) []byte {
		out, err := b.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		return out[5:] // the body, without type byte and length
	}
	full := enc(pgproto3.Bind{DestinationPortal: "p1", PreparedStatement: "stmtcache_1",
		ParameterFormatCodes: []int16{1, 0}, Parameters: [][]byte{{0, 0, 0, 0, 0, 0, 0, 7}, nil},
		ResultFormatCodes: []int16{1, 1, 0}})
	cases := map[string][]byte{
		"full":         full,
		"unnamed":      enc(pgproto3.Bind{Parameters: [][]byte{[]byte("42")}}),
		"empty value":  enc(pgproto3.Bind{Parameters: [][]byte{{}}, ResultFormatCodes: []int16{1}}),
		"no params":    enc(pgproto3.Bind{PreparedStatement: "s"}),
		"empty":        {},
		"no stmt name": []byte("p\x00"),
		"short":        full[:len(full)-1],
		"cut value":    full[:20],
		"bad length":   append([]byte("\x00\x00\x00\x00\x00\x01\xff\xff\xff\xfe"), 0, 0),
	}
	var m bindMessage
	for name, body := range cases {
		var want pgproto3.Bind
		wantErr := want.Decode(body) != nil
		ok := m.decode(body)
		if ok == wantErr {
			t.Errorf("%s: decode ok %v, pgproto3 error %v", name, ok, wantErr)
			continue
		}
		if !ok {
			continue
		}
		if string(m.portal) != want.DestinationPortal || string(m.stmt) != want.PreparedStatement ||
			!slices.Equal(m.paramFormats, want.ParameterFormatCodes) || !slices.Equal(m.resultFormats, want.ResultFormatCodes) ||
			len(m.params) != len(want.Parameters) {
			t.Errorf("%s: got %+v, want %+v", name, m, want)
			continue
		}
		for i := range m.params {
			if (m.params[i] == nil) != (want.Parameters[i] == nil) || string(m.params[i]) != string(want.Parameters[i]) {
				t.Errorf("%s: parameter %d %q, want %q", name, i, m.params[i], want.Parameters[i])
			}
		}
	}
}

// TestAppendCommandCompleteMatchesPgproto3: the same bytes as
// pgproto3.CommandComplete, appended after what is already buffered.
func TestAppendCommandCompleteMatchesPgproto3(t *testing.T) {
	for _, tag := range []string{"SELECT 1", "INSERT 0 12345", ""} {
		want, err := (&pgproto3.CommandComplete{CommandTag: []byte(tag)}).Encode([]byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCommandComplete([]byte("x"), tag); string(got) != string(want) {
			t.Errorf("%q: %q, want %q", tag, got, want)
		}
	}
}
