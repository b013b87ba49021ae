package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

type change struct {
	kind   string
	offset int64
	id     int32
	name   string
}

var binlogTestRow = arrow.StructOf(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true})

func changelogBatch(t *testing.T, rows []change) arrow.RecordBatch {
	t.Helper()
	ts := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	schema := arrow.NewSchema([]arrow.Field{{Name: "_change_type", Type: arrow.BinaryTypes.String}, {Name: "_log_offset", Type: arrow.PrimitiveTypes.Int64},
		{Name: "_commit_timestamp", Type: ts}, {Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.StringBuilder).Append(r.kind)
		b.Field(1).(*array.Int64Builder).Append(r.offset)
		b.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(1000 * r.offset))
		b.Field(3).(*array.Int32Builder).Append(r.id)
		b.Field(4).(*array.StringBuilder).Append(r.name)
	}
	return b.NewRecordBatch()
}

func binlogTestSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{{Name: "_change_type", Type: arrow.BinaryTypes.String}, {Name: "_log_offset", Type: arrow.PrimitiveTypes.Int64},
		{Name: "_commit_timestamp", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "before", Type: binlogTestRow, Nullable: true}, {Name: "after", Type: binlogTestRow, Nullable: true}}, nil)
}

// render shows a binlog batch as "kind offset before after" lines.
func render(b arrow.RecordBatch) []string {
	var out []string
	for r := 0; r < int(b.NumRows()); r++ {
		out = append(out, b.Column(0).ValueStr(r)+" "+b.Column(1).ValueStr(r)+" "+b.Column(3).ValueStr(r)+" "+b.Column(4).ValueStr(r))
	}
	return out
}

func TestBinlogPairsUpdatesAcrossBatches(t *testing.T) {
	p := &binlogPairer{out: binlogTestSchema()}
	defer p.close()
	batches := [][]change{
		{{"insert", 0, 1, "a"}, {"update_before", 1, 1, "a"}},
		{{"update_after", 2, 1, "b"}, {"delete", 3, 1, "b"}, {"insert", 4, 2, "c"}},
		{{"update_before", 5, 2, "c"}, {"update_after", 6, 2, "d"}},
	}
	want := [][]string{
		{`insert 0 (null) {"id":1,"name":"a"}`},
		{`update 1 {"id":1,"name":"a"} {"id":1,"name":"b"}`, `delete 3 {"id":1,"name":"b"} (null)`, `insert 4 (null) {"id":2,"name":"c"}`},
		{`update 5 {"id":2,"name":"c"} {"id":2,"name":"d"}`},
	}
	for i, rows := range batches {
		in := changelogBatch(t, rows)
		out, err := p.convert(in)
		in.Release()
		if err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
		got := render(out)
		out.Release()
		if len(got) != len(want[i]) {
			t.Fatalf("batch %d: got %q, want %q", i, got, want[i])
		}
		for j := range got {
			if got[j] != want[i][j] {
				t.Errorf("batch %d row %d: got %s, want %s", i, j, got[j], want[i][j])
			}
		}
	}
}

func TestBinlogRejectsBrokenSequences(t *testing.T) {
	cases := []struct {
		rows []change
		code sqlerr.Code
	}{
		{[]change{{"update_after", 0, 1, "a"}}, sqlerr.DataCorrupted},
		{[]change{{"append", 0, 1, "a"}}, sqlerr.FeatureNotSupported},
	}
	for _, c := range cases {
		p := &binlogPairer{out: binlogTestSchema()}
		in := changelogBatch(t, c.rows)
		out, err := p.convert(in)
		in.Release()
		if out != nil {
			out.Release()
		}
		if sqlerr.CodeOf(err) != c.code {
			t.Errorf("%v: error %v, want %s", c.rows, err, c.code)
		}
		p.close()
	}
}
