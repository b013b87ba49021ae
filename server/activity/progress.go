package activity

import (
	"slices"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/pgwire"
)

// CopyRow is what pg_stat_progress_copy shows of one running COPY.
type CopyRow struct {
	PID         int32
	User        string
	Database    string
	RelationOID uint32 // 0 for COPY (query) TO
	// Command is "COPY FROM" or "COPY TO"; Type "FILE", "PROGRAM",
	// "PIPE" (STDIN / STDOUT) or "CALLBACK".
	Command, Type   string
	BytesProcessed  int64
	BytesTotal      int64 // 0 when unknown, as PostgreSQL reports a pipe
	TuplesProcessed int64
	TuplesExcluded  int64
}

// Copy is one running COPY's progress. Add is called by the goroutine
// running the COPY; pg_stat_progress_copy reads the counters from others.
type Copy struct {
	reg    *Registry
	fixed  CopyRow
	bytes  atomic.Int64
	tuples atomic.Int64
	excl   atomic.Int64
}

// StartCopy registers a COPY of session pid (command "COPY FROM" or "COPY
// TO", typ "PIPE", "FILE" ...) on relation relOID; bytesTotal is the
// input's size when known (a file), else 0. Done removes it. The file
// COPY path calls it directly; pgwire reaches it through
// Backend.CopyStarted.
func (r *Registry) StartCopy(pid int32, relOID uint32, command, typ string, bytesTotal int64) *Copy {
	c := &Copy{reg: r, fixed: CopyRow{PID: pid, RelationOID: relOID, Command: command, Type: typ, BytesTotal: bytesTotal}}
	r.mu.Lock()
	if b := r.backends[pid]; b != nil {
		c.fixed.User, c.fixed.Database = b.fixed.User, b.fixed.Database
	}
	r.copies[pid] = c
	r.mu.Unlock()
	return c
}

// Add implements pgwire.CopyProgress.
func (c *Copy) Add(bytes, tuples int64) {
	if bytes != 0 {
		c.bytes.Add(bytes)
	}
	if tuples != 0 {
		c.tuples.Add(tuples)
	}
}

// Exclude counts rows a WHERE clause left out (tuples_excluded).
func (c *Copy) Exclude(n int64) { c.excl.Add(n) }

// Done implements pgwire.CopyProgress: the COPY leaves the view.
func (c *Copy) Done() {
	c.reg.mu.Lock()
	if c.reg.copies[c.fixed.PID] == c {
		delete(c.reg.copies, c.fixed.PID)
	}
	c.reg.mu.Unlock()
}

// Copies lists the running COPY statements, by process id.
func (r *Registry) Copies() []CopyRow {
	r.mu.Lock()
	out := make([]CopyRow, 0, len(r.copies))
	for _, c := range r.copies {
		row := c.fixed
		row.BytesProcessed, row.TuplesProcessed, row.TuplesExcluded = c.bytes.Load(), c.tuples.Load(), c.excl.Load()
		out = append(out, row)
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(a, b CopyRow) int { return int(a.PID) - int(b.PID) })
	return out
}

// CopyStarted implements pgwire.CopyObserver: a COPY FROM STDIN or TO
// STDOUT of this session.
func (b *Backend) CopyStarted(from bool, relOID uint32) pgwire.CopyProgress {
	cmd := "COPY TO"
	if from {
		cmd = "COPY FROM"
	}
	return b.reg.StartCopy(b.fixed.PID, relOID, cmd, "PIPE", 0)
}

// MaySee reports whether caller may see what owner's sessions run: a
// superuser, or the same user (PostgreSQL's HAS_PGSTAT_PERMISSIONS).
func (r *Registry) MaySee(caller, owner string) bool {
	return caller == owner || r.superuser(caller)
}

// StartFileCopy implements engine.CopyProgress: a COPY the engine runs
// itself, from or to a file on the server.
func (r *Registry) StartFileCopy(pid int32, relOID uint32, command, typ string, bytesTotal int64) pgwire.CopyProgress {
	return r.StartCopy(pid, relOID, command, typ, bytesTotal)
}
