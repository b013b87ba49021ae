package remote

// A Fluss server that misbehaves on purpose (issue 26, acceptance 5): the
// client must turn malformed, truncated, unknown, out-of-order, dropped and
// missing answers into clear errors, never a panic, a hang or a leaked
// goroutine.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/types"
)

// noLeak fails the test if goroutines started during it outlive it (after
// its cleanups, which close clients and servers, have run).
func noLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(3 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				n := runtime.Stack(buf, true)
				t.Errorf("%d goroutines before the test, %d after:\n%s", before, runtime.NumGoroutine(), buf[:n])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

type request struct {
	api, version int16
	id           int32
	body         []byte
}

// fakeServer answers frames with handle; ApiVersions, GetMetadata and
// Authenticate get well-formed default answers unless handle takes them
// (returns true).
type fakeServer struct {
	t        *testing.T
	ln       net.Listener
	handle   func(fc *fakeConn, r request) bool
	versions map[int16][2]int32 // overrides of the advertised versions
	user     string             // expected SASL/PLAIN user:password, if set
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn
	metadata atomic.Int32
	seen     sync.Map // api -> last version received
}

type fakeConn struct {
	nc  net.Conn
	wmu sync.Mutex
}

func (fc *fakeConn) raw(b []byte) {
	fc.wmu.Lock()
	defer fc.wmu.Unlock()
	_, _ = fc.nc.Write(b)
}

func frame(typ byte, id int32, body []byte) []byte {
	b := make([]byte, 9, 9+len(body))
	binary.BigEndian.PutUint32(b, uint32(5+len(body)))
	b[4] = typ
	binary.BigEndian.PutUint32(b[5:], uint32(id))
	return append(b, body...)
}

func (fc *fakeConn) reply(id int32, m proto.Message) {
	body, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	fc.raw(frame(respSuccess, id, body))
}

func (fc *fakeConn) replyError(id int32, code int32, msg string) {
	body, _ := proto.Marshal(&pb.ErrorResponse{ErrorCode: proto.Int32(code), ErrorMessage: proto.String(msg)})
	fc.raw(frame(respError, id, body))
}

func newFake(t *testing.T, handle func(fc *fakeConn, r request) bool) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeServer{t: t, ln: ln, handle: handle}
	s.wg.Add(1)
	go s.accept()
	t.Cleanup(s.close)
	return s
}

func (s *fakeServer) addr() string { return s.ln.Addr().String() }

func (s *fakeServer) close() {
	_ = s.ln.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *fakeServer) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns = append(s.conns, nc)
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serve(&fakeConn{nc: nc})
	}
}

func (s *fakeServer) serve(fc *fakeConn) {
	defer s.wg.Done()
	defer fc.nc.Close()
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(fc.nc, hdr[:]); err != nil {
			return
		}
		b := make([]byte, binary.BigEndian.Uint32(hdr[:]))
		if _, err := io.ReadFull(fc.nc, b); err != nil {
			return
		}
		r := request{api: int16(binary.BigEndian.Uint16(b)), version: int16(binary.BigEndian.Uint16(b[2:])),
			id: int32(binary.BigEndian.Uint32(b[4:])), body: b[8:]}
		s.seen.Store(r.api, r.version)
		if s.handle != nil && s.handle(fc, r) {
			continue
		}
		s.standard(fc, r)
	}
}

