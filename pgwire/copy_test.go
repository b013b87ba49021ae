package pgwire

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

var (
	textOpts = CopyOptions{Format: "text", Delimiter: "\t", Null: `\N`}
	csvOpts  = CopyOptions{Format: "csv", Delimiter: ",", Null: "", Quote: `"`, Escape: `"`}
	binOpts  = CopyOptions{Format: "binary"}
	copyCols = []ResultColumn{
		{Name: "a", Type: types.Int32Type},
		{Name: "b", Type: types.StringType},
	}
)

// decodeCopy runs the decoder over data split into chunks of size chunk and
// renders the rows as "a|b" strings.
func decodeCopy(t *testing.T, opts CopyOptions, cols []ResultColumn, data []byte, chunk int) ([]string, error) {
	t.Helper()
	return decodeCopyWith(t, opts, cols, data, chunk, nil)
}

// decodeCopyWith is decodeCopy with prep called on the new decoder.
func decodeCopyWith(t *testing.T, opts CopyOptions, cols []ResultColumn, data []byte, chunk int, prep func(*copyDecoder)) ([]string, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	dec, err := newCopyDecoder(opts, cols, mem)
	if err != nil {
		return nil, err
	}
	if prep != nil {
		prep(dec)
	}
	defer dec.release()
	var rows []string
	take := func(b arrow.RecordBatch) {
		if b == nil {
			return
		}
		defer b.Release()
		for r := 0; r < int(b.NumRows()); r++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				col := b.Column(c)
				if col.IsNull(r) {
					vals = append(vals, "NULL")
				} else {
					vals = append(vals, col.ValueStr(r))
				}
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
	}
	for len(data) > 0 {
		n := min(chunk, len(data))
		dec.buf = append(dec.buf, data[:n]...)
		data = data[n:]
		for {
			if err := dec.decode(false); err != nil {
				return rows, err
			}
			if !dec.full() {
				break
			}
			take(dec.batch())
		}
	}
	for {
		if err := dec.decode(true); err != nil {
			return rows, err
		}
		full := dec.full()
		take(dec.batch())
		if !full {
			return rows, nil
		}
	}
}

func binaryCopy(tuples ...[][]byte) []byte {
	out := append([]byte(nil), binaryCopySignature...)
	out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
	for _, tup := range tuples {
		out = binary.BigEndian.AppendUint16(out, uint16(len(tup)))
		for _, f := range tup {
			if f == nil {
				out = binary.BigEndian.AppendUint32(out, 0xffffffff)
				continue
			}
			out = binary.BigEndian.AppendUint32(out, uint32(len(f)))
			out = append(out, f...)
		}
	}
	return binary.BigEndian.AppendUint16(out, 0xffff)
}

func be32(v int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }

