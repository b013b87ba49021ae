package pgwire

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Startup packet codes (the int32 after the length of the first packet).
const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	cancelRequestCode = 80877102
	// maxStartupPacket is PostgreSQL's MAX_STARTUP_PACKET_LENGTH.
	maxStartupPacket = 10000
	// startupTimeout bounds the startup phase (authentication_timeout).
	startupTimeout = time.Minute
)

// frame is one client message: a type byte and a body, or a fatal error
// that ends the connection. A frame from the reader goroutine owns its
// body; one read by readInline may share the connection's buffer
// (readFrame).
type frame struct {
	typ  byte
	body []byte
	err  *sqlerr.Error
}

// conn is one client connection. Two goroutines serve it: the reader
// (readLoop), which frames messages and notices a dead socket while a
// statement runs, and the executor (run), which owns the session, the
// prepared statements, the portals and the output buffer.
type conn struct {
	srv    *Server
	nc     net.Conn
	logger *slog.Logger
	br     *bufio.Reader
	// src is what br reads until a TLS switch replaces br; raw, once the
	// startup is over on a plain socket, reads and writes the socket
	// without the runtime's syscall bookkeeping (rawsock_linux.go).
	src sockReader
	raw *rawSock
	// sock is raw from before the session is registered, for Shutdown's
	// abortSocket (raw is set only once the session serves messages).
	sock *rawSock
	// bind is the last Bind message, decoded into reused slices.
	bind bindMessage

	pid    uint32
	secret [4]byte
	tls    bool // the connection switched to TLS

	// ctx lives as long as the connection; it ends when the socket dies or
	// the server shuts down.
	ctx    context.Context
	cancel context.CancelFunc

	// runMu guards runCancel, which cancels the statement running now; the
	// cancel-request path calls it from another connection's goroutine.
	runMu     sync.Mutex
	runCancel context.CancelFunc
	// runSpare keeps the last statement's context for the next (endRunning).
	runSpare spareContext
	// spareCtx keeps a finished portal's live context for the next Bind,
	// sparePortal the portal itself (newPortal).
	spareCtx    spareContext
	sparePortal *portal
	// simplePortal and simplePrep are the portal and the unnamed statement
	// a simple Query's statement runs in (runSimple), one at a time: kept
	// in the conn, a BEGIN or a COMMIT allocates neither.
	simplePortal portal
	simplePrep   prepared
	// timedOut is set when statement_timeout cancelled the running
	// statement (timeouts.go), to word its 57014.
	timedOut atomic.Bool

	session        Session
	runtimeNotices RuntimeNotices        // session's, when it raises notices while running
	statementTxns  StatementTransactions // session's, when it ends lone statements' transactions
	stmts          map[string]*prepared
	portals        portalSet
	ignoreTillSync bool
	// held: the session holds an implicit transaction open until Sync
	// (ImplicitTransactions).
	held bool
	// rd is the reader goroutine while one runs (readLoop: all along for
	// a socket the watcher cannot peek at, else during a COPY FROM's data),
	// and frames its channel, from which COPY FROM reads its CopyData; both
	// are nil while the executor reads the socket itself (readInline).
	rd     *frameReader
	frames <-chan frame
	// watch notices a vanished client while a message is handled and
	// nobody reads the socket (watch.go); nil in reader mode.
	watch *sockWatch
	// hdr is the message header being read (one reader at a time); inBody
	// holds the body of a short message read by readInline.
	hdr    [5]byte
	inBody []byte
	// spareBodies holds COPY data bodies the decoder is done with, for the
	// reader's next ones (copy.go: spareBody)
	spareBodies chan []byte
	// durations are the time settings as last parsed (timeouts.go).
	durations [numDurationSettings]DurationSetting
	// deadline: readInline armed an idle timeout on the socket.
	deadline bool

	// zoneSetting is the TimeZone setting zoneLoc was loaded from
	// (location).
	zoneSetting string
	zoneLoc     *time.Location

	out      []byte // pending output, written by flush
	rowMark  int    // length of out before the DataRow being encoded, or -1
	writeErr error
	// streamSend bounds each write while a streaming result is being
	// sent (stream.go); 0 otherwise.
	streamSend time.Duration

	// obs observes the session (observer.go; noObserver when nobody
	// does, observed false); curSQL is the statement running or last run,
	// lastTag the last CommandComplete tag, bytesOut what flush wrote and
	// stmtBytes its value when the statement began.
	obs       SessionObserver
	observed  bool
	curSQL    string
	lastTag   string
	bytesOut  int64
	stmtBytes int64
	// terminated: pg_terminate_backend ended the session (57P01);
	// fatalSent: a FATAL error went out, the connection ends.
	terminated atomic.Bool
	fatalSent  bool

	// notifier is the session's LISTEN / NOTIFY (notify.go; nil when it
	// has none), notifyC its wake-ups, notes the scratch of its
	// notifications.
	notifier Notifier
	notifyC  chan struct{}
	notes    []Notification
}

