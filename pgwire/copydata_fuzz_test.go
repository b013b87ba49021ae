package pgwire

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// FuzzCopyDecode feeds arbitrary COPY FROM data, in arbitrary chunks, to
// the text, CSV and binary decoders over columns of many types: every
// input must decode or fail with a *CopyDataError, never panic, and the
// decoder must never report more rows than it was given lines or tuples.
func FuzzCopyDecode(f *testing.F) {
	seeds := []struct {
		format byte
		data   string
	}{
		{0, "1\thello\t2024-01-02\t1.5\tt\t\\x0102\t12:00:00\t2024-01-02 03:04:05+00\n2\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n\\.\n"},
		{0, "1\ta\\tb\\nc\\\\d\t2000-02-29\t-0\tf\t\\x\t00:00:00\tinfinity\n"},
		{1, "id,name,day,x,ok,b,t,ts\n1,\"a,\"\"b\"\"\",2024-01-02,1e3,true,\\x00,23:59:59.999999,2024-01-02 03:04:05.123456+02\n"},
		{1, "1,,,,,,,\n\"2\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n\\.\n"},
		{2, "PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00\x04\x00\x00\x00\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"},
		{0, "9999999999999999999999\tx\t1999-13-01\tNaN\tmaybe\t\\xZZ\t25:00:00\tyesterday\n"},
	}
	for _, s := range seeds {
		f.Add(s.format, []byte(s.data), uint8(7))
	}
	cols := []ResultColumn{
		{Name: "id", Type: types.T{Kind: types.Int32}},
		{Name: "name", Type: types.StringType},
		{Name: "day", Type: types.T{Kind: types.Date}},
		{Name: "x", Type: types.T{Kind: types.Decimal, Precision: 10, Scale: 2}},
		{Name: "ok", Type: types.BoolType},
		{Name: "b", Type: types.T{Kind: types.Bytes}},
		{Name: "t", Type: types.T{Kind: types.Time, Precision: 6}},
		{Name: "ts", Type: types.T{Kind: types.TimestampTZ, Precision: 6}},
	}
	f.Fuzz(func(t *testing.T, format byte, data []byte, chunk uint8) {
		opts := CopyOptions{Format: "text", Delimiter: "\t", Null: `\N`}
		switch format % 3 {
		case 1:
			opts = CopyOptions{Format: "csv", Delimiter: ",", Quote: `"`, Escape: `"`, Header: true}
		case 2:
			opts = CopyOptions{Format: "binary"}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		d, err := newCopyDecoder(opts, cols, mem)
		if err != nil {
			t.Fatal(err)
		}
		defer d.release()
		step := int(chunk)%64 + 1
		rows := 0
		take := func() {
			if b := d.batch(); b != nil {
				rows += int(b.NumRows())
				if int(b.NumCols()) != len(cols) {
					t.Fatalf("batch of %d columns", b.NumCols())
				}
				b.Release()
			}
		}
		for off := 0; ; {
			end := min(off+step, len(data))
			d.buf = append(d.buf, data[off:end]...)
			off = end
			atEOF := off == len(data)
			for {
				if err := d.decode(atEOF); err != nil {
					if _, ok := err.(*CopyDataError); !ok {
						t.Fatalf("error of type %T: %v", err, err)
					}
					return
				}
				if !d.full() {
					break
				}
				take()
			}
			if atEOF {
				break
			}
		}
		take()
		if rows > len(data)+1 {
			t.Fatalf("%d rows from %d bytes", rows, len(data))
		}
	})
}