func TestCopyDecoder(t *testing.T) {
	tests := []struct {
		name  string
		opts  CopyOptions
		data  string
		want  []string
		code  sqlerr.Code
		where string
	}{
		{name: "text", opts: textOpts, data: "1\tx\n2\t\\N\n-3\ta\\tb\\\\c\\nd\\101\\x41\r\n", want: []string{"1|x", "2|NULL", `-3|a	b\c` + "\nd" + "AA"}},
		{name: "text no final newline", opts: textOpts, data: "1\tx", want: []string{"1|x"}},
		{name: "text end marker", opts: textOpts, data: "1\tx\n\\.\ngarbage\n", want: []string{"1|x"}},
		{name: "text escaped delimiter", opts: textOpts, data: "1\ta\\\tb\n", want: []string{"1|a\tb"}},
		{name: "text header", opts: CopyOptions{Format: "text", Delimiter: ",", Null: "", Header: true}, data: "a,b\n1,\n", want: []string{"1|NULL"}},
		{name: "text bad int", opts: textOpts, data: "1\tx\nzz\ty\n", code: sqlerr.InvalidTextRepresentation, where: `COPY t, line 2, column a: "zz"`},
		{name: "text extra", opts: textOpts, data: "1\tx\ty\n", code: "22P04", where: "COPY t, line 1: \"1\tx\ty\""},
		{name: "text missing", opts: textOpts, data: "1\n", code: "22P04", where: `COPY t, line 1: "1"`},
		{name: "text bad utf8", opts: textOpts, data: "1\t\xff\n", code: sqlerr.CharacterNotInRepertoire},
		{name: "text out of range", opts: textOpts, data: "99999999999\tx\n", code: sqlerr.NumericValueOutOfRange},
		{name: "csv", opts: csvOpts, data: "1,\"x,\"\"y\"\"\"\n2,\n3,\"\"\n4,\"multi\nline\"\n", want: []string{`1|x,"y"`, "2|NULL", "3|", "4|multi\nline"}},
		{name: "csv escape", opts: CopyOptions{Format: "csv", Delimiter: ";", Null: "NULL", Quote: "'", Escape: `\`}, data: "1;'a\\'b'\n2;NULL\n3;'NULL'\n", want: []string{"1|a'b", "2|NULL", "3|NULL"}},
		{name: "csv header", opts: CopyOptions{Format: "csv", Delimiter: ",", Quote: `"`, Escape: `"`, Header: true}, data: "a,b\r\n1,x\r\n", want: []string{"1|x"}},
		{name: "csv unterminated", opts: csvOpts, data: "1,\"x\n", code: "22P04"},
		{name: "binary", opts: binOpts, data: string(binaryCopy([][]byte{be32(7), []byte("seven")}, [][]byte{be32(-1), nil})), want: []string{"7|seven", "-1|NULL"}},
		{name: "binary bad signature", opts: binOpts, data: "PGCOPY\nXXXXXXXXXXXXXXXXX", code: "22P04"},
		{name: "binary field count", opts: binOpts, data: string(binaryCopy([][]byte{be32(7)})), code: "22P04", where: "COPY t, line 1"},
		{name: "binary bad int size", opts: binOpts, data: string(binaryCopy([][]byte{{1, 2}, []byte("x")})), code: sqlerr.InvalidBinaryRepresentation, where: "COPY t, line 1, column a"},
		{name: "binary truncated", opts: binOpts, data: string(binaryCopy([][]byte{be32(7), []byte("seven")})[:25]), code: "22P04"},
		{name: "binary data after trailer", opts: binOpts, data: string(binaryCopy()) + "x", code: "22P04"},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 3, 1 << 20} {
			rows, err := decodeCopy(t, tt.opts, copyCols, []byte(tt.data), chunk)
			if tt.code != "" {
				if sqlerr.CodeOf(err) != tt.code {
					t.Errorf("%s/%d: got %v (%s), want %s", tt.name, chunk, err, sqlerr.CodeOf(err), tt.code)
					continue
				}
				var cd *CopyDataError
				if !errors.As(err, &cd) {
					t.Errorf("%s/%d: error %v has no COPY context", tt.name, chunk, err)
					continue
				}
				cd.Table = "t"
				if tt.where != "" && cd.Where() != tt.where {
					t.Errorf("%s/%d: where %q, want %q", tt.name, chunk, cd.Where(), tt.where)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%d: %v", tt.name, chunk, err)
				continue
			}
			if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("%s/%d: got %q, want %q", tt.name, chunk, rows, tt.want)
			}
		}
	}
}

func TestCopyDecoderBatches(t *testing.T) {
	var data bytes.Buffer
	n := copyBatchRows*2 + 5
	for i := 0; i < n; i++ {
		data.WriteString("1\tx\n")
	}
	rows, err := decodeCopy(t, textOpts, copyCols, data.Bytes(), 1000)
	if err != nil || len(rows) != n {
		t.Fatalf("got %d rows, %v; want %d", len(rows), err, n)
	}
}

func TestCopyDecoderTypes(t *testing.T) {
	cols := []ResultColumn{
		{Name: "b", Type: types.BoolType}, {Name: "i2", Type: types.Int16Type}, {Name: "i8", Type: types.Int64Type},
		{Name: "f4", Type: types.Float32Type}, {Name: "f8", Type: types.Float64Type}, {Name: "n", Type: types.DecimalType(10, 2)},
		{Name: "v", Type: types.T{Kind: types.String, Length: 3}}, {Name: "by", Type: types.BytesType}, {Name: "d", Type: types.DateType},
		{Name: "ts", Type: types.TimestampType(6)}, {Name: "tz", Type: types.TimestampTZType(6)},
	}
	rows, err := decodeCopy(t, textOpts, cols, []byte("t\t-32768\t9223372036854775807\t1.5\t-Infinity\t12.345\tabc\t\\\\x00ff\t2024-02-29\t2024-01-02 03:04:05.5\t2024-01-02 03:04:05+02\n"), 7)
	if err != nil {
		t.Fatal(err)
	}
	want := "true|-32768|9223372036854775807|1.5|-Inf|12.35|abc|AP8=|2024-02-29|2024-01-02T03:04:05.5|2024-01-02T01:04:05Z"
	if len(rows) != 1 || rows[0] != want {
		t.Fatalf("got %q\nwant %q", rows, want)
	}
	rows, err = decodeCopy(t, textOpts, cols[8:9], []byte("9999-12-31\n0001-01-01\n"), 100)
	if err != nil || strings.Join(rows, ",") != "9999-12-31,0001-01-01" {
		t.Fatalf("extreme dates: %q %v", rows, err)
	}
	_, err = decodeCopy(t, textOpts, cols[6:7], []byte("abcd\n"), 100)
	if sqlerr.CodeOf(err) != sqlerr.StringDataRightTruncation {
		t.Fatalf("varchar(3) overflow: got %v", err)
	}
	_, err = newCopyDecoder(textOpts, []ResultColumn{{Name: "iv", Type: types.T{Kind: types.Interval}}}, memory.DefaultAllocator)
	if sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Fatalf("interval column: got %v", err)
	}
}

// TestCopyDecoderArrays reads ARRAY columns in the three formats (rows
// render as Arrow's JSON ValueStr). The binary streams are PostgreSQL 15's own `COPY (SELECT ...) TO STDOUT
// (FORMAT binary)` output, byte for byte.
func TestCopyDecoderArrays(t *testing.T) {
	ints := []ResultColumn{{Name: "a", Type: types.ArrayOf(types.Int32Type)}}
	texts := []ResultColumn{{Name: "s", Type: types.ArrayOf(types.StringType)}}
	floats := []ResultColumn{{Name: "d", Type: types.ArrayOf(types.Float64Type)}}
	pgBinary := func(h string) string {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name string
		opts CopyOptions
		cols []ResultColumn
		data string
		want []string
		code sqlerr.Code
	}{
		{name: "text ints", opts: textOpts, cols: ints, data: "{1,2,NULL}\n\\N\n{}\n{ 3 , -4 }\n", want: []string{"[1,2,null]", "NULL", "[]", "[3,-4]"}},
		// the text format's backslashes escape once for COPY, then once for the array
		{name: "text strings", opts: textOpts, cols: texts, data: `{a,"b c",NULL,"NULL","\\"q\\""}` + "\n", want: []string{`["a","b c",null,"NULL","\"q\""]`}},
		{name: "csv", opts: csvOpts, cols: texts, data: "\"{\"\"a b\"\",NULL}\"\n{}\n\n", want: []string{`["a b",null]`, "[]", "NULL"}},
		{name: "text floats", opts: textOpts, cols: floats, data: "{1.5,NaN,-Infinity}\n", want: []string{`[1.5,"NaN","-Inf"]`}},
		{name: "binary ints", opts: binOpts, cols: ints, data: pgBinary("5047434f50590aff0d0a000000000000000000000100000028000000010000000100000017000000030000000100000004000000010000000400000002ffffffffffff"), want: []string{"[1,2,null]"}},
		{name: "binary strings", opts: binOpts, cols: texts, data: pgBinary("5047434f50590aff0d0a0000000000000000000001000000240000000100000001000000190000000300000001000000016100000003622063ffffffffffff"), want: []string{`["a","b c",null]`}},
		{name: "binary empty", opts: binOpts, cols: ints, data: pgBinary("5047434f50590aff0d0a00000000000000000000010000000c000000000000000000000017ffff"), want: []string{"[]"}},
		{name: "binary floats", opts: binOpts, cols: floats, data: pgBinary("5047434f50590aff0d0a00000000000000000000010000002c0000000100000000000002bd0000000200000001000000083ff8000000000000000000087ff8000000000000ffff"), want: []string{`[1.5,"NaN"]`}},
		{name: "text malformed", opts: textOpts, cols: ints, data: "{1,2\n", code: sqlerr.InvalidTextRepresentation},
		{name: "text bad element", opts: textOpts, cols: ints, data: "{1,x}\n", code: sqlerr.InvalidTextRepresentation},
		{name: "text element out of range", opts: textOpts, cols: ints, data: "{99999999999}\n", code: sqlerr.NumericValueOutOfRange},
		// an int8[] sent for an int4[] column: PostgreSQL's array_recv refuses it
		{name: "binary wrong element type", opts: binOpts, cols: ints, data: pgBinary("5047434f50590aff0d0a0000000000000000000001000000200000000100000000000000140000000100000001000000080000000000000001ffff"), code: sqlerr.DatatypeMismatch},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 5, 1 << 20} {
			rows, err := decodeCopy(t, tt.opts, tt.cols, []byte(tt.data), chunk)
			if tt.code != "" {
				if sqlerr.CodeOf(err) != tt.code {
					t.Errorf("%s/%d: got %v (%s), want %s", tt.name, chunk, err, sqlerr.CodeOf(err), tt.code)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s/%d: %v", tt.name, chunk, err)
				continue
			}
			if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("%s/%d: got %q, want %q", tt.name, chunk, rows, tt.want)
			}
		}
	}
}

func TestCopyWriter(t *testing.T) {
	tests := []struct {
		opts   CopyOptions
		in     string
		single bool
		want   string
	}{
		{textOpts, "plain", false, "plain"},
		{textOpts, "a\tb\nc\\d\re", false, `a\tb\nc\\d\re`},
		{CopyOptions{Format: "text", Delimiter: "|"}, "a|b", false, `a\|b`},
		{csvOpts, "plain", false, "plain"},
		{csvOpts, "", false, `""`},
		{csvOpts, `a,"b"`, false, `"a,""b"""`},
		{csvOpts, "line\nbreak", false, "\"line\nbreak\""},
		{csvOpts, `\.`, true, `"\."`},
		{csvOpts, `\.`, false, `\.`},
		{CopyOptions{Format: "csv", Delimiter: ",", Null: `\N`, Quote: `"`, Escape: `\`}, `a"b\c`, false, `"a\"b\\c"`},
	}
	for _, tt := range tests {
		got := string(copyWriter{opts: tt.opts}.appendValue(nil, []byte(tt.in), tt.single))
		if got != tt.want {
			t.Errorf("%s %q: got %q, want %q", tt.opts.Format, tt.in, got, tt.want)
		}
	}
}

// TestCopyProtocol drives COPY IN and OUT message by message against the
// fake backend's COPY statements.
func TestCopyProtocol(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")

	// COPY IN, data split across messages, simple protocol.
	rc.send(&pgproto3.Query{String: "COPYIN text"})
	if got := strings.Join(rc.until("CopyInResponse"), ";"); got != "CopyInResponse" {
		t.Fatalf("got %s", got)
	}
	rc.send(&pgproto3.CopyData{Data: []byte("1\tone\n2\t")}, &pgproto3.CopyData{Data: []byte("\\N\n")}, &pgproto3.CopyDone{})
	if got := strings.Join(rc.until("ReadyForQuery"), ";"); got != "CommandComplete COPY 2;ReadyForQuery I" {
		t.Fatalf("got %s", got)
	}
	if got := strings.Join(<-ts.backend.copied, ";"); got != "1|one;2|NULL" {
		t.Fatalf("copied %s", got)
	}

	// A bad line: error with context, the rest of the data is ignored.
	rc.send(&pgproto3.Query{String: "COPYIN text"})
	rc.until("CopyInResponse")
	rc.send(&pgproto3.CopyData{Data: []byte("1\tone\nx\ttwo\n")})
	msg, err := rc.fe.Receive()
	if err != nil {
		t.Fatal(err)
	}
	er, ok := msg.(*pgproto3.ErrorResponse)
	if !ok || er.Code != "22P02" || er.Where != `COPY fake, line 2, column a: "x"` {
		t.Fatalf("got %#v", msg)
	}
	rc.send(&pgproto3.CopyData{Data: []byte("3\tthree\n")}, &pgproto3.CopyDone{})
	if got := strings.Join(rc.until("ReadyForQuery"), ";"); got != "ReadyForQuery I" {
		t.Fatalf("got %s", got)
	}

	// CopyFail.
	rc.send(&pgproto3.Query{String: "COPYIN csv"})
	rc.until("CopyInResponse")
	rc.send(&pgproto3.CopyData{Data: []byte("1,x\n")}, &pgproto3.CopyFail{Message: "client gave up"})
	if got := strings.Join(rc.until("ReadyForQuery"), ";"); got != "ErrorResponse ERROR 57014;ReadyForQuery I" {
		t.Fatalf("got %s", got)
	}

	// COPY IN through the extended protocol; Flush/Sync inside are ignored.
	rc.send(&pgproto3.Parse{Query: "COPYIN binary"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Flush{})
	if got := strings.Join(rc.until("CopyInResponse"), ";"); got != "ParseComplete;BindComplete;NoData;CopyInResponse" {
		t.Fatalf("got %s", got)
	}
	rc.send(&pgproto3.CopyData{Data: binaryCopy([][]byte{be32(5), []byte("five")})}, &pgproto3.Flush{}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
	if got := strings.Join(rc.until("ReadyForQuery"), ";"); got != "CommandComplete COPY 1;ReadyForQuery I" {
		t.Fatalf("got %s", got)
	}
	<-ts.backend.copied
	<-ts.backend.copied // the failed and the cancelled COPY report what they saw too
	if got := strings.Join(<-ts.backend.copied, ";"); got != "5|five" {
		t.Fatalf("copied %s", got)
	}

	// COPY OUT in text, CSV and binary.
	for _, tc := range []struct{ format, want string }{
		{"text", "CopyOutResponse;CopyData 1\\n;CopyData 2\\n;CopyDone;CommandComplete COPY 2;ReadyForQuery I"},
		{"csv", "CopyOutResponse;CopyData n\\n;CopyData 1\\n;CopyData 2\\n;CopyDone;CommandComplete COPY 2;ReadyForQuery I"},
	} {
		rc.send(&pgproto3.Query{String: "COPYOUT " + tc.format})
		var got []string
		for _, m := range rc.until("ReadyForQuery") {
			got = append(got, m)
		}
		if s := strings.ReplaceAll(strings.Join(got, ";"), "\n", `\n`); s != tc.want {
			t.Errorf("COPY OUT %s: got %s", tc.format, s)
		}
	}
	rc.send(&pgproto3.Query{String: "COPYOUT binary"})
	var data []byte
	for {
		m, err := rc.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if cd, ok := m.(*pgproto3.CopyData); ok {
			data = append(data, cd.Data...)
		}
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	want := append(append([]byte(nil), binaryCopySignature...), 0, 0, 0, 0, 0, 0, 0, 0)
	for _, v := range []int64{1, 2} {
		want = append(want, 0, 1, 0, 0, 0, 8)
		want = binary.BigEndian.AppendUint64(want, uint64(v))
	}
	want = append(want, 0xff, 0xff)
	if !bytes.Equal(data, want) {
		t.Errorf("binary COPY OUT:\n got %x\nwant %x", data, want)
	}
}

// fakeCopyStmt is the fake backend's COPY: "COPYIN fmt" receives (a int4,
// b text) rows; "COPYOUT fmt" sends SELECT series 2 (with a header in CSV).
type fakeCopyStmt struct {
	fakeStmt
	in   bool
	opts CopyOptions
}

func newFakeCopy(s *fakeSession, sql string) *fakeCopyStmt {
	st := &fakeCopyStmt{fakeStmt: fakeStmt{s: s, sql: sql}}
	kind, format, _ := strings.Cut(sql, " ")
	st.in = kind == "COPYIN"
	switch format {
	case "text":
		st.opts = textOpts
	case "csv":
		st.opts = csvOpts
		st.opts.Header = !st.in
	default:
		st.opts = binOpts
	}
	return st
}

func (st *fakeCopyStmt) CopyIn() bool                { return st.in }
func (st *fakeCopyStmt) CopyColumns() []ResultColumn { return copyCols }
func (st *fakeCopyStmt) CopyOptions() CopyOptions    { return st.opts }
func (st *fakeCopyStmt) Columns() []ResultColumn {
	if st.in {
		return nil
	}
	return []ResultColumn{{Name: "n", Type: types.Int64Type}}
}

func (st *fakeCopyStmt) Execute(ctx context.Context, params []any) (Result, error) {
	return (&fakeStmt{s: st.s, sql: "SELECT series 2"}).Execute(ctx, params)
}

func (st *fakeCopyStmt) CopyFrom(ctx context.Context, src BatchSource) (string, error) {
	var rows []string
	defer func() { st.s.b.copied <- rows }()
	for {
		b, err := src.Next(ctx)
		if err != nil {
			var cd *CopyDataError
			if errors.As(err, &cd) {
				cd.Table = "fake"
			}
			return "", err
		}
		if b == nil {
			return "COPY " + strconv.Itoa(len(rows)), nil
		}
		for r := 0; r < int(b.NumRows()); r++ {
			a, s := b.Column(0), b.Column(1)
			row := a.ValueStr(r) + "|"
			if s.IsNull(r) {
				row += "NULL"
			} else {
				row += s.ValueStr(r)
			}
			rows = append(rows, row)
		}
		b.Release()
	}
}

// TestCopyDecoderBinaryByType reads binary COPY values of types stored
// like a plain one (macaddr, inet, jsonb ... in a STRING column, money in
// a BIGINT) whose binary form is not that plain type's: each payload is
// valid UTF-8 (or 8 bytes), so a fast path taking the column's storage
// for its type would keep the bytes themselves. Each must read as its
// text does in text format.
func TestCopyDecoderBinaryByType(t *testing.T) {
	tests := []struct {
		typ  types.T
		bin  []byte
		text string
	}{
		{types.MacAddrType, []byte{0x55, 0, 0x55, 0, 0, 0}, "55:00:55:00:00:00"},
		{types.MacAddr8Type, []byte{0x55, 0, 0x55, 0, 0, 0, 0x7f, 1}, "55:00:55:00:00:00:7f:01"},
		{types.MacAddr8Type, []byte{0x55, 0, 0x55, 0, 0, 0}, "55:00:55:ff:fe:00:00:00"},
		{types.InetType, []byte{2, 32, 0, 4, 10, 0, 0, 1}, "10.0.0.1"},
		{types.CidrType, []byte{2, 8, 1, 4, 10, 0, 0, 0}, "10.0.0.0/8"},
		{types.UUIDType, []byte("0123456789abcdef"), "30313233-3435-3637-3839-616263646566"},
		{types.JSONBType, []byte("\x01{\"a\": 1}"), `{"a": 1}`},
		{types.PgLsnType, []byte{0, 0, 0, 1, 0, 0, 0, 0x10}, "1/10"},
		{types.MoneyType, []byte{0, 0, 0, 0, 0, 0, 0x30, 0x39}, "$123.45"},
		{types.TSVectorType, []byte("\x00\x00\x00\x01ab\x00\x00\x00"), "'ab'"},
	}
	for _, tt := range tests {
		cols := []ResultColumn{{Name: "v", Type: tt.typ}}
		want, err := decodeCopy(t, textOpts, cols, []byte(tt.text+"\n"), 100)
		if err != nil {
			t.Fatalf("%s text %q: %v", tt.typ, tt.text, err)
		}
		got, err := decodeCopy(t, binOpts, cols, binaryCopy([][]byte{tt.bin}), 100)
		if err != nil {
			t.Fatalf("%s binary %q: %v", tt.typ, tt.bin, err)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s binary %q: got %q, want %q (its text %q)", tt.typ, tt.bin, got, want, tt.text)
		}
	}
}