// standard answers the handshake and metadata as a one-server cluster whose
// only tablet server (id 1) is this server and leads every bucket.
func (s *fakeServer) standard(fc *fakeConn, r request) {
	switch r.api {
	case apiVersions:
		var resp pb.ApiVersionsResponse
		for api, v := range ourVersions {
			mn, mx := int32(0), int32(v[1])
			if o, ok := s.versions[api]; ok {
				mn, mx = o[0], o[1]
			}
			resp.ApiVersions = append(resp.ApiVersions, &pb.PbApiVersion{ApiKey: proto.Int32(int32(api)),
				MinVersion: proto.Int32(mn), MaxVersion: proto.Int32(mx)})
		}
		fc.reply(r.id, &resp)
	case apiAuthenticate:
		var req pb.AuthenticateRequest
		_ = proto.Unmarshal(r.body, &req)
		parts := strings.Split(string(req.Token), "\x00")
		if req.GetProtocol() != "PLAIN" || len(parts) != 3 || parts[1]+":"+parts[2] != s.user {
			fc.replyError(r.id, CodeAuthenticate, "bad credentials")
			return
		}
		fc.reply(r.id, &pb.AuthenticateResponse{})
	case apiGetMetadata:
		s.metadata.Add(1)
		host, port, _ := net.SplitHostPort(s.addr())
		var p int
		fmt.Sscan(port, &p)
		node := &pb.PbServerNode{NodeId: proto.Int32(1), Host: proto.String(host), Port: proto.Int32(int32(p))}
		resp := &pb.MetadataResponse{CoordinatorServer: node, TabletServers: []*pb.PbServerNode{node}}
		var req pb.MetadataRequest
		_ = proto.Unmarshal(r.body, &req)
		for _, tp := range req.TablePath {
			resp.TableMetadata = append(resp.TableMetadata, &pb.PbTableMetadata{TablePath: tp, TableId: proto.Int64(7),
				SchemaId: proto.Int32(1), BucketMetadata: []*pb.PbBucketMetadata{{BucketId: proto.Int32(0), LeaderId: proto.Int32(1)}}})
		}
		fc.reply(r.id, resp)
	default:
		fc.replyError(r.id, CodeUnknownServerError, "the fake server does not answer this")
	}
}

