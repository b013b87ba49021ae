package flightsql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// pending is a query GetFlightInfo prepared, waiting for its DoGet.
type pending struct {
	slot   *slot
	stmts  []pgwire.Statement
	schema *arrow.Schema
	cancel context.CancelFunc // set while its DoGet runs
}

// prepared is a Flight SQL prepared statement.
type prepared struct {
	slot   *slot
	stmt   pgwire.Statement
	schema *arrow.Schema // nil: returns no rows
	params [][]any       // rows bound by DoPut; nil: none yet
}

// prepare parses and binds text on sl (acquired).
func prepare(ctx context.Context, sl *slot, text string) ([]pgwire.Statement, error) {
	stmts, err := sl.sess.Prepare(ctx, text, nil)
	return stmts, failed(sl, err)
}

// prepareIn parses and binds text on the session of the transaction txnID
// names (the connection's own without one), returning that session.
func (c *conn) prepareIn(ctx context.Context, txnID []byte, text string) (*slot, []pgwire.Statement, error) {
	sl, err := c.slotFor(txnID)
	if err != nil {
		return nil, nil, err
	}
	if err := sl.acquire(ctx); err != nil {
		return nil, nil, err
	}
	defer sl.release()
	stmts, err := prepare(ctx, sl, text)
	return sl, stmts, err
}

// noParams refuses a statement with parameters where none can be bound.
func noParams(stmts []pgwire.Statement) error {
	for _, st := range stmts {
		if len(st.ParamTypes()) > 0 {
			return sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $1").
				WithHint("Statements with parameters go through a prepared statement.")
		}
	}
	return nil
}

// resultSchema is the schema of a statement list's result: the last
// statement's (empty when it returns no rows).
func resultSchema(stmts []pgwire.Statement) *arrow.Schema {
	if len(stmts) == 0 {
		return arrow.NewSchema(nil, nil)
	}
	return schemaOf(stmts[len(stmts)-1].Columns())
}

func flightInfo(schema *arrow.Schema, desc *flight.FlightDescriptor, ticket []byte) *flight.FlightInfo {
	return &flight.FlightInfo{Schema: serializeSchema(schema), FlightDescriptor: desc,
		Endpoint:     []*flight.FlightEndpoint{{Ticket: &flight.Ticket{Ticket: ticket}}},
		TotalRecords: -1, TotalBytes: -1}
}

// GetFlightInfoStatement prepares a query; its DoGet executes it.
func (s *Server) GetFlightInfoStatement(ctx context.Context, cmd afsql.StatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	c := connOf(ctx)
	sl, stmts, err := c.prepareIn(ctx, cmd.GetTransactionId(), cmd.GetQuery())
	if err != nil {
		return nil, err
	}
	if n := len(stmts); n > 1 {
		// All but the last run now (see ranAlready), as one implicit
		// transaction; the last is described once they ran (it binds
		// lazily, and may read a table an earlier one creates).
		if err := sl.acquire(ctx); err != nil {
			return nil, err
		}
		_, err := runUpdates(ctx, sl, stmts[:n-1], make([][]any, n-1))
		sl.release()
		if err != nil {
			return nil, err
		}
		stmts = stmts[n-1:]
	}
	if err := noParams(stmts); err != nil {
		return nil, err
	}
	schema := resultSchema(stmts)
	if len(stmts) > 0 && stmts[len(stmts)-1].Columns() == nil {
		// Nothing to stream: run it now (see ranAlready).
		if err := sl.acquire(ctx); err != nil {
			return nil, err
		}
		_, err := runUpdates(ctx, sl, stmts, make([][]any, len(stmts)))
		sl.release()
		if err != nil {
			return nil, err
		}
		stmts = nil
	}
	return c.ticketFor(sl, stmts, schema, desc)
}

// ticketFor keeps stmts as a query awaiting its DoGet and returns the
// FlightInfo naming it.
func (c *conn) ticketFor(sl *slot, stmts []pgwire.Statement, schema *arrow.Schema, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	handle := newToken()
	c.mu.Lock()
	if len(c.pending) >= maxPending {
		c.mu.Unlock()
		return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "more than %d queries of this connection await their DoGet", maxPending)
	}
	c.pending[handle] = &pending{slot: sl, stmts: stmts, schema: schema}
	c.mu.Unlock()
	ticket, err := afsql.CreateStatementQueryTicket([]byte(handle))
	if err != nil {
		return nil, err
	}
	return flightInfo(schema, desc, ticket), nil
}

// ranAlready: a statement that returns no rows (DDL, INSERT, UPDATE,
// DELETE, SET...) sent as a query runs at GetFlightInfo, not at DoGet, and
// its ticket streams nothing; so do all but the last statement of a query
// string of several. A client executing it (ADBC's DB-API
// execute() prepares and executes every statement as a query) expects its
// effect once the call returns, and may never fetch the empty result, or
// fetch it after preparing the next statement, which may need the table
// this one creates.

