package pgwire

import (
	"context"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/pgwire/pgtypes"
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
	if m.Name != "" {
		if _, ok := c.stmts[m.Name]; ok {
			return sqlerr.New(sqlerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", m.Name)
		}
	}
	ctx, done := c.beginRunning(c.ctx)
	defer done()
	stmts, err := c.session.Prepare(ctx, m.Query, m.ParameterOIDs)
	if err != nil {
		return err
	}
	if len(stmts) > 1 {
		return sqlerr.New(sqlerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	ps := &prepared{name: m.Name}
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

func (c *conn) handleBind(body []byte) error {
	var m pgproto3.Bind
	if err := m.Decode(body); err != nil {
		return malformed("Bind")
	}
	ps, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return sqlerr.New(sqlerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", m.PreparedStatement)
	}
	if m.DestinationPortal != "" {
		if _, ok := c.portals[m.DestinationPortal]; ok {
			return sqlerr.New(codeDuplicateCursor, "portal \"%s\" already exists", m.DestinationPortal)
		}
	} else if old := c.portals[""]; old != nil {
		old.close()
		delete(c.portals, "")
	}
	if n := len(m.ParameterFormatCodes); n > 1 && n != len(m.Parameters) {
		return sqlerr.New(sqlerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", n, len(m.Parameters))
	}
	if len(m.Parameters) != len(ps.paramOIDs) {
		return sqlerr.New(sqlerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"%s\" requires %d", len(m.Parameters), ps.name, len(ps.paramOIDs))
	}
	params := make([]any, len(m.Parameters))
	for i, raw := range m.Parameters {
		v, err := pgtypes.DecodeParam(i+1, ps.paramOIDs[i], pgtypes.FormatOf(m.ParameterFormatCodes, i), raw)
		if err != nil {
			return err
		}
		params[i] = v
	}
	p := &portal{name: m.DestinationPortal, stmt: ps, params: params, formats: append([]int16(nil), m.ResultFormatCodes...)}
	if _, isCopy := asCopy(ps.stmt); ps.stmt != nil && !isCopy {
		if cols := ps.stmt.Columns(); cols != nil {
			enc, err := pgtypes.NewRowEncoder(columnTypes(cols), p.formats)
			if err != nil {
				return err
			}
			p.enc = enc
		}
	}
	p.ctx, p.cancel = context.WithCancel(c.ctx)
	c.portals[p.name] = p
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
		c.send(&pgproto3.ParameterDescription{ParameterOIDs: ps.paramOIDs})
		if _, isCopy := asCopy(ps.stmt); ps.stmt == nil || isCopy || ps.stmt.Columns() == nil {
			c.send(&pgproto3.NoData{})
			return nil
		}
		c.send(rowDescription(ps.stmt.Columns(), nil))
	case 'P':
		p, ok := c.portals[m.Name]
		if !ok {
			return sqlerr.New(sqlerr.InvalidCursorName, "portal \"%s\" does not exist", m.Name)
		}
		if _, isCopy := asCopy(p.stmt.stmt); p.stmt.stmt == nil || isCopy || p.stmt.stmt.Columns() == nil {
			c.send(&pgproto3.NoData{})
			return nil
		}
		c.send(rowDescription(p.stmt.stmt.Columns(), p.formats))
	default:
		return sqlerr.New(sqlerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	return nil
}

func (c *conn) handleExecute(body []byte) error {
	var m pgproto3.Execute
	if err := m.Decode(body); err != nil {
		return malformed("Execute")
	}
	p, ok := c.portals[m.Portal]
	if !ok {
		return sqlerr.New(sqlerr.InvalidCursorName, "portal \"%s\" does not exist", m.Portal)
	}
	if p.stmt.stmt == nil {
		c.send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	defer c.watchPortal(p)()
	if cs, ok := asCopy(p.stmt.stmt); ok {
		// COPY runs to completion whatever the row limit, as in PostgreSQL.
		err := c.runCopy(p.ctx, cs, p.params)
		p.close()
		delete(c.portals, p.name)
		return err
	}
	if p.res == nil {
		res, err := p.stmt.stmt.Execute(p.ctx, p.params)
		if err != nil {
			return err
		}
		p.res = res
	}
	_, err := c.stream(p, int(m.MaxRows))
	c.sendStatusChanges()
	if err != nil {
		p.close()
		delete(c.portals, p.name)
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
		if p := c.portals[m.Name]; p != nil {
			p.close()
			delete(c.portals, m.Name)
		}
	default:
		return sqlerr.New(sqlerr.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.send(&pgproto3.CloseComplete{})
	return nil
}
