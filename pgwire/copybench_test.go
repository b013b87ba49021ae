package pgwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// eventsCopyCols are bench's W8 events columns (bench/systems.go).
var eventsCopyCols = []ResultColumn{
	{Name: "id", Type: types.Int64Type},
	{Name: "user_id", Type: types.Int32Type},
	{Name: "amount", Type: types.Float64Type},
	{Name: "qty", Type: types.Int32Type},
	{Name: "name", Type: types.StringType},
	{Name: "ts", Type: types.T{Kind: types.Timestamp, Precision: 6}},
}

// eventsBinaryCopy is a binary COPY stream of n rows of eventsCopyCols, as
// pgx's CopyFrom writes them; with nulls, amount and name are NULL in
// every 13th and 7th row.
func eventsBinaryCopy(n int, nulls ...bool) []byte {
	withNulls := len(nulls) > 0 && nulls[0]
	out := append([]byte(nil), binaryCopySignature...)
	out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
	for i := range n {
		out = binary.BigEndian.AppendUint16(out, 6)
		out = binary.BigEndian.AppendUint32(out, 8)
		out = binary.BigEndian.AppendUint64(out, uint64(i))
		out = binary.BigEndian.AppendUint32(out, 4)
		out = binary.BigEndian.AppendUint32(out, uint32(i%1000))
		if withNulls && i%13 == 0 {
			out = binary.BigEndian.AppendUint32(out, 0xffffffff)
		} else {
			out = binary.BigEndian.AppendUint32(out, 8)
			out = binary.BigEndian.AppendUint64(out, math.Float64bits(float64(i)*0.25))
		}
		out = binary.BigEndian.AppendUint32(out, 4)
		out = binary.BigEndian.AppendUint32(out, uint32(i%7))
		if name := "user_" + strconv.Itoa(i%5000); withNulls && i%7 == 0 {
			out = binary.BigEndian.AppendUint32(out, 0xffffffff)
		} else {
			out = binary.BigEndian.AppendUint32(out, uint32(len(name)))
			out = append(out, name...)
		}
		out = binary.BigEndian.AppendUint32(out, 8)
		out = binary.BigEndian.AppendUint64(out, uint64(int64(i)*1000000))
	}
	return binary.BigEndian.AppendUint16(out, 0xffff)
}

// TestCopyDecoderReservedBatches: over several full batches (the later
// ones reserved from the first's sizes, filled in place) with NULLs in a
// fixed-width and a text column, every row comes out as sent, in chunks of
// any size.
func TestCopyDecoderReservedBatches(t *testing.T) {
	const rows = 2*copyBatchRows + 17
	data := eventsBinaryCopy(rows, true)
	for _, chunk := range []int{65536, 1000, 7} {
		got, err := decodeCopy(t, binOpts, eventsCopyCols, data, chunk)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != rows {
			t.Fatalf("chunk %d: %d rows, want %d", chunk, len(got), rows)
		}
		for i, r := range got {
			amount, name := strconv.FormatFloat(float64(i)*0.25, 'g', -1, 64), "user_"+strconv.Itoa(i%5000)
			if i%13 == 0 {
				amount = "NULL"
			}
			if i%7 == 0 {
				name = "NULL"
			}
			ts := time.Unix(pgEpochMicros/1e6+int64(i), 0).UTC().Format("2006-01-02T15:04:05")
			if want := fmt.Sprintf("%d|%d|%s|%d|%s|%s", i, i%1000, amount, i%7, name, ts); r != want {
				t.Fatalf("chunk %d, row %d: %q, want %q", chunk, i, r, want)
			}
		}
	}
}

