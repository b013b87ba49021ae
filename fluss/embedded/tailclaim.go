package embedded

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sqlgate/sqlgate/fluss/format"
)

// A bulk append's claim on the end of a bucket log (staged.go).
//
// A bulk append (COPY into a log table) whose bucket log has no other
// claim writes its batches straight past the log's committed length, at
// the place they will be committed at, instead of into a staging file that
// its commit copies from: the commit then writes 8 bytes per batch (the
// commit time; the log offsets were stamped as the batches were written,
// which the claim makes possible: nothing else is appended to the bucket
// while it holds) and fsyncs a log whose write-back was started as the
// batches came (startWriteback), so the client no longer waits for the
// copy of the whole load and for most of its write to the device.
//
// The bytes past the committed length are invisible as before (scans read
// up to it; Open truncates anything past it), so a crash or an abort
// before the commit leaves nothing. The claim is taken holding the
// committer's token, so no group is writing the log at that moment and its
// end is where the next committed byte goes. Every other writer of the
// bucket goes through the committer, which takes the end back before it
// writes there (takeTail): the claimed bytes are moved to the append's
// staging file, where they would have been without the claim, and the
// append stages the rest of that bucket as before. A concurrent writer
// therefore still commits at once, behind the move of what the append had
// written to that bucket so far (once per claim; copy_file_range). That
// move holds the committer as the copy at every staged commit did before
// claims (and still does for a bucket that was not claimed); now only a
// bulk append that meets another writer of its bucket costs it.

// tailClaim is a bulk append's hold on the end of one bucket log. The
// append's goroutine writes under bl.tailMu while the claim is live; the
// committer ends it under bl.tailMu.
type tailClaim struct {
	bl *bucketLog
	// staging is where the bytes go if the committer takes the end back.
	staging string
	base    int64 // the log's committed length when claimed
	start   int64 // and its next log offset
	next    int64 // the log offset of the next batch written
	size    int64 // bytes written past base
	started int64 // bytes whose write-back was started
	// Set by the committer when it took the end back (or the table's files
	// were closed), which ends the claim (live is false from then on): the
	// claimed bytes are now file's (nil when err says why they could not
	// be moved).
	file *os.File
	err  error
}

// writebackChunk is how much a claim writes before it starts the
// write-back of what it wrote: large enough for a few big requests to
// the device, small enough that the commit's fsync finds little left.
const writebackChunk = 8 << 20

// claimTail claims the end of bucket b's log for a, holding the
// committer's token; nil when the bucket is claimed already, the table is
// gone, or the token could not be had (the append then stages the bucket).
func (a *stagedAppend) claimTail(b int) *tailClaim {
	s, t := a.h.s, a.h.t
	select {
	case <-s.turn:
	case <-s.quit:
		return nil
	case <-a.ctx.Done():
		return nil
	}
	defer func() { s.turn <- struct{}{} }()
	if s.closed.Load() || t.stagedTarget() != nil {
		return nil
	}
	bl := t.buckets[b]
	bl.tailMu.Lock()
	defer bl.tailMu.Unlock()
	if bl.tail.Load() != nil || bl.f == nil {
		return nil
	}
	c := &tailClaim{bl: bl, staging: filepath.Join(a.dir, fmt.Sprintf("bucket-%d", b)), base: bl.size, start: bl.next, next: bl.next}
	bl.tail.Store(c)
	return c
}

// write writes one encoded batch of records rows past the claimed end,
// stamped with its log offset; ok is false when the claim has ended (the
// caller stages the batch after the moved bytes).
func (c *tailClaim) write(s *Store, data []byte, records int64) (ok bool, err error) {
	c.bl.tailMu.Lock()
	defer c.bl.tailMu.Unlock()
	if !c.live() {
		return false, c.err
	}
	format.SetBaseOffset(data, c.next)
	if _, err := c.bl.f.WriteAt(data, c.base+c.size); err != nil {
		return false, ioErr(err, "writing %s", c.bl.path)
	}
	c.next += records
	c.size += int64(len(data))
	if c.size-c.started >= writebackChunk {
		// Start the device's write of what is written so far, so that the
		// commit's fsync has little left: not a sync (no durability is
		// claimed; a failure here shows again at the fsync).
		off, n := c.base+c.started, c.size-c.started
		_ = s.sync(c.bl.path, SyncRange, func() error { return startWriteback(c.bl.f, off, n) })
		c.started = c.size
	}
	return true, nil
}

