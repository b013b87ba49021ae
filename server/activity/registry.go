package activity

import (
	"context"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Roles tells superusers apart (engine.Roles).
type Roles interface {
	Role(name string) (exists, superuser bool)
}

// Waits reports the sessions waiting for a lock, by process id, with the
// lock's type (pg_locks.locktype: "tuple", "transactionid" ...).
type Waits interface {
	LockWaits() map[int32]string
}

// Registry is the server's list of live sessions.
type Registry struct {
	roles Roles
	waits Waits

	mu       sync.Mutex
	backends map[int32]*Backend
	copies   map[int32]*Copy // progress.go

	// statsMu guards the counters of stats.go.
	statsMu   sync.Mutex
	tables    map[int64]*TableCounters
	databases map[string]*DatabaseCounters
}

// New returns an empty registry. roles nil: every user is a superuser
// (trust authentication); waits nil: nobody is shown waiting for a lock.
func New(roles Roles, waits Waits) *Registry {
	return &Registry{roles: roles, waits: waits, backends: map[int32]*Backend{}, copies: map[int32]*Copy{},
		tables: map[int64]*TableCounters{}, databases: map[string]*DatabaseCounters{}}
}

// SetWaits sets where lock waits are read from (the engine, made after
// the registry).
func (r *Registry) SetWaits(w Waits) {
	r.mu.Lock()
	r.waits = w
	r.mu.Unlock()
}

// Backend types, as pg_stat_activity.backend_type names them.
const (
	ClientBackend = "client backend"
)

// Backend is one session in the registry. It implements
// pgwire.SessionObserver: pgwire keeps it up to date.
type Backend struct {
	reg   *Registry
	ctl   pgwire.SessionControl
	done  chan struct{}
	fixed Row // what never changes: pid, user, database, client, start
	// counters are the session's database's (never removed from the
	// registry), found once rather than by name per statement.
	counters *DatabaseCounters

	mu       sync.Mutex
	state    string
	query    string
	appName  string
	xact     time.Time
	queryAt  time.Time
	changed  time.Time
	finished bool
	// block: the session is in a transaction block (the last
	// ReadyForQuery said T or E).
	block bool
}

// Row is what pg_stat_activity shows of one session. Zero times are NULL.
type Row struct {
	PID             int32
	Database        string
	User            string
	ApplicationName string
	ClientAddr      string // "" = NULL
	ClientPort      int    // -1 = a local socket, 0 = NULL
	BackendStart    time.Time
	XactStart       time.Time
	QueryStart      time.Time
	StateChange     time.Time
	WaitEventType   string // "" = NULL
	WaitEvent       string
	State           string
	Query           string
	BackendType     string
}

// SessionStarted implements pgwire.Observer.
func (r *Registry) SessionStarted(info pgwire.SessionInfo, ctl pgwire.SessionControl) pgwire.SessionObserver {
	return r.Register(info, ctl, ClientBackend)
}

// Register adds a session; the Backend's Ended removes it.
func (r *Registry) Register(info pgwire.SessionInfo, ctl pgwire.SessionControl, backendType string) *Backend {
	now := time.Now()
	b := &Backend{reg: r, ctl: ctl, done: make(chan struct{}),
		fixed: Row{PID: int32(info.ProcessID), Database: info.Database, User: info.User, BackendStart: now, BackendType: backendType},
		state: "idle", changed: now, appName: info.Params["application_name"]}
	b.fixed.ClientAddr, b.fixed.ClientPort = splitAddr(info.RemoteAddr)
	r.mu.Lock()
	r.backends[b.fixed.PID] = b
	r.mu.Unlock()
	r.statsMu.Lock()
	b.counters = r.database(info.Database)
	b.counters.Sessions++
	r.statsMu.Unlock()
	return b
}

// splitAddr is pg_stat_activity's client_addr and client_port of a remote
// address: a TCP peer's host and port, or NULL and -1 for a Unix socket.
func splitAddr(addr string) (string, int) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if addr == "" || addr == "@" || addr[0] == '/' {
			return "", -1
		}
		return addr, 0
	}
	p, _ := strconv.Atoi(port)
	return host, p
}

// StatementStarted implements pgwire.SessionObserver: the session becomes
// active; outside a transaction the statement starts one (xact_start).
func (b *Backend) StatementStarted(sql string, at time.Time) {
	b.mu.Lock()
	if b.xact.IsZero() { // no transaction yet: the statement starts one
		b.xact = at
	}
	b.state, b.query, b.queryAt, b.changed = "active", sql, at, at
	b.mu.Unlock()
}

// StatementDone implements pgwire.SessionObserver: the statement counts
// in pg_stat_database and pg_stat_user_tables (stats.go); the state
// changes at ReadyForQuery (Ready), as PostgreSQL's does.
func (b *Backend) StatementDone(ev pgwire.StatementEvent) {
	b.mu.Lock()
	inBlock := b.block
	b.mu.Unlock()
	b.reg.count(b.counters, inBlock, ev)
}

// ErrorSent implements pgwire.SessionObserver.
func (b *Backend) ErrorSent(*sqlerr.Error, string) {}

