package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Temporary tables on a cluster (fluss.TempSchemaStore). A session's
// temporary tables are ordinary tables in a database of its own, as on the
// embedded store, named pg_temp_<server tag>_<backend pid>: the tag (random
// per Store) keeps two servers' sessions, whose process ids repeat, apart.
// The session drops its database when it ends (engine.dropTempSchema). A
// server that dies leaves its sessions' databases behind, so each server
// holds a lease while it has temporary schemas: a row of the primary-key
// table sqlgate_system.servers (k = its tag, v = a heartbeat) rewritten
// every tempLeaseEvery, written before its first temporary database is
// created and deleted at Close. Every server sweeps (every tempSweepEvery)
// the temporary databases of other tags: those whose tag has no row (the
// row comes first, so its server is gone) and those whose row did not
// change for tempLeaseExpiry as this server's own clock measures it (no
// comparison of two servers' clocks). A server stalled for longer than
// that loses its temporary tables, and its sessions then see 42P01.

// ServersPath is the table of the servers' leases.
var ServersPath = fluss.TablePath{Database: fluss.SystemDatabase, Table: "servers"}

const (
	tempLeaseEvery  = 10 * time.Second
	tempLeaseExpiry = 2 * time.Minute
	tempSweepEvery  = 30 * time.Second
	tempPrefix      = "pg_temp_"
)

// tempSchemaName matches the temporary schemas a Store makes: the tag and
// the backend pid.
var tempSchemaName = regexp.MustCompile(`^pg_temp_([0-9a-f]{16})_[0-9]+$`)

type tempLeases struct {
	tag string
	mu  sync.Mutex
	t   fluss.Table // ServersPath, opened on first use
	// holding: the lease is written and renewed.
	holding bool
	// seen is each other tag's heartbeat as last read, and when it was
	// first read with that value (this server's clock).
	seen map[string]leaseSeen
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once // closeTemp
	// ctx bounds the background requests; cancel (Close) ends them at once.
	ctx    context.Context
	cancel context.CancelFunc
}

type leaseSeen struct {
	v     int64
	since time.Time
}

func (l *tempLeases) init() {
	b := make([]byte, 8)
	rand.Read(b)
	l.tag, l.stop, l.seen = hex.EncodeToString(b), make(chan struct{}), map[string]leaseSeen{}
	l.ctx, l.cancel = context.WithCancel(context.Background())
}

var _ fluss.TempSchemaStore = (*Store)(nil)

// TempSchema implements fluss.TempSchemaStore.
func (s *Store) TempSchema(pid int32) string {
	return tempPrefix + s.temp.tag + "_" + strconv.FormatUint(uint64(uint32(pid)), 10)
}

// HoldTempSchemas implements fluss.TempSchemaStore: the lease is written
// now, then renewed in the background until Close.
func (s *Store) HoldTempSchemas(ctx context.Context) error {
	l := &s.temp
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holding {
		return nil
	}
	if err := s.writeLease(ctx); err != nil {
		return err
	}
	l.holding = true
	l.wg.Add(1)
	go s.renewLease()
	return nil
}

// leaseTable opens ServersPath, creating it when missing; the caller holds
// l.mu.
func (s *Store) leaseTable(ctx context.Context, create bool) (fluss.Table, error) {
	l := &s.temp
	if l.t != nil {
		return l.t, nil
	}
	t, err := s.Table(ctx, ServersPath)
	if sqlerr.CodeOf(err) == sqlerr.UndefinedTable && create {
		desc := fluss.TableDescriptor{BucketCount: 1, Schema: fluss.Schema{Columns: []fluss.Column{
			{Name: "k", Type: types.T{Kind: types.String, NotNull: true}},
			{Name: "v", Type: types.T{Kind: types.Int64}},
		}, PrimaryKey: []string{"k"}}}
		t, err = s.systemTable(ctx, ServersPath, desc)
	}
	if err != nil {
		return nil, err
	}
	l.t = t
	return t, nil
}

