package pgwire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Config configures a Server.
type Config struct {
	// Backend creates the SQL session of each connection. Required.
	Backend Backend
	// Logger receives connection and internal-error logs; nil discards them.
	Logger *slog.Logger
	// MaxConnections bounds concurrent client sessions; a connection beyond
	// it gets FATAL 53300. 0 means 100, PostgreSQL's default.
	MaxConnections int
	// MaxConnectionsPerUser bounds the concurrent sessions of one user, as
	// a role's CONNECTION LIMIT does; beyond it the client gets FATAL 53300
	// "too many connections for role". 0 means no limit.
	MaxConnectionsPerUser int
	// MaxRowSize bounds the encoded size of one result row (a DataRow, or a
	// COPY TO row) in bytes: a larger row fails its statement with 54000 and
	// the session goes on. 0 means 1 GiB, PostgreSQL's own limit.
	MaxRowSize int
	// ServerVersion is the server_version ParameterStatus when the session
	// does not report one ("15.8" when empty). It must look like "15.x":
	// psql picks its catalog queries from it.
	ServerVersion string
	// MaxMessageSize bounds a client message's length; a larger length
	// prefix gets FATAL 08P01 before anything is allocated. 0 means 64 MiB.
	MaxMessageSize int
	// FlushThreshold is how many bytes of DataRows are buffered before they
	// are written to the socket. 0 means 64 KiB.
	FlushThreshold int
	// Auth is how clients authenticate; the zero value is trust.
	Auth AuthConfig
	// TLS, when set, makes the server answer SSLRequest with 'S' and switch
	// the connection to TLS (1.2 at least).
	TLS *tls.Config
	// RequireTLS refuses clients that do not switch to TLS.
	RequireTLS bool
	// Observer is told of every session and statement (observer.go);
	// nil: nobody is.
	Observer Observer
}

// Server is a PostgreSQL protocol v3 server in front of a Backend.
type Server struct {
	cfg    Config
	logger *slog.Logger

	ctx    context.Context // parent of every connection's context
	cancel context.CancelFunc

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[uint32]*conn // by BackendKeyData process id
	closing   bool

	// mockKey derives the fake SCRAM salts of unknown users.
	mockKey [32]byte

	// perUser counts the sessions of each user (MaxConnectionsPerUser);
	// guarded by mu.
	perUser map[string]int

	nextPID  atomic.Uint32
	sessions atomic.Int64 // connections past the MaxConnections check
	wg       sync.WaitGroup

	// waits counts the waits of every connection for its next message (and
	// each new session), blocker is the one connection whose wait may block
	// a thread in read(2): blockwait_linux.go.
	waits   atomic.Uint64
	blocker atomic.Pointer[rawSock]
	// blockIdle overrides blockIdleSlices for the connections accepted
	// after it is set (0: the constant): the tests of what must wake a
	// blocked wait set it out of reach, so that the idle return to the
	// netpoller cannot do the waking for them.
	blockIdle atomic.Int64
}

// NewServer returns a server for cfg.
func NewServer(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 100
	}
	if cfg.ServerVersion == "" {
		cfg.ServerVersion = "15.8"
	}
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = 64 << 20
	}
	if cfg.FlushThreshold <= 0 {
		cfg.FlushThreshold = 64 << 10
	}
	if cfg.MaxRowSize <= 0 {
		cfg.MaxRowSize = 1 << 30
	}
	if cfg.TLS != nil {
		cfg.TLS = cfg.TLS.Clone()
		if cfg.TLS.MinVersion < tls.VersionTLS12 {
			cfg.TLS.MinVersion = tls.VersionTLS12
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg:       cfg,
		logger:    cfg.Logger,
		ctx:       ctx,
		cancel:    cancel,
		listeners: map[net.Listener]struct{}{},
		conns:     map[uint32]*conn{},
		perUser:   map[string]int{},
	}
	// Process ids start at a random point so that ids of two server runs
	// rarely collide in client logs; they only need to be unique per server.
	_, _ = rand.Read(s.mockKey[:])
	var b [2]byte
	_, _ = rand.Read(b[:])
	s.nextPID.Store(uint32(b[0])<<8 | uint32(b[1]) + 1000)
	return s
}

// ErrServerClosed is returned by Serve after Shutdown.
var ErrServerClosed = errors.New("pgwire: server closed")

// Serve accepts connections on ln until ln is closed (it returns nil), ctx
// ends (ctx's error) or Shutdown is called (ErrServerClosed). It closes ln
// before returning. Connections already accepted keep running until they end
// or Shutdown is called: ending ctx only stops accepting.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		_ = ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
		_ = ln.Close()
	}()

	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()

	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.mu.Lock()
			closing := s.closing
			s.mu.Unlock()
			if closing {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(5 * time.Millisecond)
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(nc)
		}()
	}
}

// Shutdown stops accepting connections, cancels running statements, ends
// every session with FATAL 57P01 and waits for the connections to finish. If
// ctx ends first, it closes the remaining sockets and returns ctx's error
// without waiting further.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	for ln := range s.listeners {
		_ = ln.Close()
	}
	s.mu.Unlock()
	s.cancel()

	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		for _, c := range s.conns {
			c.abortSocket()
		}
		s.mu.Unlock()
		// A statement that ignores its context may still hold its
		// goroutine; do not wait for it beyond the caller's deadline.
		return ctx.Err()
	}
}

// register gives c a process id and secret key and makes it cancellable.
func (s *Server) register(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		pid := s.nextPID.Add(1)
		if _, taken := s.conns[pid]; pid != 0 && !taken {
			c.pid = pid
			break
		}
	}
	_, _ = rand.Read(c.secret[:])
	s.conns[c.pid] = c
	s.waits.Add(1) // a new session ends another's sole run (blockwait_linux.go)
}

// admitUser counts a session of user against MaxConnectionsPerUser; it
// returns false, counting nothing, when the user is at the limit. A true
// answer must be paired with releaseUser.
func (s *Server) admitUser(user string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if max := s.cfg.MaxConnectionsPerUser; max > 0 && s.perUser[user] >= max {
		return false
	}
	s.perUser[user]++
	return true
}

func (s *Server) releaseUser(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.perUser[user]--; s.perUser[user] <= 0 {
		delete(s.perUser, user)
	}
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conns[c.pid] == c {
		delete(s.conns, c.pid)
	}
}

// cancelRequest handles a CancelRequest: when pid and secret match a
// connection, its running statement is cancelled; anything else is ignored
// silently, as PostgreSQL does, so that the request reveals nothing.
func (s *Server) cancelRequest(pid uint32, secret []byte) {
	s.mu.Lock()
	c := s.conns[pid]
	s.mu.Unlock()
	if c == nil || subtle.ConstantTimeCompare(c.secret[:], secret) != 1 {
		s.logger.Debug("pgwire: ignored cancel request", "pid", pid)
		return
	}
	c.cancelRunning()
}
