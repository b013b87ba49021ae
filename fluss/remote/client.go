package remote

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
)

const clientVersion = "0.1"

// Config says where the cluster is and how to talk to it.
type Config struct {
	// Bootstrap lists HOST:PORT of one or more servers (any coordinator or
	// tablet server); the rest of the cluster is learnt from GetMetadata.
	Bootstrap []string
	// Username and Password enable SASL/PLAIN when Username is set.
	Username, Password string
	// Database is the Fluss database a Store shows as the schema "public"
	// (default DatabasePrefix+"public"); OpenStore creates it if missing.
	Database string
	// DatabasePrefix, when set, makes a Store's every schema S the Fluss
	// database DatabasePrefix+S and hides the databases without it
	// (store_database.go).
	DatabasePrefix string
	// RequestTimeout bounds one attempt of one request (default 30s); the
	// caller's context bounds the whole call, retries included.
	RequestTimeout time.Duration
	// DialTimeout bounds connecting and the handshake (default 10s).
	DialTimeout time.Duration
	// Retries is how many times a retriable failure is retried (default 8),
	// with exponential backoff from RetryBackoff (default 50ms, capped at 2s).
	Retries      int
	RetryBackoff time.Duration
	// MaxFrame caps a response frame (default DefaultMaxFrame).
	MaxFrame int
	// FollowWait is how long a tablet server may hold a follower's
	// FetchLog (SUBSCRIBE; follow.go) waiting for changes (default
	// 100ms). Fluss 0.9.1 answers a waiting fetch early only when a
	// bucket's high watermark moves because a follower replica caught up,
	// not at the append itself: on a bucket without follower replicas a
	// change reaches a subscriber up to FollowWait after its commit.
	FollowWait time.Duration
	// TableInfoMaxAge is how long a Store trusts a table's cached info
	// when nothing says it changed (default 1s; tablecache.go).
	TableInfoMaxAge time.Duration
	// Dial replaces net.Dialer (tests).
	Dial func(ctx context.Context, addr string) (net.Conn, error)
}

func (c *Config) dial(ctx context.Context, addr string) (net.Conn, error) {
	if c.Dial != nil {
		return c.Dial(ctx, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

func (c *Config) maxFrame() int {
	if c.MaxFrame > 0 {
		return c.MaxFrame
	}
	return DefaultMaxFrame
}

func orDefault[T int | time.Duration](v, d T) T {
	if v > 0 {
		return v
	}
	return d
}

// Client talks to one Fluss cluster. It is safe for concurrent use; Close
// releases its connections.
type Client struct {
	cfg Config

	mu     sync.Mutex
	conns  map[string]*conn    // by address; at most one live conn per server
	dials  map[string]*dialing // dials in progress, shared by concurrent callers
	meta   clusterMeta         // the last metadata seen
	tables map[fluss.TablePath]*tableMeta
	// parts is the routing of partitions, by partition id (partitions.go).
	parts  map[int64]*tableMeta
	closed bool
}

type dialing struct {
	done chan struct{}
	c    *conn
	err  error
}

type clusterMeta struct {
	coordinator string
	tablets     map[int32]string // server id -> HOST:PORT
}

// tableMeta is the routing state of one table: its id and, per bucket, the
// id of the leader's tablet server (-1 while none is elected).
type tableMeta struct {
	id      int64
	leaders []int32
}

// New returns a client of the cluster that cfg names. It does not connect
// until the first call.
func New(cfg Config) (*Client, error) {
	if len(cfg.Bootstrap) == 0 {
		return nil, errors.New("fluss: no bootstrap server given")
	}
	for _, a := range cfg.Bootstrap {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return nil, fmt.Errorf("fluss: bootstrap server %q: %v", a, err)
		}
	}
	return &Client{cfg: cfg, conns: make(map[string]*conn), dials: make(map[string]*dialing),
		tables: make(map[fluss.TablePath]*tableMeta)}, nil
}

// Close closes every connection; calls in flight fail with a ConnError and
// later calls with ErrClosed.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	conns := c.conns
	c.conns = map[string]*conn{}
	c.mu.Unlock()
	for _, cn := range conns {
		cn.close(&ConnError{Addr: cn.addr, Err: ErrClosed})
		<-cn.done
	}
	// Dials in progress finish on their own and close what they opened.
	for {
		c.mu.Lock()
		var d *dialing
		for _, x := range c.dials {
			d = x
			break
		}
		c.mu.Unlock()
		if d == nil {
			return nil
		}
		<-d.done
	}
}

// connTo returns the live connection to addr, dialing it when there is none.
func (c *Client) connTo(ctx context.Context, addr string) (*conn, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	if cn := c.conns[addr]; cn != nil && !cn.broken() {
		c.mu.Unlock()
		return cn, nil
	}
	d := c.dials[addr]
	if d == nil {
		d = &dialing{done: make(chan struct{})}
		c.dials[addr] = d
		go c.dial(addr, d)
	}
	c.mu.Unlock()
	select {
	case <-d.done:
		return d.c, d.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// dial runs detached from any one caller's context, so that a caller that
// gives up does not fail the others waiting for the same server.
func (c *Client) dial(addr string, d *dialing) {
	ctx, cancel := context.WithTimeout(context.Background(), orDefault(c.cfg.DialTimeout, 10*time.Second))
	cn, err := dialConn(ctx, &c.cfg, addr)
	cancel()
	c.mu.Lock()
	delete(c.dials, addr)
	if err == nil && c.closed {
		cn.close(&ConnError{Addr: addr, Err: ErrClosed})
		<-cn.done
		cn, err = nil, ErrClosed
	}
	if err == nil {
		c.conns[addr] = cn
	}
	d.c, d.err = cn, err
	c.mu.Unlock()
	close(d.done)
}

// attempt runs one request on addr with the per-attempt timeout.
func (c *Client) attempt(ctx context.Context, addr string, api int16, req, resp proto.Message) error {
	actx, cancel := context.WithTimeout(ctx, orDefault(c.cfg.RequestTimeout, 30*time.Second))
	defer cancel()
	cn, err := c.connTo(actx, addr)
	if err != nil {
		if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
			return &ConnError{Addr: addr, Err: fmt.Errorf("connecting for %s timed out", apiNames[api]), NotSent: true}
		}
		return err
	}
	return timeoutErr(ctx, actx, addr, api, cn.call(actx, api, req, resp))
}

// timeoutErr turns the per-attempt deadline into a clear, retriable error
// while leaving the caller's own cancellation as it is.
func timeoutErr(ctx, actx context.Context, addr string, api int16, err error) error {
	if err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return &ConnError{Addr: addr, Err: fmt.Errorf("%s request timed out", apiNames[api])}
	}
	return err
}

// retriable reports whether err may be retried, and whether the metadata
// should be refreshed first.
func retriable(err error) (retry, refresh bool) {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Retriable(), fe.staleMetadata()
	}
	var ce *ConnError
	if errors.As(err, &ce) {
		return !errors.Is(err, ErrClosed), true
	}
	return false, false
}

