package engine

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
)

// The results a statement returns to pgwire: a tag alone, a query's
// streamed rows, a list of strings, an EXPLAIN; and execState, what one
// execution allocates.

// tagResult is a result without rows.
type tagResult struct{ tag string }

func tagOnly(tag string) *tagResult                                  { return &tagResult{tag: tag} }
func (r *tagResult) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (r *tagResult) Tag() string                                     { return r.tag }
func (r *tagResult) Close()                                          {}

// The tags of the transaction statements every transaction runs, shared
// (a tagResult is immutable): BEGIN and COMMIT allocated one each per
// transaction.
var (
	beginTag  = tagOnly("BEGIN")
	commitTag = tagOnly("COMMIT")
)

// countTags are the results of a write's tag ("UPDATE n") for the counts a
// write by key reports, 0 and 1, made once: the prepared UPDATE by key
// formatted its tag and allocated its result per Execute.
type countTags struct {
	verb  string // "UPDATE ", "INSERT 0 ", ...
	small [2]tagResult
}

func newCountTags(verb string) *countTags {
	return &countTags{verb: verb, small: [2]tagResult{{tag: verb + "0"}, {tag: verb + "1"}}}
}

var (
	insertTags = newCountTags("INSERT 0 ")
	updateTags = newCountTags("UPDATE ")
	deleteTags = newCountTags("DELETE ")
)

// result is the write's result for n rows (writeResult), a shared one when
// it returns no rows and n is small.
func (c *countTags) result(n int64, ret *exec.Returned) pgwire.Result {
	if ret == nil && n >= 0 && n < int64(len(c.small)) {
		return &c.small[n]
	}
	return writeResult(c.verb+strconv.FormatInt(n, 10), ret)
}

// execState is what one execution allocates: its evaluation context, its
// runtime and, for a query, its result.
type execState struct {
	ec  exec.EvalContext
	rt  lower.Runtime
	req exec.BackendRequest // the session setting's, when no hint
	// ctes are rt's WITH query rows (rt.CTEs).
	ctes lower.CTERuns
	res  queryResult
	// params holds the converted parameters when they are few (a point
	// lookup's key).
	params [4]any
	// mem is rt.Mem, the execution's memory account.
	mem relop.MemoryAccount
	// recheck is the first pass's exec.Recheck of an UPDATE or DELETE
	// (runWrite).
	recheck exec.Recheck
	// scratch is rt.Scratch, where Build puts the first operators of a
	// common shape.
	scratch lower.Scratch
	// fctx is the execution's context with its clock and session functions
	// (functions.WithStatement's, without an allocation of its own).
	fctx functions.StatementContext
}

// queryResult streams an operator's batches.
type queryResult struct {
	op   exec.Operator
	verb string
	rows int64
	done bool
	// sess, when set, learns of an error raised while streaming: it aborts
	// the transaction block like an error from Execute.
	sess *session
	// rt, when set, is the runtime op was built with: Close closes it
	// after op (it holds the execution's WITH query rows).
	rt *lower.Runtime
	// unlock, when set, is the session whose statement outside a
	// transaction holds its tables until its result is closed (ddllock.go).
	unlock *session
}

func (r *queryResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.done {
		return nil, nil
	}
	b, err := r.op.Next(ctx)
	if err != nil {
		r.Close()
		err = mapContextError(ctx, err)
		if r.sess != nil {
			err = r.sess.failed(err)
		}
		return nil, err
	}
	if b == nil {
		r.Close()
		return nil, nil
	}
	r.rows += b.NumRows()
	return b, nil
}

// Demand implements pgwire.DemandResult: the plan's root, when it takes
// a demand (exec.Demander: a projection or filter calling something
// volatile evaluates no more rows than wanted).
func (r *queryResult) Demand(rows int64) {
	if d, ok := r.op.(exec.Demander); ok && !r.done {
		d.Demand(rows)
	}
}

// Tag is "SELECT n" for queries; SHOW and EXPLAIN report their verb alone.
func (r *queryResult) Tag() string {
	switch {
	case r.verb != "SELECT":
		return r.verb
	case r.rows == 1:
		return "SELECT 1" // a point lookup's: no formatting
	}
	return "SELECT " + strconv.FormatInt(r.rows, 10)
}

func (r *queryResult) Close() {
	if !r.done {
		r.done = true
		r.op.Close()
		if r.rt != nil {
			r.rt.Close()
		}
		if r.unlock != nil {
			r.unlock.releaseStatementLocks()
			r.unlock = nil
		}
	}
}

// stringsResult returns one text column of rows.
func stringsResult(e *Engine, name string, rows []string) pgwire.Result {
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	b := array.NewStringBuilder(e.mem)
	defer b.Release()
	b.AppendValues(rows, nil)
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(rows)))
	return &queryResult{op: &onceOperator{batch: rec}, verb: "SHOW"}
}

func explainResult(e *Engine, plan lower.Node, metrics map[lower.Node]*exec.Metrics, format string, backend *exec.BackendRequest) pgwire.Result {
	lines := lower.ExplainFor(plan, metrics, backend)
	if format == "json" {
		lines = []string{lower.ExplainJSONFor(plan, metrics, backend)}
	}
	r := stringsResult(e, "QUERY PLAN", lines).(*queryResult)
	r.verb = "EXPLAIN"
	return r
}

// onceOperator emits one prepared batch.
type onceOperator struct{ batch arrow.RecordBatch }

func (o *onceOperator) Schema() *arrow.Schema { return o.batch.Schema() }

func (o *onceOperator) Next(context.Context) (arrow.RecordBatch, error) {
	b := o.batch
	o.batch = nil
	return b, nil
}

func (o *onceOperator) Close() {
	if o.batch != nil {
		o.batch.Release()
		o.batch = nil
	}
}
