package pgwire

import (
	"context"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// location is the session's TimeZone, in which timestamptz results are
// rendered as text (UTC when the session reports none that loads).
func (c *conn) location() *time.Location {
	v, ok := c.session.Status("TimeZone")
	if !ok {
		return time.UTC
	}
	// Every Bind asks: the zone is loaded again only when the setting changed.
	if c.zoneLoc != nil && v == c.zoneSetting {
		return c.zoneLoc
	}
	loc, _, err := types.LoadZone(v)
	if err != nil {
		loc = time.UTC
	}
	c.zoneSetting, c.zoneLoc = v, loc
	return loc
}

// dateStyle is the session's DateStyle (ISO, MDY when the session
// reports none that reads).
func (c *conn) dateStyle() types.DateStyle {
	v, ok := c.session.Status("DateStyle")
	if !ok {
		return types.DateStyle{}
	}
	ds, err := types.ParseDateStyle(v, types.DateStyle{})
	if err != nil {
		return types.DateStyle{}
	}
	return ds
}

// style is the session's DateStyle, IntervalStyle and
// extra_float_digits, in which the text of dates, timestamps, intervals
// and floats in results is written. It is read for every result: a
// cached encoder (prepared.encoder) is reused only under the same style.
func (c *conn) style() types.Style {
	if s, ok := c.session.(interface{ Style() types.Style }); ok {
		return s.Style() // parsed when the settings changed
	}
	ds, _ := c.session.Status("DateStyle")
	is, _ := c.session.Status("IntervalStyle")
	fd, _ := c.session.Status("extra_float_digits")
	return types.StyleOf(ds, is, fd)
}

// prepared is a statement created by Parse (or, transiently, by a simple
// Query). stmt is nil for an empty query string.
type prepared struct {
	name      string
	stmt      Statement
	paramOIDs []uint32

	// query, preparedAt and plans are what pg_prepared_statements shows
	// of a named statement (prepared.go): its Parse text and time, and
	// how many Binds ran it.
	query      string
	preparedAt time.Time
	plans      int64

	// enc is the row encoder of the statement's last portal, kept for the
	// next Bind with the same result formats and zone (a prepared
	// statement executed again and again builds it once); encBusy while a
	// live portal uses it.
	enc        *pgtypes.RowEncoder
	encFormats []int16
	encLoc     *time.Location
	encStyle   types.Style
	encBusy    bool

	// rd is the encoded RowDescription of the statement's portals for the
	// result formats rdFormats: pgx describes the portal before every
	// execution of a prepared statement.
	rd        []byte
	rdFormats []int16

	// copyStmt is stmt as a COPY statement and isCopy whether it is one,
	// asked once (copyKnown) instead of at every Bind, Describe and
	// Execute: a statement's text fixes both, and a COPY's options.
	copyStmt  CopyStatement
	isCopy    bool
	copyKnown bool
}

// asCopy is asCopy of the statement, found at its first use.
func (ps *prepared) asCopy() (CopyStatement, bool) {
	if !ps.copyKnown {
		ps.copyStmt, ps.isCopy = asCopy(ps.stmt)
		ps.copyKnown = true
	}
	return ps.copyStmt, ps.isCopy
}

// appendPortalDescription appends the RowDescription of a portal of the
// statement with the given result formats, encoded once per formats.
func (ps *prepared) appendPortalDescription(out []byte, formats []int16) []byte {
	if ps.rd == nil || !slices.Equal(ps.rdFormats, formats) {
		rd, err := rowDescription(ps.stmt.Columns(), formats).Encode(nil)
		if err != nil {
			// Only a message too large for the protocol fails to encode.
			return out
		}
		ps.rd, ps.rdFormats = rd, formats
	}
	return append(out, ps.rd...)
}

// encoder returns a row encoder for a portal of the statement: the cached
// one when it is free and was built for the same formats and zone.
func (ps *prepared) encoder(cols []ResultColumn, formats []int16, loc *time.Location, st types.Style) (*pgtypes.RowEncoder, error) {
	if ps.enc != nil && !ps.encBusy && ps.encLoc == loc && ps.encStyle == st && slices.Equal(ps.encFormats, formats) {
		ps.encBusy = true
		return ps.enc, nil
	}
	enc, err := pgtypes.NewRowEncoderStyle(columnTypes(cols), formats, loc, st)
	if err != nil {
		return nil, err
	}
	if !ps.encBusy {
		ps.enc, ps.encFormats, ps.encLoc, ps.encStyle, ps.encBusy = enc, formats, loc, st, true
	}
	return enc, nil
}

// portal is a bound statement: parameters and result formats fixed, its
// execution started by the first Execute and resumable after
// PortalSuspended.
type portal struct {
	name    string
	stmt    *prepared
	params  []any
	formats []int16
	enc     *pgtypes.RowEncoder // nil when the statement returns no rows
	// paramBuf holds params when they are few (a prepared lookup's key),
	// so that Bind allocates the portal and its parameters together.
	paramBuf [4]any

	// ctx spans every Execute of the portal: a suspended result keeps
	// streaming under it. cancel ends it (Close, Sync, CancelRequest).
	ctx    context.Context
	cancel context.CancelFunc
	// spare, when set, takes ctx back at close for the next Bind, when
	// nothing can still use or cancel it (reusable).
	spare *spareContext
	// timed: statement_timeout was armed on ctx by an Execute.
	timed bool

	res       Result
	batch     arrow.RecordBatch // current batch, partly sent
	row       int               // next row of batch to send
	done      bool              // the result is exhausted (and closed)
	doneTag   string            // Result.Tag once done
	suspended bool              // at least one Execute ended in PortalSuspended
}

func (p *portal) close() {
	if p.enc != nil && p.stmt != nil && p.stmt.enc == p.enc {
		// The next Bind may take it; this portal never runs again.
		p.stmt.encBusy = false
		p.enc = nil
	}
	if p.batch != nil {
		p.batch.Release()
		p.batch = nil
	}
	if p.res != nil {
		p.res.Close()
		p.res = nil
	}
	if p.cancel != nil {
		if p.spare != nil && p.reusable() {
			p.spare.put(p.ctx, p.cancel)
		} else {
			p.cancel()
		}
		p.ctx, p.cancel = nil, nil
	}
}

// reusable reports whether the portal's context can serve another portal:
// its result ran to its end and was closed (p.done), so no work of it runs
// under ctx any more; nothing cancelled ctx; and no statement_timeout
// timer was armed on it, which could still fire after being stopped.
// A CancelRequest cannot reach it any more either: cancelRunning calls
// the cancel function under runMu, and Execute unregistered it
// (clearRunning) before the portal can close.
func (p *portal) reusable() bool {
	return p.done && !p.timed && p.ctx.Err() == nil
}

// spareContext keeps one portal context that is still live, so that a
// prepared statement executed again and again (Bind, Execute, Sync) does
// not create and tear down a context per Bind: context.WithCancel
// allocates and registers the child with the connection's context under a
// lock, and cancelling unregisters it (about 3% of the server's CPU per
// point lookup).
type spareContext struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// get returns the spare context, or a new child of parent.
func (s *spareContext) get(parent context.Context) (context.Context, context.CancelFunc) {
	if s.ctx != nil {
		ctx, cancel := s.ctx, s.cancel
		s.ctx, s.cancel = nil, nil
		if ctx.Err() == nil {
			return ctx, cancel
		}
		cancel()
	}
	return context.WithCancel(parent)
}

// put keeps ctx for the next get; a context already kept is cancelled.
func (s *spareContext) put(ctx context.Context, cancel context.CancelFunc) {
	if s.cancel != nil {
		s.cancel()
	}
	s.ctx, s.cancel = ctx, cancel
}

// RegNamers is implemented by a Session whose reg* result values
// (regclass ...) print as names in text format: the namer answers under
// ctx, the query's context.
type RegNamers interface {
	RegNamer(ctx context.Context) pgtypes.RegNamer
}

// nameRegs gives enc's reg* columns the session's namer.
func (c *conn) nameRegs(ctx context.Context, enc *pgtypes.RowEncoder) {
	if enc == nil || !enc.HasReg() {
		return
	}
	if rn, ok := c.session.(RegNamers); ok {
		enc.SetRegNamer(rn.RegNamer(ctx))
	}
}

func columnTypes(cols []ResultColumn) []types.T {
	ts := make([]types.T, len(cols))
	for i, col := range cols {
		ts[i] = col.Type
	}
	return ts
}

func rowDescription(cols []ResultColumn, formats []int16) *pgproto3.RowDescription {
	rd := &pgproto3.RowDescription{Fields: make([]pgproto3.FieldDescription, len(cols))}
	for i, col := range cols {
		oid, typmod, size := pgtypes.OIDOf(col.Type)
		rd.Fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.ColumnNumber),
			DataTypeOID:          oid,
			DataTypeSize:         size,
			TypeModifier:         typmod,
			Format:               pgtypes.FormatOf(formats, i),
		}
	}
	return rd
}

