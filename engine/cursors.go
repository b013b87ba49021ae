package engine

import (
	"context"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// SQL-level cursors (DECLARE, FETCH, MOVE, CLOSE, pg_cursors), as in
// PostgreSQL 15.
//
// A cursor runs its query once, at DECLARE, and pulls batches from the
// executor as FETCH needs rows: a cursor that cannot scroll keeps only the
// rows it has not returned yet (at most one batch beyond what a FETCH
// asked for), so its memory stays bounded however long the result; a
// scrollable cursor keeps every row it has read, since FETCH may go back
// to any of them, in memory up to a bound and on disk past it
// (cursorstore.go). A cursor declared with neither SCROLL nor NO SCROLL
// scrolls when PostgreSQL's would: when the plan PostgreSQL makes for its
// query can run backward (cursorscroll.go), WITH HOLD or not;
// pg_cursors.is_scrollable says which from the declaration on.
//
// FETCH and MOVE follow PostgreSQL's DoPortalFetch / PortalRunSelect step
// for step (fetchPortal, runSelect), including their position bookkeeping
// (portalPos, atStart, atEnd), so that counts and end positions match in
// every direction.
//
// Transactions: a cursor WITHOUT HOLD ends with its transaction; a WITH
// HOLD cursor is read to its end (materialised) at COMMIT and lasts until
// CLOSE or the session's end, while a ROLLBACK drops the hold cursors the
// transaction declared. Outside a transaction block, DECLARE ... WITH HOLD
// materialises at once; a pipeline's (or a multi-statement query string's)
// implicit transaction counts as a block, as in PostgreSQL.

// Cursor SQLSTATEs not in sqlerr's list.
const (
	codeDuplicateCursor    sqlerr.Code = "42P03"
	codeInvalidCursorState sqlerr.Code = "24000"
)

func undefinedCursor(name string) error {
	return sqlerr.New(sqlerr.InvalidCursorName, "cursor \"%s\" does not exist", name)
}

// cursor is one open cursor.
type cursor struct {
	name       string
	statement  string // the query string the DECLARE came from
	hold       bool
	scrollable bool
	// binary: DECLARE BINARY (a simple Query's FETCH sends binary rows).
	binary  bool
	created time.Time
	cols    []pgwire.ResultColumn
	// plan is the query's logical plan (nil over SUBSCRIBE), for WHERE
	// CURRENT OF (currentof.go).
	plan binder.Node
	// res is the running query; nil once read to its end. cancel ends
	// its context, which outlives the DECLARE's.
	res    pgwire.Result
	cancel context.CancelFunc
	// sub is the subscription of a cursor over SUBSCRIBE
	// (subscribecursor.go); res is nil then.
	sub *subscription
	// inTxn: declared in the open transaction (a ROLLBACK drops it);
	// depth: how many savepoints the transaction had then (a ROLLBACK TO
	// one of them, or an earlier one, drops it).
	inTxn bool
	depth int
	// Rows are numbered from 1. store holds copies of the rows read and
	// kept: rows first .. first+stored-1 (a NO SCROLL cursor drops rows
	// once passed; a scrollable one's go to disk past a bound,
	// cursorstore.go). total is the row count once res is exhausted.
	store  *cursorStore
	first  int64
	stored int64
	total  int64
	// cur is the executor's position: 0 before the first row, k on row
	// k, total+1 after the last.
	cur int64
	// PostgreSQL's portal bookkeeping (portal->portalPos, atStart, atEnd).
	portalPos      int64
	atStart, atEnd bool
}

// cursorSet is the session's open cursors by name, with their order of
// declaration for pg_cursors.
type cursorSet struct {
	byName map[string]*cursor
	order  []string
}

func (cs *cursorSet) get(name string) *cursor { return cs.byName[name] }

func (cs *cursorSet) add(c *cursor) {
	if cs.byName == nil {
		cs.byName = map[string]*cursor{}
	}
	cs.byName[c.name] = c
	cs.order = append(cs.order, c.name)
}

func (cs *cursorSet) remove(name string) {
	c := cs.byName[name]
	if c == nil {
		return
	}
	c.close()
	delete(cs.byName, name)
	for i, n := range cs.order {
		if n == name {
			cs.order = append(cs.order[:i], cs.order[i+1:]...)
			break
		}
	}
}

// closeAll closes every cursor (CLOSE ALL, DISCARD ALL, the session's end).
func (cs *cursorSet) closeAll() {
	for _, c := range cs.byName {
		c.close()
	}
	clear(cs.byName)
	cs.order = cs.order[:0]
}

// prepareFetch gives FETCH the result columns of its cursor when it
// exists already (it is looked up again when the FETCH runs).
func (s *session) prepareFetch(ps *statement) *statement {
	c := ps.parsed.DDL.Cursor
	if cur := s.cursors.get(c.Name); cur != nil && !c.Move {
		ps.cols = cur.cols
		ps.binary = cur.binary // cursorparams.go
	}
	return ps
}

// execCursor runs DECLARE, FETCH / MOVE and CLOSE.
func (s *session) execCursor(ctx context.Context, ps *statement, params []any) (pgwire.Result, error) {
	c := ps.parsed.DDL.Cursor
	switch ps.parsed.Kind {
	case sql.DeclareCursor:
		return s.declareCursor(ctx, ps, c, params)
	case sql.CloseCursor:
		if c.All {
			s.cursors.closeAll()
			return tagOnly("CLOSE CURSOR ALL"), nil
		}
		if s.cursors.get(c.Name) == nil {
			return nil, undefinedCursor(c.Name)
		}
		s.cursors.remove(c.Name)
		return tagOnly("CLOSE CURSOR"), nil
	}
	cur := s.cursors.get(c.Name)
	if cur == nil {
		return nil, undefinedCursor(c.Name)
	}
	if cur.sub != nil {
		return s.fetchSubscribe(ctx, cur, c) // subscribecursor.go
	}
	if c.Timeout != "" {
		return nil, sqlerr.New(sqlerr.SyntaxError, "FETCH ... WITH (timeout) applies to cursors over SUBSCRIBE only")
	}
	out := s.newFetchResult(c)
	n, err := cur.fetchPortal(ctx, s.eng.mem, c.Direction, c.Count, out, c.Move)
	if err != nil {
		out.Close()
		return nil, err
	}
	out.n += n
	return out, nil
}

func (s *session) declareCursor(ctx context.Context, ps *statement, c *sql.CursorStmt, params []any) (pgwire.Result, error) {
	block := s.txStatus != 'I' || s.held
	if !c.Hold && !block {
		return nil, outsideTransactionBlock("DECLARE CURSOR")
	}
	if s.cursors.get(c.Name) != nil {
		return nil, sqlerr.New(codeDuplicateCursor, "cursor \"%s\" already exists", c.Name)
	}
	stmts, err := s.parser.Parse(c.Query)
	if err != nil {
		return nil, placeInQuery(err, "", c.QueryPos) // matview.go
	}
	if len(stmts) == 1 && stmts[0].Kind == sql.Subscribe {
		return s.declareSubscribe(ctx, ps, c, stmts[0], block) // subscribecursor.go
	}
	if len(stmts) != 1 || stmts[0].Kind != sql.Select {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", strconv.Quote(c.Query))
	}
	// The query's parameters are the DECLARE's (cursorparams.go).
	qps, err := s.prepareOne(ctx, stmts[0], ps.params)
	if err != nil {
		return nil, placeInQuery(err, "", c.QueryPos)
	}
	if err := cursorParams(qps, params); err != nil {
		return nil, err
	}
	q, _ := qps.bound.(*binder.Query)
	if q != nil {
		if err := checkCursorLocks(q, c.Hold, c.Scroll); err != nil {
			return nil, err
		}
	}
	// The cursor's execution outlives this statement (whose context the
	// wire server ends with it) and keeps its values (clock, session).
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	res, err := qps.execute(cctx, params)
	if err != nil {
		cancel()
		return nil, err
	}
	cur := s.newCursor(ps, c, qps.cols, block)
	// Neither SCROLL nor NO SCROLL: PostgreSQL's choice from the plan
	// (cursorscroll.go).
	cur.hold, cur.scrollable = c.Hold, c.Scroll || !c.NoScroll && q != nil && backwardScan(q.Plan)
	cur.res, cur.cancel = res, cancel
	if q != nil {
		cur.plan = q.Plan
	}
	if !block {
		// WITH HOLD outside a block: its implicit transaction ends now.
		if err := cur.materialise(ctx, s.eng.mem); err != nil {
			cur.close()
			return nil, err
		}
	}
	s.cursors.add(cur)
	return tagOnly("DECLARE CURSOR"), nil
}

// newCursor is the cursor DECLARE c declares, before its rows' source
// (a query's result or a subscription) is set.
func (s *session) newCursor(ps *statement, c *sql.CursorStmt, cols []pgwire.ResultColumn, block bool) *cursor {
	depth := 0
	if s.tx != nil {
		depth = s.tx.Savepoints()
	}
	statement := ps.source
	if statement == "" {
		statement = ps.parsed.Text
	}
	return &cursor{name: c.Name, statement: statement, binary: c.Binary, depth: depth, created: time.Now(),
		cols: cols, inTxn: block, first: 1, total: -1, atStart: true, store: newCursorStore(s.eng.opts.SpillDir, s.eng.mem)}
}

// newFetchResult is the result of FETCH or MOVE c, with no rows yet.
func (s *session) newFetchResult(c *sql.CursorStmt) *fetchResult {
	out := &fetchResult{verb: "FETCH", mem: s.eng.mem}
	if c.Move {
		out.verb = "MOVE"
	}
	return out
}

// endCursors ends the transaction's cursors: at a commit the WITH HOLD
// ones are read to their end and kept, at a rollback those the
// transaction declared are dropped; WITHOUT HOLD ones close either way.
func (s *session) endCursors(ctx context.Context, commit bool) error {
	var firstErr error
	for _, name := range append([]string(nil), s.cursors.order...) {
		c := s.cursors.get(name)
		switch {
		case !c.hold, !commit && c.inTxn:
			s.cursors.remove(name)
		case c.inTxn:
			c.inTxn = false
			if err := c.materialise(ctx, s.eng.mem); err != nil {
				s.cursors.remove(name)
				if firstErr == nil {
					firstErr = err
				}
			}
		}
	}
	return firstErr
}

// cursorsRolledBackTo drops the cursors declared after savepoint i, which
// ROLLBACK TO undid, as PostgreSQL drops the portals of the subtransactions
// it aborts.
func (s *session) cursorsRolledBackTo(i int) {
	for _, name := range append([]string(nil), s.cursors.order...) {
		if c := s.cursors.get(name); c.inTxn && c.depth > i {
			s.cursors.remove(name)
		}
	}
}

// listCursors is pg_cursors' rows for this session.
func (s *session) listCursors() []functions.Cursor {
	out := make([]functions.Cursor, 0, len(s.cursors.order))
	for _, name := range s.cursors.order {
		c := s.cursors.get(name)
		out = append(out, functions.Cursor{Name: c.name, Statement: c.statement, IsHoldable: c.hold,
			IsScrollable: c.scrollable, CreationTime: c.created})
	}
	return out
}

func (c *cursor) close() {
	if c.sub != nil {
		c.sub.Close()
		c.sub = nil
	}
	if c.res != nil {
		c.res.Close()
		c.res = nil
	}
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	c.store.close()
	c.stored = 0
}

// materialise reads the rest of the query into the store.
func (c *cursor) materialise(ctx context.Context, mem memory.Allocator) error {
	for c.res != nil {
		if err := c.pull(ctx, mem); err != nil {
			return err
		}
	}
	return nil
}

// pull reads the next batch of the query into the store (a copy: the
// executor may reuse a batch's memory once it is released).
func (c *cursor) pull(ctx context.Context, mem memory.Allocator) error {
	b, err := c.res.Next(ctx)
	if err != nil {
		return err
	}
	if b == nil {
		c.res.Close()
		c.res = nil
		c.cancel()
		c.cancel = nil
		c.total = c.first + c.stored - 1
		return nil
	}
	defer b.Release()
	if b.NumRows() == 0 {
		return nil
	}
	cp, err := copyBatch(b, mem)
	if err != nil {
		return err
	}
	c.stored += cp.NumRows()
	return c.store.add(cp)
}

// copyBatch copies b's columns into memory of its own.
func copyBatch(b arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	for i := range cols {
		a, err := array.Concatenate([]arrow.Array{b.Column(i)}, mem)
		if err != nil {
			for _, done := range cols[:i] {
				done.Release()
			}
			return nil, err
		}
		cols[i] = a
	}
	out := array.NewRecordBatch(b.Schema(), cols, b.NumRows())
	for _, a := range cols {
		a.Release()
	}
	return out, nil
}

// has makes row k available when it exists, reading ahead as needed.
func (c *cursor) has(ctx context.Context, mem memory.Allocator, k int64) (bool, error) {
	return c.hasAhead(ctx, mem, k, -1)
}

// hasAhead is has, reading at most more rows beyond k when more rows
// than that are wanted next (0: every row; -1: k's alone): a query
// calling something volatile runs no further than the rows fetched
// (exec.Demander).
func (c *cursor) hasAhead(ctx context.Context, mem memory.Allocator, k, more int64) (bool, error) {
	for k >= c.first+c.stored && c.res != nil {
		if d, ok := c.res.(pgwire.DemandResult); ok {
			want := k - (c.first + c.stored) + 1
			if more == 0 {
				want = 0
			} else if more > 0 {
				want = max(want, more)
			}
			d.Demand(want)
		}
		if err := c.pull(ctx, mem); err != nil {
			return false, err
		}
	}
	return k >= c.first && k < c.first+c.stored, nil
}

// emit appends row k (which must be stored) to out.
func (c *cursor) emit(out *fetchResult, k int64) error {
	return c.emitRange(out, k, k)
}

// emitRange appends rows from..to (stored, ascending) to out, a slice of
// each stored batch they span.
func (c *cursor) emitRange(out *fetchResult, from, to int64) error {
	at := c.first
	for i, p := range c.store.parts {
		end := at + p.rows // exclusive
		lo, hi := max(from, at), min(to+1, end)
		if lo < hi {
			b, err := c.store.part(i)
			if err != nil {
				return err
			}
			out.rows = append(out.rows, b.NewSlice(lo-at, hi-at))
		}
		if end > to {
			return nil
		}
		at = end
	}
	return nil
}

// trim drops the stored rows before row keep, for a cursor that cannot
// go back to them.
func (c *cursor) trim(keep int64) {
	for len(c.store.parts) > 0 && c.first+c.store.parts[0].rows <= keep {
		n := c.store.parts[0].rows
		c.store.dropFirst()
		c.first += n
		c.stored -= n
	}
}

// scanForwardOnly is PostgreSQL's error for backward motion on a cursor
// that cannot scroll.
func scanForwardOnly() error {
	return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "cursor can only scan forward").
		WithHint("Declare it with SCROLL option to enable backward scan.")
}