// GetSchemaStatement prepares a query for its result schema only.
func (s *Server) GetSchemaStatement(ctx context.Context, cmd afsql.StatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	_, stmts, err := connOf(ctx).prepareIn(ctx, cmd.GetTransactionId(), cmd.GetQuery())
	if err != nil {
		return nil, err
	}
	return &flight.SchemaResult{Schema: serializeSchema(resultSchema(stmts))}, nil
}

// DoGetStatement executes the query a ticket names and streams its rows.
func (s *Server) DoGetStatement(ctx context.Context, ticket afsql.StatementQueryTicket) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	c := connOf(ctx)
	handle := string(ticket.GetStatementHandle())
	c.mu.Lock()
	p, ok := c.pending[handle]
	if ok && p.cancel != nil {
		ok = false // one DoGet per ticket
	}
	var cctx context.Context
	if ok {
		cctx, p.cancel = context.WithCancel(ctx)
	}
	c.mu.Unlock()
	if !ok {
		return nil, nil, sqlerr.New(sqlerr.InvalidSQLStatementName, "ticket names no query awaiting its DoGet on this connection")
	}
	end := func(error) {
		p.cancel()
		c.mu.Lock()
		delete(c.pending, handle)
		c.mu.Unlock()
	}
	if err := p.slot.acquire(cctx); err != nil {
		end(err)
		return nil, nil, err
	}
	execs := make([]execution, len(p.stmts))
	for i, st := range p.stmts {
		execs[i] = execution{stmt: st, drain: i < len(p.stmts)-1}
	}
	return p.schema, s.stream(cctx, p.slot, p.schema, execs, end), nil
}

// DoPutCommandStatementUpdate runs INSERT, UPDATE, DELETE (or any
// statement without rows) and returns the rows it changed.
func (s *Server) DoPutCommandStatementUpdate(ctx context.Context, cmd afsql.StatementUpdate) (int64, error) {
	sl, err := connOf(ctx).slotFor(cmd.GetTransactionId())
	if err != nil {
		return 0, err
	}
	if err := sl.acquire(ctx); err != nil {
		return 0, err
	}
	defer sl.release()
	stmts, err := prepare(ctx, sl, cmd.GetQuery())
	if err != nil {
		return 0, err
	}
	if len(stmts) == 1 { // several bind lazily, as each runs
		if err := noParams(stmts); err != nil {
			return 0, failed(sl, err)
		}
	}
	rows := make([][]any, len(stmts))
	return runUpdates(ctx, sl, stmts, rows)
}

// runUpdates executes stmts[i] with params[i] on sl (acquired), summing
// the rows they changed; several run as one implicit transaction, as a
// PostgreSQL query string of several statements does.
func runUpdates(ctx context.Context, sl *slot, stmts []pgwire.Statement, params [][]any) (int64, error) {
	implicit, hold := sl.sess.(pgwire.ImplicitTransactions)
	if hold = hold && len(stmts) > 1; hold {
		implicit.HoldImplicit()
	}
	var total int64
	var err error
	for i, st := range stmts {
		var n int64
		if n, err = drain(ctx, sl.sess, st, params[i]); err != nil {
			break
		}
		total += n
	}
	if hold {
		if eerr := implicit.EndImplicit(ctx, err == nil); err == nil {
			err = eerr
		}
	}
	if err != nil {
		return 0, failed(sl, err)
	}
	return total, nil
}

