package flightsql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// maxTxns bounds the open transactions of one connection (each holds an
// engine session).
const maxTxns = 16

// BeginTransaction opens a transaction in an engine session of its own:
// the calls naming its id run there, inside BEGIN ... COMMIT, as on a
// PostgreSQL connection.
func (s *Server) BeginTransaction(ctx context.Context, _ afsql.ActionBeginTransactionRequest) ([]byte, error) {
	c := connOf(ctx)
	c.mu.Lock()
	n := len(c.txns)
	c.mu.Unlock()
	if n >= maxTxns {
		return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "more than %d open transactions on this connection", maxTxns)
	}
	remote, tlsState := peerOf(ctx)
	sess, err := s.cfg.Backend.NewSession(ctx, sessionInfo(c.user, s.conns.pid(), remote, tlsState))
	if err != nil {
		return nil, err
	}
	if err := runSQL(ctx, sess, "BEGIN"); err != nil {
		sess.Close()
		return nil, err
	}
	id := newToken()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		sess.Close()
		return nil, shutdownError()
	}
	c.txns[id] = newSlot(sess)
	c.mu.Unlock()
	return []byte(id), nil
}

// EndTransaction commits or rolls back a transaction and closes its
// session (with the prepared statements made in it). A COMMIT of a block
// that an error failed rolls back, as in PostgreSQL, but is reported as an
// error (25P02), since a Flight SQL client has no command tag to read.
func (s *Server) EndTransaction(ctx context.Context, req afsql.ActionEndTransactionRequest) error {
	c := connOf(ctx)
	id := req.GetTransactionId()
	sl, err := c.slotFor(id)
	if err != nil || len(id) == 0 {
		if err == nil {
			err = sqlerr.New(sqlerr.InvalidTransactionState, "no transaction id given")
		}
		return err
	}
	if err := sl.acquire(ctx); err != nil {
		return err
	}
	c.mu.Lock()
	delete(c.txns, string(id))
	for h, p := range c.prepared {
		if p.slot == sl {
			delete(c.prepared, h)
		}
	}
	for h, p := range c.pending {
		if p.slot == sl && p.cancel == nil {
			delete(c.pending, h)
		}
	}
	c.mu.Unlock()
	defer func() {
		sl.closed = true
		sl.sess.Close()
		sl.release()
	}()
	switch req.GetAction() {
	case afsql.EndTransactionCommit:
		if sl.sess.TxStatus() == 'E' {
			_ = runSQL(ctx, sl.sess, "ROLLBACK")
			return sqlerr.New(sqlerr.InFailedSQLTransaction, "the transaction was rolled back: a statement in it failed")
		}
		return runSQL(ctx, sl.sess, "COMMIT")
	case afsql.EndTransactionRollback:
		return runSQL(ctx, sl.sess, "ROLLBACK")
	}
	_ = runSQL(ctx, sl.sess, "ROLLBACK")
	return sqlerr.New(sqlerr.InvalidParameterValue, "unknown end-transaction action %d: the transaction was rolled back", req.GetAction())
}

// CloseSession ends the caller's connection (Flight's session): its token
// stops working, its open transactions roll back and its sessions close,
// so that a client that says goodbye frees its place under
// MaxConnections at once instead of after IdleTimeout.
func (s *Server) CloseSession(ctx context.Context, _ *flight.CloseSessionRequest) (*flight.CloseSessionResult, error) {
	c := connOf(ctx)
	go s.conns.drop(c.key) // after any call still running on its sessions
	return &flight.CloseSessionResult{Status: flight.CloseSessionResultClosed}, nil
}
