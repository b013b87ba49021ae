package pgwire

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Extended-query messages. Each handler returns the error to report; the
// caller sends it and then discards messages until Sync.

const (
	codeDuplicateCursor sqlerr.Code = "42P03"
)

func malformed(what string) error {
	return sqlerr.New(sqlerr.ProtocolViolation, "invalid %s message format", what)
}

func (c *conn) handleParse(body []byte) error {
	var m pgproto3.Parse
	if err := m.Decode(body); err != nil {
		return malformed("Parse")
	}
	c.curSQL = m.Query
	if c.session.TxStatus() == 'E' && !isTransactionExit(m.Query) {
		return errAbortedTransaction()
	}
	if m.Name != "" {
		if _, ok := c.stmts[m.Name]; ok {
			return sqlerr.New(sqlerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", m.Name)
		}
	}
	ctx, cancel := c.beginRunning(c.ctx)
	defer c.endRunning(ctx, cancel)
	stmts, err := c.session.Prepare(ctx, m.Query, m.ParameterOIDs)
	if err != nil {
		return err
	}
	if len(stmts) > 1 {
		return sqlerr.New(sqlerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	ps := &prepared{name: m.Name, query: m.Query, preparedAt: time.Now()}
	if len(stmts) == 1 {
		ps.stmt = stmts[0]
		pts := ps.stmt.ParamTypes()
		ps.paramOIDs = make([]uint32, len(pts))
		for i, t := range pts {
			if i < len(m.ParameterOIDs) && m.ParameterOIDs[i] != 0 {
				ps.paramOIDs[i] = m.ParameterOIDs[i]
			} else {
				ps.paramOIDs[i] = pgtypes.ParamOIDOf(t)
			}
		}
	}
	c.stmts[m.Name] = ps
	c.send(&pgproto3.ParseComplete{})
	return nil
}

// bindMessage is a Bind decoded in place: the names and parameter values
// alias the message body, the format codes are in slices reused from one
// Bind to the next (conn.bind), so that a prepared statement executed
// again and again decodes its Bind without allocating.
type bindMessage struct {
	portal, stmt  []byte
	paramFormats  []int16
	params        [][]byte // nil: NULL
	resultFormats []int16
}

// decode reads src as pgproto3.Bind.Decode does, with its checks.
func (m *bindMessage) decode(src []byte) bool {
	m.paramFormats, m.params, m.resultFormats = m.paramFormats[:0], m.params[:0], m.resultFormats[:0]
	cstring := func() ([]byte, bool) {
		i := bytes.IndexByte(src, 0)
		if i < 0 {
			return nil, false
		}
		b := src[:i]
		src = src[i+1:]
		return b, true
	}
	codes := func(out []int16) ([]int16, bool) {
		if len(src) < 2 {
			return out, false
		}
		n := int(binary.BigEndian.Uint16(src))
		src = src[2:]
		if len(src) < 2*n {
			return out, false
		}
		for i := 0; i < n; i++ {
			out = append(out, int16(binary.BigEndian.Uint16(src[2*i:])))
		}
		src = src[2*n:]
		return out, true
	}
	var ok bool
	if m.portal, ok = cstring(); !ok {
		return false
	}
	if m.stmt, ok = cstring(); !ok {
		return false
	}
	if m.paramFormats, ok = codes(m.paramFormats); !ok || len(src) < 2 {
		return false
	}
	n := int(binary.BigEndian.Uint16(src))
	src = src[2:]
	for i := 0; i < n; i++ {
		if len(src) < 4 {
			return false
		}
		size := int(int32(binary.BigEndian.Uint32(src)))
		src = src[4:]
		if size == -1 {
			m.params = append(m.params, nil)
			continue
		}
		if size < 0 || len(src) < size {
			return false
		}
		m.params = append(m.params, src[:size:size])
		src = src[size:]
	}
	m.resultFormats, ok = codes(m.resultFormats)
	return ok
}

func (c *conn) handleBind(body []byte) error {
	m := &c.bind
	if !m.decode(body) {
		return malformed("Bind")
	}
	ps, ok := c.stmts[string(m.stmt)]
	if !ok {
		return sqlerr.New(sqlerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", m.stmt)
	}
	// The checks in PostgreSQL's order (exec_bind_message, CreatePortal).
	if n := len(m.paramFormats); n > 1 && n != len(m.params) {
		return sqlerr.New(sqlerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", n, len(m.params))
	}
	if len(m.params) != len(ps.paramOIDs) {
		return sqlerr.New(sqlerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"%s\" requires %d", len(m.params), ps.name, len(ps.paramOIDs))
	}
	if c.session.TxStatus() == 'E' && (ps.stmt == nil || !isTransactionExit(ps.stmt.SQL()) || len(m.params) != 0) {
		return errAbortedTransaction()
	}
	if len(m.portal) != 0 {
		if c.portals.getBytes(m.portal) != nil {
			return sqlerr.New(codeDuplicateCursor, "cursor \"%s\" already exists", m.portal)
		}
	} else if old := c.portals.unnamed; old != nil {
		old.close()
		c.portals.unnamed = nil
		c.recyclePortal(old)
	}
	p := c.newPortal()
	p.name, p.stmt = string(m.portal), ps
	var params []any
	if n := len(m.params); n <= len(p.paramBuf) {
		params = p.paramBuf[:n:n]
	} else {
		params = make([]any, n)
	}
	// a timestamptz parameter without offset is in the session's zone, a
	// date in numbers only in its DateStyle order
	loc, order := c.location(), c.dateStyle().Order
	for i, raw := range m.params {
		v, err := pgtypes.DecodeParamIn(i+1, ps.paramOIDs[i], pgtypes.FormatOf(m.paramFormats, i), raw, loc, order)
		if err != nil {
			return err
		}
		params[i] = v
	}
	p.params = params
	if _, isCopy := ps.asCopy(); ps.stmt != nil && !isCopy {
		if cols := ps.stmt.Columns(); cols != nil {
			// The portal keeps its result formats: the statement's cached
			// encoder's when they are the same (never modified), else a
			// copy of the reused slice. A portal without result columns
			// keeps none, as PostgreSQL's (PortalSetResultFormat returns
			// at once without a tuple descriptor): libpq sends a format
			// code with every Bind, an UPDATE's or a COMMIT's too.
			formats := m.resultFormats
			if ps.enc != nil && slices.Equal(formats, ps.encFormats) {
				formats = ps.encFormats
			} else {
				formats = slices.Clone(formats)
			}
			p.formats = formats
			enc, err := ps.encoder(cols, p.formats, loc, c.style())
			if err != nil {
				return err
			}
			p.enc = enc
		}
	}
	p.ctx, p.cancel = c.spareCtx.get(c.ctx)
	p.spare = &c.spareCtx
	c.nameRegs(p.ctx, p.enc)
	c.portals.put(p)
	ps.plans++ // each Bind runs the statement's one plan (pg_prepared_statements.generic_plans)
	c.send(&pgproto3.BindComplete{})
	return nil
}

func (c *conn) handleDescribe(body []byte) error {
	var m pgproto3.Describe
	if err := m.Decode(body); err != nil {
		return malformed("Describe")
	}
	switch m.ObjectType {
	case 'S':
		ps, ok := c.stmts[m.Name]
		if !ok {
			return sqlerr.New(sqlerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", m.Name)
		}
		_, isCopy := ps.asCopy()
		returnsRows := ps.stmt != nil && !isCopy && ps.stmt.Columns() != nil
		if returnsRows && c.session.TxStatus() == 'E' {
			// PostgreSQL needs the catalogs to describe a result.
			return errAbortedTransaction()
		}
		c.send(&pgproto3.ParameterDescription{ParameterOIDs: ps.paramOIDs})
		if !returnsRows {
			c.send(&pgproto3.NoData{})
			return nil
		}
		c.send(rowDescription(ps.stmt.Columns(), nil))
	case 'P':
		p := c.portals.get(m.Name)
		if p == nil {
			return sqlerr.New(sqlerr.InvalidCursorName, "portal \"%s\" does not exist", m.Name)
		}
		if _, isCopy := p.stmt.asCopy(); p.stmt.stmt == nil || isCopy || p.stmt.stmt.Columns() == nil {
			c.send(&pgproto3.NoData{})
			return nil
		}
		c.out = p.stmt.appendPortalDescription(c.out, p.formats)
	default:
		return sqlerr.New(sqlerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	return nil
}

func (c *conn) handleExecute(body []byte) (err error) {
	// Decoded in place (portal name, NUL, int32 row limit), as
	// pgproto3.Execute would but without copying the name: the portal is
	// found by a map index that does not allocate.
	nul := bytes.IndexByte(body, 0)
	if nul < 0 || len(body)-nul-1 < 4 {
		return malformed("Execute")
	}
	name := body[:nul]
	maxRows := binary.BigEndian.Uint32(body[nul+1:])
	p := c.portals.getBytes(name)
	if p == nil {
		return sqlerr.New(sqlerr.InvalidCursorName, "portal \"%s\" does not exist", name)
	}
	if p.stmt.stmt == nil {
		c.send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	if c.observed {
		start := c.startStatement(p.stmt.stmt.SQL())
		defer func() { c.endStatement(p.stmt.stmt, p.params, start, err) }()
	}
	// Outside a transaction block everything up to Sync is one implicit
	// transaction, committed (or rolled back after an error) at Sync.
	c.holdImplicit()
	c.watchPortal(p)
	defer c.clearRunning()
	// statement_timeout bounds each Execute; a portal it cancels is gone.
	stop, armed := c.startStatementTimer(p.cancel)
	defer stop()
	p.timed = p.timed || armed
	if cs, ok := p.stmt.asCopy(); ok {
		// COPY runs to completion whatever the row limit, as in PostgreSQL.
		err := c.runCopy(p.ctx, cs, p.params)
		p.close()
		c.portals.remove(p.name)
		return err
	}
	if p.res == nil {
		res, err := p.stmt.stmt.Execute(p.ctx, p.params)
		if err != nil {
			return err
		}
		p.res = res
	}
	_, err = c.stream(p, int(maxRows))
	c.sendStatusChanges()
	if err != nil {
		p.close()
		c.portals.remove(p.name)
		return err
	}
	return nil
}

func (c *conn) handleClose(body []byte) error {
	var m pgproto3.Close
	if err := m.Decode(body); err != nil {
		return malformed("Close")
	}
	switch m.ObjectType {
	case 'S':
		delete(c.stmts, m.Name)
	case 'P':
		if p := c.portals.get(m.Name); p != nil {
			p.close()
			c.portals.remove(m.Name)
		}
	default:
		return sqlerr.New(sqlerr.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.send(&pgproto3.CloseComplete{})
	return nil
}

func errAbortedTransaction() error {
	return sqlerr.TransactionAborted()
}

// isTransactionExit reports whether sql is a statement PostgreSQL accepts in
// a failed transaction block (IsTransactionExitStmt: COMMIT, END,
// ROLLBACK, ABORT, ROLLBACK TO). Only the first keyword is looked at:
// this is not SQL parsing, the engine still decides what the statement is.
func isTransactionExit(sql string) bool {
	w, _ := FirstKeyword(sql)
	switch strings.ToUpper(w) {
	case "COMMIT", "END", "ROLLBACK", "ABORT":
		return true
	}
	return false
}

// FirstKeyword is a statement's first word (letters and underscores), as
// written, after blanks, comments and opening parentheses, and the text
// after it; "" when there is none (an unterminated comment included).
// It reads no further: the engine decides what the statement is.
func FirstKeyword(sql string) (word, rest string) {
	s := sql
	for {
		s = strings.TrimLeft(s, " \t\r\n\f(")
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return "", ""
			}
			s = s[i+1:]
			continue
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return "", ""
			}
			s = s[i+2:]
			continue
		}
		break
	}
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z' || s[end] == '_') {
		end++
	}
	return s[:end], s[end:]
}
