package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves /metrics (the Prometheus text format), /healthz (200
// while the process serves HTTP at all) and /readyz (200 when ready
// answers nil, else 503 with its error: a load balancer sends no client
// to a server that cannot take one).
func (m *Metrics) Handler(ready func(context.Context) error) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := ready(ctx); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("not ready: " + err.Error() + "\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	return mux
}

// HTTPServer is the metrics endpoint of a running server.
type HTTPServer struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{}
}

// Listen starts serving h on addr (HOST:PORT; port 0 picks one).
func Listen(addr string, h http.Handler) (*HTTPServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &HTTPServer{srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}, ln: ln, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = ln.Close()
		}
	}()
	return s, nil
}

// Addr is the address the endpoint listens on.
func (s *HTTPServer) Addr() net.Addr { return s.ln.Addr() }

// Close stops the endpoint, waiting for requests in flight under ctx.
func (s *HTTPServer) Close(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	<-s.done
	return err
}