// step moves the executor forward over the rows already read (reading
// the next batch when none is), at most limit of them (0: no limit),
// handing them to out when it is not nil. It returns how many it passed
// and whether the result ended (the position is then after the last
// row). A cursor that cannot scroll drops the rows as it passes them.
func (c *cursor) step(ctx context.Context, mem memory.Allocator, limit int64, out *fetchResult) (int64, bool, error) {
	ok, err := c.hasAhead(ctx, mem, c.cur+1, limit)
	if err != nil {
		return 0, false, err
	}
	if !ok {
		c.cur++ // after the last row
		if !c.scrollable {
			c.trim(c.cur)
		}
		return 0, true, nil
	}
	take := c.first + c.stored - 1 - c.cur
	if limit > 0 {
		take = min(take, limit)
	}
	if out != nil {
		if err := c.emitRange(out, c.cur+1, c.cur+take); err != nil {
			return 0, false, err
		}
	}
	c.cur += take
	if !c.scrollable {
		c.trim(c.cur) // the current row stays, for WHERE CURRENT OF
	}
	return take, false, nil
}

// run moves the executor count rows (0: all) forward or backward from
// cur, handing the rows to out when it is not nil, and returns how many
// it passed.
func (c *cursor) run(ctx context.Context, mem memory.Allocator, forward bool, count int64, out *fetchResult) (int64, error) {
	var n int64
	if forward {
		for count == 0 || n < count {
			limit := int64(0)
			if count > 0 {
				limit = count - n
			}
			k, end, err := c.step(ctx, mem, limit, out)
			n += k
			if err != nil || end {
				return n, err
			}
		}
		return n, nil
	}
	k := c.cur - 1
	for (count == 0 || n < count) && k >= 1 {
		if ok, err := c.has(ctx, mem, k); err != nil || !ok {
			return n, err
		}
		if out != nil {
			if err := c.emit(out, k); err != nil {
				return n, err
			}
		}
		k--
		n++
	}
	c.cur = k + 1
	if count == 0 || n < count {
		c.cur = 0
	}
	return n, nil
}