func fakeClient(t *testing.T, s *fakeServer, mod func(*Config)) *Client {
	t.Helper()
	cfg := Config{Bootstrap: []string{s.addr()}, RequestTimeout: 2 * time.Second, Retries: 2, RetryBackoff: time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

var kvTable = Table{Path: fluss.TablePath{Database: "db", Table: "t"}, ID: 7}

// TestFakeBadResponses: each way of breaking a ListDatabases answer gives
// an error naming what was wrong, and the client still works afterwards.
func TestFakeBadResponses(t *testing.T) {
	cases := []struct {
		name  string
		write func(fc *fakeConn, id int32)
		want  string
	}{
		{"body not protobuf", func(fc *fakeConn, id int32) { fc.raw(frame(respSuccess, id, []byte{0xff, 0xff, 0xff})) }, "does not decode"},
		{"frame cut short", func(fc *fakeConn, id int32) {
			b := frame(respSuccess, id, []byte("0123456789"))
			fc.raw(b[:len(b)-4])
			_ = fc.nc.Close()
		}, "cut short"},
		{"frame too long", func(fc *fakeConn, id int32) { fc.raw([]byte{0x7f, 0xff, 0xff, 0xff, 0}) }, "outside 1.."},
		{"frame length negative", func(fc *fakeConn, id int32) { fc.raw([]byte{0xff, 0xff, 0xff, 0xf0, 0}) }, "outside 1.."},
		{"frame length zero", func(fc *fakeConn, id int32) { fc.raw([]byte{0, 0, 0, 0}) }, "outside 1.."},
		{"no request id", func(fc *fakeConn, id int32) { fc.raw([]byte{0, 0, 0, 2, 0, 1}) }, "no request id"},
		{"unknown response type", func(fc *fakeConn, id int32) { fc.raw(frame(9, id, nil)) }, "unknown response type 9"},
		{"unknown error code", func(fc *fakeConn, id int32) { fc.replyError(id, 999, "something new") }, "unknown error code 999: something new"},
		{"error response garbage", func(fc *fakeConn, id int32) { fc.raw(frame(respError, id, []byte{0x0a})) }, "error response from"},
		{"server failure frame", func(fc *fakeConn, id int32) {
			body, _ := proto.Marshal(&pb.ErrorResponse{ErrorCode: proto.Int32(CodeCorruptMessage), ErrorMessage: proto.String("bad frame")})
			b := make([]byte, 5, 5+len(body))
			binary.BigEndian.PutUint32(b, uint32(1+len(body)))
			b[4] = respServerFailure
			fc.raw(append(b, body...))
		}, "CORRUPT_MESSAGE: bad frame"},
		{"closed mid-request", func(fc *fakeConn, id int32) { _ = fc.nc.Close() }, "server closed the connection"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			noLeak(t)
			var bad atomic.Bool
			bad.Store(true)
			s := newFake(t, func(fc *fakeConn, r request) bool {
				if r.api == apiListDBs && bad.Load() {
					tc.write(fc, r.id)
					return true
				}
				if r.api == apiListDBs {
					fc.reply(r.id, &pb.ListDatabasesResponse{DatabaseName: []string{"fluss"}})
					return true
				}
				return false
			})
			c := fakeClient(t, s, func(c *Config) { c.Retries = 1 })
			_, err := c.ListDatabases(testCtx(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
			bad.Store(false)
			dbs, err := c.ListDatabases(testCtx(t))
			if err != nil || len(dbs) != 1 || dbs[0] != "fluss" {
				t.Fatalf("after the bad answer: %v, %v", dbs, err)
			}
		})
	}
}

// TestFakeUnknownErrorNotRetried: an error code the client does not know
// is not retried (it cannot know the request is safe to repeat).
func TestFakeUnknownErrorNotRetried(t *testing.T) {
	noLeak(t)
	var calls atomic.Int32
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api == apiListDBs {
			calls.Add(1)
			fc.replyError(r.id, 4242, "")
			return true
		}
		return false
	})
	c := fakeClient(t, s, func(c *Config) { c.Retries = 5 })
	_, err := c.ListDatabases(testCtx(t))
	if CodeOf(err) != 4242 || calls.Load() != 1 {
		t.Fatalf("err %v after %d calls; want code 4242 after 1", err, calls.Load())
	}
}

// TestFakeOutOfOrder: many concurrent requests on one connection, answered
// in reverse order, each get their own answer.
func TestFakeOutOfOrder(t *testing.T) {
	noLeak(t)
	const n = 16
	var mu sync.Mutex
	var held []request
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api != apiListTables {
			return false
		}
		mu.Lock()
		held = append(held, r)
		if len(held) == n {
			for i := len(held) - 1; i >= 0; i-- {
				var req pb.ListTablesRequest
				_ = proto.Unmarshal(held[i].body, &req)
				fc.reply(held[i].id, &pb.ListTablesResponse{TableName: []string{req.GetDatabaseName() + "_t"}})
			}
		}
		mu.Unlock()
		return true
	})
	c := fakeClient(t, s, nil)
	if _, err := c.DatabaseExists(testCtx(t), "warm"); err == nil {
		t.Fatal("want the fake's refusal of DatabaseExists")
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db := fmt.Sprintf("db%d", i)
			got, err := c.ListTables(testCtx(t), db)
			if err == nil && (len(got) != 1 || got[0] != db+"_t") {
				err = fmt.Errorf("ListTables(%s) = %v", db, got)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	c.mu.Lock()
	nconns := len(c.conns)
	c.mu.Unlock()
	if nconns != 1 {
		t.Errorf("%d connections to one server, want 1", nconns)
	}
}

// TestFakeNeverAnswers: a request the server never answers fails after the
// request timeout; one whose context is cancelled returns at once.
func TestFakeNeverAnswers(t *testing.T) {
	noLeak(t)
	s := newFake(t, func(fc *fakeConn, r request) bool { return r.api == apiListDBs || r.api == apiLookup })
	c := fakeClient(t, s, func(c *Config) { c.RequestTimeout = 150 * time.Millisecond; c.Retries = 1 })
	start := time.Now()
	_, err := c.ListDatabases(testCtx(t))
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	c2 := fakeClient(t, s, func(c *Config) { c.RequestTimeout = time.Minute })
	_, err = c2.Lookup(ctx, kvTable, 0, [][]byte{{1}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestFakeLeaderMoved: NOT_LEADER_OR_FOLLOWER makes the client refresh the
// metadata and retry; the answer then arrives.
func TestFakeLeaderMoved(t *testing.T) {
	noLeak(t)
	var lookups atomic.Int32
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api != apiLookup {
			return false
		}
		resp := &pb.PbLookupRespForBucket{BucketId: proto.Int32(0)}
		if lookups.Add(1) <= 2 {
			resp.ErrorCode, resp.ErrorMessage = proto.Int32(CodeNotLeaderOrFollower), proto.String("moved")
		} else {
			resp.Values = []*pb.PbValue{{Values: []byte{1, 0, 42}}, {}}
		}
		fc.reply(r.id, &pb.LookupResponse{BucketsResp: []*pb.PbLookupRespForBucket{resp}})
		return true
	})
	c := fakeClient(t, s, func(c *Config) { c.Retries = 3 })
	vals, err := c.Lookup(testCtx(t), kvTable, 0, [][]byte{{1}, {2}})
	if err != nil || len(vals) != 2 || string(vals[0]) != "\x01\x00\x2a" || vals[1] != nil {
		t.Fatalf("Lookup = %v, %v", vals, err)
	}
	if m := s.metadata.Load(); m < 3 {
		t.Fatalf("%d metadata requests, want a refresh per NOT_LEADER (>= 3)", m)
	}
	// A non-retriable per-bucket error comes back at once.
	lookups.Store(-100)
	s2 := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api != apiLookup {
			return false
		}
		fc.reply(r.id, &pb.LookupResponse{BucketsResp: []*pb.PbLookupRespForBucket{{BucketId: proto.Int32(0),
			ErrorCode: proto.Int32(CodeNonPrimaryKeyTable), ErrorMessage: proto.String("log table")}}})
		return true
	})
	_, err = fakeClient(t, s2, nil).Lookup(testCtx(t), kvTable, 0, [][]byte{{1}})
	if CodeOf(err) != CodeNonPrimaryKeyTable || !strings.Contains(err.Error(), "Lookup") {
		t.Fatalf("err = %v", err)
	}
}

