package pyudf

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// Function is a Python function as CREATE FUNCTION ... LANGUAGE python
// declares it. A scalar one (Table empty) maps each batch of its argument
// columns to an array of the batch's length; a table one (RETURNS TABLE)
// maps each batch of its input relation, whose columns are the arguments,
// to a record batch of the Table columns, any number of rows.
type Function struct {
	Name    string
	Args    []udf.Column // names may be "" (then arg1, arg2, ...)
	Returns types.T      // scalar functions
	Table   []udf.Column // RETURNS TABLE functions
	Body    string
}

// key identifies the function's code in a worker's cache: a changed body
// (CREATE OR REPLACE) is compiled again.
func (f *Function) key() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", f.Name, strings.Join(f.argNames(), ","), f.Body)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// argNames are the Python names of the arguments.
func (f *Function) argNames() []string {
	out := make([]string, len(f.Args))
	for i, a := range f.Args {
		out[i] = a.Name
		if out[i] == "" {
			out[i] = fmt.Sprintf("arg%d", i+1)
		}
	}
	return out
}

// inputSchema is the schema of the batches sent to the worker: the
// arguments' names and Arrow types.
func (f *Function) inputSchema() *arrow.Schema {
	names := f.argNames()
	fs := make([]arrow.Field, len(f.Args))
	for i, a := range f.Args {
		fs[i] = arrow.Field{Name: names[i], Type: a.Type.ArrowType(), Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}

// Scalar is f as a scalar UDF whose calls run in p's workers: each batch
// of arguments is one round trip.
func (p *Pool) Scalar(f *Function) udf.Scalar {
	schema := f.inputSchema()
	return udf.Scalar{Name: f.Name, Args: argTypes(f.Args), Returns: f.Returns, Language: "python", Source: f.Body, ArgNames: declaredNames(f.Args),
		Fn: func(ctx context.Context, args []arrow.Array) (arrow.Array, error) {
			rows := int64(0)
			if len(args) > 0 {
				rows = int64(args[0].Len())
			}
			in := array.NewRecordBatch(schema, args, rows)
			defer in.Release()
			out, err := p.Call(ctx, f, "scalar", in)
			if err != nil {
				return nil, err
			}
			defer out.Release()
			res := out.Column(0)
			res.Retain()
			return res, nil
		}}
}

// Batch is f (a RETURNS TABLE function) as a batch UDF whose input
// relation's batches each make one round trip to p's workers.
func (p *Pool) Batch(f *Function) udf.Batch {
	input := make([]udf.Column, len(f.Args))
	for i, n := range f.argNames() {
		input[i] = udf.Column{Name: n, Type: f.Args[i].Type}
	}
	return udf.Batch{Name: f.Name, Input: input, Columns: f.Table, Language: "python", Source: f.Body,
		Fn: func(ctx context.Context, _ []arrow.Array, rel udf.BatchInput, emit func(arrow.RecordBatch) error) error {
			for {
				b, err := rel.Next(ctx)
				if err != nil || b == nil {
					return err
				}
				// b is already under the declared input schema (the
				// arguments' Python names and types): sent as it is
				out, err := p.Call(ctx, f, "table", b)
				if err != nil {
					return err
				}
				err = emit(out)
				out.Release()
				if err != nil {
					return err
				}
			}
		}}
}

func argTypes(cs []udf.Column) []types.T {
	out := make([]types.T, len(cs))
	for i, c := range cs {
		out[i] = c.Type
	}
	return out
}

// declaredNames are the arguments' names as declared (nil when none has
// one).
func declaredNames(cs []udf.Column) []string {
	var out []string
	for i, c := range cs {
		if c.Name != "" && out == nil {
			out = make([]string, len(cs))
		}
		if out != nil {
			out[i] = cs[i].Name
		}
	}
	return out
}
