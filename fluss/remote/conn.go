package remote

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
)

// API keys (ApiKeys.java) and the highest version of each this client
// speaks. Negotiation (ApiVersions) picks, per API, the highest version both
// sides support, so a 1.0 server that added PutKv v2 still gets v1 from us.
const (
	apiVersions     int16 = 1000
	apiCreateDB     int16 = 1001
	apiDropDB       int16 = 1002
	apiListDBs      int16 = 1003
	apiDBExists     int16 = 1004
	apiCreateTable  int16 = 1005
	apiDropTable    int16 = 1006
	apiGetTableInfo int16 = 1007
	apiListTables   int16 = 1008
	apiTableExists  int16 = 1010
	apiGetSchema    int16 = 1011
	apiGetMetadata  int16 = 1012
	apiProduceLog   int16 = 1014
	apiFetchLog     int16 = 1015
	apiPutKv        int16 = 1016
	apiLookup       int16 = 1017
	apiListOffsets  int16 = 1021
	apiInitWriter   int16 = 1026
	apiLimitScan    int16 = 1033
	apiPrefixLookup int16 = 1034
	apiAuthenticate int16 = 1038
	// partitions (partitions.go)
	apiListPartitions  int16 = 1009
	apiCreatePartition int16 = 1036
	apiDropPartition   int16 = 1037
)

// ourVersions is [min, max] per API this client implements. PutKv, Lookup
// and PrefixLookup v1 declare that keys are CompactedKeyEncoder bytes even
// when the bucket key differs from the primary key (kv format version 2),
// which is what fluss/format writes.
var ourVersions = map[int16][2]int16{
	apiVersions: {0, 0}, apiCreateDB: {0, 0}, apiDropDB: {0, 0}, apiListDBs: {0, 0}, apiDBExists: {0, 0},
	apiCreateTable: {0, 0}, apiDropTable: {0, 0}, apiGetTableInfo: {0, 0}, apiListTables: {0, 0},
	apiTableExists: {0, 0}, apiGetSchema: {0, 0}, apiGetMetadata: {0, 0}, apiProduceLog: {0, 0},
	apiFetchLog: {0, 0}, apiPutKv: {0, 1}, apiLookup: {0, 1}, apiListOffsets: {0, 0}, apiInitWriter: {0, 0},
	apiLimitScan: {0, 0}, apiPrefixLookup: {0, 1}, apiAuthenticate: {0, 0}, apiAlterTable: {0, 0},
	apiListPartitions: {0, 0}, apiCreatePartition: {0, 0}, apiDropPartition: {0, 0},
}

var apiNames = map[int16]string{
	apiVersions: "ApiVersions", apiCreateDB: "CreateDatabase", apiDropDB: "DropDatabase",
	apiListDBs: "ListDatabases", apiDBExists: "DatabaseExists", apiCreateTable: "CreateTable",
	apiDropTable: "DropTable", apiGetTableInfo: "GetTableInfo", apiListTables: "ListTables",
	apiTableExists: "TableExists", apiGetSchema: "GetTableSchema", apiGetMetadata: "GetMetadata",
	apiProduceLog: "ProduceLog", apiFetchLog: "FetchLog", apiPutKv: "PutKv", apiLookup: "Lookup",
	apiListOffsets: "ListOffsets", apiInitWriter: "InitWriter", apiLimitScan: "LimitScan",
	apiPrefixLookup: "PrefixLookup", apiAuthenticate: "Authenticate", apiAlterTable: "AlterTable",
	apiListPartitions: "ListPartitionInfos", apiCreatePartition: "CreatePartition", apiDropPartition: "DropPartition",
}

// Frame layout (MessageCodec.java): every integer big-endian.
const (
	requestHeaderLen  = 8 // int16 apiKey, int16 apiVersion, int32 requestId
	responseHeaderLen = 5 // int8 type, int32 requestId
	respSuccess       = 0
	respError         = 1
	respServerFailure = 2 // int8 type, then ErrorResponse; no request id
)

// DefaultMaxFrame caps a response frame's length. A FetchLog answer is at
// most its max_bytes (16 MiB by default here) plus headers; a frame claiming
// more than the cap is a corrupt stream, not something to allocate for.
const DefaultMaxFrame = 128 << 20

type result struct {
	body []byte
	err  error
}

