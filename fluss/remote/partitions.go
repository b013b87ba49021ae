package remote

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Partitioned tables on a cluster (fluss/partitions.go has the model). A
// partition is Fluss's: the coordinator gives it an id and buckets of its
// own, and every data request for it carries its id beside the table's
// (partition_id of ProduceLog, FetchLog, ListOffsets, PutKv, Lookup,
// PrefixLookup, LimitScan); its buckets' leaders come from GetMetadata's
// partition_metadata, asked by partition id. CreatePartition,
// DropPartition and ListPartitionInfos (1036, 1037, 1009) manage and list
// them; auto-partitioning is the coordinator's own (its
// AutoPartitionManager creates and drops them). A row whose partition
// does not exist creates it (CreatePartition, ignoring one created
// meanwhile), as Fluss's writer does by default
// (client.writer.dynamic-create-partition.enabled). The table's
// fluss.Table is a fluss.PartitionedTable whose partitions are this
// package's tables with Table.Partition set.

// Fluss's partition error codes (Errors.java; CodePartitionNotExists is
// errors.go's).
const (
	CodeTableNotPartitioned    = 37
	CodePartitionAlreadyExists = 42
	CodePartitionSpecInvalid   = 43
	CodePartitionMaxNum        = 45
)

// PartitionRef names a partition in data requests.
type PartitionRef struct {
	ID   int64
	Name string
}

func (t Table) partitionID() *int64 {
	if t.Partition == nil {
		return nil
	}
	return proto.Int64(t.Partition.ID)
}

// partitionKey is the partition's id, -1 for a table that is not one.
func (t Table) partitionKey() int64 {
	if t.Partition == nil {
		return -1
	}
	return t.Partition.ID
}

// storePartitions records partitions' bucket leaders (storeMetadata, with
// c.mu held).
func (c *Client) storePartitions(pms []*pb.PbPartitionMetadata) {
	for _, pm := range pms {
		if pm.PartitionId == nil {
			continue
		}
		if c.parts == nil {
			c.parts = map[int64]*tableMeta{}
		}
		c.parts[pm.GetPartitionId()] = routing(pm.GetTableId(), pm.BucketMetadata)
	}
}

// leaderOf is leader for a table or a partition: a partition's routing is
// asked by its id.
func (c *Client) leaderOf(ctx context.Context, t Table, bucket int32, refresh bool) (string, error) {
	if t.Partition == nil {
		return c.leader(ctx, t.Path, bucket, refresh)
	}
	id := t.Partition.ID
	return c.leaderIn(ctx, bucket, refresh, func() *tableMeta { return c.parts[id] },
		func() error { return c.partitionMetadata(ctx, t.Path, id) },
		fmt.Sprintf("partition %s of %s", t.Partition.Name, t.Path))
}

// partitionMetadata asks any server for a partition's routing.
func (c *Client) partitionMetadata(ctx context.Context, path fluss.TablePath, id int64) error {
	req := &pb.MetadataRequest{TablePath: []*pb.PbTablePath{pbPath(path)}, PartitionsId: []int64{id}}
	var last error
	for _, addr := range c.servers() {
		var resp pb.MetadataResponse
		err := c.attempt(ctx, addr, apiGetMetadata, req, &resp)
		if err == nil {
			c.storeMetadata(&resp)
			return nil
		}
		last = err
		if r, _ := retriable(err); !r || ctx.Err() != nil {
			return err
		}
	}
	return last
}

func pbSpec(keys, values []string) *pb.PbPartitionSpec {
	s := &pb.PbPartitionSpec{}
	for i, k := range keys {
		s.PartitionKeyValues = append(s.PartitionKeyValues, &pb.PbKeyValue{Key: proto.String(k), Value: proto.String(values[i])})
	}
	return s
}

// ListPartitionInfos lists a table's partitions, their values in keys'
// order, sorted by name.
func (c *Client) ListPartitionInfos(ctx context.Context, path fluss.TablePath, keys []string) ([]fluss.PartitionInfo, error) {
	var resp pb.ListPartitionInfosResponse
	if err := c.adminCall(ctx, false, apiListPartitions, &pb.ListPartitionInfosRequest{TablePath: pbPath(path)}, &resp); err != nil {
		return nil, err
	}
	out := make([]fluss.PartitionInfo, 0, len(resp.PartitionsInfo))
	for _, pi := range resp.PartitionsInfo {
		values := make([]string, len(keys))
		for _, kv := range pi.GetPartitionSpec().GetPartitionKeyValues() {
			if i := slices.Index(keys, kv.GetKey()); i >= 0 {
				values[i] = kv.GetValue()
			}
		}
		out = append(out, fluss.PartitionInfo{ID: pi.GetPartitionId(), Name: fluss.PartitionName(values), Values: values})
	}
	fluss.SortPartitions(out)
	return out, nil
}

// CreatePartition creates the partition of values (keys' order).
func (c *Client) CreatePartition(ctx context.Context, path fluss.TablePath, keys, values []string, ignoreIfExists bool) error {
	req := &pb.CreatePartitionRequest{TablePath: pbPath(path), PartitionSpec: pbSpec(keys, values), IgnoreIfNotExists: proto.Bool(ignoreIfExists)}
	return c.adminCall(ctx, true, apiCreatePartition, req, &pb.CreatePartitionResponse{})
}

