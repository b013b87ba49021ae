package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/sqlgate/sqlgate/metrics"
)

// startMetrics serves mx, /healthz and /readyz on addr (--metrics-listen).
func (s *Server) startMetrics(addr string, mx *metrics.Metrics) error {
	if cs, ok := s.store.(metrics.CacheStats); ok {
		mx.SetCache(cs) // before the endpoint serves: no scrape reads it yet
	}
	h, err := metrics.Listen(addr, mx.Handler(s.ready))
	if err != nil {
		return fmt.Errorf("metrics: listen on %s: %w", addr, err)
	}
	s.metrics = h
	return nil
}

// ready is /readyz: the server takes sessions unless it is stopping.
func (s *Server) ready(context.Context) error {
	if s.stopping.Load() {
		return errors.New("shutting down")
	}
	return nil
}

// MetricsAddr is the address of the --metrics-listen endpoint ("" without).
func (s *Server) MetricsAddr() string {
	if s.metrics == nil {
		return ""
	}
	return s.metrics.Addr().String()
}
