package meta

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// TablePath is the metadata table on a cluster: a primary-key table of one
// bucket in the reserved database, one row per object plus the version row.
var TablePath = fluss.TablePath{Database: fluss.SystemDatabase, Table: "metadata"}

// keyVersion is the version row's key: a random token rewritten by every
// commit, in the same batch as the rows it commits.
const keyVersion = "version"

// tableBackend keeps the rows in TablePath.
type tableBackend struct {
	t fluss.Table
}

// OpenTable opens the metadata kept in a store's TablePath, creating the
// table and its database when missing: every sqlgate server pointed at the
// same cluster (and remote.Config.DatabasePrefix, which maps this database
// as every schema) shares it.
func OpenTable(ctx context.Context, store fluss.Store) (*Store, error) {
	if err := store.CreateDatabase(ctx, TablePath.Database, true); err != nil {
		return nil, fmt.Errorf("metadata: create database %s: %w", TablePath.Database, err)
	}
	desc := fluss.TableDescriptor{BucketCount: 1, Schema: fluss.Schema{
		Columns: []fluss.Column{
			{Name: "k", Type: types.T{Kind: types.String, NotNull: true}},
			{Name: "v", Type: types.T{Kind: types.String}},
		},
		PrimaryKey: []string{"k"},
	}}
	// Every statement reads the version row, so the table must outlive a
	// tablet server: three replicas, or what the cluster has when it has
	// fewer servers than that (Fluss then refuses with
	// INVALID_REPLICATION_FACTOR and the cluster's default applies).
	desc.Properties = map[string]string{"table.replication.factor": "3"}
	_, err := store.CreateTable(ctx, TablePath, desc, true)
	if err != nil && strings.Contains(err.Error(), "INVALID_REPLICATION_FACTOR") {
		desc.Properties = nil
		_, err = store.CreateTable(ctx, TablePath, desc, true)
	}
	if err != nil {
		return nil, fmt.Errorf("metadata: create table %s: %w", TablePath, err)
	}
	t, err := store.Table(ctx, TablePath)
	if err != nil {
		return nil, fmt.Errorf("metadata: open table %s: %w", TablePath, err)
	}
	m, err := open(ctx, &tableBackend{t: t})
	if err != nil {
		return nil, err
	}
	m.watchCatalog(store)
	return m, nil
}

func (b *tableBackend) load(ctx context.Context) (map[string]string, string, error) {
	r, err := b.t.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	rows := map[string]string{}
	v := ""
	for {
		rec, err := r.Next(ctx)
		if err != nil {
			return nil, "", err
		}
		if rec == nil {
			break
		}
		ks, ok1 := rec.Column(0).(*array.String)
		vs, ok2 := rec.Column(1).(*array.String)
		if !ok1 || !ok2 {
			rec.Release()
			return nil, "", fmt.Errorf("metadata table %s: unexpected column types %s, %s", TablePath, rec.Column(0).DataType(), rec.Column(1).DataType())
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			switch {
			case vs.IsNull(i): // deleted, not yet swept
			case ks.Value(i) == keyVersion:
				v = vs.Value(i)
			default:
				rows[ks.Value(i)] = vs.Value(i)
			}
		}
		rec.Release()
	}
	return rows, v, nil
}

// version is one primary-key lookup of the version row.
func (b *tableBackend) version(ctx context.Context) (string, error) {
	keys := b.record([]string{keyVersion}, nil, true)
	defer keys.Release()
	rec, err := b.t.Lookup(ctx, keys, []int{1})
	if err != nil {
		return "", err
	}
	defer rec.Release()
	if rec.NumRows() == 0 {
		return "", nil
	}
	vs, ok := rec.Column(0).(*array.String)
	if !ok || vs.IsNull(0) {
		return "", nil
	}
	return vs.Value(0), nil
}

// commit upserts the changed rows (a deleted one as NULL) and the version
// row in one call: the table has one bucket, so they travel in one PutKv
// batch, which the tablet server appends to the bucket's log as one
// record batch: all of them or none. The NULL rows are deleted after,
// which may be lost without harm (load skips them).
func (b *tableBackend) commit(ctx context.Context, changed map[string]string, v string) error {
	ks := make([]string, 0, len(changed)+1)
	vs := make([]*string, 0, len(changed)+1)
	var gone []string
	for k, val := range changed {
		ks = append(ks, k)
		if val == "" {
			vs = append(vs, nil)
			gone = append(gone, k)
		} else {
			vs = append(vs, &val)
		}
	}
	ks, vs = append(ks, keyVersion), append(vs, &v)
	rec := b.record(ks, vs, false)
	defer rec.Release()
	if _, err := b.t.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		return err
	}
	if len(gone) > 0 {
		keys := b.record(gone, nil, true)
		defer keys.Release()
		_, _ = b.t.Delete(ctx, keys) // NULL rows read as absent: a lost delete is harmless
	}
	return nil
}

// record builds rows of (k, v), or of k only when keysOnly.
func (b *tableBackend) record(ks []string, vs []*string, keysOnly bool) arrow.RecordBatch {
	schema := b.t.Info().ArrowSchema()
	if keysOnly {
		schema = arrow.NewSchema(schema.Fields()[:1], nil)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	kb := rb.Field(0).(*array.StringBuilder)
	for i, k := range ks {
		kb.Append(k)
		if keysOnly {
			continue
		}
		vb := rb.Field(1).(*array.StringBuilder)
		if vs[i] == nil {
			vb.AppendNull()
		} else {
			vb.Append(*vs[i])
		}
	}
	return rb.NewRecordBatch()
}

func (*tableBackend) close() error { return nil }