// DropPartition drops the partition of values (keys' order).
func (c *Client) DropPartition(ctx context.Context, path fluss.TablePath, keys, values []string, ignoreIfNotExists bool) error {
	req := &pb.DropPartitionRequest{TablePath: pbPath(path), PartitionSpec: pbSpec(keys, values), IgnoreIfNotExists: proto.Bool(ignoreIfNotExists)}
	return c.adminCall(ctx, true, apiDropPartition, req, &pb.DropPartitionResponse{})
}

var _ fluss.PartitionCatalog = (*Store)(nil)

// partitionErr is storeErr for a partition call: Fluss's partition errors
// become the SQLSTATEs the embedded store gives.
func partitionErr(err error, path fluss.TablePath, values []string) error {
	var fe *Error
	if errors.As(err, &fe) {
		name := fluss.PartitionName(values)
		switch fe.Code {
		case CodePartitionNotExists:
			return sqlerr.Wrap(err, sqlerr.UndefinedObject, "%v", fluss.ErrNoPartition(path, name))
		case CodePartitionAlreadyExists:
			return sqlerr.Wrap(err, sqlerr.DuplicateObject, "%v", fluss.ErrPartitionExists(path, name))
		case CodeTableNotPartitioned:
			return sqlerr.Wrap(err, sqlerr.WrongObjectType, "%v", fluss.ErrNotPartitioned(path))
		case CodePartitionSpecInvalid:
			return sqlerr.Wrap(err, sqlerr.InvalidParameterValue, "%v", fe.Message)
		case CodePartitionMaxNum:
			return sqlerr.Wrap(err, sqlerr.ProgramLimitExceeded, "%v", fluss.ErrTooManyPartitions(path))
		}
	}
	return storeErr(err, path)
}

// partitioned returns the info of the partitioned table at path.
func (s *Store) partitioned(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	info, err := s.GetTable(ctx, path)
	if err != nil {
		return info, err
	}
	if !info.IsPartitioned() {
		return info, fluss.ErrNotPartitioned(path)
	}
	return info, nil
}

// ListPartitions implements fluss.PartitionCatalog.
func (s *Store) ListPartitions(ctx context.Context, path fluss.TablePath) ([]fluss.PartitionInfo, error) {
	info, err := s.partitioned(ctx, path)
	if err != nil {
		return nil, err
	}
	ps, err := s.c.ListPartitionInfos(ctx, s.onCluster(path), info.Descriptor.PartitionKeys)
	if err != nil {
		return nil, partitionErr(err, path, nil)
	}
	return ps, nil
}

// CreatePartition implements fluss.PartitionCatalog.
func (s *Store) CreatePartition(ctx context.Context, path fluss.TablePath, values []string, ignoreIfExists bool) error {
	info, err := s.partitioned(ctx, path)
	if err != nil {
		return err
	}
	for _, v := range values {
		if err := fluss.ValidatePartitionValue(v, true); err != nil {
			return err
		}
	}
	if err := s.c.CreatePartition(ctx, s.onCluster(path), info.Descriptor.PartitionKeys, values, ignoreIfExists); err != nil {
		return partitionErr(err, path, values)
	}
	// as a write's partition (EnsurePartition): the first write to it
	// then finds its buckets led
	t, err := newTable(s, info)
	if err != nil {
		return err
	}
	_, err = (&partSource{s: s, base: t}).EnsurePartition(ctx, values)
	return err
}

// DropPartition implements fluss.PartitionCatalog.
func (s *Store) DropPartition(ctx context.Context, path fluss.TablePath, values []string, ignoreIfNotExists bool) error {
	info, err := s.partitioned(ctx, path)
	if err != nil {
		return err
	}
	if err := s.c.DropPartition(ctx, s.onCluster(path), info.Descriptor.PartitionKeys, values, ignoreIfNotExists); err != nil {
		return partitionErr(err, path, values)
	}
	return nil
}

// partSource is fluss.PartitionSource over a partitioned table of the
// cluster: base is the table, phys the table its partitions' rows are
// (its key less the partition keys: fluss.PhysicalInfo), each partition a
// copy of phys naming the partition.
type partSource struct {
	s          *Store
	base, phys *table
}

func (s *Store) partitionedTable(t *table) (fluss.Table, error) {
	phys, err := newTable(s, fluss.PhysicalInfo(t.info))
	if err != nil {
		return nil, err
	}
	phys.oldCols = t.oldCols
	return fluss.NewPartitionedTable(t.info, &partSource{s: s, base: t, phys: phys}), nil
}

// Partitions implements fluss.PartitionSource.
func (p *partSource) Partitions(ctx context.Context) ([]fluss.PartitionInfo, error) {
	ps, err := p.s.c.ListPartitionInfos(ctx, p.base.tab.Path, p.base.info.Descriptor.PartitionKeys)
	if err != nil {
		return nil, partitionErr(err, p.base.info.Path, nil)
	}
	return ps, nil
}