// handleQuery serves a simple Query: the whole string is prepared, then
// each statement runs in turn with text results; the first error ends the
// string. It destroys the unnamed statement and portal, as PostgreSQL does.
func (c *conn) handleQuery(body []byte) {
	sql, err := cString(body)
	if err != nil {
		c.sendError(err)
		c.sendReady()
		_ = c.flush()
		return
	}
	delete(c.stmts, "")
	if p := c.portals.unnamed; p != nil {
		p.close()
		c.portals.unnamed = nil
	}
	c.curSQL = sql
	ctx, cancel := c.beginRunning(c.ctx)
	defer c.endRunning(ctx, cancel)
	stmts, err := c.session.Prepare(ctx, sql, nil)
	failed := err != nil
	switch {
	case err != nil:
		c.sendError(err)
	case len(stmts) == 0:
		c.send(&pgproto3.EmptyQueryResponse{})
	default:
		// Several statements in one string are one implicit transaction
		// (PostgreSQL's implicit transaction block): an error rolls back
		// what the statements before it wrote outside a transaction block.
		// A lone statement is its own transaction either way.
		if len(stmts) > 1 {
			c.holdImplicit()
		}
		for _, st := range stmts {
			// statement_timeout applies to each statement of the string
			// separately, as in PostgreSQL 13 and later.
			sctx, stop := c.withStatementTimeout(ctx)
			start := c.startStatement(st.SQL())
			err := c.runSimple(sctx, st)
			c.endStatement(st, nil, start, err)
			stop()
			c.sendStatusChanges()
			if err != nil {
				// before the statement's transaction ends: the session
				// learns it failed (TransactionFailer), and what it queued
				// to happen at its commit (NOTIFY) does not
				c.sendError(err)
				failed = true
			}
			if !c.held && c.statementTxns != nil {
				c.statementTxns.EndStatementTransaction()
			}
			if err != nil {
				break
			}
			if c.writeErr != nil {
				return
			}
		}
	}
	// The string's implicit transaction (or a pipeline's the Query
	// interrupted, as PostgreSQL's exec_simple_query ends it too) ends here.
	c.endImplicit(!failed)
	if c.session.TxStatus() == 'I' {
		// A transaction block ended (or none was open): its portals go.
		c.closePortals()
	}
	c.sendReady()
	_ = c.flush()
}