// CreatePreparedStatement prepares one statement.
func (s *Server) CreatePreparedStatement(ctx context.Context, req afsql.ActionCreatePreparedStatementRequest) (afsql.ActionCreatePreparedStatementResult, error) {
	var res afsql.ActionCreatePreparedStatementResult
	c := connOf(ctx)
	sl, stmts, err := c.prepareIn(ctx, req.GetTransactionId(), req.GetQuery())
	if err != nil {
		return res, err
	}
	if len(stmts) != 1 {
		return res, sqlerr.New(sqlerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	p := &prepared{slot: sl, stmt: stmts[0]}
	if cols := stmts[0].Columns(); cols != nil {
		p.schema = schemaOf(cols)
	}
	handle := newToken()
	c.mu.Lock()
	if len(c.prepared) >= maxPending {
		c.mu.Unlock()
		return res, sqlerr.New(sqlerr.ProgramLimitExceeded, "more than %d prepared statements on this connection", maxPending)
	}
	c.prepared[handle] = p
	c.mu.Unlock()
	res.Handle = []byte(handle)
	res.DatasetSchema = p.schema
	res.ParameterSchema = paramSchemaOf(stmts[0].ParamTypes())
	return res, nil
}

// ClosePreparedStatement forgets a prepared statement.
func (s *Server) ClosePreparedStatement(ctx context.Context, req afsql.ActionClosePreparedStatementRequest) error {
	c := connOf(ctx)
	c.mu.Lock()
	delete(c.prepared, string(req.GetPreparedStatementHandle()))
	c.mu.Unlock()
	return nil
}

// preparedOf finds a prepared statement by handle.
func (c *conn) preparedOf(handle []byte) (*prepared, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.prepared[string(handle)]
	if !ok {
		return nil, sqlerr.New(sqlerr.UndefinedPreparedStatement, "prepared statement does not exist on this connection")
	}
	return p, nil
}

// readAll reads every batch of a DoPut stream (the caller releases them).
func readAll(rdr flight.MessageReader) ([]arrow.RecordBatch, error) {
	var recs []arrow.RecordBatch
	for rdr.Next() {
		rec := rdr.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rdr.Err(); err != nil {
		release(recs)
		return nil, sqlerr.Wrap(err, sqlerr.ProtocolViolation, "reading the Arrow stream failed")
	}
	return recs, nil
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// DoPutPreparedStatementQuery binds parameter rows to a prepared statement.
func (s *Server) DoPutPreparedStatementQuery(ctx context.Context, cmd afsql.PreparedStatementQuery, rdr flight.MessageReader, _ flight.MetadataWriter) ([]byte, error) {
	c := connOf(ctx)
	p, err := c.preparedOf(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	recs, err := readAll(rdr)
	if err != nil {
		return nil, err
	}
	defer release(recs)
	rows, err := paramRows(recs, p.stmt.ParamTypes())
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	p.params = rows
	c.mu.Unlock()
	return cmd.GetPreparedStatementHandle(), nil
}

// boundRows are the parameter rows an execution of p runs with: one
// empty row for a statement without parameters.
func (p *prepared) boundRows(c *conn) ([][]any, error) {
	c.mu.Lock()
	rows := p.params
	c.mu.Unlock()
	n := len(p.stmt.ParamTypes())
	if n == 0 {
		return [][]any{nil}, nil
	}
	if rows == nil {
		return nil, sqlerr.New(sqlerr.ProtocolViolation, "bind message supplies 0 parameters, but prepared statement requires %d", n)
	}
	return rows, nil
}

// GetFlightInfoPreparedStatement describes a prepared query's result; the
// ticket is the command itself.
func (s *Server) GetFlightInfoPreparedStatement(ctx context.Context, cmd afsql.PreparedStatementQuery, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	p, err := connOf(ctx).preparedOf(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	if p.schema == nil { // nothing to stream: run it now (ranAlready)
		c := connOf(ctx)
		rows, err := p.boundRows(c)
		if err != nil {
			return nil, err
		}
		if err := p.slot.acquire(ctx); err != nil {
			return nil, err
		}
		stmts := make([]pgwire.Statement, len(rows))
		for i := range rows {
			stmts[i] = p.stmt
		}
		_, err = runUpdates(ctx, p.slot, stmts, rows)
		p.slot.release()
		if err != nil {
			return nil, err
		}
		return c.ticketFor(p.slot, nil, arrow.NewSchema(nil, nil), desc)
	}
	return flightInfo(p.schema, desc, desc.Cmd), nil
}

// GetSchemaPreparedStatement is a prepared query's result schema.
func (s *Server) GetSchemaPreparedStatement(ctx context.Context, cmd afsql.PreparedStatementQuery, _ *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	p, err := connOf(ctx).preparedOf(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, err
	}
	schema := p.schema
	if schema == nil {
		schema = arrow.NewSchema(nil, nil)
	}
	return &flight.SchemaResult{Schema: serializeSchema(schema)}, nil
}

// DoGetPreparedStatement executes a prepared query once per bound
// parameter row and streams the rows of all.
func (s *Server) DoGetPreparedStatement(ctx context.Context, cmd afsql.PreparedStatementQuery) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	c := connOf(ctx)
	p, err := c.preparedOf(cmd.GetPreparedStatementHandle())
	if err != nil {
		return nil, nil, err
	}
	rows, err := p.boundRows(c)
	if err != nil {
		return nil, nil, err
	}
	schema := p.schema
	if schema == nil {
		schema = arrow.NewSchema(nil, nil)
	}
	execs := make([]execution, len(rows))
	for i, r := range rows {
		execs[i] = execution{stmt: p.stmt, params: r, drain: p.schema == nil}
	}
	if err := p.slot.acquire(ctx); err != nil {
		return nil, nil, err
	}
	return schema, s.stream(ctx, p.slot, schema, execs, nil), nil
}

// DoPutPreparedStatementUpdate executes a prepared update once per
// parameter row (those sent with it, else those bound before), all in one
// transaction, and returns the rows changed.
func (s *Server) DoPutPreparedStatementUpdate(ctx context.Context, cmd afsql.PreparedStatementUpdate, rdr flight.MessageReader) (int64, error) {
	c := connOf(ctx)
	p, err := c.preparedOf(cmd.GetPreparedStatementHandle())
	if err != nil {
		return 0, err
	}
	recs, err := readAll(rdr)
	if err != nil {
		return 0, err
	}
	defer release(recs)
	var rows [][]any
	if len(recs) > 0 && len(p.stmt.ParamTypes()) > 0 {
		if rows, err = paramRows(recs, p.stmt.ParamTypes()); err != nil {
			return 0, err
		}
	} else if rows, err = p.boundRows(c); err != nil {
		return 0, err
	}
	if err := p.slot.acquire(ctx); err != nil {
		return 0, err
	}
	defer p.slot.release()
	stmts := make([]pgwire.Statement, len(rows))
	for i := range rows {
		stmts[i] = p.stmt
	}
	return runUpdates(ctx, p.slot, stmts, rows)
}
