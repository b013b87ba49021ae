package embedded

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// TestChangelogOfPrimaryKeyTable follows Fluss's worked example
// (pk-table.md): +I(1,2.0,apple), +I(1,4.0,banana), -D(1) give offsets 0
// insert, 1 update_before, 2 update_after, 3 delete.
func TestChangelogOfPrimaryKeyTable(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id := types.Int32Type
	id.NotNull = true
	info, err := s.CreateTable(ctx, fluss.TablePath{Database: "public", Table: "fruit"}, fluss.TableDescriptor{Schema: fluss.Schema{
		Columns:    []fluss.Column{{Name: "id", Type: id}, {Name: "price", Type: types.Float64Type}, {Name: "name", Type: types.StringType}},
		PrimaryKey: []string{"id"},
	}}, false)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := s.Table(ctx, info.Path)
	row := func(price float64, name string) arrow.RecordBatch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, info.ArrowSchema())
		defer b.Release()
		b.Field(0).(*array.Int32Builder).Append(1)
		b.Field(1).(*array.Float64Builder).Append(price)
		b.Field(2).(*array.StringBuilder).Append(name)
		return b.NewRecordBatch()
	}
	for _, r := range []arrow.RecordBatch{row(2, "apple"), row(4, "banana")} {
		if _, err := tb.Upsert(ctx, r, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	kb := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema([]arrow.Field{info.ArrowSchema().Field(0)}, nil))
	kb.Field(0).(*array.Int32Builder).Append(1)
	keys := kb.NewRecordBatch()
	if _, err := tb.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	got := changelogLines(t, tb, 0, 1, 5)
	want := "insert 0 apple|update_before 1 apple|update_after 2 banana|delete 3 banana"
	if strings.Join(got, "|") != want {
		t.Errorf("changelog %q, want %q", strings.Join(got, "|"), want)
	}
}

// changelogLines reads tb's changelog, the columns at proj (three of them:
// the change type and two of the table's), as "type a b" lines.
func changelogLines(t *testing.T, tb fluss.Table, proj ...int) []string {
	t.Helper()
	ctx := context.Background()
	r, err := tb.(fluss.ChangelogScanner).ScanChangelog(ctx, fluss.ScanOptions{Projection: proj})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		b, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return got
		}
		for i := 0; i < int(b.NumRows()); i++ {
			got = append(got, b.Column(0).ValueStr(i)+" "+b.Column(1).ValueStr(i)+" "+b.Column(2).ValueStr(i))
		}
		b.Release()
	}
}