func (s *Server) serveConn(nc net.Conn) {
	ctx, cancel := context.WithCancel(s.ctx)
	c := &conn{
		srv:     s,
		nc:      nc,
		logger:  s.logger.With("remote", nc.RemoteAddr().String()),
		src:     sockReader{nc: nc},
		ctx:     ctx,
		cancel:  cancel,
		stmts:   map[string]*prepared{},
		portals: portalSet{named: map[string]*portal{}},
		rowMark: -1,
		obs:     noObserver{},
	}
	c.br = bufio.NewReaderSize(&c.src, 16<<10)
	defer func() {
		if r := recover(); r != nil {
			c.logger.Error("pgwire: panic in connection", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
		cancel()
		_ = nc.Close()
	}()
	// Like PostgreSQL's authentication_timeout: a client that never finishes
	// its startup must not hold a goroutine forever.
	_ = nc.SetReadDeadline(time.Now().Add(startupTimeout))
	params, ok := c.startup()
	if !ok {
		return
	}
	// Before authentication, as in PostgreSQL (the postmaster refuses the
	// connection once the startup packet is read): a client in the middle
	// of authenticating holds a slot.
	if n := s.sessions.Add(1); n > int64(s.cfg.MaxConnections) {
		s.sessions.Add(-1)
		c.fatal(sqlerr.New(sqlerr.TooManyConnections, "sorry, too many clients already"))
		return
	}
	defer s.sessions.Add(-1)
	if !c.authenticate(params["user"]) {
		return
	}
	_ = nc.SetReadDeadline(time.Time{})
	// After authentication, as PostgreSQL checks a role's CONNECTION LIMIT.
	if !s.admitUser(params["user"]) {
		c.fatal(sqlerr.New(sqlerr.TooManyConnections, "too many connections for role \"%s\"", params["user"]))
		return
	}
	defer s.releaseUser(params["user"])
	if rc := rawConnOf(c.nc); rc != nil {
		if c.sock = newRawSock(c.nc, rc, s); c.sock != nil {
			defer c.sock.close()
		}
	}
	s.register(c)
	defer s.unregister(c)

	info := SessionInfo{
		User:       params["user"],
		Database:   params["database"],
		Params:     params,
		ProcessID:  c.pid,
		RemoteAddr: nc.RemoteAddr().String(),
		LocalAddr:  nc.LocalAddr().String(),
	}
	if tc, ok := c.nc.(*tls.Conn); ok {
		st := tc.ConnectionState()
		info.TLS = &st
	}
	if info.Database == "" {
		info.Database = info.User
	}
	session, err := c.newSession(info)
	if err != nil {
		e := c.toSQLError(err)
		e.Severity = "FATAL"
		c.fatal(e)
		return
	}
	c.session = session
	c.runtimeNotices, _ = session.(RuntimeNotices)
	c.statementTxns, _ = session.(StatementTransactions)
	c.initNotify() // notify.go
	defer c.closeAll()
	c.observe(info)
	defer func() { c.obs.Ended() }()

	c.send(&pgproto3.AuthenticationOk{})
	c.sendInitialStatus(info)
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret[:]})
	c.send(&pgproto3.ReadyForQuery{TxStatus: c.session.TxStatus()})
	if c.flush() != nil {
		return
	}
	c.logger.Debug("pgwire: session started", "pid", c.pid, "user", info.User, "database", info.Database)

	if rc := rawConnOf(c.nc); rc != nil {
		// The executor reads the socket itself; the watcher covers the
		// time a statement runs; shutdown or a vanished client interrupts
		// a read in progress (interruptRead).
		c.watch = newSockWatch(rc, c.sock)
		c.raw = c.sock
		c.src.raw = c.raw
		go c.watchLoop(c.watch)
		stop := context.AfterFunc(c.ctx, c.interruptRead)
		defer stop()
	} else {
		c.startReader(false)
	}
	c.run()
}

// interruptRead makes a wait for the next message (or a COPY's data) end
// now: the connection's context ended. On the netpoller a past read
// deadline; a thread blocked in read(2) is woken by shutdown(2) of the
// socket's reading side (rawSock.interrupt).
func (c *conn) interruptRead() {
	if c.sock != nil {
		c.sock.interrupt()
		return
	}
	_ = c.nc.SetReadDeadline(time.Unix(1, 0))
}