// backoff sleeps before retry number n (0-based): exponential with jitter.
func (c *Client) backoff(ctx context.Context, n int) error {
	base := orDefault(c.cfg.RetryBackoff, 50*time.Millisecond)
	d := base << min(n, 6)
	d = min(d, 2*time.Second)
	d = d/2 + rand.N(d/2+1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// servers lists the addresses an admin request may go to: the known
// coordinator and tablet servers, then the bootstrap list.
func (c *Client) servers() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	add(c.meta.coordinator)
	for _, a := range c.meta.tablets {
		add(a)
	}
	for _, a := range c.cfg.Bootstrap {
		add(a)
	}
	return out
}

// adminCall sends a request that any server answers (reads) or that the
// coordinator must answer (toCoordinator: DDL), retrying retriable failures
// on the next server. DDL is not resent once its fate is unknown (its
// connection broke after it was written): a CreateTable that did create
// the table would come back as TABLE_ALREADY_EXIST.
func (c *Client) adminCall(ctx context.Context, toCoordinator bool, api int16, req, resp proto.Message) error {
	retries := orDefault(c.cfg.Retries, 8)
	var last error
	for n := 0; n <= retries; n++ {
		var addr string
		if toCoordinator {
			c.mu.Lock()
			addr = c.meta.coordinator
			c.mu.Unlock()
			if addr == "" {
				if err := c.refreshCluster(ctx); err != nil {
					last = err
					if r, _ := retriable(err); !r {
						return err
					}
					if err := c.backoff(ctx, n); err != nil {
						return errors.Join(err, last)
					}
					continue
				}
				c.mu.Lock()
				addr = c.meta.coordinator
				c.mu.Unlock()
			}
		} else {
			s := c.servers()
			addr = s[n%len(s)]
		}
		err := c.attempt(ctx, addr, api, req, resp)
		if err == nil {
			return nil
		}
		last = err
		retry, refresh := retriable(err)
		if !retry || ctx.Err() != nil {
			return err
		}
		var ce *ConnError
		if toCoordinator && errors.As(err, &ce) && !ce.NotSent {
			return err
		}
		if refresh && toCoordinator {
			c.mu.Lock()
			c.meta.coordinator = ""
			c.mu.Unlock()
		}
		if err := c.backoff(ctx, n); err != nil {
			return errors.Join(err, last)
		}
	}
	return last
}

// refreshCluster fetches the server list (GetMetadata with no tables).
func (c *Client) refreshCluster(ctx context.Context) error {
	_, err := c.metadata(ctx, nil)
	return err
}

// metadata asks any server for the cluster and the given tables' routing,
// and stores both.
func (c *Client) metadata(ctx context.Context, paths []fluss.TablePath) (*pb.MetadataResponse, error) {
	req := &pb.MetadataRequest{}
	for _, p := range paths {
		req.TablePath = append(req.TablePath, pbPath(p))
	}
	var resp pb.MetadataResponse
	var last error
	for _, addr := range c.servers() {
		err := c.attempt(ctx, addr, apiGetMetadata, req, &resp)
		if err == nil {
			c.storeMetadata(&resp)
			return &resp, nil
		}
		last = err
		if r, _ := retriable(err); !r || ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, last
}

func (c *Client) storeMetadata(resp *pb.MetadataResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs := resp.CoordinatorServer; cs != nil {
		c.meta.coordinator = nodeAddr(cs)
	}
	tablets := make(map[int32]string, len(resp.TabletServers))
	for _, ts := range resp.TabletServers {
		tablets[ts.GetNodeId()] = nodeAddr(ts)
	}
	c.meta.tablets = tablets
	for _, tm := range resp.TableMetadata {
		p := tm.GetTablePath()
		if p == nil {
			continue
		}
		path := fluss.TablePath{Database: p.GetDatabaseName(), Table: p.GetTableName()}
		c.tables[path] = routing(tm.GetTableId(), tm.BucketMetadata)
	}
	c.storePartitions(resp.PartitionMetadata) // partitions.go
}

func nodeAddr(n *pb.PbServerNode) string {
	return net.JoinHostPort(n.GetHost(), strconv.Itoa(int(n.GetPort())))
}

func pbPath(p fluss.TablePath) *pb.PbTablePath {
	return &pb.PbTablePath{DatabaseName: proto.String(p.Database), TableName: proto.String(p.Table)}
}

// leader returns the address of the leader of table's bucket, refreshing
// the table's metadata when it is unknown (or when refresh is set).
func (c *Client) leader(ctx context.Context, path fluss.TablePath, bucket int32, refresh bool) (string, error) {
	return c.leaderIn(ctx, bucket, refresh, func() *tableMeta { return c.tables[path] }, func() error {
		_, err := c.metadata(ctx, []fluss.TablePath{path})
		return err
	}, path.String())
}

// leaderIn is leader over the routing meta returns (called with c.mu
// held), which fetch refreshes; what names the table in the error.
func (c *Client) leaderIn(ctx context.Context, bucket int32, refresh bool, meta func() *tableMeta, fetch func() error, what string) (string, error) {
	for try := 0; try < 2; try++ {
		if !refresh || try > 0 {
			c.mu.Lock()
			m := meta()
			var addr string
			if m != nil && int(bucket) < len(m.leaders) && m.leaders[bucket] >= 0 {
				addr = c.meta.tablets[m.leaders[bucket]]
			}
			c.mu.Unlock()
			if addr != "" {
				return addr, nil
			}
			if try > 0 {
				break
			}
		}
		if err := fetch(); err != nil {
			return "", err
		}
		refresh = false
	}
	return "", &Error{Code: CodeLeaderNotAvailable, API: "GetMetadata",
		Message: fmt.Sprintf("no live leader known for bucket %d of %s", bucket, what)}
}

// replaced reports whether the routing names another table id than t's
// for t's path: the table t was read as is gone.
func (c *Client) replaced(t Table) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.tables[t.Path]
	return t.ID != 0 && m != nil && m.id != 0 && m.id != t.ID
}

// routing is a table's (or a partition's) bucket leaders as a metadata
// answer gives them, -1 where a bucket has none; bucket ids out of range
// are ignored rather than grown into.
func routing(tableID int64, buckets []*pb.PbBucketMetadata) *tableMeta {
	m := &tableMeta{id: tableID}
	for _, b := range buckets {
		id := int(b.GetBucketId())
		if id < 0 || id > 1<<16 {
			continue
		}
		for len(m.leaders) <= id {
			m.leaders = append(m.leaders, -1)
		}
		if b.LeaderId != nil {
			m.leaders[id] = b.GetLeaderId()
		}
	}
	return m
}

// bucketCall sends a request to the leader of one bucket, retrying
// retriable failures with backoff and refreshing the routing when the error
// says it is stale or the server is gone. do runs one attempt against addr
// and returns the request's error (a per-bucket error code included).
// safe says whether a request whose fate is unknown (the connection broke
// after it was written, or it timed out) may be sent again.
func (c *Client) bucketCall(ctx context.Context, t Table, bucket int32, safe bool, do func(addr string) error) error {
	retries := orDefault(c.cfg.Retries, 8)
	refresh := false
	var last error
	for n := 0; ; n++ {
		addr, err := c.leaderOf(ctx, t, bucket, refresh) // partitions.go
		if err == nil && refresh && c.replaced(t) {
			return errTableReplaced(t) // retrying the old id cannot succeed
		}
		if err == nil {
			err = do(addr)
			if err == nil {
				return nil
			}
		}
		last = err
		retry, ref := retriable(err)
		var ce *ConnError
		if errors.As(err, &ce) && !ce.NotSent && !safe {
			return err
		}
		if !retry || n >= retries || ctx.Err() != nil {
			return last
		}
		refresh = ref
		if err := c.backoff(ctx, n); err != nil {
			return errors.Join(err, last)
		}
	}
}