// conn is one TCP connection to one Fluss server, multiplexing concurrent
// requests by request id: callers write a frame under wmu and wait on their
// own channel; one reader goroutine routes each response frame, in whatever
// order the server sends them, to the waiting caller. When the connection
// breaks, every waiting caller gets the error and the conn is dropped from
// the client's pool; it is never reused.
type conn struct {
	addr     string
	nc       net.Conn
	maxFrame int

	wmu sync.Mutex // serialises frame writes

	mu       sync.Mutex
	nextID   int32
	pending  map[int32]chan result
	err      error // set once, when the connection breaks or is closed
	versions map[int16]int16

	done chan struct{} // closed when the reader goroutine has exited
}

// dialConn connects, negotiates API versions and authenticates. ctx bounds
// the whole handshake.
func dialConn(ctx context.Context, cfg *Config, addr string) (*conn, error) {
	nc, err := cfg.dial(ctx, addr)
	if err != nil {
		return nil, &ConnError{Addr: addr, Err: err, NotSent: true}
	}
	c := &conn{addr: addr, nc: nc, maxFrame: cfg.maxFrame(), pending: make(map[int32]chan result), done: make(chan struct{})}
	go c.readLoop()
	if err := c.handshake(ctx, cfg); err != nil {
		c.close(err)
		<-c.done
		var ce *ConnError
		if errors.As(err, &ce) || errors.Is(err, context.DeadlineExceeded) {
			return nil, &ConnError{Addr: addr, Err: fmt.Errorf("handshake: %w", err), NotSent: true}
		}
		return nil, err
	}
	return c, nil
}

func (c *conn) handshake(ctx context.Context, cfg *Config) error {
	var vr pb.ApiVersionsResponse
	req := &pb.ApiVersionsRequest{ClientSoftwareName: proto.String("sqlgate"), ClientSoftwareVersion: proto.String(clientVersion)}
	if err := c.callVersion(ctx, apiVersions, 0, req, &vr); err != nil {
		return err
	}
	theirs := make(map[int16][2]int32, len(vr.ApiVersions))
	for _, v := range vr.ApiVersions {
		theirs[int16(v.GetApiKey())] = [2]int32{v.GetMinVersion(), v.GetMaxVersion()}
	}
	versions := make(map[int16]int16, len(ourVersions))
	for api, ours := range ourVersions {
		t, ok := theirs[api]
		if !ok {
			continue // absent: calls fail with UNSUPPORTED_VERSION naming the API
		}
		v := min(int32(ours[1]), t[1])
		if v < int32(ours[0]) || v < t[0] {
			continue
		}
		versions[api] = int16(v)
	}
	c.mu.Lock()
	c.versions = versions
	c.mu.Unlock()
	if cfg.Username == "" {
		return nil
	}
	// SASL/PLAIN (RFC 4616): authzid NUL authcid NUL password, one round.
	token := append(append(append([]byte{0}, cfg.Username...), 0), cfg.Password...)
	var ar pb.AuthenticateResponse
	if err := c.call(ctx, apiAuthenticate, &pb.AuthenticateRequest{Protocol: proto.String("PLAIN"), Token: token}, &ar); err != nil {
		return err
	}
	if len(ar.Challenge) != 0 {
		return &Error{Code: CodeAuthenticate, API: "Authenticate", Message: "server sent a challenge to SASL/PLAIN"}
	}
	return nil
}

// call sends req with the negotiated version of api and decodes the answer
// into resp.
func (c *conn) call(ctx context.Context, api int16, req, resp proto.Message) error {
	c.mu.Lock()
	v, ok := c.versions[api]
	c.mu.Unlock()
	if !ok {
		return &Error{Code: CodeUnsupportedVersion, API: apiNames[api],
			Message: fmt.Sprintf("server %s supports no version of %s that this client speaks", c.addr, apiNames[api])}
	}
	return c.callVersion(ctx, api, v, req, resp)
}