// abortSocket is Shutdown's last resort for a connection that did not end
// in time: the socket is cut (closed, or shut down both ways when a
// thread may be blocked in it). Any goroutine.
func (c *conn) abortSocket() {
	if c.sock != nil {
		c.sock.abort()
		return
	}
	_ = c.nc.Close()
}

// setReadDeadline and setWriteDeadline set the socket's deadlines, through
// raw when it serves the socket (its blocking mode keeps its own).
func (c *conn) setReadDeadline(t time.Time) {
	if c.raw != nil {
		c.raw.SetReadDeadline(t)
		return
	}
	_ = c.nc.SetReadDeadline(t)
}

func (c *conn) setWriteDeadline(t time.Time) {
	if c.raw != nil {
		c.raw.SetWriteDeadline(t)
		return
	}
	_ = c.nc.SetWriteDeadline(t)
}

func (c *conn) newSession(info SessionInfo) (s Session, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.logger.Error("pgwire: panic in NewSession", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = sqlerr.New(sqlerr.InternalError, "internal error")
		}
	}()
	s, err = c.srv.cfg.Backend.NewSession(c.ctx, info)
	if u, ok := s.(ProtocolStatementsUser); ok && err == nil {
		u.SetProtocolStatements(connStatements{c})
	}
	return s, err
}

// startup runs the startup phase: SSLRequest and GSSENCRequest are refused
// with 'N' (the client then continues in plaintext on the same socket), a
// CancelRequest is served and ends the connection, a StartupMessage
// returns its parameters.
func (c *conn) startup() (map[string]string, bool) {
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(c.br, hdr[:]); err != nil {
			return nil, false
		}
		n := int(int32(binary.BigEndian.Uint32(hdr[:])))
		if n < 8 || n > maxStartupPacket {
			// PostgreSQL logs "invalid length of startup packet" as a
			// COMMERROR, sent to nobody, and closes: so do we.
			c.logger.Debug("pgwire: invalid length of startup packet", "length", n)
			return nil, false
		}
		body := make([]byte, n-4)
		if _, err := io.ReadFull(c.br, body); err != nil {
			return nil, false
		}
		code := binary.BigEndian.Uint32(body)
		switch {
		case code == sslRequestCode || code == gssEncRequestCode:
			if c.br.Buffered() > 0 {
				// Bytes after the request before our answer would be a
				// man-in-the-middle's injection (CVE-2021-23222 family).
				c.fatal(sqlerr.New(sqlerr.ProtocolViolation, "received unencrypted data after SSL request"))
				return nil, false
			}
			if code == sslRequestCode && c.srv.cfg.TLS != nil && !c.tls {
				if _, err := c.nc.Write([]byte{'S'}); err != nil {
					return nil, false
				}
				tc := tls.Server(c.nc, c.srv.cfg.TLS)
				if err := tc.HandshakeContext(c.ctx); err != nil {
					c.logger.Debug("pgwire: TLS handshake failed", "error", err)
					return nil, false
				}
				c.nc, c.br, c.tls = tc, bufio.NewReaderSize(tc, 16<<10), true
				continue
			}
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return nil, false
			}
		case code == cancelRequestCode:
			if len(body) >= 12 {
				c.srv.cancelRequest(binary.BigEndian.Uint32(body[4:]), body[8:])
			}
			return nil, false
		case code>>16 == 3:
			params, err := parseStartupParams(body[4:])
			if err != nil {
				c.fatal(err)
				return nil, false
			}
			if code&0xffff != 0 {
				// We speak 3.0 only; tell newer clients so, with the
				// protocol options (_pq_.*) we did not recognise, in the
				// order they came. The field carries the whole newest
				// version, 3.0 = 196608, as PostgreSQL sends it.
				opts := protocolOptions(body[4:])
				c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 3 << 16, UnrecognizedOptions: opts})
			}
			if c.srv.cfg.RequireTLS && !c.tls {
				c.fatal(sqlerr.New(sqlerr.InvalidAuthorizationSpec, "this server accepts TLS connections only").
					WithHint("Connect with sslmode=require (or verify-full)."))
				return nil, false
			}
			if params["user"] == "" {
				c.fatal(sqlerr.New(sqlerr.InvalidAuthorizationSpec, "no PostgreSQL user name specified in startup packet"))
				return nil, false
			}
			return params, true
		default:
			c.fatal(sqlerr.New(sqlerr.FeatureNotSupported, "unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xffff))
			return nil, false
		}
	}
}

