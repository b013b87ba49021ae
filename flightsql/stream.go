package flightsql

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// schemaOf is the Arrow schema of a result: the columns' Arrow types (what
// Result.Next's batches carry), each with Flight SQL's type-name metadata.
func schemaOf(cols []pgwire.ResultColumn) *arrow.Schema {
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		md := afsql.NewColumnMetadataBuilder().TypeName(c.Type.PGName())
		if c.Type.Kind == types.Decimal && c.Type.Precision > 0 {
			md.Precision(int32(c.Type.Precision)).Scale(int32(c.Type.Scale))
		}
		fs[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true, Metadata: md.Metadata()}
	}
	return arrow.NewSchema(fs, nil)
}

// paramSchemaOf is a prepared statement's parameter schema; a parameter of
// unknown type is announced as a string (its text).
func paramSchemaOf(ts []types.T) *arrow.Schema {
	fs := make([]arrow.Field, len(ts))
	for i, t := range ts {
		dt := arrow.DataType(arrow.BinaryTypes.String)
		if t.Kind != types.Unknown {
			dt = t.ArrowType()
		}
		fs[i] = arrow.Field{Name: "$" + strconv.Itoa(i+1), Type: dt, Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}

// execution is one statement run of a stream: its rows are streamed unless
// drain (a statement before the last of a query string).
type execution struct {
	stmt   pgwire.Statement
	params []any
	drain  bool
}

// errStatementTimeout is the cause of a statement context that
// statement_timeout ended.
var errStatementTimeout = errors.New("statement timeout")

// statementContext bounds one statement by the session's statement_timeout.
func statementContext(ctx context.Context, sess pgwire.Session) (context.Context, context.CancelFunc) {
	if v, ok := sess.Status("statement_timeout"); ok {
		if d, ok := pgwire.ParseGUCDuration(v); ok && d > 0 {
			return context.WithTimeoutCause(ctx, d, errStatementTimeout)
		}
	}
	return context.WithCancel(ctx)
}

// timeoutError reports a statement that statement_timeout ended with
// PostgreSQL's 57014 message.
func timeoutError(ctx context.Context, err error) error {
	if err != nil && errors.Is(context.Cause(ctx), errStatementTimeout) {
		return sqlerr.New(sqlerr.QueryCanceled, statementTimeoutMessage)
	}
	return err
}

// failed marks the session's transaction block failed after an error, as
// pgwire does for every error it reports.
func failed(sl *slot, err error) error {
	if err != nil {
		if f, ok := sl.sess.(pgwire.TransactionFailer); ok {
			f.FailTransaction()
		}
	}
	return err
}

// sentBatch is a batch handed to arrow-go's DoGet loop; its Release (after
// the batch was written to the stream) lets the producer ask the result
// for the next one, which may reuse the memory of this one.
type sentBatch struct {
	arrow.RecordBatch
	once sync.Once
	done chan struct{}
}

func (b *sentBatch) Release() {
	b.RecordBatch.Release()
	b.once.Do(func() { close(b.done) })
}

// stream runs the executions on sl (which the caller acquired: stream
// releases it when done) and streams the rows of those not drained, one
// batch in flight at a time, as batches of schema. onEnd runs last.
func (s *Server) stream(ctx context.Context, sl *slot, schema *arrow.Schema, execs []execution, onEnd func(error)) <-chan flight.StreamChunk {
	ch := make(chan flight.StreamChunk)
	go func() {
		var err error
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("flightsql: panic streaming a result", "panic", r)
				err = sqlerr.New(sqlerr.InternalError, "internal error")
				select {
				case ch <- flight.StreamChunk{Err: err}:
				case <-ctx.Done():
				}
			}
			failed(sl, err)
			if onEnd != nil {
				onEnd(err)
			}
			sl.release()
			close(ch)
		}()
		implicit, hold := sl.sess.(pgwire.ImplicitTransactions)
		if hold = hold && len(execs) > 1; hold {
			implicit.HoldImplicit()
		}
		for _, ex := range execs {
			if err = s.streamOne(ctx, sl, schema, ex, ch); err != nil {
				break
			}
		}
		if hold {
			if eerr := implicit.EndImplicit(ctx, err == nil); err == nil {
				err = eerr
			}
		}
		if err != nil && ctx.Err() == nil {
			ch <- flight.StreamChunk{Err: err}
		}
	}()
	return ch
}

// streamOne executes one statement and sends its batches.
func (s *Server) streamOne(ctx context.Context, sl *slot, schema *arrow.Schema, ex execution, ch chan<- flight.StreamChunk) (err error) {
	sctx, end := startStatement(ctx, sl.sess, ex.stmt)
	var tag string
	defer func() { err = end(tag, err) }()
	res, err := ex.stmt.Execute(sctx, ex.params)
	if err != nil {
		return timeoutError(sctx, err)
	}
	defer res.Close()
	for {
		b, err := res.Next(sctx)
		if err != nil {
			return timeoutError(sctx, err)
		}
		if b == nil {
			tag = res.Tag()
			return nil
		}
		if ex.drain {
			b.Release()
			continue
		}
		out, err := conform(schema, b)
		b.Release()
		if err != nil {
			return err
		}
		sb := &sentBatch{RecordBatch: out, done: make(chan struct{})}
		select {
		case ch <- flight.StreamChunk{Data: sb}:
		case <-ctx.Done():
			out.Release()
			return ctx.Err()
		}
		select {
		case <-sb.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// conform relabels a result batch with the stream's schema (names and
// metadata; the types must already agree).
func conform(schema *arrow.Schema, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if int(b.NumCols()) != schema.NumFields() {
		return nil, sqlerr.New(sqlerr.InternalError, "result batch has %d columns, expected %d", b.NumCols(), schema.NumFields())
	}
	for i := 0; i < schema.NumFields(); i++ {
		if !arrow.TypeEqual(schema.Field(i).Type, b.Column(i).DataType()) {
			return nil, sqlerr.New(sqlerr.InternalError, "result column %d is %s, expected %s", i+1, b.Column(i).DataType(), schema.Field(i).Type)
		}
	}
	return array.NewRecordBatch(schema, b.Columns(), b.NumRows()), nil
}

// drain executes a statement that returns no rows to the client, and
// returns its row count (from its command tag).
func drain(ctx context.Context, sess pgwire.Session, stmt pgwire.Statement, params []any) (_ int64, err error) {
	sctx, end := startStatement(ctx, sess, stmt)
	var tag string
	defer func() { err = end(tag, err) }()
	res, err := stmt.Execute(sctx, params)
	if err != nil {
		return 0, timeoutError(sctx, err)
	}
	defer res.Close()
	for {
		b, err := res.Next(sctx)
		if err != nil {
			return 0, timeoutError(sctx, err)
		}
		if b == nil {
			break
		}
		b.Release()
	}
	tag = res.Tag()
	return pgwire.TagRows(tag), nil
}

// runSQL runs a statement without parameters or rows (BEGIN, COMMIT...).
func runSQL(ctx context.Context, sess pgwire.Session, text string) error {
	stmts, err := sess.Prepare(ctx, text, nil)
	if err != nil {
		return err
	}
	for _, st := range stmts {
		if _, err := drain(ctx, sess, st, nil); err != nil {
			return err
		}
	}
	return nil
}

// serializeSchema is a schema as FlightInfo and GetTables carry it.
func serializeSchema(s *arrow.Schema) []byte {
	return flight.SerializeSchema(s, memory.DefaultAllocator)
}
