package flightsql

import "github.com/sqlgate/sqlgate/pgwire"

// The server's session registry (pg_stat_activity, pg_cancel_backend,
// pg_terminate_backend) lists each Flight SQL connection beside the
// PostgreSQL ones: Config.Observer is told of it when its session opens
// and when it closes.

// flightControl is what another session may do to a Flight SQL
// connection.
type flightControl struct {
	r *registry
	c *conn
}

// CancelStatement implements pgwire.SessionControl: the connection's
// running queries end with 57014, those awaiting their DoGet are dropped.
func (f flightControl) CancelStatement() {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	for h, p := range f.c.pending {
		if p.cancel != nil {
			p.cancel()
		} else {
			delete(f.c.pending, h)
		}
	}
}

// Terminate implements pgwire.SessionControl: the connection closes (its
// open transactions roll back) and its token no longer works.
func (f flightControl) Terminate() { go f.r.drop(f.c.key) }

// Setting implements pgwire.SessionControl; a Flight SQL connection
// reports no statement events, so nobody asks.
func (f flightControl) Setting(string) (string, bool) { return "", false }

// observe registers c with the observer, if any.
func (r *registry) observe(c *conn, info pgwire.SessionInfo) {
	if r.obs == nil {
		return
	}
	if so := r.obs.SessionStarted(info, flightControl{r: r, c: c}); so != nil {
		c.mu.Lock()
		c.obs = so
		c.mu.Unlock()
	}
}
