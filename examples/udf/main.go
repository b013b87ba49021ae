// Command udf is an embedding program: it registers two Go UDFs and starts
// a sqlgate server that SQL clients can call them through.
//
//	go run ./examples/udf -listen 127.0.0.1:5433 -data /tmp/udfdemo
//	psql 'postgres://sqlgate@127.0.0.1:5433/sqlgate' -c "SELECT word_count('to be or not')"
//	psql ... -c "SELECT * FROM fizzbuzz(15)"
//
// word_count(text) bigint is a scalar batch UDF: it gets the argument
// column of one batch as an Arrow array and returns one value per row.
// fizzbuzz(integer) is a record-batch UDF, called in FROM: it emits Arrow
// record batches with the declared columns (n bigint, word text).
// explode_words is a batch UDF: it maps the record batches of a relation
// (id bigint, body text) to batches of (id, pos, word), one row per word:
//
//	psql ... -c "SELECT * FROM explode_words(TABLE docs)"
//	psql ... -c "SELECT word, count(*) FROM explode_words((SELECT id, body FROM docs WHERE id < 10)) GROUP BY word"

package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:5433", "address to listen on")
	data := flag.String("data", "sqlgate-udf-data", "data directory")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *listen, *data); err != nil {
		log.Fatal(err)
	}
}

// run serves until ctx ends.
func run(ctx context.Context, listen, dataDir string) error {
	srv, err := start(ctx, listen, dataDir)
	if err != nil {
		return err
	}
	fmt.Printf("sqlgate with Go UDFs listening on %s\n", srv.Addr())
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Stop(sctx)
}

// start registers the UDFs and starts the server.
func start(ctx context.Context, listen, dataDir string) (*server.Server, error) {
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	return server.Start(ctx, server.Config{Listen: listen, DataDir: dataDir, UDFs: reg})
}

// registry declares the example's UDFs.
func registry() (*udf.Registry, error) {
	reg := udf.NewRegistry()
	if err := reg.AddScalar(udf.Scalar{
		Name:    "word_count",
		Args:    []types.T{types.StringType},
		Returns: types.Int64Type,
		Fn:      wordCount,
	}); err != nil {
		return nil, err
	}
	if err := reg.AddTable(udf.Table{
		Name:    "fizzbuzz",
		Args:    []types.T{types.Int32Type},
		Columns: []udf.Column{{Name: "n", Type: types.Int64Type}, {Name: "word", Type: types.StringType}},
		Fn:      fizzBuzz,
	}); err != nil {
		return nil, err
	}
	if err := reg.AddBatch(udf.Batch{
		Name:  "explode_words",
		Input: []udf.Column{{Name: "id", Type: types.Int64Type}, {Name: "body", Type: types.StringType}},
		Columns: []udf.Column{
			{Name: "id", Type: types.Int64Type},
			{Name: "pos", Type: types.T{Kind: types.Int32, NotNull: true}},
			{Name: "word", Type: types.T{Kind: types.String, NotNull: true}},
		},
		ParallelSafe: true,
		Fn:           explodeWords,
	}); err != nil {
		return nil, err
	}
	return reg, nil
}

// explodeWordsSchema is explode_words' declared output, as Arrow fields.
var explodeWordsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "pos", Type: arrow.PrimitiveTypes.Int32},
	{Name: "word", Type: arrow.BinaryTypes.String},
}, nil)

// explodeWords is a batch UDF: it reads the input relation (id, body) one
// record batch at a time and emits one row per blank-separated word of
// body (none for NULL or blank text), with its 1-based position: another
// schema and another row count than its input.
func explodeWords(ctx context.Context, _ []arrow.Array, in udf.BatchInput, emit func(arrow.RecordBatch) error) error {
	b := array.NewRecordBuilder(memory.DefaultAllocator, explodeWordsSchema)
	defer b.Release()
	for {
		batch, err := in.Next(ctx)
		if err != nil || batch == nil {
			return err
		}
		ids, bodies := batch.Column(0).(*array.Int64), batch.Column(1).(*array.String)
		for i := 0; i < int(batch.NumRows()); i++ {
			if bodies.IsNull(i) {
				continue
			}
			for k, w := range strings.Fields(bodies.Value(i)) {
				if ids.IsNull(i) {
					b.Field(0).AppendNull()
				} else {
					b.Field(0).(*array.Int64Builder).Append(ids.Value(i))
				}
				b.Field(1).(*array.Int32Builder).Append(int32(k + 1))
				b.Field(2).(*array.StringBuilder).Append(w)
			}
		}
		out := b.NewRecordBatch()
		err = emit(out)
		out.Release()
		if err != nil {
			return err
		}
	}
}

// wordCount counts the blank-separated words of each value (NULL stays
// NULL). text arrives as an Arrow string array; bigint leaves as int64.
func wordCount(ctx context.Context, args []arrow.Array) (arrow.Array, error) {
	in := args[0].(*array.String)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	for i := 0; i < in.Len(); i++ {
		if in.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(int64(len(strings.Fields(in.Value(i)))))
	}
	return b.NewArray(), nil
}

// fizzBatch is how many rows fizzBuzz puts in one batch.
const fizzBatch = 1000

// fizzBuzz emits the rows 1..n of FizzBuzz, fizzBatch rows per batch,
// stopping early when the query is cancelled or needs no more rows.
func fizzBuzz(ctx context.Context, args []arrow.Array, emit func(arrow.RecordBatch) error) error {
	arg := args[0].(*array.Int32)
	if arg.IsNull(0) {
		return nil
	}
	n := int64(arg.Value(0))
	if n < 0 {
		return fmt.Errorf("fizzbuzz needs a count of at least 0, got %d", n)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "word", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := int64(1); i <= n; i++ {
		b.Field(0).(*array.Int64Builder).Append(i)
		w := b.Field(1).(*array.StringBuilder)
		switch {
		case i%15 == 0:
			w.Append("fizzbuzz")
		case i%3 == 0:
			w.Append("fizz")
		case i%5 == 0:
			w.Append("buzz")
		default:
			w.Append(strconv.FormatInt(i, 10))
		}
		if i%fizzBatch == 0 || i == n {
			rec := b.NewRecordBatch()
			err := emit(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
	}
	return nil
}
