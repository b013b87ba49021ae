package protocol

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// target is one server the scripts run against.
type target struct {
	name string
	// addrs maps a connect directive's server= value ("" for the default)
	// to the address to dial.
	addrs map[string]string
}

// client is one open connection of a script.
type client struct {
	nc     net.Conn
	fe     *pgproto3.Frontend
	scram  scramState
	pid    uint32
	secret []byte
	eof    bool
}

// runner executes one script against one target.
type runner struct {
	tgt     target
	conns   map[string]*client
	timeout time.Duration
}

func (r *runner) close() {
	for _, c := range r.conns {
		_ = c.nc.Close()
	}
}

const defaultConn = "main"

func connName(d *directive) string {
	if n := d.args["conn"]; n != "" {
		return n
	}
	return defaultConn
}

// run executes d and returns its output lines.
func (r *runner) run(d *directive) ([]string, error) {
	switch d.cmd {
	case "connect":
		return nil, r.connect(d)
	case "send":
		c, err := r.conn(d)
		if err != nil {
			return nil, err
		}
		var buf []byte
		for _, l := range d.input {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			b, err := encodeFrontend(l, &c.scram)
			if err != nil {
				return nil, fmt.Errorf("line %q: %v", l, err)
			}
			buf = append(buf, b...)
		}
		_ = c.nc.SetWriteDeadline(time.Now().Add(r.timeout))
		_, err = c.nc.Write(buf)
		return nil, err
	case "until":
		c, err := r.conn(d)
		if err != nil {
			return nil, err
		}
		want := d.input
		if len(want) == 0 {
			want = []string{"ReadyForQuery"}
		}
		return r.until(c, want)
	case "readbyte":
		// The one-byte answer to SSLRequest / GSSEncRequest, which is not a
		// message. It must be read before anything else on the connection.
		c, err := r.conn(d)
		if err != nil {
			return nil, err
		}
		_ = c.nc.SetReadDeadline(time.Now().Add(r.timeout))
		var b [1]byte
		if _, err := io.ReadFull(c.nc, b[:]); err != nil {
			return []string{"EOF"}, nil
		}
		return []string{fmt.Sprintf("%q", b[0])}, nil
	case "cancel":
		c, err := r.conn(d)
		if err != nil {
			return nil, err
		}
		_, wrong := d.args["wrong-secret"]
		return nil, r.cancel(c, d.args["server"], wrong)
	case "sleep":
		dur, err := time.ParseDuration(d.args["for"])
		if err != nil {
			return nil, fmt.Errorf("sleep for=DURATION: %v", err)
		}
		time.Sleep(dur)
		return nil, nil
	case "close":
		c, err := r.conn(d)
		if err != nil {
			return nil, err
		}
		_ = c.nc.Close()
		delete(r.conns, connName(d))
		return nil, nil
	}
	return nil, fmt.Errorf("unknown directive %q", d.cmd)
}

func (r *runner) conn(d *directive) (*client, error) {
	c := r.conns[connName(d)]
	if c == nil {
		return nil, fmt.Errorf("no connection %q (connect first)", connName(d))
	}
	return c, nil
}

func (r *runner) dial(server string) (net.Conn, error) {
	addr, ok := r.tgt.addrs[server]
	if !ok {
		return nil, fmt.Errorf("unknown server %q", server)
	}
	return net.DialTimeout("tcp", addr, r.timeout)
}

// connect opens a connection. Without raw, it also runs the startup as
// user postgres (or user=) on database postgres under trust and checks it
// ends in ReadyForQuery, keeping BackendKeyData for cancel.
func (r *runner) connect(d *directive) error {
	name := connName(d)
	if old := r.conns[name]; old != nil {
		_ = old.nc.Close()
	}
	nc, err := r.dial(d.args["server"])
	if err != nil {
		return err
	}
	c := &client{nc: nc, fe: pgproto3.NewFrontend(nc, io.Discard)}
	r.conns[name] = c
	if _, raw := d.args["raw"]; raw {
		return nil
	}
	user := d.args["user"]
	if user == "" {
		user = "postgres"
	}
	msg := &pgproto3.StartupMessage{
		ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters:      map[string]string{"user": user, "database": "postgres", "TimeZone": "UTC"},
	}
	b, _ := msg.Encode(nil)
	if _, err := nc.Write(b); err != nil {
		return err
	}
	out, err := r.until(c, []string{"ReadyForQuery"})
	if err != nil {
		return err
	}
	for _, l := range out {
		if strings.Contains(l, `"ErrorResponse"`) || l == "EOF" {
			return fmt.Errorf("startup failed: %s", strings.Join(out, "\n"))
		}
	}
	return nil
}

// until reads messages until each of want's types was seen in order (or
// the connection ends: the output then ends with the line EOF).
func (r *runner) until(c *client, want []string) ([]string, error) {
	var out []string
	for len(want) > 0 {
		if c.eof {
			return nil, errors.New("until on a connection that already ended")
		}
		_ = c.nc.SetReadDeadline(time.Now().Add(r.timeout))
		msg, err := c.fe.Receive()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return out, fmt.Errorf("timed out waiting for %s; got so far:\n%s", want[0], strings.Join(out, "\n"))
			}
			c.eof = true
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
				return append(out, "EOF"), nil
			}
			return append(out, "receive error: "+err.Error()), nil
		}
		if k, ok := msg.(*pgproto3.BackendKeyData); ok {
			c.pid, c.secret = k.ProcessID, append([]byte(nil), k.SecretKey...)
		}
		line, err := renderBackend(msg, &c.scram)
		if err != nil {
			return out, err
		}
		out = append(out, line)
		if strings.HasPrefix(line, `{"Type":"`+want[0]+`"`) {
			want = want[1:]
		}
	}
	return out, nil
}

// cancel sends a CancelRequest for c (with a wrong secret when asked) on a
// new connection and waits for the server to close that connection, as
// both servers do after reading it.
func (r *runner) cancel(c *client, server string, wrongSecret bool) error {
	if c.secret == nil {
		return errors.New("cancel: the connection has no BackendKeyData")
	}
	secret := c.secret
	if wrongSecret {
		secret = append([]byte(nil), secret...)
		secret[0] ^= 0xff
	}
	nc, err := r.dial(server)
	if err != nil {
		return err
	}
	defer nc.Close()
	if _, err := nc.Write(cancelRequest(c.pid, secret)); err != nil {
		return err
	}
	_ = nc.SetReadDeadline(time.Now().Add(r.timeout))
	n, err := io.Copy(io.Discard, nc)
	if err != nil {
		return fmt.Errorf("cancel: waiting for the server to close: %v", err)
	}
	if n != 0 {
		return fmt.Errorf("cancel: the server answered %d bytes", n)
	}
	return nil
}
