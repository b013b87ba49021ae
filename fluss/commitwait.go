package fluss

import "context"

// asyncCommitKey marks a context whose writes need not wait for their sync.
type asyncCommitKey struct{}

// WithoutSyncWait returns ctx marked so that a write made under it (Append,
// Upsert, Delete, a bulk write's Commit, WriteAtomically) may return once
// it is committed and visible, before it is durable: PostgreSQL's
// synchronous_commit = off. A store that supports it makes such writes
// durable shortly after (the embedded store: within about 200 ms, or at the
// next write that waits for its sync, whichever comes first), so that a
// crash may lose the last ones acknowledged but never leaves a write in
// part, nor one without a write committed before it. A store that does not
// (a Fluss cluster, whose acknowledgement is its own) ignores the mark.
func WithoutSyncWait(ctx context.Context) context.Context {
	return context.WithValue(ctx, asyncCommitKey{}, true)
}

// SkipsSyncWait reports whether ctx was marked by WithoutSyncWait.
func SkipsSyncWait(ctx context.Context) bool {
	v, _ := ctx.Value(asyncCommitKey{}).(bool)
	return v
}
