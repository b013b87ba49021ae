package server

import (
	"fmt"
	"log/slog"
	"net"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/flightsql"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
)

// startFlight serves Arrow Flight SQL on cfg.FlightListen through the same
// engine, users, TLS configuration and connection limit as the
// PostgreSQL side.
func (s *Server) startFlight(cfg Config, eng *engine.Engine, log *slog.Logger, obs pgwire.Observer) error {
	_, renames := s.store.(fluss.TableRenamer)
	fs, err := flightsql.New(flightsql.Config{Backend: eng, Auth: cfg.Auth, TLS: cfg.TLS, Logger: log,
		MaxConnections: cfg.MaxConnections, MaxConnectionsPerUser: cfg.MaxConnectionsPerUser, ServerVersion: engine.ServerVersion,
		Observer: obs, NoRename: !renames})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.FlightListen)
	if err != nil {
		return fmt.Errorf("listen on %s (Flight SQL): %w", cfg.FlightListen, err)
	}
	s.flight, s.flightLn = fs, ln
	go func() {
		if err := fs.Serve(ln); err != nil {
			log.Error("flightsql: serving stopped", "err", err)
		}
	}()
	return nil
}

// FlightAddr is the address Flight SQL listens on (nil when not served).
func (s *Server) FlightAddr() net.Addr {
	if s.flightLn == nil {
		return nil
	}
	return s.flightLn.Addr()
}