// runSelect is PostgreSQL's PortalRunSelect.
func (c *cursor) runSelect(ctx context.Context, mem memory.Allocator, forward bool, count int64, out *fetchResult) (int64, error) {
	if forward {
		if c.atEnd || count <= 0 {
			return 0, nil
		}
		if count == sql.FetchAll {
			count = 0
		}
		if out != nil {
			// FETCH's rows stream: the result reads them as the client
			// takes them (fetchResult.Next), so that FETCH ALL of a
			// cursor that cannot scroll stays within a batch of memory.
			out.cur, out.count = c, count
			return 0, nil
		}
		n, err := c.run(ctx, mem, true, count, nil)
		if err != nil {
			return 0, err
		}
		c.forwardDone(count, n)
		return n, nil
	}
	if !c.scrollable {
		return 0, scanForwardOnly()
	}
	moving := !(c.atStart || count <= 0)
	if !moving {
		return 0, nil
	}
	if count == sql.FetchAll {
		count = 0
	}
	n, err := c.run(ctx, mem, false, count, out)
	if err != nil {
		return 0, err
	}
	if n > 0 && c.atEnd {
		c.atEnd = false
		c.portalPos++
	}
	if count == 0 || n < count {
		c.atStart = true
		c.portalPos = 0
	} else {
		c.portalPos -= n
	}
	return n, nil
}