// BenchmarkCopyBinaryDecode decodes bench's W8 binary COPY stream in the
// 64 KiB CopyData messages pgx sends: the server's decoding cost per row.
func BenchmarkCopyBinaryDecode(b *testing.B) {
	const rows = 100_000
	data := eventsBinaryCopy(rows)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	before := processCPU()
	for range b.N {
		dec, err := newCopyDecoder(binOpts, eventsCopyCols, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		take := func(atEOF bool) {
			for {
				if err := dec.decode(atEOF); err != nil {
					b.Fatal(err)
				}
				full := dec.full()
				if !full && !atEOF {
					return // as copyInSource: a batch when full or at the end
				}
				if rec := dec.batch(); rec != nil {
					got += int(rec.NumRows())
					rec.Release()
				}
				if !full {
					return
				}
			}
		}
		for rest := data; len(rest) > 0; {
			n := min(65536, len(rest))
			dec.buf = append(dec.buf, rest[:n]...)
			rest = rest[n:]
			take(false)
		}
		take(true)
		dec.release()
		if got != rows {
			b.Fatalf("%d rows, want %d", got, rows)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows*b.N), "ns/row")
	// the process's CPU: what to read on a shared machine
	b.ReportMetric(float64((processCPU()-before).Nanoseconds())/float64(rows*b.N), "cpu-ns/row")
}

// processCPU is the process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestValidUTF8: the ASCII shortcut answers as utf8.Valid for ASCII of
// every length around its eight-byte words and for non-ASCII (valid or
// not) in a word or in the tail.
func TestValidUTF8(t *testing.T) {
	tests := []string{"", "a", "abcdefg", "abcdefgh", "abcdefghi", "0123456789abcdef0",
		"é", "abcdefgé", "abcdefghé", "abcdefgh\xff", "\xffabcdefgh", "abc\xc3", "abcdefgh\xc3",
		"\xc3\xa9abcdefghijklmnop", "abcdefghijklmno\xe2\x82", "日本語のテキスト", "\x00\x01\x7f"}
	for _, s := range tests {
		if got, want := validUTF8([]byte(s)), utf8.Valid([]byte(s)); got != want {
			t.Errorf("validUTF8(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestCopyDecoderRunsKeepOrder: values gathered in a column's run come
// out in order with the NULLs that bypass it, across runs of maxRun (a
// value of the run's types that the fast path declines is an error: no
// slow-path value lands between run values).
func TestCopyDecoderRunsKeepOrder(t *testing.T) {
	cols := []ResultColumn{{Name: "a", Type: types.T{Kind: types.Timestamp, Precision: 6}}, {Name: "b", Type: types.Float64Type}}
	stream := func(from, to int) []byte {
		out := append([]byte(nil), binaryCopySignature...)
		out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
		for i := from; i < to; i++ {
			out = binary.BigEndian.AppendUint16(out, 2)
			switch {
			case i%500 == 7:
				out = binary.BigEndian.AppendUint32(out, 0xffffffff)
			default:
				out = binary.BigEndian.AppendUint32(out, 8)
				out = binary.BigEndian.AppendUint64(out, uint64(i)*1_000_001)
			}
			out = binary.BigEndian.AppendUint32(out, 8)
			out = binary.BigEndian.AppendUint64(out, math.Float64bits(float64(i)/2))
		}
		return binary.BigEndian.AppendUint16(out, 0xffff)
	}
	const rows = 3*maxRun + 5
	got, err := decodeCopy(t, binOpts, cols, stream(0, rows), 4096)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != rows {
		t.Fatalf("%d rows, want %d", len(got), rows)
	}
	for i, r := range got {
		one, err := decodeCopy(t, binOpts, cols, stream(i, i+1), 4096) // the row alone
		if err != nil || len(one) != 1 {
			t.Fatalf("row %d alone: %v, %v", i, one, err)
		}
		if r != one[0] {
			t.Fatalf("row %d: %q, want %q", i, r, one[0])
		}
		if i%500 == 7 && !strings.HasPrefix(r, "NULL|") {
			t.Fatalf("row %d: %q, want NULL first", i, r)
		}
	}
}
