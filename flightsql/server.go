package flightsql

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/sqlgate/sqlgate/pgwire"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// Config configures a Flight SQL server.
type Config struct {
	// Backend starts the engine sessions (engine.Engine).
	Backend pgwire.Backend
	// Auth is the PostgreSQL side's authentication: the same users and
	// passwords (zero value: trust).
	Auth pgwire.AuthConfig
	// TLS, when set, makes every connection use TLS.
	TLS    *tls.Config
	Logger *slog.Logger
	// MaxConnections bounds live connections (0 = 100).
	MaxConnections int
	// MaxConnectionsPerUser bounds one user's live connections (0 = no limit).
	MaxConnectionsPerUser int
	// IdleTimeout closes a connection unused this long (0 = 1 hour).
	IdleTimeout time.Duration
	// Observer, when set, is told of every connection's session (the
	// server's registry: pg_stat_activity; observe.go).
	Observer pgwire.Observer
	// MaxMessageSize bounds one received gRPC message (0 = 64 MiB): an
	// ingest batch or a parameter batch larger than it is refused.
	MaxMessageSize int
	// NoRename says the store cannot rename a table (a Fluss cluster), so
	// that an ingest replacing a table cannot load a copy and swap it in
	// (ingestreplace.go).
	NoRename bool
	// ServerVersion is reported by GetSqlInfo.
	ServerVersion string
}

// Server is a Flight SQL server.
type Server struct {
	afsql.BaseServer
	cfg   Config
	log   *slog.Logger
	conns *registry
	grpc  *grpc.Server
	stop  chan struct{}
	// pool is the gRPC transport's and the result messages' buffer pool
	// (wire.go).
	pool *bufferPool
}

// New builds a server; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil {
		return nil, errors.New("flightsql: no backend")
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 100
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = time.Hour
	}
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = 64 << 20
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, conns: newRegistry(cfg.MaxConnections, cfg.MaxConnectionsPerUser, cfg.IdleTimeout), stop: make(chan struct{}),
		pool: &bufferPool{}}
	s.conns.obs = cfg.Observer
	if err := s.registerSQLInfo(); err != nil {
		return nil, err
	}
	opts := []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(s.unaryInterceptor),
		grpc.ChainStreamInterceptor(s.streamInterceptor),
		grpc.MaxRecvMsgSize(cfg.MaxMessageSize),
	}
	opts = append(opts, serverWireOptions(s.pool)...)
	if cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(cfg.TLS)))
	}
	s.grpc = grpc.NewServer(opts...)
	flight.RegisterFlightServiceServer(s.grpc, flightService{FlightServer: afsql.NewFlightServer(s), s: s})
	return s, nil
}

// Serve accepts connections on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	go s.expireLoop()
	err := s.grpc.Serve(ln)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// expireLoop closes idle connections.
func (s *Server) expireLoop() {
	every := min(s.cfg.IdleTimeout/4, time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.conns.expire()
		}
	}
}

// Shutdown stops accepting calls, lets running ones end until ctx is done
// (then cuts them), and closes every connection's sessions.
func (s *Server) Shutdown(ctx context.Context) error {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	done := make(chan struct{})
	go func() { s.grpc.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.grpc.Stop()
		<-done
	}
	s.conns.closeAll()
	return nil
}