// protocolOptions lists the _pq_.* parameter names of a well-formed startup
// packet's parameter list, in order.
func protocolOptions(b []byte) []string {
	var opts []string
	for len(b) > 0 && b[0] != 0 {
		k := bytes.IndexByte(b, 0)
		if k < 0 {
			break
		}
		key := b[:k]
		b = b[k+1:]
		v := bytes.IndexByte(b, 0)
		if v < 0 {
			break
		}
		b = b[v+1:]
		if bytes.HasPrefix(key, []byte("_pq_.")) {
			opts = append(opts, string(key))
		}
	}
	return opts
}

func parseStartupParams(b []byte) (map[string]string, *sqlerr.Error) {
	params := map[string]string{}
	for len(b) > 0 && b[0] != 0 {
		k := bytes.IndexByte(b, 0)
		if k < 0 {
			break
		}
		key := string(b[:k])
		b = b[k+1:]
		v := bytes.IndexByte(b, 0)
		if v < 0 {
			return nil, sqlerr.New(sqlerr.ProtocolViolation, "invalid startup packet layout: expected terminator as last byte")
		}
		params[key] = string(b[:v])
		b = b[v+1:]
	}
	if len(b) == 0 {
		return nil, sqlerr.New(sqlerr.ProtocolViolation, "invalid startup packet layout: expected terminator as last byte")
	}
	return params, nil
}

// statusKeys are the ParameterStatus values PostgreSQL 15 reports after
// authentication, with the values sqlgate sends when the session has none.
var statusKeys = [...]string{
	"application_name", "client_encoding", "DateStyle", "default_transaction_read_only",
	"in_hot_standby", "integer_datetimes", "IntervalStyle", "is_superuser",
	"server_encoding", "server_version", "session_authorization",
	"standard_conforming_strings", "TimeZone",
}

func (c *conn) sendInitialStatus(info SessionInfo) {
	for _, k := range statusKeys {
		v, ok := c.session.Status(k)
		if !ok {
			switch k {
			case "application_name":
				v = info.Params["application_name"]
			case "client_encoding", "server_encoding":
				v = "UTF8"
			case "DateStyle":
				v = "ISO, MDY"
			case "default_transaction_read_only", "in_hot_standby":
				v = "off"
			case "integer_datetimes", "is_superuser", "standard_conforming_strings":
				v = "on"
			case "IntervalStyle":
				v = "postgres"
			case "server_version":
				v = c.srv.cfg.ServerVersion
			case "session_authorization":
				v = info.User
			case "TimeZone":
				v = "UTC"
			}
		}
		c.send(&pgproto3.ParameterStatus{Name: k, Value: v})
	}
}

// sockReader is the source of the connection's first bufio.Reader: the
// net.Conn, or raw once set (after the startup, when nothing reads
// concurrently).
type sockReader struct {
	nc  net.Conn
	raw *rawSock
}

func (s *sockReader) Read(p []byte) (int, error) {
	if s.raw != nil {
		return s.raw.Read(p)
	}
	return s.nc.Read(p)
}

// frameReader is a reader goroutine's hand-over. handedBack is set before
// frames closes when the reader stopped after the end of a COPY's data
// (CopyDone or CopyFail), leaving the socket to the executor again.
type frameReader struct {
	frames     chan frame
	handedBack bool
}

// startReader starts a reader goroutine; with copyOnly it stops after the
// COPY data ends.
func (c *conn) startReader(copyOnly bool) {
	r := &frameReader{frames: make(chan frame, 4)}
	c.rd, c.frames = r, r.frames
	if c.raw != nil {
		c.raw.shared.Store(true) // the reader reads the socket now
	}
	if copyOnly && c.spareBodies == nil {
		c.spareBodies = make(chan []byte, spareBodies) // copy.go
	}
	go c.readLoop(r, copyOnly)
}

// maxReusedBody bounds the message bodies readInline reads into the
// connection's reused buffer (inBody); a longer one gets its own.
const maxReusedBody = 4 << 10

// readFrame reads one message. A length prefix out of bounds is a frame
// with err, before anything is allocated; an I/O error is returned. With
// reuse (readInline only) a short body is read into c.inBody, which the
// next readFrame overwrites: it is handled before then, and nothing keeps
// it (the handlers copy what outlives the message: names, SQL text,
// decoded parameters).
func (c *conn) readFrame(reuse bool) (frame, error) {
	if err := c.readFull(c.hdr[:]); err != nil {
		return frame{}, err
	}
	n := int64(int32(binary.BigEndian.Uint32(c.hdr[1:])))
	var f frame
	switch max := c.srv.cfg.MaxMessageSize; {
	case n < 4:
		f.err = sqlerr.New(sqlerr.ProtocolViolation, "invalid message length")
	case n-4 > int64(max):
		f.err = sqlerr.New(sqlerr.ProtocolViolation, "message length %d exceeds the maximum of %d bytes", n-4, max)
	default:
		f.typ = c.hdr[0]
		if reuse && n-4 <= maxReusedBody {
			if c.inBody == nil {
				c.inBody = make([]byte, maxReusedBody)
			}
			f.body = c.inBody[:n-4]
		} else if f.body = c.spareBody(int(n - 4)); f.body == nil {
			f.body = make([]byte, n-4)
		}
		if err := c.readFull(f.body); err != nil {
			return frame{}, err
		}
	}
	return f, nil
}