func (c *conn) callVersion(ctx context.Context, api, version int16, req, resp proto.Message) error {
	body, err := proto.Marshal(req)
	if err != nil {
		return fmt.Errorf("fluss %s: encoding request: %w", apiNames[api], err)
	}
	// A request cancelled before it is written must not start a write: a
	// write cut short breaks the connection every other caller shares.
	if err := ctx.Err(); err != nil {
		return err
	}
	ch := make(chan result, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.nextID++
	if c.nextID < 0 {
		c.nextID = 0
	}
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	unregister := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}

	frame := make([]byte, 4+requestHeaderLen, 4+requestHeaderLen+len(body))
	binary.BigEndian.PutUint32(frame[0:], uint32(requestHeaderLen+len(body)))
	binary.BigEndian.PutUint16(frame[4:], uint16(api))
	binary.BigEndian.PutUint16(frame[6:], uint16(version))
	binary.BigEndian.PutUint32(frame[8:], uint32(id))
	frame = append(frame, body...)
	if err := c.write(ctx, frame); err != nil {
		unregister()
		return err
	}

	select {
	case r := <-ch:
		if r.err != nil {
			if e, ok := r.err.(*Error); ok && e.API == "" {
				e.API = apiNames[api]
			}
			return r.err
		}
		if err := (proto.UnmarshalOptions{AllowPartial: true, DiscardUnknown: true}).Unmarshal(r.body, resp); err != nil {
			return &ProtocolError{Msg: fmt.Sprintf("%s response from %s does not decode: %v", apiNames[api], c.addr, err)}
		}
		return nil
	case <-ctx.Done():
		// The answer, if it comes, is dropped by the reader (no pending id).
		unregister()
		return ctx.Err()
	}
}

// write sends one frame; a write that fails or is cut short by ctx breaks
// the connection (a partial frame would desynchronise the stream).
func (c *conn) write(ctx context.Context, frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.nc.SetWriteDeadline(dl)
	} else {
		_ = c.nc.SetWriteDeadline(time.Time{})
	}
	stop := context.AfterFunc(ctx, func() { _ = c.nc.SetWriteDeadline(time.Unix(1, 0)) })
	_, err := c.nc.Write(frame)
	stop()
	if err != nil {
		cerr := &ConnError{Addr: c.addr, Err: err}
		if ctx.Err() != nil {
			cerr.Err = ctx.Err()
		}
		c.close(cerr)
		return cerr
	}
	return nil
}

func (c *conn) readLoop() {
	defer close(c.done)
	r := bufio.NewReaderSize(c.nc, 64<<10)
	var hdr [4]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			c.close(&ConnError{Addr: c.addr, Err: readErr(err)})
			return
		}
		n := int64(binary.BigEndian.Uint32(hdr[:]))
		if hdr[0]&0x80 != 0 || n < 1 || n > int64(c.maxFrame) {
			c.close(&ConnError{Addr: c.addr, Err: &ProtocolError{Msg: fmt.Sprintf("response frame length %d outside 1..%d", int32(n), c.maxFrame)}})
			return
		}
		frame := make([]byte, n)
		if _, err := io.ReadFull(r, frame); err != nil {
			c.close(&ConnError{Addr: c.addr, Err: fmt.Errorf("response frame of %d bytes cut short: %w", n, readErr(err))})
			return
		}
		switch frame[0] {
		case respSuccess, respError:
			if len(frame) < responseHeaderLen {
				c.close(&ConnError{Addr: c.addr, Err: &ProtocolError{Msg: fmt.Sprintf("response frame of %d bytes has no request id", n)}})
				return
			}
			id := int32(binary.BigEndian.Uint32(frame[1:]))
			body := frame[responseHeaderLen:]
			res := result{body: body}
			if frame[0] == respError {
				res = result{err: decodeErrorResponse(body, c.addr)}
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- res
			}
		case respServerFailure:
			// Not tied to a request: the server could not read our stream.
			// Every request in flight is lost with the connection.
			c.close(&ConnError{Addr: c.addr, Err: decodeErrorResponse(frame[1:], c.addr)})
			return
		default:
			c.close(&ConnError{Addr: c.addr, Err: &ProtocolError{Msg: fmt.Sprintf("unknown response type %d", frame[0])}})
			return
		}
	}
}

func readErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("server closed the connection")
	}
	return err
}

func decodeErrorResponse(body []byte, addr string) error {
	var er pb.ErrorResponse
	if err := (proto.UnmarshalOptions{AllowPartial: true, DiscardUnknown: true}).Unmarshal(body, &er); err != nil || er.ErrorCode == nil {
		return &ProtocolError{Msg: fmt.Sprintf("error response from %s does not decode", addr)}
	}
	return &Error{Code: er.GetErrorCode(), Message: firstLine(er.GetErrorMessage())}
}

// firstLine drops the Java stack trace the server appends to unexpected
// errors: the exception's own line says what failed.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// close breaks the connection with err (the first error wins) and fails
// every waiting request with it.
func (c *conn) close(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	_ = c.nc.Close()
	for _, ch := range pending {
		ch <- result{err: err}
	}
}

// broken reports whether the connection can no longer carry requests.
func (c *conn) broken() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err != nil
}