// StatusChanged implements pgwire.SessionObserver: SET application_name
// shows at once.
func (b *Backend) StatusChanged(name, value string) {
	if name != "application_name" {
		return
	}
	b.mu.Lock()
	b.appName = value
	b.mu.Unlock()
}

// Ready implements pgwire.SessionObserver: the session waits for the
// client, inside a transaction block or not.
func (b *Backend) Ready(txStatus byte) {
	now := time.Now()
	state := "idle"
	switch txStatus {
	case 'T':
		state = "idle in transaction"
	case 'E':
		state = "idle in transaction (aborted)"
	}
	b.mu.Lock()
	b.state, b.changed = state, now
	if txStatus == 'I' {
		b.xact = time.Time{}
	}
	b.block = txStatus != 'I'
	b.mu.Unlock()
}

// Ended implements pgwire.SessionObserver: the session leaves the
// registry, and a pg_terminate_backend waiting for it returns.
func (b *Backend) Ended() {
	b.reg.mu.Lock()
	if b.reg.backends[b.fixed.PID] == b {
		delete(b.reg.backends, b.fixed.PID)
	}
	b.reg.mu.Unlock()
	b.mu.Lock()
	if !b.finished {
		b.finished = true
		close(b.done)
	}
	b.mu.Unlock()
}

// row copies the backend's state.
func (b *Backend) row() Row {
	r := b.fixed
	b.mu.Lock()
	r.State, r.Query, r.ApplicationName = b.state, b.query, b.appName
	r.XactStart, r.QueryStart, r.StateChange = b.xact, b.queryAt, b.changed
	b.mu.Unlock()
	if r.State != "active" {
		// PostgreSQL's idle backends wait in ClientRead.
		r.WaitEventType, r.WaitEvent = "Client", "ClientRead"
	}
	return r
}

// List is every session, by process id.
func (r *Registry) List() []Row {
	r.mu.Lock()
	bs := make([]*Backend, 0, len(r.backends))
	for _, b := range r.backends {
		bs = append(bs, b)
	}
	waits := r.waits
	r.mu.Unlock()
	var lockWaits map[int32]string
	if waits != nil {
		lockWaits = waits.LockWaits()
	}
	rows := make([]Row, len(bs))
	for i, b := range bs {
		rows[i] = b.row()
		if lt, ok := lockWaits[rows[i].PID]; ok && rows[i].State == "active" {
			rows[i].WaitEventType, rows[i].WaitEvent = "Lock", lt
		}
	}
	slices.SortFunc(rows, func(a, b Row) int { return int(a.PID) - int(b.PID) })
	return rows
}

// Lookup returns the session with process id pid.
func (r *Registry) Lookup(pid int32) (Row, bool) {
	r.mu.Lock()
	b := r.backends[pid]
	r.mu.Unlock()
	if b == nil {
		return Row{}, false
	}
	return b.row(), true
}

// superuser reports whether user is a superuser.
func (r *Registry) superuser(user string) bool {
	if r.roles == nil {
		return true
	}
	_, super := r.roles.Role(user)
	return super
}

// Signal cancels the statement of session pid (terminate false:
// pg_cancel_backend) or ends the session (pg_terminate_backend), on behalf
// of caller, with PostgreSQL 15's rules: only a superuser signals a
// superuser's session, and otherwise only the session's own user (or a
// superuser) may. ok is false, with no error, when pid is no session
// (PostgreSQL warns and returns false). With terminate and a positive
// timeout it waits that long for the session to end, and reports false if
// it did not.
func (r *Registry) Signal(ctx context.Context, caller string, pid int32, terminate bool, timeout time.Duration) (bool, error) {
	r.mu.Lock()
	b := r.backends[pid]
	r.mu.Unlock()
	if b == nil {
		return false, nil
	}
	callerSuper := r.superuser(caller)
	if !callerSuper {
		if r.superuser(b.fixed.User) {
			return false, signalDenied(terminate, true)
		}
		if b.fixed.User != caller {
			return false, signalDenied(terminate, false)
		}
	}
	if !terminate {
		b.ctl.CancelStatement()
		return true, nil
	}
	b.ctl.Terminate()
	if timeout <= 0 {
		return true, nil
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-b.done:
		return true, nil
	case <-t.C:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// signalDenied is PostgreSQL 15's 42501 for a signal the caller may not
// send: to a superuser's session (superuser) or to another user's.
func signalDenied(terminate, superuser bool) error {
	switch {
	case superuser && terminate:
		return sqlerr.New(sqlerr.InsufficientPrivilege, "must be a superuser to terminate superuser process")
	case superuser:
		return sqlerr.New(sqlerr.InsufficientPrivilege, "must be a superuser to cancel superuser query")
	case terminate:
		return sqlerr.New(sqlerr.InsufficientPrivilege, "must be a member of the role whose process is being terminated or member of pg_signal_backend")
	default:
		return sqlerr.New(sqlerr.InsufficientPrivilege, "must be a member of the role whose query is being canceled or member of pg_signal_backend")
	}
}