// readFull fills p from the connection's reader: io.ReadFull, with one
// copy out of the buffer when it holds all of p (a message's header and a
// short body usually arrive in one segment with the rest of the client's
// batch), which skips io.ReadFull's loop twice per message.
func (c *conn) readFull(p []byte) error {
	if len(p) > 0 && c.br.Buffered() >= len(p) {
		_, err := c.br.Read(p) // copies all of p: bufio reads from its buffer first
		return err
	}
	_, err := io.ReadFull(c.br, p)
	return err
}

// readLoop frames client messages and hands them to the executor. When the
// socket fails it cancels the connection's context, which cancels a running
// statement.
func (c *conn) readLoop(r *frameReader, copyOnly bool) {
	defer close(r.frames)
	defer func() {
		if rec := recover(); rec != nil {
			c.logger.Error("pgwire: panic in reader", "panic", fmt.Sprint(rec), "stack", string(debug.Stack()))
			c.cancel()
		}
	}()
	for {
		f, err := c.readFrame(false) // frames cross to the executor
		if err != nil {
			c.cancel() // the client is gone: stop whatever runs for it
			return
		}
		select {
		case r.frames <- f:
		case <-c.ctx.Done():
			return
		}
		if f.err != nil || f.typ == 'X' {
			return
		}
		if copyOnly && (f.typ == 'c' || f.typ == 'f') {
			r.handedBack = true
			return
		}
	}
}

// run is the executor loop: one message at a time, in order. While the
// session waits for a message after ReadyForQuery, the idle timeouts run.
func (c *conn) run() {
	readySent := true // the startup ended with ReadyForQuery
	for {
		f, ok := c.nextFrame(readySent)
		if !ok {
			return
		}
		if f.err != nil {
			f.err.Severity = "FATAL"
			c.fatal(f.err)
			return
		}
		if f.typ == 'X' {
			return
		}
		if c.watch != nil {
			c.watch.begin()
		}
		c.handle(f)
		if c.watch != nil {
			c.watch.end()
		}
		if c.writeErr != nil || c.fatalSent {
			return
		}
		readySent = f.typ == 'Q' || f.typ == 'S'
	}
}

// nextFrame returns the next message, from the reader goroutine while one
// runs, else read from the socket here. idle: ReadyForQuery was the last
// thing sent, so the idle timeouts apply to the wait. false ends the
// connection (what had to be said to the client was sent).
func (c *conn) nextFrame(idle bool) (frame, bool) {
	if c.rd != nil {
		f, ok, closed := c.receive(idle)
		if !closed || !c.rd.handedBack {
			return f, ok
		}
		c.rd, c.frames = nil, nil
		if c.raw != nil {
			c.raw.shared.Store(false) // the executor's alone again
		}
	}
	if c.listenReader() { // notify.go: a listening session is woken
		return c.nextFrame(idle)
	}
	return c.readInline(idle)
}

// receive takes the next frame from the reader goroutine; closed reports
// that its channel closed.
func (c *conn) receive(idle bool) (f frame, ok, closed bool) {
	if c.raw == nil {
		// A connection the blocking wait does not serve (TLS) counts as
		// busy for the one that may use it (blockwait_linux.go).
		c.srv.waits.Add(1)
	}
	var idleC <-chan time.Time
	var idleErr *sqlerr.Error
	if idle {
		if d, e := c.idleLimit(); d > 0 {
			t := time.NewTimer(d)
			defer t.Stop()
			idleC, idleErr = t.C, e
		}
	}
	for {
		select {
		case f, ok := <-c.frames:
			return f, ok, !ok
		case <-c.notifyC:
			// a notification for a listening session (notify.go): sent
			// now when it is idle, else before its next ReadyForQuery
			if idle && !c.pushNotifications() {
				return frame{}, false, false
			}
			continue
		case <-idleC:
			c.fatal(idleErr)
		case <-c.ctx.Done():
			c.connectionEnded()
		}
		return frame{}, false, false
	}
}