// TestFakeProduceNotResentBlindly: a produce without a writer id whose
// answer is lost is not sent again (it might append twice); an idempotent
// one is, and the server sees the same writer id and sequence.
func TestFakeProduceNotResentBlindly(t *testing.T) {
	noLeak(t)
	var produces atomic.Int32
	var seqs sync.Map
	s := newFake(t, func(fc *fakeConn, r request) bool {
		switch r.api {
		case apiInitWriter:
			fc.reply(r.id, &pb.InitWriterResponse{WriterId: proto.Int64(77)})
			return true
		case apiProduceLog:
			var req pb.ProduceLogRequest
			_ = proto.Unmarshal(r.body, &req)
			rec := req.BucketsReq[0].Records
			w, q := int64(binary.LittleEndian.Uint64(rec[logOffWriterID:])), int32(binary.LittleEndian.Uint32(rec[logOffSequence:]))
			seqs.Store(produces.Add(1), [2]int64{w, int64(q)})
			if produces.Load()%2 == 1 {
				_ = fc.nc.Close() // the first attempt of each batch is lost
				return true
			}
			fc.reply(r.id, &pb.ProduceLogResponse{BucketsResp: []*pb.PbProduceLogRespForBucket{{BucketId: proto.Int32(0), BaseOffset: proto.Int64(5)}}})
			return true
		}
		return false
	})
	c := fakeClient(t, s, func(c *Config) { c.Retries = 3 })
	batch := make([]byte, logHeaderV0)
	if _, err := c.ProduceLog(testCtx(t), kvTable, 0, append([]byte{}, batch...)); err == nil || produces.Load() != 1 {
		t.Fatalf("non-idempotent produce: err %v after %d sends; want an error after 1", err, produces.Load())
	}
	produces.Store(0)
	w := c.NewWriter(kvTable.Path)
	off, err := w.Append(testCtx(t), kvTable, 0, append([]byte{}, batch...))
	if err != nil || off != 5 || produces.Load() != 2 {
		t.Fatalf("idempotent append = %d, %v after %d sends", off, err, produces.Load())
	}
	a, _ := seqs.Load(int32(1))
	b, _ := seqs.Load(int32(2))
	if a != b || a.([2]int64)[0] != 77 {
		t.Fatalf("resent batch stamped %v, first %v; want the same writer 77 and sequence", b, a)
	}
}

// TestFakeVersions: the highest version both sides speak is used, and an
// API the server offers no common version of fails naming it.
func TestFakeVersions(t *testing.T) {
	noLeak(t)
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api == apiPutKv {
			fc.reply(r.id, &pb.PutKvResponse{BucketsResp: []*pb.PbPutKvRespForBucket{{BucketId: proto.Int32(0), LogEndOffset: proto.Int64(3)}}})
			return true
		}
		return false
	})
	s.versions = map[int16][2]int32{apiPutKv: {0, 2}, apiLookup: {5, 6}} // a newer server
	c := fakeClient(t, s, nil)
	if _, err := c.PutKv(testCtx(t), kvTable, 0, format.NewKvBatchEncoder(nil, 1, format.NoWriterID, format.NoBatchSequence).Finish(), nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.seen.Load(apiPutKv); v != int16(1) {
		t.Fatalf("PutKv sent as version %v, want 1", v)
	}
	_, err := c.Lookup(testCtx(t), kvTable, 0, [][]byte{{1}})
	if CodeOf(err) != CodeUnsupportedVersion || !strings.Contains(err.Error(), "Lookup") {
		t.Fatalf("err = %v", err)
	}
}