// live reports whether the claim still holds the end of its log: once
// ended (by the committer taking the end back, a close, the append's
// release or commit) it never holds it again. write asks it under tailMu;
// the committer asks it holding the token, when nothing else can end it
// but the append's own Discard, which does not run while it commits.
func (c *tailClaim) live() bool { return c.bl.tail.Load() == c }

// release ends a claim that is still live, cutting what it wrote off the
// log. Its writer has stopped writing; a committer writing to the bucket
// would have ended the claim first, so the log still ends at base.
func (c *tailClaim) release() {
	c.bl.tailMu.Lock()
	defer c.bl.tailMu.Unlock()
	if c.bl.tail.Load() != c {
		return
	}
	c.bl.tail.Store(nil)
	if c.size > 0 && c.bl.f != nil {
		_ = c.bl.f.Truncate(c.base)
	}
}

// end ends a committed claim: its bytes are part of the log now.
func (c *tailClaim) end() {
	c.bl.tailMu.Lock()
	defer c.bl.tailMu.Unlock()
	if c.bl.tail.Load() == c {
		c.bl.tail.Store(nil)
	}
}

// takeTail gives the end of bl back to the committer before it appends
// there: a claim on it is ended, its bytes moved to its append's staging
// file and cut off the log. Called holding the token (no claim can begin).
func (bl *bucketLog) takeTail() {
	if bl.tail.Load() == nil {
		return
	}
	bl.tailMu.Lock()
	defer bl.tailMu.Unlock()
	c := bl.tail.Load()
	if c == nil {
		return
	}
	bl.tail.Store(nil)
	c.file, c.err = c.moveOut()
	_ = bl.f.Truncate(c.base)
}

// moveOut copies the claimed bytes into a new staging file, at the same
// positions the append recorded for them. It runs holding the committer's
// token, as the copy at a staged commit does: in the kernel where it can.
func (c *tailClaim) moveOut() (*os.File, error) {
	f, err := os.OpenFile(c.staging, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, ioErr(err, "creating %s", c.staging)
	}
	if err := copyRange(f, c.bl.f, 0, c.base, c.size); err != nil {
		_ = f.Close()
		return nil, ioErr(err, "moving the staged rows of %s to %s", c.bl.path, c.staging)
	}
	return f, nil
}

// copyRangeRW copies n bytes of src at srcOff to dst at dstOff through a
// buffer.
func copyRangeRW(dst, src *os.File, dstOff, srcOff, n int64) error {
	buf := make([]byte, min(n, 1<<20))
	for n > 0 {
		m := min(int64(len(buf)), n)
		if _, err := src.ReadAt(buf[:m], srcOff); err != nil {
			return err
		}
		if _, err := dst.WriteAt(buf[:m], dstOff); err != nil {
			return err
		}
		srcOff, dstOff, n = srcOff+m, dstOff+m, n-m
	}
	return nil
}

// closeTail ends a claim on bl because the log is being closed (its table
// dropped, or the store closing): the append fails.
func (bl *bucketLog) closeTail(err error) {
	if bl.tail.Load() == nil {
		return
	}
	bl.tailMu.Lock()
	defer bl.tailMu.Unlock()
	if c := bl.tail.Load(); c != nil {
		bl.tail.Store(nil)
		c.err = err
	}
}

// stampCommitTimes writes the commit time into each of the claimed
// batches' headers (outside the batch CRC), in place in the log.
func (c *tailClaim) stampCommitTimes(batches []stagedBatch, now int64) error {
	at, field := format.CommitTimestampSpan(now)
	for _, st := range batches {
		if err := writeAt(c.bl.f, field[:], c.base+st.pos+at); err != nil {
			return ioErr(err, "writing %s", c.bl.path)
		}
	}
	return nil
}
