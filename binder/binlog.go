package binder

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// binlogScan binds t$binlog, which only a primary-key table has (src, the
// name as written, only positions the refusal).
func (b *binder) binlogScan(src sourceNode, info fluss.TableInfo, alias string) (Node, error) {
	if !info.HasPrimaryKey() {
		// Fluss's words (its $changelog refusal, for $binlog).
		return nil, b.errAt(src, sqlerr.New(sqlerr.FeatureNotSupported,
			"Virtual $binlog tables are only supported for primary key tables. Table %s does not have a primary key.", info.Path))
	}
	return NewBinlogScan(info, alias), nil
}

// NewBinlogScan returns a scan of a primary-key table's binlog (t$binlog):
// Fluss's metadata columns, then the row before and after each change.
func NewBinlogScan(table fluss.TableInfo, alias string) *Scan {
	var cols []Column
	for i, c := range binlogColumns(table) {
		cols = append(cols, Column{Name: c.Name, T: c.Type, Table: alias, Ordinal: i + 1})
	}
	return &Scan{Table: table, Alias: alias, Changelog: true, Binlog: true, cols: cols}
}

// binlogColumns are the $binlog view's columns, as Fluss's Flink connector
// shapes them: the $changelog metadata columns (the change type being
// insert, update or delete), then before and after, each a nullable ROW of
// the table's columns (before is NULL for an insert, after for a delete).
func binlogColumns(info fluss.TableInfo) []fluss.Column {
	meta := fluss.ChangelogColumns(info)[:3]
	row := types.T{Kind: types.Row}
	for _, c := range info.Descriptor.Schema.Columns {
		row.Fields = append(row.Fields, types.Field{Name: c.Name, Type: c.Type})
	}
	return append(append([]fluss.Column(nil), meta...),
		fluss.Column{Name: BinlogBeforeColumn, Type: row}, fluss.Column{Name: BinlogAfterColumn, Type: row})
}

// The $binlog view's row columns.
const (
	BinlogBeforeColumn = "before"
	BinlogAfterColumn  = "after"
)