// readInline reads the next message from the socket in the executor's
// goroutine: no hand-off between goroutines, and no timer unless an idle
// timeout is set (then as the socket's read deadline).
func (c *conn) readInline(idle bool) (frame, bool) {
	if c.raw != nil && c.br.Buffered() == 0 {
		// A wait on the socket: counted, and the socket moved to or from
		// the blocking wait (blockwait_linux.go).
		c.raw.settle()
	}
	var idleErr *sqlerr.Error
	if idle {
		if d, e := c.idleLimit(); d > 0 {
			c.setReadDeadline(time.Now().Add(d))
			c.deadline, idleErr = true, e
		}
	}
	// After arming the deadline: a shutdown that set its own past deadline
	// before is seen here, one after makes the read fail.
	if c.ctx.Err() != nil {
		c.connectionEnded()
		return frame{}, false
	}
	f, err := c.readFrame(true)
	if c.deadline {
		c.setReadDeadline(time.Time{})
		c.deadline = false
	}
	if err != nil {
		var ne net.Error
		switch {
		case c.ctx.Err() != nil:
			c.connectionEnded()
		case idleErr != nil && errors.As(err, &ne) && ne.Timeout():
			c.fatal(idleErr)
		}
		return frame{}, false
	}
	return f, true
}

// connectionEnded tells the client why, when the server is shutting down;
// otherwise the client is gone and there is nobody to tell.
func (c *conn) connectionEnded() {
	if (c.srv.ctx.Err() != nil || c.terminated.Load()) && !c.fatalSent {
		c.fatal(terminatedError())
	}
}