// TestFakeSASL: PLAIN credentials are sent before anything else; wrong
// ones fail with AUTHENTICATE_EXCEPTION.
func TestFakeSASL(t *testing.T) {
	noLeak(t)
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api == apiListDBs {
			fc.reply(r.id, &pb.ListDatabasesResponse{DatabaseName: []string{"a"}})
			return true
		}
		return false
	})
	s.user = "alice:secret"
	if _, err := fakeClient(t, s, func(c *Config) { c.Username, c.Password = "alice", "secret" }).ListDatabases(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	_, err := fakeClient(t, s, func(c *Config) { c.Username, c.Password = "alice", "wrong" }).ListDatabases(testCtx(t))
	if CodeOf(err) != CodeAuthenticate {
		t.Fatalf("err = %v, want AUTHENTICATE_EXCEPTION", err)
	}
}

// TestFakeServerGone: a server that is not there gives a connection error
// naming it, after the retries, within the context's time.
func TestFakeServerGone(t *testing.T) {
	noLeak(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c, _ := New(Config{Bootstrap: []string{addr}, Retries: 2, RetryBackoff: time.Millisecond})
	defer c.Close()
	_, err := c.ListDatabases(testCtx(t))
	var ce *ConnError
	if !errors.As(err, &ce) || ce.Addr != addr {
		t.Fatalf("err = %v, want a ConnError for %s", err, addr)
	}
}

// TestFakeRandomFrames throws random bytes at the client as answers: every
// call ends with an error or an answer, none panics or hangs.
func TestFakeRandomFrames(t *testing.T) {
	noLeak(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api != apiListDBs {
			return false
		}
		mu.Lock()
		n := rng.IntN(40)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		mode := rng.IntN(3)
		mu.Unlock()
		switch mode {
		case 0:
			fc.raw(frame(respSuccess, r.id, b))
		case 1:
			fc.raw(frame(byte(n%3), r.id, b))
		default:
			fc.raw(b)
			_ = fc.nc.Close()
		}
		return true
	})
	c := fakeClient(t, s, func(c *Config) { c.RequestTimeout = 300 * time.Millisecond; c.Retries = 0 })
	for i := 0; i < 200; i++ {
		_, _ = c.ListDatabases(testCtx(t))
	}
}

// TestFakeDDLNotResent: a CreateTable whose connection breaks after it was
// written is not sent again (it may have created the table); a read is.
func TestFakeDDLNotResent(t *testing.T) {
	noLeak(t)
	var creates, lists atomic.Int32
	s := newFake(t, func(fc *fakeConn, r request) bool {
		switch r.api {
		case apiCreateTable:
			creates.Add(1)
			_ = fc.nc.Close()
			return true
		case apiListDBs:
			if lists.Add(1) == 1 {
				_ = fc.nc.Close()
				return true
			}
			fc.reply(r.id, &pb.ListDatabasesResponse{DatabaseName: []string{"x"}})
			return true
		}
		return false
	})
	c := fakeClient(t, s, func(c *Config) { c.Retries = 3 })
	err := c.CreateTable(testCtx(t), kvTable.Path, fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "a", Type: types.T{Kind: types.Int32}}}}}, false)
	var ce *ConnError
	if !errors.As(err, &ce) || creates.Load() != 1 {
		t.Fatalf("CreateTable: %v after %d sends; want a ConnError after 1", err, creates.Load())
	}
	if dbs, err := c.ListDatabases(testCtx(t)); err != nil || len(dbs) != 1 || lists.Load() != 2 {
		t.Fatalf("ListDatabases = %v, %v after %d sends", dbs, err, lists.Load())
	}
}

// TestFakeCancelledBeforeWrite: a request whose context is already done
// does not break the connection other requests share.
func TestFakeCancelledBeforeWrite(t *testing.T) {
	noLeak(t)
	s := newFake(t, func(fc *fakeConn, r request) bool {
		if r.api == apiListDBs {
			fc.reply(r.id, &pb.ListDatabasesResponse{DatabaseName: []string{"x"}})
			return true
		}
		return false
	})
	c := fakeClient(t, s, nil)
	if _, err := c.ListDatabases(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	first := c.conns[s.addr()]
	c.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.ListDatabases(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if first.broken() {
		t.Fatal("a cancelled request broke the shared connection")
	}
}
