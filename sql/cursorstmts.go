package sql

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Cursor statements (PostgreSQL 15's DECLARE, FETCH, MOVE and CLOSE),
// intercepted before TiDB like the session statements: AST nil, details in
// Statement.DDL.Cursor (Kinds DeclareCursor, FetchCursor, CloseCursor).

// FetchDirection is how FETCH / MOVE moves a cursor.
type FetchDirection int

// The directions, as PostgreSQL's parser reduces them: NEXT, PRIOR, FIRST,
// LAST, n, ALL, FORWARD and BACKWARD become Forward / Backward / Absolute
// with a count.
const (
	// FetchForward: Count rows forward (negative: backward); FetchAll
	// for ALL.
	FetchForward FetchDirection = iota
	// FetchBackward: Count rows backward (negative: forward).
	FetchBackward
	// FetchAbsolute: the row numbered Count (negative: from the end, 0:
	// before the first).
	FetchAbsolute
	// FetchRelative: the row Count rows from the current one.
	FetchRelative
)

// FetchAll is the count of ALL (PostgreSQL's FETCH_ALL, LONG_MAX).
const FetchAll int64 = 1<<63 - 1

// CursorStmt is DECLARE, FETCH / MOVE or CLOSE.
type CursorStmt struct {
	// Name is the cursor's name ("" for CLOSE ALL).
	Name string
	// DECLARE's options and query text; QueryPos is the query's 1-based
	// character position in the text parsed (errors in it point into the
	// DECLARE as written).
	Binary, Scroll, NoScroll, Hold bool
	Query                          string
	QueryPos                       int
	// FETCH / MOVE: Move is MOVE (no rows returned).
	Move      bool
	Direction FetchDirection
	Count     int64
	// CLOSE ALL.
	All bool
	// Timeout is FETCH's WITH (timeout = '...') text, for a SUBSCRIBE
	// cursor (how long FETCH waits for rows); "" when not given.
	Timeout string
}

// parseCursor handles the statement if it is one of this file's and
// reports whether it did.
func parseCursor(src string, toks []token, st *Statement) (bool, error) {
	p := &sessionParser{src: src, toks: toks}
	switch p.word(0) {
	case "DECLARE":
		p.pos = 1
		return true, p.declareCursor(st)
	case "FETCH", "MOVE":
		p.pos = 1
		return true, p.fetchCursor(st, toks[0].is(src, "MOVE"))
	case "CLOSE":
		p.pos = 1
		return true, p.closeCursor(st)
	}
	return false, nil
}

// declareCursor: DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO]
// SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query. PostgreSQL's grammar
// takes the options in any order, each once at most in effect.
func (p *sessionParser) declareCursor(st *Statement) error {
	c := &CursorStmt{}
	st.Kind, st.DDL = DeclareCursor, &DDLStmt{Cursor: c}
	n, err := p.ident()
	if err != nil {
		return err
	}
	c.Name = n
	for !p.accept("CURSOR") {
		switch {
		case p.accept("BINARY"):
			c.Binary = true
		case p.accept("ASENSITIVE"), p.accept("INSENSITIVE"):
		case p.accept("SCROLL"):
			c.Scroll = true
		case p.accept("NO", "SCROLL"):
			c.NoScroll = true
		default:
			return p.err()
		}
	}
	if c.Scroll && c.NoScroll {
		return cursorOptionsConflict()
	}
	if p.accept("WITH", "HOLD") {
		c.Hold = true
	} else {
		p.accept("WITHOUT", "HOLD")
	}
	if !p.accept("FOR") || p.pos >= len(p.toks) {
		return p.err()
	}
	switch p.word(0) {
	case "SELECT", "VALUES", "WITH", "TABLE", "SUBSCRIBE":
	default:
		if !p.toks[p.pos].isPunct(p.src, "(") {
			return p.err()
		}
	}
	c.Query = st.holds(p.src, p.toks, p.pos, len(p.toks), "")
	c.QueryPos = charPos(p.src, p.toks[p.pos].start)
	return nil
}

// fetchCursor: FETCH | MOVE [direction] [FROM | IN] name.
func (p *sessionParser) fetchCursor(st *Statement, move bool) error {
	c := &CursorStmt{Move: move, Direction: FetchForward, Count: 1}
	st.Kind, st.DDL = FetchCursor, &DDLStmt{Cursor: c}
	// fromIn says whether FROM / IN is required before the name (after
	// a direction word that could be mistaken for the name otherwise it
	// is optional in PostgreSQL's grammar too).
	switch p.word(0) {
	case "NEXT":
		p.pos++
	case "PRIOR":
		p.pos++
		c.Direction = FetchBackward
	case "FIRST":
		p.pos++
		c.Direction = FetchAbsolute
	case "LAST":
		p.pos++
		c.Direction, c.Count = FetchAbsolute, -1
	case "ABSOLUTE", "RELATIVE":
		c.Direction = FetchAbsolute
		if p.word(0) == "RELATIVE" {
			c.Direction = FetchRelative
		}
		p.pos++
		n, ok := p.optSignedInt()
		if !ok {
			return p.err()
		}
		c.Count = n
	case "ALL":
		p.pos++
		c.Count = FetchAll
	case "FORWARD", "BACKWARD":
		if p.word(0) == "BACKWARD" {
			c.Direction = FetchBackward
		}
		p.pos++
		if p.accept("ALL") {
			c.Count = FetchAll
		} else if n, ok := p.optSignedInt(); ok {
			c.Count = n
		}
	default:
		if n, ok := p.optSignedInt(); ok {
			c.Count = n
		}
	}
	if !p.accept("FROM") {
		p.accept("IN")
	}
	n, err := p.ident()
	if err != nil {
		return err
	}
	c.Name = n
	if p.accept("WITH") { // subscribe.go
		t, err := p.fetchTimeout()
		if err != nil {
			return err
		}
		c.Timeout = t
	}
	return p.done()
}

// optSignedInt reads an optionally signed integer constant (PostgreSQL's
// SignedIconst).
func (p *sessionParser) optSignedInt() (int64, bool) {
	neg := false
	k := 0
	if p.pos < len(p.toks) && (p.toks[p.pos].isPunct(p.src, "-") || p.toks[p.pos].isPunct(p.src, "+")) {
		neg = p.toks[p.pos].isPunct(p.src, "-")
		k = 1
	}
	if p.pos+k >= len(p.toks) || p.toks[p.pos+k].kind != tkNumber {
		return 0, false
	}
	text := p.toks[p.pos+k].text(p.src)
	if strings.ContainsAny(text, ".eE") {
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, false
	}
	p.pos += k + 1
	if neg {
		n = -n
	}
	return n, true
}

// closeCursor: CLOSE name | ALL.
func (p *sessionParser) closeCursor(st *Statement) error {
	c := &CursorStmt{}
	st.Kind, st.DDL = CloseCursor, &DDLStmt{Cursor: c}
	if p.accept("ALL") {
		c.All = true
		return p.done()
	}
	n, err := p.ident()
	if err != nil {
		return err
	}
	c.Name = n
	return p.done()
}

// cursorOptionsConflict is PostgreSQL's error for DECLARE ... SCROLL NO
// SCROLL (42P11 invalid_cursor_definition).
func cursorOptionsConflict() error {
	return sqlerr.New(sqlerr.Code("42P11"), "cannot specify both SCROLL and NO SCROLL")
}