// forwardDone is PortalRunSelect's bookkeeping after n of count rows
// (0: all) were read forward.
func (c *cursor) forwardDone(count, n int64) {
	if n > 0 {
		c.atStart = false
	}
	if count == 0 || n < count {
		c.atEnd = true
	}
	c.portalPos += n
}

// rewind is PostgreSQL's DoPortalRewind.
func (c *cursor) rewind() error {
	if c.atStart && !c.atEnd {
		return nil
	}
	if !c.scrollable {
		return scanForwardOnly()
	}
	c.cur, c.portalPos, c.atStart, c.atEnd = 0, 0, true, false
	return nil
}

// fetchPortal is PostgreSQL's DoPortalFetch; move is MOVE (no rows
// returned, and MOVE 0 / MOVE BACKWARD ALL count as PostgreSQL counts).
func (c *cursor) fetchPortal(ctx context.Context, mem memory.Allocator, dir sql.FetchDirection, count int64, out *fetchResult, move bool) (int64, error) {
	dest := out
	if move {
		dest = nil
	}
	switch dir {
	case sql.FetchForward:
		if count < 0 {
			dir, count = sql.FetchBackward, -count
		}
	case sql.FetchBackward:
		if count < 0 {
			dir, count = sql.FetchForward, -count
		}
	case sql.FetchAbsolute:
		switch {
		case count > 0:
			if count-1 <= c.portalPos/2 {
				if err := c.rewind(); err != nil {
					return 0, err
				}
				if count > 1 {
					if _, err := c.runSelect(ctx, mem, true, count-1, nil); err != nil {
						return 0, err
					}
				}
			} else {
				pos := c.portalPos
				if c.atEnd {
					pos++
				}
				var err error
				if count <= pos {
					_, err = c.runSelect(ctx, mem, false, pos-count+1, nil)
				} else if count > pos+1 {
					_, err = c.runSelect(ctx, mem, true, count-pos-1, nil)
				}
				if err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, mem, true, 1, dest)
		case count < 0:
			if _, err := c.runSelect(ctx, mem, true, sql.FetchAll, nil); err != nil {
				return 0, err
			}
			if count < -1 {
				if _, err := c.runSelect(ctx, mem, false, -count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, mem, false, 1, dest)
		default:
			if err := c.rewind(); err != nil {
				return 0, err
			}
			return c.runSelect(ctx, mem, true, 0, dest)
		}
	case sql.FetchRelative:
		switch {
		case count > 0:
			if count > 1 {
				if _, err := c.runSelect(ctx, mem, true, count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, mem, true, 1, dest)
		case count < 0:
			if count < -1 {
				if _, err := c.runSelect(ctx, mem, false, -count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, mem, false, 1, dest)
		}
		dir = sql.FetchForward
	}
	forward := dir == sql.FetchForward
	if count == 0 {
		onRow := !c.atStart && !c.atEnd
		if move {
			if onRow {
				return 1, nil
			}
			return 0, nil
		}
		if onRow {
			if _, err := c.runSelect(ctx, mem, false, 1, nil); err != nil {
				return 0, err
			}
			count, forward = 1, true
		}
	}
	if !forward && count == sql.FetchAll && move {
		n := c.portalPos
		if n > 0 && !c.atEnd {
			n--
		}
		if err := c.rewind(); err != nil {
			return 0, err
		}
		return n, nil
	}
	return c.runSelect(ctx, mem, forward, count, dest)
}

// fetchResult is FETCH's rows (slices of the cursor's stored batches,
// retained) and its tag. A forward FETCH fills it as the client reads
// (cur set, count rows wanted, 0 for all); a backward one at once.
type fetchResult struct {
	verb string
	rows []arrow.RecordBatch
	n    int64
	next int
	// cur, count, mem, streamed: the forward read still to do.
	cur      *cursor
	count    int64
	mem      memory.Allocator
	streamed int64
}

func (r *fetchResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for r.next >= len(r.rows) && r.cur != nil {
		r.rows, r.next = r.rows[:0], 0
		limit := int64(0)
		if r.count > 0 {
			limit = r.count - r.streamed
		}
		k, end, err := r.cur.step(ctx, r.mem, limit, r)
		r.streamed += k
		if err != nil {
			r.finish()
			return nil, err
		}
		if end || r.count > 0 && r.streamed >= r.count {
			r.finish()
		}
	}
	if r.next >= len(r.rows) {
		return nil, nil
	}
	b := r.rows[r.next]
	r.rows[r.next] = nil
	r.next++
	return b, nil
}

// finish ends the forward read: the cursor's bookkeeping and the tag's
// count.
func (r *fetchResult) finish() {
	if r.cur != nil {
		r.cur.forwardDone(r.count, r.streamed)
		r.n += r.streamed
		r.cur = nil
	}
}

func (r *fetchResult) Tag() string { return r.verb + " " + strconv.FormatInt(r.n, 10) }

// Close ends the FETCH. One the client stopped reading (an error, a
// cancel: the transaction block fails then) leaves the cursor after the
// rows it returned, as PostgreSQL's executor stops where it was.
func (r *fetchResult) Close() {
	for _, b := range r.rows[r.next:] {
		if b != nil {
			b.Release()
		}
	}
	r.rows, r.next = nil, 0
	r.finish()
}