// Partition implements fluss.PartitionSource.
func (p *partSource) Partition(ctx context.Context, pi fluss.PartitionInfo) (fluss.Table, error) {
	t := *p.phys
	t.tab.Partition = &PartitionRef{ID: pi.ID, Name: pi.Name}
	return &t, nil
}

// EnsurePartition implements fluss.PartitionSource: a missing partition is
// created, as Fluss's writer creates it.
func (p *partSource) EnsurePartition(ctx context.Context, values []string) (fluss.PartitionInfo, error) {
	name := fluss.PartitionName(values)
	find := func() (fluss.PartitionInfo, bool, error) {
		ps, err := p.Partitions(ctx)
		if err != nil {
			return fluss.PartitionInfo{}, false, err
		}
		for _, pi := range ps {
			if pi.Name == name {
				return pi, true, nil
			}
		}
		return fluss.PartitionInfo{}, false, nil
	}
	pi, ok, err := find()
	if err != nil || ok {
		return pi, err
	}
	if err := p.s.c.CreatePartition(ctx, p.base.tab.Path, p.base.info.Descriptor.PartitionKeys, values, true); err != nil {
		return pi, partitionErr(err, p.base.info.Path, values)
	}
	pi, ok, err = find()
	if err == nil && !ok {
		err = fluss.ErrNoPartition(p.base.info.Path, name) // dropped at once by another client
	}
	if err != nil {
		return pi, err
	}
	t := p.base.tab
	t.Partition = &PartitionRef{ID: pi.ID, Name: pi.Name}
	return pi, storeErr(p.s.awaitPartitionLeaders(ctx, t, p.base.nb), p.base.info.Path)
}

// Write implements fluss.PartitionSource: on a cluster each partition's
// part is written on its own (one request per bucket, as every write).
func (p *partSource) Write(ctx context.Context, write func(ctx context.Context) (fluss.WriteResult, error)) (fluss.WriteResult, error) {
	return write(ctx)
}

// writePartitioned is WriteAtomically's group of writes to a partitioned
// table: each write goes to its rows' partitions, one request per
// partition and bucket, as a single statement's write does on a cluster
// (Fluss writes no batch across buckets, and a partition's buckets are
// its own).
func writePartitioned(ctx context.Context, t fluss.Table, writes []fluss.TableWrite) ([]fluss.WriteResult, error) {
	out := make([]fluss.WriteResult, len(writes))
	if t.Info().TableID != writes[0].TableID {
		return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created while the transaction ran", writes[0].Path.Table)
	}
	for i, w := range writes {
		if w.Kind == fluss.WriteUpsert && w.Opts.IgnoreExisting {
			return nil, errNoConditionalWrite()
		}
		res, err := w.Apply(ctx, t)
		if err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}

// awaitPartitionLeaders polls a new partition's metadata until each of its
// buckets has a leader, as createTable waits for a new table's, so that
// the first write does not spend its retries waiting; a partition still
// without one after the wait is left to the writes' own retries.
func (s *Store) awaitPartitionLeaders(ctx context.Context, t Table, buckets int) error {
	deadline := time.Now().Add(s.leaderWaitTime())
	for {
		if err := s.c.partitionMetadata(ctx, t.Path, t.Partition.ID); err != nil {
			return err
		}
		s.c.mu.Lock()
		m := s.c.parts[t.Partition.ID]
		led := m != nil && len(m.leaders) >= buckets
		for b := 0; led && b < buckets; b++ {
			led = m.leaders[b] >= 0 && s.c.meta.tablets[m.leaders[b]] != ""
		}
		s.c.mu.Unlock()
		if led || time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// awaitTakenUp is createTable's wait for a partitioned table, which has
// no buckets of its own: an auto-partitioned one whose coordinator
// pre-creates partitions is taken up once the first of them has leaders
// (true), and not after wait (false: createTable drops and creates it
// again, as a table whose buckets get no leader). Fluss 0.9.1's
// coordinator now and then never takes up a new table (create_wait.go),
// and a CreatePartition of such a table fails inside the coordinator
// (a NullPointerException in its event thread) in a way that leaves it
// unable to take up any later table: seen under load, so the pre-created
// partitions are waited for. A table without pre-created partitions gives
// no sign either way (true).
func (s *Store) awaitTakenUp(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor, wait time.Duration) (bool, error) {
	auto := fluss.AutoPartitionOf(desc)
	if !auto.Enabled || auto.Precreate <= 0 || len(desc.PartitionKeys) != 1 {
		return true, nil
	}
	deadline := time.Now().Add(wait)
	for {
		ps, err := s.c.ListPartitionInfos(ctx, path, desc.PartitionKeys)
		if err != nil {
			return false, err
		}
		if len(ps) > 0 {
			info, err := s.c.GetTableInfo(ctx, path)
			if err != nil {
				return false, err
			}
			t := Table{Path: path, ID: info.TableID, Partition: &PartitionRef{ID: ps[0].ID, Name: ps[0].Name}}
			return true, s.awaitPartitionLeaders(ctx, t, max(info.Descriptor.BucketCount, 1))
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
