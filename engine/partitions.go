package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Partitioned tables' statements (fluss/partitions.go has the model):
// SHOW PARTITIONS and ALTER TABLE ... ADD / DROP PARTITION, as Fluss's
// Flink SQL has them.

// partitionCatalog is the store's fluss.PartitionCatalog.
func (s *session) partitionCatalog() (fluss.PartitionCatalog, error) {
	pc, ok := s.eng.store.(fluss.PartitionCatalog)
	if !ok {
		return nil, sqlerr.NotSupported("partitioned tables on this store")
	}
	return pc, nil
}

// showPartitions lists a partitioned table's partitions as Flink's SHOW
// PARTITIONS shows them: key=value pairs joined with '/', by name.
func (s *session) showPartitions(ctx context.Context, info fluss.TableInfo) (pgwire.Result, error) {
	if !info.IsPartitioned() {
		return nil, fluss.ErrNotPartitioned(info.Path)
	}
	pc, err := s.partitionCatalog()
	if err != nil {
		return nil, err
	}
	ps, err := pc.ListPartitions(ctx, info.Path)
	if err != nil {
		return nil, err
	}
	rows := make([]string, len(ps))
	for i, p := range ps {
		rows[i] = fluss.PartitionSpec(info.Descriptor.PartitionKeys, p.Values)
	}
	return stringsResult(s.eng, "partition_name", rows), nil
}

// partitionValues orders an ADD / DROP PARTITION spec's values by the
// table's partition keys; the spec must name each key once.
func partitionValues(info fluss.TableInfo, spec [][2]string) ([]string, error) {
	keys := info.Descriptor.PartitionKeys
	if len(spec) != len(keys) {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "the partition spec (%s) must give a value for each partition key of table \"%s\" (%s)",
			specText(spec), info.Path.Table, strings.Join(keys, ", "))
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		found := false
		for _, kv := range spec {
			if kv[0] == k {
				out[i], found = kv[1], true
			}
		}
		if !found {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "the partition spec (%s) does not contain partition key \"%s\" of table \"%s\"",
				specText(spec), k, info.Path.Table)
		}
	}
	return out, nil
}

func specText(spec [][2]string) string {
	parts := make([]string, len(spec))
	for i, kv := range spec {
		parts[i] = fmt.Sprintf("%s=%s", kv[0], kv[1])
	}
	return strings.Join(parts, ", ")
}

// alterPartitions runs ALTER TABLE's ADD / DROP PARTITION actions in order;
// each is one change of the store's catalog. The table's owner alone may,
// as for every ALTER TABLE.
func (s *session) alterPartitions(ctx context.Context, info fluss.TableInfo, actions []sql.AlterAction) ([]*sqlerr.Error, error) {
	if len(actions) == 0 {
		return nil, nil
	}
	if !info.IsPartitioned() {
		return nil, fluss.ErrNotPartitioned(info.Path)
	}
	pc, err := s.partitionCatalog()
	if err != nil {
		return nil, err
	}
	if err := s.mayDrop(info); err != nil {
		return nil, err
	}
	var notices []*sqlerr.Error
	for _, a := range actions {
		values, err := partitionValues(info, a.Props)
		if err != nil {
			return notices, err
		}
		name := fluss.PartitionName(values)
		if a.Kind == sql.AlterAddPartition {
			for _, v := range values {
				if err := fluss.ValidatePartitionValue(v, true); err != nil {
					return notices, err
				}
			}
			err = pc.CreatePartition(ctx, info.Path, values, false)
			if a.IfNotExists && sqlerr.CodeOf(err) == sqlerr.DuplicateObject {
				notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "partition \"%s\" of table \"%s\" already exists, skipping", name, info.Path.Table))
				err = nil
			}
		} else {
			err = pc.DropPartition(ctx, info.Path, values, false)
			if a.IfNotExists && sqlerr.CodeOf(err) == sqlerr.UndefinedObject {
				notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "partition \"%s\" of table \"%s\" does not exist, skipping", name, info.Path.Table))
				err = nil
			}
		}
		if err != nil {
			return notices, err
		}
	}
	return notices, nil
}

// partitionedByClause is SHOW CREATE TABLE's PARTITIONED BY, "" for a
// table that is not partitioned.
func partitionedByClause(info fluss.TableInfo) string {
	keys := info.Descriptor.PartitionKeys
	if len(keys) == 0 {
		return ""
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = nameSQL(k)
	}
	return " PARTITIONED BY (" + strings.Join(names, ", ") + ")"
}

// explainPartitions has EXPLAIN name the partitions each pruned scan of
// plan reads (lower.ResolvePartitions).
func (s *session) explainPartitions(ctx context.Context, plan lower.Node, ec *exec.EvalContext) {
	pc, ok := s.eng.store.(fluss.PartitionCatalog)
	if !ok {
		return
	}
	lower.ResolvePartitions(ctx, plan, ec, pc.ListPartitions)
}