func (c *conn) runSimple(ctx context.Context, st Statement) error {
	if cs, ok := asCopy(st); ok {
		return c.runCopy(ctx, cs, nil)
	}
	c.simplePrep = prepared{stmt: st}
	c.simplePortal = portal{stmt: &c.simplePrep, ctx: ctx}
	p := &c.simplePortal
	defer c.endSimple()
	cols := st.Columns()
	formats := simpleFormats(st) // binarycursor.go
	if cols != nil {
		enc, err := pgtypes.NewRowEncoderStyle(columnTypes(cols), formats, c.location(), c.style())
		if err != nil {
			return err
		}
		p.enc = enc
		c.nameRegs(ctx, enc)
	}
	res, err := st.Execute(ctx, nil)
	if err != nil {
		return err
	}
	p.res = res
	if cols != nil {
		c.send(rowDescription(cols, formats))
	}
	_, err = c.stream(p, 0)
	return err
}

// endSimple closes runSimple's portal and lets go of what it held (the
// statement, its result, its context) until the next one.
func (c *conn) endSimple() {
	c.simplePortal.close()
	c.simplePortal, c.simplePrep = portal{}, prepared{}
}

// stream sends the portal's rows, at most maxRows of them (0 = all), and
// then CommandComplete, or PortalSuspended when it stopped at maxRows. Rows
// go out batch by batch; the buffer is flushed whenever it passes the
// threshold, so a result is never held whole in memory.
func (c *conn) stream(p *portal, maxRows int) (suspended bool, err error) {
	defer c.endStream() // stream.go
	sent := 0
	for {
		if p.batch == nil || p.row >= int(p.batch.NumRows()) {
			if p.batch != nil {
				p.batch.Release()
				p.batch = nil
			}
			if p.done {
				break
			}
			if err := c.beforeStreamWait(p.res); err != nil { // stream.go
				return false, err
			}
			if d, ok := p.res.(DemandResult); ok {
				want := 0 // no bound: an Execute without one after one with
				if maxRows > 0 {
					want = maxRows - sent
				}
				d.Demand(int64(want))
			}
			b, err := p.res.Next(p.ctx)
			if err != nil {
				return false, err
			}
			// What the batch's functions raised goes before its rows.
			c.sendRuntimeNotices()
			if b == nil {
				// Exhausted: keep the tag, release the engine's resources now
				// rather than at Sync.
				p.done = true
				p.doneTag = p.res.Tag()
				c.sendNotices(p.res)
				p.res.Close()
				break
			}
			if b.NumRows() == 0 {
				b.Release()
				continue
			}
			if p.enc == nil {
				b.Release()
				return false, sqlerr.New(sqlerr.InternalError, "statement without result columns returned rows")
			}
			if err := p.enc.Reset(b); err != nil {
				b.Release()
				return false, err
			}
			p.batch, p.row = b, 0
		}
		n := int(p.batch.NumRows())
		if maxRows > 0 && n-p.row > maxRows-sent {
			n = p.row + maxRows - sent
		}
		threshold := c.srv.cfg.FlushThreshold
		sent += n - p.row
		for ; p.row < n; p.row++ {
			// rowMark lets panic recovery cut a half-written DataRow.
			c.rowMark = len(c.out)
			c.out = p.enc.AppendDataRow(c.out, p.row)
			if err := c.checkRowSize(len(c.out) - c.rowMark); err != nil {
				c.out = c.out[:c.rowMark]
				c.rowMark = -1
				return false, err
			}
			if len(c.out) >= threshold {
				if err := c.flush(); err != nil {
					c.rowMark = -1
					return false, err
				}
			}
		}
		c.rowMark = -1
		if maxRows > 0 && sent >= maxRows {
			p.suspended = true
			c.send(&pgproto3.PortalSuspended{})
			return true, nil
		}
		if err := p.ctx.Err(); err != nil {
			return false, err
		}
	}
	c.lastTag = p.tag(sent)
	c.out = appendCommandComplete(c.out, c.lastTag)
	// Executing an exhausted portal again reports "SELECT 0".
	p.suspended = true
	return false, nil
}

