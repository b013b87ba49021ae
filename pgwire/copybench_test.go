package pgwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
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

// TestCopyBinaryFastPathMatchesSlowPath is differential: random binary
// tuples of every type with a fast path (NULLs, NaN and infinite floats,
// non-ASCII and invalid UTF-8 text, timestamps and dates near the fast
// path's bounds) decode to the same rows, or the same error, with the
// fast paths (fastKind, the runs) as with every column on the general
// path (pgtypes.DecodeParam, types.AppendValue).
func TestCopyBinaryFastPathMatchesSlowPath(t *testing.T) {
	cols := []ResultColumn{
		{Name: "i8", Type: types.Int64Type},
		{Name: "i4", Type: types.Int32Type},
		{Name: "i2", Type: types.T{Kind: types.Int16}},
		{Name: "f8", Type: types.Float64Type},
		{Name: "f4", Type: types.T{Kind: types.Float32}},
		{Name: "b", Type: types.BoolType},
		{Name: "s", Type: types.StringType},
		{Name: "ts", Type: types.T{Kind: types.Timestamp, Precision: 6}},
		{Name: "d", Type: types.T{Kind: types.Date}},
	}
	texts := []string{"", "a", "abcdefgh", "abcdefghijk", "é", "日本語", "abcdefg\xff", "\xc3", "x\x00y"}
	floats := []float64{0, math.Copysign(0, -1), 1.5, -2.25e300, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324}
	rng := rand.New(rand.NewPCG(33, 4))
	for round := range 20 {
		valid := round%4 != 3 // every fourth round may hold values the slow path refuses
		var tuples [][][]byte
		for range 300 + rng.IntN(3000) {
			tup := make([][]byte, len(cols))
			null := func() bool { return rng.IntN(9) == 0 }
			if !null() {
				tup[0] = binary.BigEndian.AppendUint64(nil, rng.Uint64())
			}
			if !null() {
				tup[1] = binary.BigEndian.AppendUint32(nil, rng.Uint32())
			}
			if !null() {
				tup[2] = binary.BigEndian.AppendUint16(nil, uint16(rng.Uint32()))
			}
			if !null() {
				tup[3] = binary.BigEndian.AppendUint64(nil, math.Float64bits(floats[rng.IntN(len(floats))]))
			}
			if !null() {
				tup[4] = binary.BigEndian.AppendUint32(nil, math.Float32bits(float32(floats[rng.IntN(len(floats))])))
			}
			if !null() {
				tup[5] = []byte{byte(rng.IntN(2))}
			}
			if !null() {
				if s := texts[rng.IntN(len(texts))]; valid || rng.IntN(50) != 0 {
					if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
						s = "ok"
					}
					tup[6] = []byte(s)
				} else {
					tup[6] = []byte(s)
				}
			}
			if !null() {
				us := rng.Int64N(1<<50) - 1<<49 // ±17,800 years around 2000
				if !valid && rng.IntN(50) == 0 {
					us = math.MaxInt64/2 + rng.Int64N(3) - 1
				}
				tup[7] = binary.BigEndian.AppendUint64(nil, uint64(us))
			}
			if !null() {
				d := rng.Int32N(2_000_000) - 1_000_000
				if !valid && rng.IntN(50) == 0 {
					d = math.MaxInt32/2 + rng.Int32N(3) - 1
				}
				tup[8] = binary.BigEndian.AppendUint32(nil, uint32(d))
			}
			tuples = append(tuples, tup)
		}
		data := binaryCopy(tuples...)
		chunk := 1 + rng.IntN(70000)
		fast, fastErr := decodeCopy(t, binOpts, cols, data, chunk)
		slow, slowErr := decodeCopyWith(t, binOpts, cols, data, chunk, func(d *copyDecoder) {
			for _, c := range d.cols {
				c.fast = fastNone
			}
		})
		if (fastErr == nil) != (slowErr == nil) || (fastErr != nil && fastErr.Error() != slowErr.Error()) {
			t.Fatalf("round %d: fast path error %v, general path %v", round, fastErr, slowErr)
		}
		if valid && fastErr != nil {
			t.Fatalf("round %d: %v", round, fastErr)
		}
		if fastErr != nil {
			continue
		}
		if len(fast) != len(tuples) || len(slow) != len(tuples) {
			t.Fatalf("round %d: %d and %d rows, want %d", round, len(fast), len(slow), len(tuples))
		}
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("round %d, row %d: fast path %q, general path %q", round, i, fast[i], slow[i])
			}
		}
	}
}
