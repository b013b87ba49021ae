package flightsql

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"sync"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// firstPID is where Flight SQL sessions' backend process ids start, far
// from pgwire's (which count up from a few thousand), so that the two never
// share a pg_temp_N schema or a pg_locks pid.
const firstPID = 0x40000000

// maxPending bounds the queries one connection has prepared with
// GetFlightInfo and not yet fetched with DoGet.
const maxPending = 256

// registry holds the live connections by the token (or peer address) that
// names them.
type registry struct {
	mu      sync.Mutex
	conns   map[string]*conn
	max     int
	perUser int // 0: no limit
	idle    time.Duration
	nextPID uint32
	// obs is told of every connection (observe.go); nil: nobody.
	obs pgwire.Observer
}

func newRegistry(max, perUser int, idle time.Duration) *registry {
	return &registry{conns: map[string]*conn{}, max: max, perUser: perUser, idle: idle, nextPID: firstPID}
}

// userConnsLocked counts user's connections.
func (r *registry) userConnsLocked(user string) int {
	n := 0
	for _, c := range r.conns {
		if c.user == user {
			n++
		}
	}
	return n
}

// conn is one Flight SQL connection: a user and its engine sessions.
type conn struct {
	key  string
	user string
	pid  uint32
	main *slot

	mu       sync.Mutex
	lastUsed time.Time
	active   int // calls running on the connection (streams included)
	closed   bool
	prepared map[string]*prepared
	pending  map[string]*pending
	txns     map[string]*slot
	// obs observes the connection's session (observe.go); nil: nobody.
	obs pgwire.SessionObserver
	// running are the statements executing on the connection's sessions,
	// by a sequence number (observe.go: startStatement).
	running map[uint64]context.CancelCauseFunc
	nextRun uint64
}

// slot is one engine session and the semaphore serialising calls on it.
type slot struct {
	sem  chan struct{}
	sess pgwire.Session
	// closed is set, holding sem, when the session is closed: a call that
	// was waiting for it fails instead of using it.
	closed bool
}

func newSlot(sess pgwire.Session) *slot {
	return &slot{sem: make(chan struct{}, 1), sess: sess}
}

// acquire waits for the session under ctx.
func (s *slot) acquire(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		if s.closed {
			<-s.sem
			return sqlerr.New(sqlerr.InvalidTransactionState, "the session of this call has ended (its transaction ended, or the connection closed)")
		}
		return nil
	case <-ctx.Done():
		return canceledError().
			WithDetail("another call of this Flight SQL connection was still running on its session")
	}
}

func (s *slot) release() { <-s.sem }

// newToken is a random bearer token.
func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// open starts a connection for user under key, refusing one beyond the
// limit (after closing the idle ones).
func (r *registry) open(ctx context.Context, backend pgwire.Backend, key, user, remote string, tlsState *tls.ConnectionState) (*conn, error) {
	r.mu.Lock()
	if len(r.conns) >= r.max {
		r.expireLocked(time.Now())
	}
	if len(r.conns) >= r.max {
		r.mu.Unlock()
		return nil, sqlerr.New(sqlerr.TooManyConnections, "sorry, too many clients already")
	}
	if r.perUser > 0 && r.userConnsLocked(user) >= r.perUser {
		r.mu.Unlock()
		return nil, sqlerr.New(sqlerr.TooManyConnections, "too many connections for role \"%s\"", user)
	}
	r.nextPID++
	pid := r.nextPID
	c := &conn{key: key, user: user, pid: pid, lastUsed: time.Now(), prepared: map[string]*prepared{},
		pending: map[string]*pending{}, txns: map[string]*slot{}}
	r.conns[key] = c // holds the place while the session starts
	r.mu.Unlock()
	info := sessionInfo(user, pid, remote, tlsState)
	sess, err := backend.NewSession(ctx, info)
	if err != nil {
		r.mu.Lock()
		delete(r.conns, key)
		r.mu.Unlock()
		return nil, err
	}
	c.mu.Lock()
	c.main = newSlot(sess)
	closed := c.closed
	c.mu.Unlock()
	if closed { // dropped while its session started
		sess.Close()
		return nil, shutdownError()
	}
	r.observe(c, info)
	return c, nil
}

// sessionInfo describes a Flight SQL connection's session.
func sessionInfo(user string, pid uint32, remote string, tlsState *tls.ConnectionState) pgwire.SessionInfo {
	return pgwire.SessionInfo{User: user, Database: "sqlgate",
		Params: map[string]string{"application_name": "flightsql"}, ProcessID: pid, RemoteAddr: remote, TLS: tlsState}
}

// get returns the live connection under key and marks it in use; done
// must be called when the call ends.
func (r *registry) get(key string) (*conn, bool) {
	r.mu.Lock()
	c, ok := r.conns[key]
	r.mu.Unlock()
	if !ok {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.main == nil {
		return nil, false
	}
	c.active++
	c.lastUsed = time.Now()
	return c, true
}

// done ends a call begun by get.
func (c *conn) done() {
	c.mu.Lock()
	c.active--
	c.lastUsed = time.Now()
	c.mu.Unlock()
}

// expireLocked closes the connections idle longer than r.idle.
func (r *registry) expireLocked(now time.Time) {
	for k, c := range r.conns {
		c.mu.Lock()
		idle := c.main != nil && c.active == 0 && now.Sub(c.lastUsed) > r.idle
		c.mu.Unlock()
		if idle {
			delete(r.conns, k)
			go c.close()
		}
	}
}

// expire closes the idle connections (run periodically by the server).
func (r *registry) expire() {
	r.mu.Lock()
	r.expireLocked(time.Now())
	r.mu.Unlock()
}

// drop closes the connection under key, if any.
func (r *registry) drop(key string) {
	r.mu.Lock()
	c := r.conns[key]
	delete(r.conns, key)
	r.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// closeAll closes every connection (shutdown).
func (r *registry) closeAll() {
	r.mu.Lock()
	all := r.conns
	r.conns = map[string]*conn{}
	r.mu.Unlock()
	for _, c := range all {
		c.close()
	}
}

// close ends the connection's sessions once nothing runs on them: an open
// transaction's session rolls back as it closes, as for a PostgreSQL
// connection that ends.
func (c *conn) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	var slots []*slot
	if c.main != nil {
		slots = append(slots, c.main)
	}
	for _, t := range c.txns {
		slots = append(slots, t)
	}
	// empty, not nil: a call that raced with the close still finds maps
	c.txns = map[string]*slot{}
	c.prepared = map[string]*prepared{}
	c.pending = map[string]*pending{}
	obs := c.obs
	c.obs = nil
	c.mu.Unlock()
	if obs != nil {
		defer obs.Ended()
	}
	for _, s := range slots {
		s.sem <- struct{}{} // wait for a running call to end
		if !s.closed {
			s.closed = true
			s.sess.Close()
		}
		<-s.sem
	}
}

// slotFor is the session a call runs on: the transaction's when it names
// one, the connection's own otherwise.
func (c *conn) slotFor(txnID []byte) (*slot, error) {
	if len(txnID) == 0 {
		return c.main, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.txns[string(txnID)]
	if !ok {
		return nil, sqlerr.New(sqlerr.InvalidTransactionState, "transaction %q does not exist on this connection", printable(txnID))
	}
	return t, nil
}

// printable shows a client-sent handle in a message.
func printable(b []byte) string {
	if len(b) > 64 {
		b = b[:64]
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// pid is a new backend process id.
func (r *registry) pid() uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextPID++
	return r.nextPID
}
