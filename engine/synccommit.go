package engine

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
)

// SynchronousCommit is the setting that says whether a commit waits for
// its writes to be durable (PostgreSQL's synchronous_commit). "off": the
// commit is acknowledged once it is visible, and the store makes it durable
// shortly after (fluss.WithoutSyncWait); a crash may lose the last commits
// acknowledged, never part of one. "local", "remote_write" and
// "remote_apply" ask for a standby that sqlgate does not have, so they
// wait as "on" does (PostgreSQL without synchronous standbys does the same).
const SynchronousCommit = "synchronous_commit"

// synchronousCommitValue returns v as SHOW spells it, or PostgreSQL's
// 22023 for a value it refuses. PostgreSQL takes the enum's names and the
// boolean spellings of on and off, in any case, and no prefixes.
func synchronousCommitValue(v string) (string, error) {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "1":
		return "on", nil
	case "off", "false", "no", "0":
		return "off", nil
	case "local", "remote_write", "remote_apply":
		return strings.ToLower(v), nil
	}
	return "", invalidParameterValue(SynchronousCommit, v).
		WithHint("Available values: local, remote_write, remote_apply, on, off.")
}

// commitContext is ctx for a commit's writes: marked not to wait for the
// sync when the session's synchronous_commit is off at the commit, as in
// PostgreSQL, where the value in force when the transaction commits decides.
func (s *session) commitContext(ctx context.Context) context.Context {
	if s.setting(SynchronousCommit) == "off" {
		return fluss.WithoutSyncWait(ctx)
	}
	return ctx
}
