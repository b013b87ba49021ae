package fluss

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Following a table's changelog as it grows: what SUBSCRIBE reads.

// FollowLatest, as a FollowOptions.From offset, starts a bucket at the end
// of its log when the follow starts (only changes committed later).
const FollowLatest int64 = -1

// FollowOptions choose where a follow starts.
type FollowOptions struct {
	// Snapshot starts with the table's current rows: a primary-key
	// table's state (ChangeBatch.Snapshot), then the changes committed
	// after that state; a log table's rows are its log, so it starts at
	// each bucket's first offset. From must then be nil.
	Snapshot bool
	// From[b] is the first log offset of bucket b to return (Fluss's
	// subscribe(bucket, offset)); FollowLatest starts after what is
	// committed now. A bucket beyond From starts at its first offset. nil
	// with Snapshot false starts every bucket at FollowLatest.
	From []int64
	// FromTimestamp (Unix microseconds), when positive, leaves out the
	// changes committed before it.
	FromTimestamp int64
	// MaxRows bounds the rows of one ChangeBatch (several stored batches
	// of one bucket are combined up to it); 0 = the store's default.
	MaxRows int
}

// ChangeBatch is one bucket's changes, in log order.
type ChangeBatch struct {
	Bucket int
	// Record has the columns of ChangelogColumns; for a Snapshot batch
	// the table's columns (TableInfo.ArrowSchema) only: current rows,
	// which have no log offset or commit time. nil: nothing new yet.
	Record   arrow.RecordBatch
	Snapshot bool
	// CommitMillis is the commit time of the batch's last change
	// (0 for a snapshot batch).
	CommitMillis int64
}

// ChangelogFollow reads a table's changes from the positions a follow
// started at, each change once and in log order per bucket, and tells
// its reader when more may have been committed. One goroutine at a time.
type ChangelogFollow interface {
	// Poll returns the next changes already committed, without waiting;
	// a nil Record means there are none now, and Wait's channel is
	// closed when more may have come.
	Poll(ctx context.Context) (ChangeBatch, error)
	// Wait returns the channel the last Poll that found nothing armed.
	Wait() <-chan struct{}
	// Next returns, per bucket, the next log offset the follow would
	// return (what a client stores to resume after what it has read).
	Next() []int64
	Close()
}

// ChangelogFollower is implemented by tables whose changelog can be
// followed as commits extend it, new changes waking the followers waiting:
// the embedded store (a commit wakes them) and a Fluss cluster (fetches
// that the tablet server holds until changes come, fluss/remote).
type ChangelogFollower interface {
	FollowChangelog(ctx context.Context, opts FollowOptions) (ChangelogFollow, error)
}

// FollowSignal wakes followers waiting for more changes: a follower arms it
// before it looks for changes, so that changes published after the look
// always close the channel it then waits on. The zero value is ready.
type FollowSignal struct {
	mu sync.Mutex
	ch chan struct{}
}

// Arm returns the channel the next Wake closes.
func (f *FollowSignal) Arm() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ch == nil {
		f.ch = make(chan struct{})
	}
	return f.ch
}

// Wake closes the armed channel, if any (nothing to do when no follower
// armed it: no allocation per commit). A nil signal does nothing.
func (f *FollowSignal) Wake() {
	if f == nil {
		return
	}
	f.mu.Lock()
	if f.ch != nil {
		close(f.ch)
		f.ch = nil
	}
	f.mu.Unlock()
}
