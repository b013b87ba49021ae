package udf

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// BatchInput is the input relation of a batch UDF, read batch by batch.
type BatchInput interface {
	// Next returns the next batch of the input relation, or nil at its
	// end. The batch has the declared input columns (names are the
	// declaration's) and belongs to sqlgate: Retain it to keep it past
	// the next call of Next.
	Next(ctx context.Context) (arrow.RecordBatch, error)
}

// BatchFunc runs a batch UDF: it reads the input relation's record batches
// from in and calls emit with output batches of the declared output
// columns, any number of rows each (a batch UDF may change the row count:
// unnest, filter, aggregate over windows). args holds one array of length
// 1 per declared constant argument. emit checks every batch against the
// declaration (names, types, nullability) and retains what it keeps, so
// the UDF still releases its own reference. A non-nil error from emit
// (the statement was cancelled, the consumer needs no more rows, or the
// batch broke the declaration) means: stop and return it.
type BatchFunc func(ctx context.Context, args []arrow.Array, in BatchInput, emit func(arrow.RecordBatch) error) error

// Batch declares a batch UDF: a map from one relation's record batches to
// record batches of another schema (seed 002's map_batches), called in
// FROM with the relation as its first argument:
//
//	SELECT * FROM my_fn(TABLE t)
//	SELECT * FROM my_fn((SELECT a, b FROM t WHERE ...), 10)
type Batch struct {
	// Name is the SQL name (case-insensitive, as an unquoted identifier).
	Name string
	// Input is the declared schema of the input relation, checked when
	// the query is bound: the relation has exactly these columns, in this
	// order, each of the declared type or implicitly castable to it (the
	// names of the relation's columns do not matter). A column declared
	// NOT NULL (Type.NotNull) is checked at run time, not when the query
	// is bound: a NULL reaching it fails the statement (23502).
	Input []Column
	// Args are the declared types of constant arguments after the
	// relation (possibly none), evaluated once per execution.
	Args []types.T
	// Columns are the declared output columns (at least one). Every
	// emitted batch must have exactly these names and Arrow types, and no
	// NULL in a column declared NOT NULL; otherwise the statement fails
	// with 39000 naming the field.
	Columns []Column
	// ParallelSafe declares that the function may run on several input
	// partitions at once (it keeps no state across batches that depends
	// on seeing all of them). sqlgate runs one instance per statement
	// today; the flag is reported in pg_proc (proparallel).
	ParallelSafe bool
	Fn           BatchFunc
	// Language, Source, Owner and Comment are as Scalar's ("" is Go).
	Language string
	Source   string
	Owner    string
	Comment  string
}

// Label is how messages name the UDF ("Go UDF f", "Python UDF f").
func (b *Batch) Label() string { return label(b.Language, b.Name) }

// Schema is the Arrow schema of the declared output columns, with their
// nullability.
func (b *Batch) Schema() *arrow.Schema { return columnSchema(b.Columns) }

// InputSchema is the Arrow schema of the declared input columns.
func (b *Batch) InputSchema() *arrow.Schema { return columnSchema(b.Input) }

func columnSchema(cs []Column) *arrow.Schema {
	fs := make([]arrow.Field, len(cs))
	for i, c := range cs {
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: !c.Type.NotNull}
	}
	return arrow.NewSchema(fs, nil)
}

// AddBatch registers a batch UDF. Its name may not also be a scalar or
// record-batch UDF's; overloads differ in their constant arguments.
func (r *Registry) AddBatch(b Batch) error {
	name, err := checkName(b.Name)
	if err != nil {
		return err
	}
	if b.Fn == nil {
		return fmt.Errorf("udf %s: no function", name)
	}
	if len(b.Input) == 0 {
		return fmt.Errorf("udf %s: a batch UDF declares at least one input column", name)
	}
	if len(b.Columns) == 0 {
		return fmt.Errorf("udf %s: a batch UDF declares at least one output column", name)
	}
	all := slices.Clone(b.Args)
	for _, cs := range [][]Column{b.Input, b.Columns} {
		seen := map[string]bool{}
		for _, c := range cs {
			if c.Name == "" {
				return fmt.Errorf("udf %s: a column has no name", name)
			}
			if seen[c.Name] {
				return fmt.Errorf("udf %s: column %s declared twice", name, c.Name)
			}
			seen[c.Name] = true
			all = append(all, c.Type)
		}
	}
	if err := checkTypes(name, all); err != nil {
		return err
	}
	if len(r.scalars[name]) > 0 || len(r.tables[name]) > 0 {
		return fmt.Errorf("udf %s: already registered as another kind of UDF", name)
	}
	for _, o := range r.batches[name] {
		if sameArgs(o.Args, b.Args) {
			return fmt.Errorf("udf %s(%s): already registered", name, typeList(b.Args))
		}
	}
	b.Name = name
	b.Args = slices.Clone(b.Args)
	b.Input = slices.Clone(b.Input)
	b.Columns = slices.Clone(b.Columns)
	r.batches[name] = append(r.batches[name], &b)
	return nil
}

// Batches returns the batch UDFs named name (nil: none). r may be nil.
func (r *Registry) Batches(name string) []*Batch {
	if r == nil {
		return nil
	}
	return r.batches[foldName(name)]
}
