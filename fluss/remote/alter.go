package remote

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE on the cluster: Fluss 0.9.1's AlterTable (API 1044) with its
// config changes (SET = 0, DELETE = 1) and add_columns (nullable, LAST = 0),
// the only column change its coordinator makes (SchemaUpdate refuses
// drop, modify and rename); comments cannot change there, so COMMENT ON
// sets custom properties of sqlgate's (comments.go). The coordinator
// registers the new schema under the next schema id; rows written before
// read the added columns' missing values, NULL unless ADD COLUMN gave a
// default (schemaColumns, fluss.Missing's WidenRow / WidenRecord).

const apiAlterTable int16 = 1044

// CodeInvalidAlterTable is Fluss's InvalidAlterTableException (its
// SchemaChangeException has no code of its own: UNKNOWN_SERVER_ERROR).
const CodeInvalidAlterTable = 56

// AlterTable sends AlterTable.
func (c *Client) AlterTable(ctx context.Context, req *pb.AlterTableRequest) error {
	return c.adminCall(ctx, true, apiAlterTable, req, &pb.AlterTableResponse{})
}

var _ fluss.TableAlterer = (*Store)(nil)

// AlterTable implements fluss.TableAlterer.
func (s *Store) AlterTable(ctx context.Context, path fluss.TablePath, changes []fluss.TableChange) (fluss.TableInfo, error) {
	info, err := s.GetTable(ctx, path)
	if err != nil {
		return info, err
	}
	// The same checks and messages as the embedded store, before the
	// cluster is asked.
	if _, _, err := fluss.ApplyTableChanges(info, changes); err != nil {
		return info, err
	}
	req := &pb.AlterTableRequest{TablePath: pbPath(s.onCluster(path)), IgnoreIfNotExists: proto.Bool(false)}
	// limits are the VARCHAR(n) limits of added columns, custom properties
	// (Fluss's STRING has no length; fluss/tablejson_limits.go).
	var limits []*pb.PbAlterConfig
	added := false
	for _, ch := range changes {
		switch ch.Kind {
		case fluss.ChangeSetProperty:
			if strings.HasPrefix(ch.Key, fluss.MetaPrefix+"column.") {
				// sqlgate's metadata of a column added (a domain's
				// ColumnTypeKey) goes with the limits, before the column
				limits = append(limits, &pb.PbAlterConfig{ConfigKey: proto.String(ch.Key), ConfigValue: proto.String(ch.Value), OpType: proto.Int32(0)})
				continue
			}
			req.ConfigChanges = append(req.ConfigChanges, &pb.PbAlterConfig{ConfigKey: proto.String(ch.Key), ConfigValue: proto.String(ch.Value), OpType: proto.Int32(0)})
		case fluss.ChangeResetProperty:
			req.ConfigChanges = append(req.ConfigChanges, &pb.PbAlterConfig{ConfigKey: proto.String(ch.Key), OpType: proto.Int32(1)})
		case fluss.ChangeAddColumn:
			js, err := fluss.MarshalTypeJSON(ch.Column.Type.Nullable())
			if err != nil {
				return info, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "column \"%s\": %v", ch.Column.Name, err)
			}
			add := &pb.PbAddColumn{ColumnName: proto.String(ch.Column.Name), DataTypeJson: js, ColumnPositionType: proto.Int32(0)}
			if ch.Column.Comment != "" {
				add.Comment = proto.String(ch.Column.Comment)
			}
			req.AddColumns = append(req.AddColumns, add)
			if pg := fluss.EnumPGType(ch.Column.Type); pg != "" {
				// the column's enum type (fluss.ColumnMeta.PGType) goes
				// with the limits, before the column
				key := fluss.ColumnTypeKey(len(info.Descriptor.Schema.Columns) + len(req.AddColumns))
				limits = append(limits, &pb.PbAlterConfig{ConfigKey: proto.String(key), ConfigValue: proto.String(pg), OpType: proto.Int32(0)})
			}
			for k, v := range fluss.VarcharLimitProperties(ch.Column) {
				limits = append(limits, &pb.PbAlterConfig{ConfigKey: proto.String(k), ConfigValue: proto.String(v), OpType: proto.Int32(0)})
			}
		case fluss.ChangeTableComment:
			req.ConfigChanges = append(req.ConfigChanges, commentChange("", ch.Comment)) // comments.go
		case fluss.ChangeColumnComment:
			req.ConfigChanges = append(req.ConfigChanges, commentChange(ch.Column.Name, ch.Comment))
		}
	}
	if len(req.AddColumns) > 0 && len(req.ConfigChanges) > 0 {
		// the statement's other property changes (a CHECK constraint
		// added with the column) go first with the limits, and are taken
		// back with them when the columns fail
		limits = append(limits, req.ConfigChanges...)
		req.ConfigChanges = nil
	}
	if len(limits) > 0 {
		// Fluss takes properties or schema changes in one AlterTable, not
		// both: the limits go first (a key of a column not there yet
		// limits nothing), and are taken back when the columns fail.
		lreq := &pb.AlterTableRequest{TablePath: req.TablePath, IgnoreIfNotExists: proto.Bool(false), ConfigChanges: limits}
		if err := s.c.AlterTable(ctx, lreq); err != nil {
			return info, storeErr(err, path)
		}
		s.forgetTable(path)
		defer func(added *bool) {
			if *added {
				return
			}
			undo := &pb.AlterTableRequest{TablePath: req.TablePath, IgnoreIfNotExists: proto.Bool(true)}
			for _, l := range limits {
				undo.ConfigChanges = append(undo.ConfigChanges, &pb.PbAlterConfig{ConfigKey: l.ConfigKey, OpType: proto.Int32(1)})
			}
			_ = s.c.AlterTable(context.WithoutCancel(ctx), undo)
		}(&added)
	}
	if err := s.c.AlterTable(ctx, req); err != nil {
		switch CodeOf(err) {
		case CodeInvalidAlterTable, CodeInvalidConfig:
			return info, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "Fluss refused ALTER TABLE %s: %v", path.Table, err)
		}
		return info, storeErr(err, path)
	}
	added = true
	s.catalogChanged(ctx, path)
	return s.GetTable(ctx, path)
}

