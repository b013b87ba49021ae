package flightsql

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"runtime/debug"
	"strings"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/sqlerr"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

// trustUser is who a call without credentials is under trust
// authentication (the user ConnString names on the PostgreSQL side).
const trustUser = access.BootstrapRole

type connKey struct{}

// connOf is the connection an authorised call runs on.
func connOf(ctx context.Context) *conn {
	c, _ := ctx.Value(connKey{}).(*conn)
	return c
}

func (s *Server) unaryInterceptor(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	c, err := s.authorize(ctx)
	if err != nil {
		return nil, s.fail(err, func(md metadata.MD) { _ = grpc.SetTrailer(ctx, md) })
	}
	defer c.done()
	resp, err := s.guard(func() (any, error) { return handler(context.WithValue(ctx, connKey{}, c), req) })
	if err != nil {
		return nil, s.fail(err, func(md metadata.MD) { _ = grpc.SetTrailer(ctx, md) })
	}
	return resp, nil
}

type wrappedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (w *wrappedStream) Context() context.Context { return w.ctx }

func (s *Server) streamInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if strings.HasSuffix(info.FullMethod, "/Handshake") {
		return s.fail(s.handshake(ss), ss.SetTrailer)
	}
	c, err := s.authorize(ss.Context())
	if err != nil {
		return s.fail(err, ss.SetTrailer)
	}
	defer c.done()
	_, err = s.guard(func() (any, error) {
		return nil, handler(srv, &wrappedStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), connKey{}, c)})
	})
	return s.fail(err, ss.SetTrailer)
}

// guard runs a handler, turning a panic into XX000 (logged with its
// stack) so that the process and the other connections live on.
func (s *Server) guard(fn func() (any, error)) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("flightsql: panic serving a call", "panic", r, "stack", string(debug.Stack()))
			resp, err = nil, sqlerr.New(sqlerr.InternalError, "internal error")
		}
	}()
	return fn()
}

// fail turns err into the status the client gets, setting its SQLSTATE
// into the trailer.
func (s *Server) fail(err error, setTrailer func(metadata.MD)) error {
	st, md := statusOf(err, s.log)
	if md != nil {
		setTrailer(md)
	}
	return st
}

// credentialsOf reads the authorization header: its scheme and value.
func credentialsOf(ctx context.Context) (scheme, value string) {
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get("authorization")
	if len(vals) == 0 {
		return "", ""
	}
	scheme, value, _ = strings.Cut(strings.TrimSpace(vals[0]), " ")
	return strings.ToLower(scheme), strings.TrimLeft(value, " ")
}

// authorize finds the connection a call belongs to.
func (s *Server) authorize(ctx context.Context) (*conn, error) {
	scheme, value := credentialsOf(ctx)
	switch {
	case scheme == "bearer" && value != "":
		if c, ok := s.conns.get("token:" + value); ok {
			return c, nil
		}
		return nil, sqlerr.New(sqlerr.InvalidAuthorizationSpec, "invalid or expired bearer token").
			WithHint("Authenticate again with a Handshake carrying basic credentials.")
	case scheme == "" && !s.cfg.Auth.RequiresPassword():
		// Trust: the call's gRPC connection is its Flight SQL connection.
		remote, tlsState := peerOf(ctx)
		key := "peer:" + remote
		if c, ok := s.conns.get(key); ok {
			return c, nil
		}
		if _, err := s.conns.open(ctx, s.cfg.Backend, key, trustUser, remote, tlsState); err != nil {
			return nil, err
		}
		if c, ok := s.conns.get(key); ok {
			return c, nil
		}
		return nil, sqlerr.New(sqlerr.ConnectionFailure, "the connection closed as it opened")
	case scheme == "":
		return nil, sqlerr.New(sqlerr.InvalidAuthorizationSpec, "no credentials: authenticate with a Handshake carrying basic credentials (user and password), then send its bearer token")
	}
	return nil, sqlerr.New(sqlerr.InvalidAuthorizationSpec, "unsupported authorization scheme %q: use Basic in the Handshake, then Bearer", scheme)
}

// handshake exchanges basic credentials for a bearer token naming a new
// connection, sent back in the "authorization" header.
func (s *Server) handshake(ss grpc.ServerStream) error {
	ctx := ss.Context()
	scheme, value := credentialsOf(ctx)
	if scheme != "basic" {
		return sqlerr.New(sqlerr.InvalidAuthorizationSpec, "the Handshake needs basic credentials (authorization: Basic base64(user:password))")
	}
	raw, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(value); err != nil {
			return sqlerr.New(sqlerr.InvalidAuthorizationSpec, "malformed basic credentials")
		}
	}
	user, password, ok := strings.Cut(string(raw), ":")
	if !ok || user == "" {
		return sqlerr.New(sqlerr.InvalidAuthorizationSpec, "malformed basic credentials")
	}
	if err := s.cfg.Auth.CheckPassword(ctx, user, password); err != nil {
		s.log.Info("flightsql: password authentication failed", "user", user)
		return err
	}
	remote, tlsState := peerOf(ctx)
	token := newToken()
	if _, err := s.conns.open(ctx, s.cfg.Backend, "token:"+token, user, remote, tlsState); err != nil {
		return err
	}
	return ss.SetHeader(metadata.Pairs("authorization", "Bearer "+token))
}

// peerOf is the call's remote address and TLS state.
func peerOf(ctx context.Context) (string, *tls.ConnectionState) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return "", nil
	}
	var st *tls.ConnectionState
	if ti, ok := p.AuthInfo.(credentials.TLSInfo); ok {
		st = &ti.State
	}
	addr := ""
	if p.Addr != nil {
		addr = p.Addr.String()
	}
	return addr, st
}
