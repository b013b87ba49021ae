package engine

import (
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Row locks and isolation, as the session drives them (the locking itself
// is in txn.go's pendingTable and exec's write operators; the lock manager
// is package rowlock).

// startLocking prepares tx's lock state for the write statement starting
// now: its text for reports, lock_timeout, and the commit sequence its
// reads start after. It runs before the statement's plan reads anything,
// so a row a later commit wrote is seen as possibly changed.
func (s *session) startLocking(tx *txn) {
	if tx.locks == nil {
		return
	}
	tx.stmt = s.stmtText
	tx.lockTimeout = 0
	if v := s.settings["lock_timeout"]; v != "0" && v != "" {
		if d, ok := pgwire.ParseGUCDuration(v); ok && d > 0 {
			tx.lockTimeout = d
		}
	}
	tx.since = s.eng.locks.Seq()
}

// needRowLocks refuses a statement that reads rows to write them when the
// store cannot be locked by this server alone: without a lock, a concurrent
// writer's change could be lost.
func (s *session) needRowLocks(what string) error {
	if s.eng.locks != nil {
		return nil
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "%s is not supported on this store", what).
		WithDetail("Other servers write this store too, and it offers no way to lock a row between them, so a concurrent change could be lost.").
		WithHint("Write whole rows with INSERT (an upsert of the key), or DELETE by key.")
}

// recheckPasses runs a write statement's pass (run) over src and, when the
// pass found rows that changed under it (exec.Recheck), once more over a
// fresh instance of plan that reads the newest committed rows, writing only
// those: PostgreSQL's EvalPlanQual, row by row. The second pass holds the
// locks of every row it may write, so none can change again.
func (s *session) recheckPasses(rt *lower.Runtime, plan lower.Node, src exec.Operator, run func(exec.Operator, *exec.Recheck) error) error {
	rc := &exec.Recheck{}
	if err := run(src, rc); err != nil || len(rc.Deferred) == 0 {
		return err
	}
	tx := s.writeTxn()
	s.startLocking(tx)
	rt.Tables = s.runtimeTables()
	again, err := lower.Build(rt, plan)
	if err != nil {
		return err
	}
	return run(again, &exec.Recheck{Only: rc.Deferred})
}

// isolationLevel checks a transaction isolation level asked for by BEGIN,
// SET TRANSACTION or a setting, returning it as SHOW spells it. sqlgate runs
// READ COMMITTED (READ UNCOMMITTED is READ COMMITTED in PostgreSQL too); the
// stronger levels are refused rather than silently weakened.
func isolationLevel(level string) (string, error) {
	switch l := normalizeIsolation(level); l {
	case "read committed", "read uncommitted":
		return l, nil
	case "repeatable read", "serializable":
		return "", sqlerr.New(sqlerr.FeatureNotSupported, "transaction isolation level %s is not supported", l).
			WithDetail("sqlgate runs transactions at READ COMMITTED, with row locks: an UPDATE waits for a concurrent writer of its rows and re-applies itself to their newest version.").
			WithHint("Use READ COMMITTED, and SELECT ... FOR UPDATE where a transaction must keep what it read unchanged.")
	default:
		return "", sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"transaction_isolation\": \"%s\"", level).
			WithHint("Available values: serializable, repeatable read, read committed, read uncommitted.")
	}
}

func normalizeIsolation(v string) string {
	out := make([]byte, 0, len(v))
	space := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\'' || c == '"':
			continue
		case c == ' ' || c == '\t' || c == '_' || c == '-':
			space = len(out) > 0
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return string(out)
}

// beginIsolation applies BEGIN's isolation level (or the default) to the
// block's transaction_isolation.
func (s *session) beginIsolation(tx *sql.TxStmt) error {
	level := s.settings["default_transaction_isolation"]
	if tx != nil && tx.Isolation != "" {
		level = tx.Isolation
	}
	l, err := isolationLevel(level)
	if err != nil {
		return err
	}
	s.settings["transaction_isolation"] = l
	return nil
}

// setTransaction applies SET TRANSACTION / SET SESSION CHARACTERISTICS AS
// TRANSACTION's isolation level.
func (s *session) setTransaction(st *sql.SetStmt) error {
	if st.Tx == nil || st.Tx.Isolation == "" {
		return nil
	}
	l, err := isolationLevel(st.Tx.Isolation)
	if err != nil {
		return err
	}
	if st.SessionDefaults {
		s.settings["default_transaction_isolation"] = l
	}
	if s.txStatus != 'I' || st.SessionDefaults && s.txStatus == 'I' {
		s.settings["transaction_isolation"] = l
	}
	return nil
}
