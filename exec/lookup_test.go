package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/types"
)

// TestLookup: point lookups by full primary key, through the BIGINT
// single-key path and the record-builder path (INT keys, IN lists), with
// NULL and missing keys, and the result labelled with Out's names.
func TestLookup(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	open := func(name string, key types.T) fluss.Table {
		p := fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
		desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
			{Name: "id", Type: key}, {Name: "v", Type: types.StringType}}, PrimaryKey: []string{"id"}}, BucketCount: 2}
		if _, err := st.CreateTable(ctx, p, desc, false); err != nil {
			t.Fatal(err)
		}
		tb, err := st.Table(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, tb.Info().ArrowSchema())
		defer b.Release()
		for i := int64(1); i <= 3; i++ {
			appendValue(b.Field(0), i)
			appendValue(b.Field(1), "v"+string(rune('0'+i)))
		}
		rec := b.NewRecordBatch()
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		return tb
	}
	big, small := open("big", types.Int64Type), open("small", types.Int32Type)
	relabelled := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "w", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	param := func(tt types.T) []Expr { return []Expr{&ParamExpr{Index: 0, T: tt}} }
	for _, tc := range []struct {
		name   string
		table  fluss.Table
		keys   [][]Expr
		params []any
		out    *arrow.Schema
		want   []string // v of each row, in order
	}{
		{"bigint hit", big, [][]Expr{param(types.Int64Type)}, []any{int64(2)}, nil, []string{"v2"}},
		{"bigint miss", big, [][]Expr{param(types.Int64Type)}, []any{int64(9)}, nil, nil},
		{"bigint null", big, [][]Expr{param(types.Int64Type)}, []any{nil}, nil, nil},
		{"bigint relabelled", big, [][]Expr{param(types.Int64Type)}, []any{int64(3)}, relabelled, []string{"v3"}},
		{"bigint in list", big, [][]Expr{{int64Const(1)}, {int64Const(3)}, {int64Const(1)}}, nil, nil, []string{"v1", "v3"}},
		{"int hit", small, [][]Expr{param(types.Int32Type)}, []any{int64(1)}, nil, []string{"v1"}},
		{"int null", small, [][]Expr{param(types.Int32Type)}, []any{nil}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := tc.out
			if out == nil {
				out = tc.table.Info().ArrowSchema()
			}
			op := &Lookup{EC: &EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator, Params: tc.params}, Table: tc.table,
				Keys: tc.keys, Projection: []int{0, 1}, Out: out, KeySchema: KeySchemaOf(tc.table.Info())}
			b, err := op.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if b != nil {
				if !b.Schema().Equal(out) {
					t.Errorf("schema %v, want %v", b.Schema(), out)
				}
				col := b.Column(1).(*array.String)
				for i := range int(b.NumRows()) {
					got = append(got, col.Value(i))
				}
				b.Release()
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			seen := map[string]bool{}
			for _, v := range got {
				seen[v] = true
			}
			for _, v := range tc.want {
				if !seen[v] {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
			}
			if again, err := op.Next(ctx); again != nil || err != nil {
				t.Errorf("second Next: %v, %v", again, err)
			}
		})
	}
}