// appendCommandComplete appends CommandComplete with tag, encoded as
// pgproto3.CommandComplete does but without copying the tag first.
func appendCommandComplete(out []byte, tag string) []byte {
	out = append(out, 'C', 0, 0, 0, 0)
	at := len(out) - 4
	out = append(out, tag...)
	out = append(out, 0)
	binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at))
	return out
}

// tag is the CommandComplete tag. A portal run in several Executes reports,
// as PostgreSQL does, the rows of the last Execute.
func (p *portal) tag(sentNow int) string {
	tag := p.doneTag
	if p.suspended && (tag == "" || strings.HasPrefix(tag, "SELECT")) {
		return "SELECT " + strconv.Itoa(sentNow)
	}
	return tag
}

// checkRowSize fails a statement whose row encodes to more than
// Config.MaxRowSize bytes; the caller drops the row from the output.
func (c *conn) checkRowSize(n int) error {
	if max := c.srv.cfg.MaxRowSize; n > max {
		return sqlerr.New(sqlerr.ProgramLimitExceeded, "result row of %d bytes exceeds the maximum row size of %d bytes", n, max)
	}
	return nil
}

func cString(b []byte) (string, error) {
	for i, c := range b {
		if c == 0 {
			return string(b[:i]), nil
		}
	}
	return "", sqlerr.New(sqlerr.ProtocolViolation, "invalid string in message")
}