// handle serves one message. A panic anywhere below is recovered here: it is
// logged with its stack, the client gets XX000 and the connection stays
// usable.
func (c *conn) handle(f frame) {
	extended := f.typ != 'Q' && f.typ != 'S' && f.typ != 'H'
	defer func() {
		if r := recover(); r != nil {
			c.logger.Error("pgwire: panic while serving a message", "message", string(f.typ), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			c.clearRunning()
			if c.rowMark >= 0 && c.rowMark <= len(c.out) {
				c.out = c.out[:c.rowMark] // drop the half-written DataRow
			}
			c.rowMark = -1
			c.sendError(sqlerr.New(sqlerr.InternalError, "internal error"))
			if extended {
				c.ignoreTillSync = true
			} else {
				c.sendReady()
			}
			_ = c.flush()
		}
	}()
	if c.ignoreTillSync && f.typ != 'S' {
		return
	}
	c.curSQL = "" // what an error belongs to (observer.go); set by Query, Parse and Execute
	var err error
	switch f.typ {
	case 'Q':
		c.handleQuery(f.body)
		return
	case 'S':
		c.handleSync()
		return
	case 'H':
		_ = c.flush()
		return
	case 'P':
		err = c.handleParse(f.body)
	case 'B':
		err = c.handleBind(f.body)
	case 'D':
		err = c.handleDescribe(f.body)
	case 'E':
		err = c.handleExecute(f.body)
	case 'C':
		err = c.handleClose(f.body)
	case 'd', 'c', 'f':
		// COPY data outside COPY is ignored, as PostgreSQL does.
		return
	default:
		err = sqlerr.New(sqlerr.ProtocolViolation, "invalid frontend message type %d", f.typ)
	}
	if err != nil {
		c.sendError(err)
		c.ignoreTillSync = true
	}
	if len(c.out) >= c.srv.cfg.FlushThreshold {
		_ = c.flush()
	}
}

func (c *conn) handleSync() {
	failed := c.ignoreTillSync
	c.ignoreTillSync = false
	c.endImplicit(!failed)
	if c.session.TxStatus() == 'I' {
		// The implicit transaction ends at Sync: so do its portals.
		c.closePortals()
	}
	c.sendReady()
	_ = c.flush()
}

// holdImplicit makes the statements that run from now until Sync (or the
// end of a simple Query string) one implicit transaction, as in PostgreSQL.
func (c *conn) holdImplicit() {
	if c.held {
		return
	}
	if it, ok := c.session.(ImplicitTransactions); ok {
		it.HoldImplicit()
		c.held = true
	}
}

// endImplicit commits (commit) or rolls back the implicit transaction
// holdImplicit began; a failed commit is reported to the client.
func (c *conn) endImplicit(commit bool) {
	if !c.held {
		return
	}
	c.held = false
	ctx, cancel := c.beginRunning(c.ctx)
	defer c.endRunning(ctx, cancel)
	if err := c.session.(ImplicitTransactions).EndImplicit(ctx, commit); err != nil {
		c.sendError(err)
	}
}

func (c *conn) sendReady() {
	if c.fatalSent {
		return // the connection ends: no ReadyForQuery after a FATAL
	}
	st := c.session.TxStatus()
	if st == 'I' && c.notifier != nil {
		c.appendNotifications() // notify.go: PostgreSQL's, before ReadyForQuery
	}
	c.out = appendReadyForQuery(c.out, st)
	c.obs.Ready(st)
}

// appendReadyForQuery appends ReadyForQuery with status st: the bytes
// pgproto3's encoder writes ('Z', length 5, the status), without boxing the
// message in an interface, which allocated at every Sync and Query.
func appendReadyForQuery(out []byte, st byte) []byte {
	return append(out, 'Z', 0, 0, 0, 5, st)
}

// beginRunning returns the context of a statement about to run, cancellable
// by a CancelRequest, and its cancel, which the caller passes to endRunning
// when the statement is over (a method call rather than a returned closure:
// this runs for every Query message, and the closure was an allocation).
func (c *conn) beginRunning(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := c.runSpare.get(parent)
	c.runMu.Lock()
	c.runCancel = cancel
	c.runMu.Unlock()
	return ctx, cancel
}

// endRunning ends what beginRunning began. The context is kept for the
// next statement when nothing cancelled it, as a portal's is (spareContext:
// a BEGIN or a COMMIT made and tore down one each): only a CancelRequest
// can cancel it (statement_timeout arms a child of its own,
// withStatementTimeout), and none can reach it once clearRunning returned.
func (c *conn) endRunning(ctx context.Context, cancel context.CancelFunc) {
	c.clearRunning()
	if ctx.Err() == nil {
		c.runSpare.put(ctx, cancel)
		return
	}
	cancel()
}

// watchPortal makes a CancelRequest cancel p while one of its Executes runs,
// until clearRunning.
func (c *conn) watchPortal(p *portal) {
	c.runMu.Lock()
	c.runCancel = p.cancel
	c.runMu.Unlock()
}

func (c *conn) clearRunning() {
	c.runMu.Lock()
	c.runCancel = nil
	c.runMu.Unlock()
}

// cancelRunning cancels the running statement. The cancel function is
// called under runMu, so that once clearRunning returns no cancel of the
// statement is still in flight: a portal's context may then be reused
// (portal.reusable).
func (c *conn) cancelRunning() {
	c.runMu.Lock()
	defer c.runMu.Unlock()
	if c.runCancel != nil {
		c.runCancel()
	}
}

func (c *conn) closePortals() {
	if p := c.portals.unnamed; p != nil {
		p.close()
		c.portals.unnamed = nil
		c.recyclePortal(p)
	}
	for name, p := range c.portals.named {
		p.close()
		delete(c.portals.named, name)
		c.recyclePortal(p)
	}
}

// portalSet is the connection's portals by name. The unnamed portal, which
// nearly every Bind replaces and Sync closes, is a field, so that a prepared
// statement executed again and again adds and removes no map entry per
// execution; the named ones (cursors a client keeps open) are in a map.
type portalSet struct {
	unnamed *portal
	named   map[string]*portal
}

// get is the portal called name, nil if none.
func (s *portalSet) get(name string) *portal {
	if name == "" {
		return s.unnamed
	}
	return s.named[name]
}

// getBytes is get of a name in a message's bytes, without a copy of it.
func (s *portalSet) getBytes(name []byte) *portal {
	if len(name) == 0 {
		return s.unnamed
	}
	return s.named[string(name)]
}

// put adds p under its name, replacing any portal of that name.
func (s *portalSet) put(p *portal) {
	if p.name == "" {
		s.unnamed = p
		return
	}
	s.named[p.name] = p
}

// remove forgets the portal called name.
func (s *portalSet) remove(name string) {
	if name == "" {
		s.unnamed = nil
		return
	}
	delete(s.named, name)
}

// len is how many portals are open.
func (s *portalSet) len() int {
	n := len(s.named)
	if s.unnamed != nil {
		n++
	}
	return n
}

// newPortal returns a zero portal: the one kept by recyclePortal, else a
// new one. A prepared statement executed again and again (Bind, Execute,
// Sync) then allocates no portal per execution.
func (c *conn) newPortal() *portal {
	if p := c.sparePortal; p != nil {
		c.sparePortal = nil
		return p
	}
	return &portal{}
}

// recyclePortal keeps p, closed and out of c.portals, for the next
// newPortal. Nothing else holds a portal: Execute registers its cancel
// function, not the portal, and the engine copies its parameters.
func (c *conn) recyclePortal(p *portal) {
	*p = portal{}
	c.sparePortal = p
}

// closeAll releases every portal and the session when the connection ends.
func (c *conn) closeAll() {
	c.closePortals()
	c.spareCtx.put(nil, nil)
	func() {
		defer func() {
			if r := recover(); r != nil {
				c.logger.Error("pgwire: panic in Session.Close", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		c.session.Close()
	}()
}

// send appends a message to the output buffer.
func (c *conn) send(msg pgproto3.BackendMessage) {
	out, err := msg.Encode(c.out)
	if err != nil {
		// Encode fails only on messages too large for the protocol.
		c.logger.Error("pgwire: cannot encode message", "error", err)
		return
	}
	c.out = out
}

// flush writes the output buffer. A write error means the client is gone:
// the connection's context is cancelled and the executor stops.
func (c *conn) flush() error {
	if c.writeErr != nil {
		return c.writeErr
	}
	if len(c.out) == 0 {
		return nil
	}
	var err error
	if c.streamSend > 0 {
		c.armStreamWrite() // stream.go
	}
	c.bytesOut += int64(len(c.out))
	if c.raw != nil {
		_, err = c.raw.Write(c.out)
	} else {
		_, err = c.nc.Write(c.out)
	}
	if cap(c.out) > 4*c.srv.cfg.FlushThreshold {
		c.out = nil // do not keep a huge buffer for the connection's life
	} else {
		c.out = c.out[:0]
	}
	if err != nil {
		c.writeErr = err
		c.cancel()
	}
	return err
}

// fatal sends a FATAL error and flushes; the caller then closes the socket.
func (c *conn) fatal(err error) {
	e := c.toSQLError(err)
	if e.Severity == "" {
		e.Severity = "FATAL"
	}
	c.sendErrorResponse(e)
	_ = c.flush()
}

// toSQLError maps any error to the *sqlerr.Error the client sees: context
// cancellation is 57014, any other non-SQL error is XX000 "internal error"
// (logged, never shown: Go error strings can leak internals).
func (c *conn) toSQLError(err error) *sqlerr.Error {
	e, internal := c.classify(err)
	if internal {
		c.logger.Error("pgwire: internal error", "error", err)
	}
	return e
}

// classify is toSQLError without the log line; internal reports an error
// that was not an SQL error (shown as XX000).
func (c *conn) classify(err error) (e *sqlerr.Error, internal bool) {
	if e := sqlerr.As(err); e != nil {
		cp := *e
		if cp.Code == sqlerr.QueryCanceled && c.terminated.Load() {
			return terminatedError(), false
		}
		if cp.Code == sqlerr.QueryCanceled && c.timedOut.Load() {
			cp.Message = statementTimeoutMessage
		}
		return &cp, false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if c.srv.ctx.Err() != nil || c.terminated.Load() {
			return terminatedError(), false
		}
		if c.timedOut.Load() {
			return sqlerr.New(sqlerr.QueryCanceled, statementTimeoutMessage), false
		}
		return sqlerr.CanceledByUser(), false
	}
	return sqlerr.New(sqlerr.InternalError, "internal error"), true
}

// terminatedError is what the client of a session ended by the server
// (shutdown, pg_terminate_backend) is told.
func terminatedError() *sqlerr.Error {
	return &sqlerr.Error{Code: sqlerr.AdminShutdown, Severity: "FATAL", Message: "terminating connection due to administrator command"}
}

func (c *conn) sendError(err error) {
	if tf, ok := c.session.(TransactionFailer); ok {
		tf.FailTransaction()
	}
	where := ""
	var cd *CopyDataError
	if errors.As(err, &cd) {
		where = cd.Where()
	}
	c.sendRuntimeNotices()
	var warned Noticer
	if errors.As(err, &warned) {
		c.sendNoticesOf(warned)
	}
	c.sendErrorResponseWhere(c.toSQLError(err), where)
}

func (c *conn) sendErrorResponse(e *sqlerr.Error) { c.sendErrorResponseWhere(e, "") }

func (c *conn) sendErrorResponseWhere(e *sqlerr.Error, where string) {
	sev := e.Severity
	if sev == "" {
		sev = "ERROR"
	}
	code := string(e.Code)
	if len(code) != 5 {
		code = string(sqlerr.InternalError)
	}
	if sev == "FATAL" || sev == "PANIC" {
		c.fatalSent = true
	}
	c.obs.ErrorSent(e, c.curSQL)
	c.send(&pgproto3.ErrorResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                code,
		Message:             e.Message,
		Detail:              e.Detail,
		Hint:                e.Hint,
		Position:            int32(e.Position),
		Where:               where,
	})
}

// sendStatusChanges reports changed session parameters (SET application_name
// and the like) as ParameterStatus messages.
func (c *conn) sendStatusChanges() {
	changes := c.session.StatusChanges()
	if len(changes) == 0 {
		return
	}
	// Sorted, so that the byte stream is deterministic.
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		c.send(&pgproto3.ParameterStatus{Name: k, Value: changes[k]})
		c.obs.StatusChanged(k, changes[k])
	}
}