// CodeInvalidConfig is Fluss's InvalidConfigException.
const CodeInvalidConfig = 39

// schemaColumns caches how many columns each older schema of a table has
// (schemas never change once registered), so that rows written before an
// ADD COLUMN are read without asking the cluster each time.
type schemaColumns struct{ m sync.Map } // schemaKey -> int

type schemaKey struct {
	table int64
	id    int16
}

// oldColumns returns the column counts of info's schemas before the
// current one (nil when there are none).
func (s *Store) oldColumns(ctx context.Context, info fluss.TableInfo) (map[int16]int, error) {
	if info.SchemaID <= 1 {
		return nil, nil
	}
	out := map[int16]int{}
	for id := int16(1); id < info.SchemaID; id++ {
		k := schemaKey{info.TableID, id}
		if n, ok := s.schemaCols.m.Load(k); ok {
			out[id] = n.(int)
			continue
		}
		sch, got, err := s.c.GetTableSchema(ctx, s.onCluster(info.Path), int(id))
		if CodeOf(err) == CodeSchemaNotExist {
			continue
		}
		if err != nil {
			return nil, storeErr(err, info.Path)
		}
		if got != id {
			return nil, &ProtocolError{Msg: fmt.Sprintf("GetTableSchema of %s schema %d answered schema %d", info.Path, id, got)}
		}
		s.schemaCols.m.Store(k, len(sch.Columns))
		out[id] = len(sch.Columns)
	}
	return out, nil
}

// logDecoders decode a table's log batches: dec those of its current
// schema, old those of its older schemas (whole batches: a projection's
// column indexes name the current schema's columns), widened to the
// current schema with NULLs for the columns added since.
type logDecoders struct {
	t   *table
	dec *format.BatchDecoder
	old map[int16]*format.BatchDecoder
}

// logDecoders decodes whole batches of t.
func (t *table) logDecoders() logDecoders {
	return logDecoders{t: t, dec: format.NewTableBatchDecoder(t.info.ArrowSchema(), t.ts)}
}

// decodeBatch decodes the batch raw (header h) with the change types of its
// records, widened to the current schema when an older one wrote it.
func (d *logDecoders) decodeBatch(raw []byte, h format.BatchHeader) (format.Batch, error) {
	t := d.t
	dec := d.dec
	if h.SchemaID > t.info.SchemaID {
		return format.Batch{}, t.errSchemaMoved(h.SchemaID)
	}
	if h.SchemaID != t.info.SchemaID {
		if dec = d.oldDecoder(h.SchemaID); dec == nil {
			return format.Batch{}, sqlerr.New(sqlerr.DataCorrupted, "a log batch of %s has schema %d, which the table (at schema %d) does not have",
				t.info.Path, h.SchemaID, t.info.SchemaID)
		}
	}
	bt, err := dec.Decode(raw)
	if err != nil {
		return format.Batch{}, sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", t.info.Path, err)
	}
	if dec != d.dec { // written before an ADD COLUMN: the added columns read their missing values
		if bt.Record, err = t.missing.WidenRecord(bt.Record, t.info.ArrowSchema()); err != nil {
			return format.Batch{}, sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", t.info.Path, err)
		}
	}
	return bt, nil
}

// oldDecoder returns the decoder of log batches written under the
// table's older schema id (nil when the table has no such schema).
func (d *logDecoders) oldDecoder(id int16) *format.BatchDecoder {
	if dec := d.old[id]; dec != nil {
		return dec
	}
	n, ok := d.t.oldCols[id]
	if !ok || n <= 0 || n > len(d.t.ts) {
		return nil
	}
	full := d.t.info.ArrowSchema()
	dec := format.NewTableBatchDecoder(arrow.NewSchema(full.Fields()[:n], nil), d.t.ts[:n])
	if d.old == nil {
		d.old = map[int16]*format.BatchDecoder{}
	}
	d.old[id] = dec
	return dec
}