func leaseRecord(keys []string, vals []int64) arrow.RecordBatch {
	kb := array.NewStringBuilder(memory.DefaultAllocator)
	defer kb.Release()
	kb.AppendValues(keys, nil)
	cols := []arrow.Array{kb.NewArray()}
	fields := []arrow.Field{{Name: "k", Type: arrow.BinaryTypes.String}}
	if vals != nil {
		vb := array.NewInt64Builder(memory.DefaultAllocator)
		defer vb.Release()
		vb.AppendValues(vals, nil)
		cols = append(cols, vb.NewArray())
		fields = append(fields, arrow.Field{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(len(keys)))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// writeLease writes this server's heartbeat; the caller holds l.mu.
func (s *Store) writeLease(ctx context.Context) error {
	t, err := s.leaseTable(ctx, true)
	if err != nil {
		return err
	}
	rec := leaseRecord([]string{s.temp.tag}, []int64{time.Now().UnixMilli()})
	defer rec.Release()
	_, err = t.Upsert(ctx, rec, fluss.UpsertOptions{})
	return err
}

func (s *Store) renewLease() {
	l := &s.temp
	defer l.wg.Done()
	tick := time.NewTicker(tempLeaseEvery)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(l.ctx, tempLeaseEvery)
			l.mu.Lock()
			_ = s.writeLease(ctx) // a missed beat is made up by the next
			l.mu.Unlock()
			cancel()
		}
	}
}

// sweepLoop sweeps other servers' temporary schemas until Close.
func (s *Store) sweepLoop() {
	l := &s.temp
	defer l.wg.Done()
	tick := time.NewTicker(tempSweepEvery)
	defer tick.Stop()
	for {
		ctx, cancel := context.WithTimeout(l.ctx, tempSweepEvery)
		_ = s.SweepTempSchemas(ctx)
		cancel()
		select {
		case <-l.stop:
			return
		case <-tick.C:
		}
	}
}

// SweepTempSchemas drops the temporary schemas of servers that are gone:
// a tag without a lease row, or whose row has not changed for
// tempLeaseExpiry since this server first read its value.
func (s *Store) SweepTempSchemas(ctx context.Context) error {
	dbs, err := s.ListDatabases(ctx)
	if err != nil {
		return err
	}
	byTag := map[string][]string{}
	for _, db := range dbs {
		m := tempSchemaName.FindStringSubmatch(db)
		if m == nil || m[1] == s.temp.tag {
			continue
		}
		byTag[m[1]] = append(byTag[m[1]], db)
	}
	if len(byTag) == 0 {
		return nil
	}
	l := &s.temp
	l.mu.Lock()
	defer l.mu.Unlock()
	t, err := s.leaseTable(ctx, false)
	if err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return err
	}
	now := time.Now()
	for tag, schemas := range byTag {
		v, found := int64(0), false
		if t != nil {
			if v, found, err = lookupLease(ctx, t, tag); err != nil {
				return err
			}
		}
		if found {
			prev, ok := l.seen[tag]
			if !ok || prev.v != v {
				l.seen[tag] = leaseSeen{v: v, since: now}
				continue
			}
			if now.Sub(prev.since) < tempLeaseExpiry {
				continue
			}
		}
		for _, db := range schemas {
			if err := s.DropDatabase(ctx, db, true, true); err != nil && !strings.Contains(err.Error(), "does not exist") {
				return err
			}
		}
		delete(l.seen, tag)
		if found {
			keys := leaseRecord([]string{tag}, nil)
			_, _ = t.Delete(ctx, keys)
			keys.Release()
		}
	}
	return nil
}

func lookupLease(ctx context.Context, t fluss.Table, tag string) (int64, bool, error) {
	keys := leaseRecord([]string{tag}, nil)
	defer keys.Release()
	rec, err := t.Lookup(ctx, keys, []int{1})
	if err != nil {
		return 0, false, err
	}
	defer rec.Release()
	if rec.NumRows() == 0 {
		return 0, false, nil
	}
	vs, ok := rec.Column(0).(*array.Int64)
	if !ok || vs.IsNull(0) {
		return 0, true, nil
	}
	return vs.Value(0), true, nil
}

// closeTemp stops the lease and the sweeper, and deletes this server's
// lease (its sessions dropped their schemas when they ended).
func (s *Store) closeTemp(ctx context.Context) {
	l := &s.temp
	stopped := false
	l.once.Do(func() {
		if l.stop != nil {
			close(l.stop)
			l.cancel()
			stopped = true
		}
	})
	if !stopped {
		return
	}
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holding && l.t != nil {
		keys := leaseRecord([]string{l.tag}, nil)
		_, _ = l.t.Delete(ctx, keys)
		keys.Release()
	}
}
