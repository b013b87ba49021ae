package functions

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// styleBenchRows is the rows of BenchmarkConcatStyledText100k.
const styleBenchRows = 100_000

// BenchmarkConcatStyledText100k: concat(timestamp, double) over 100k rows
// in a session (German DateStyle, extra_float_digits 0), the engine's way:
// every value's text is written in the session's Style, which the session
// parsed when its settings changed (Session.Style) and the kernel reads
// once, not per value (bench/LEDGER.md has the figure before and after).
func BenchmarkConcatStyledText100k(b *testing.B) {
	settings := map[string]string{"datestyle": "German, DMY", "intervalstyle": "postgres", "extra_float_digits": "0", "timezone": "UTC"}
	st := types.StyleOf(settings["datestyle"], settings["intervalstyle"], settings["extra_float_digits"])
	ctx := WithSession(context.Background(), Session{
		Setting: func(name string) (string, bool) { v, ok := settings[name]; return v, ok },
		Style:   &st,
	})
	tsType, fType := types.TimestampType(6), types.Float64Type
	tb := array.NewTimestampBuilder(memory.DefaultAllocator, tsType.ArrowType().(*arrow.TimestampType))
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	for i := 0; i < styleBenchRows; i++ {
		tb.Append(arrow.Timestamp(int64(i) * 3_600_000_123))
		fb.Append(float64(i) / 7)
	}
	ts, fs := tb.NewArray(), fb.NewArray()
	tb.Release()
	fb.Release()
	defer ts.Release()
	defer fs.Release()
	_, kernel := concatSpecialize(false)([]types.T{tsType, fType}, nil)
	out, err := kernel(ctx, memory.DefaultAllocator, []arrow.Array{ts, fs}, styleBenchRows)
	if err != nil {
		b.Fatal(err)
	}
	if got := out.(*array.String).Value(1); got != "01.01.1970 01:00:00.0001230.142857142857143" {
		b.Fatalf("row 1 is %q", got)
	}
	out.Release()
	b.ResetTimer()
	for range b.N {
		out, err := kernel(ctx, memory.DefaultAllocator, []arrow.Array{ts, fs}, styleBenchRows)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
