package fluss

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

// Missing values and NOT NULL set by ALTER TABLE.
//
// ALTER TABLE t ADD COLUMN c ... DEFAULT v gives the rows already stored
// the value v, as PostgreSQL does without rewriting them
// (pg_attribute.atthasmissing / attmissingval): v, evaluated once, is
// kept in sqlgate's metadata (ColumnMeta.Missing, the compacted encoding
// of the column's type), and Fluss adds the column as it adds any,
// nullable, at the end, under a new schema id. A stored row carries the
// id of the schema it was written under (a primary-key value's 2-byte
// prefix, a log batch's SchemaId), so a row of a schema with fewer
// columns than c's position was written before c existed and reads c's
// missing value; a row written since reads what was written, NULL
// included. Missing.WidenRow and Missing.WidenRecord are where the stores
// widen such rows (embedded: storedRow, the log scans and the changelog;
// remote: its row and batch decoders). Other Fluss clients do not read
// sqlgate's metadata: they read NULL there.
//
// A NOT NULL that ALTER TABLE sets (ColumnMeta.NotNull) cannot be Fluss's:
// its coordinator's SchemaUpdate refuses every column modification
// (ModifyColumn: "Not support modify column now"), so the Fluss column
// stays nullable and sqlgate marks the column NOT NULL in the descriptor
// it reads (applyNotNull), which makes every write path check it as it
// checks Fluss's NOT NULL (CheckNotNull: 23502 with the failing row), and
// the catalogs show it. The table JSON written for Fluss (and the embedded
// catalog) keeps the column nullable.

// ColumnMissingKeys are the metadata keys of column n's (1-based) missing
// value: its encoding's and its text's.
func ColumnMissingKeys(n int) (value, text string) {
	p := fmt.Sprintf("%s%d.", metaColumnPrefix, n)
	return p + "missing", p + "missingtext"
}

// ColumnNotNullKey is the metadata key of column n's (1-based) NOT NULL
// set by ALTER TABLE.
func ColumnNotNullKey(n int) string { return fmt.Sprintf("%s%d.notnull", metaColumnPrefix, n) }

// isNotNullKey reports whether key is a ColumnNotNullKey, and its column.
func isNotNullKey(key string) (int, bool) {
	rest, ok := strings.CutPrefix(key, metaColumnPrefix)
	if !ok {
		return 0, false
	}
	n, field, ok := metaKey(rest)
	return n, ok && field == "notnull"
}

// EncodeMissing is the property value (ColumnMissingKeys' first) of the
// non-null element i of a, a column of type t.
func EncodeMissing(t types.T, a arrow.Array, i int) (string, error) {
	b, err := format.AppendValue(nil, t.Nullable(), a, i)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Missing is what the rows of a table written under an older schema read
// in the columns added since.
type Missing struct {
	ts   []types.T
	vals [][]byte // per column; nil: NULL
}

// MissingOf returns the missing values of d's columns; nil when every
// column's is NULL.
func MissingOf(d TableDescriptor) *Missing {
	m := MetaOf(d)
	var out *Missing
	for i, c := range m.Columns {
		if c.Missing == "" {
			continue
		}
		if out == nil {
			out = &Missing{vals: make([][]byte, len(d.Schema.Columns))}
			for _, col := range d.Schema.Columns {
				out.ts = append(out.ts, col.Type.Nullable())
			}
		}
		out.vals[i] = []byte(c.Missing)
	}
	return out
}

// WidenRow appends to dst the compacted row of newFields fields made from
// row, a row of its first oldFields: the fields added since read their
// missing values (NULL for a nil m). The compacted row's fields follow its
// null bitmap in order, so the added ones are appended.
func (m *Missing) WidenRow(dst, row []byte, oldFields, newFields int) ([]byte, error) {
	out, err := format.WidenRow(dst, row, oldFields, newFields)
	if err != nil || m == nil {
		return out, err
	}
	base := len(dst)
	for f := oldFields; f < newFields && f < len(m.vals); f++ {
		if v := m.vals[f]; v != nil {
			out[base+f>>3] &^= 1 << (f & 7)
			out = append(out, v...)
		}
	}
	return out, nil
}

// WidenRecord returns rec, whose columns are the first of full's (rows
// written under an older schema), with full's other columns appended:
// each one's missing value in every row (NULLs for a nil m); rec is
// released.
func (m *Missing) WidenRecord(rec arrow.RecordBatch, full *arrow.Schema) (arrow.RecordBatch, error) {
	n := int(rec.NumCols())
	if m == nil {
		return WidenRecord(rec, full), nil
	}
	rows := int(rec.NumRows())
	cols := make([]arrow.Array, 0, full.NumFields())
	for i := 0; i < n; i++ {
		cols = append(cols, rec.Column(i))
	}
	var made []arrow.Array
	defer func() {
		for _, a := range made {
			a.Release()
		}
		rec.Release()
	}()
	for i := n; i < full.NumFields(); i++ {
		var a arrow.Array
		if i < len(m.vals) && m.vals[i] != nil {
			b := array.NewBuilder(memory.DefaultAllocator, full.Field(i).Type)
			b.Reserve(rows)
			for r := 0; r < rows; r++ {
				if _, err := format.DecodeValue(m.vals[i], m.ts[i], b); err != nil {
					b.Release()
					return nil, fmt.Errorf("missing value of column %d: %w", i+1, err)
				}
			}
			a = b.NewArray()
			b.Release()
		} else {
			a = array.MakeArrayOfNull(memory.DefaultAllocator, full.Field(i).Type, rows)
		}
		made = append(made, a)
		cols = append(cols, a)
	}
	return array.NewRecordBatch(full, cols, int64(rows)), nil
}

// applyNotNull marks NOT NULL the columns whose NOT NULL ALTER TABLE set
// (ColumnMeta.NotNull), as the descriptor sqlgate reads shows them.
func applyNotNull(d *TableDescriptor, m TableMeta) {
	for i, c := range m.Columns {
		if c.NotNull {
			d.Schema.Columns[i].Type.NotNull = true
		}
	}
}

// resetNotNull undoes applyNotNull of the column whose NotNull key a
// change resets (ALTER COLUMN DROP NOT NULL): Fluss's column is nullable.
func resetNotNull(d *TableDescriptor, key string) {
	if n, ok := isNotNullKey(key); ok && n <= len(d.Schema.Columns) && !isKeyColumn(*d, d.Schema.Columns[n-1].Name) {
		d.Schema.Columns[n-1].Type.NotNull = false
	}
}

// isKeyColumn reports whether name is one of d's primary-key columns.
func isKeyColumn(d TableDescriptor, name string) bool {
	for _, k := range d.Schema.PrimaryKey {
		if k == name {
			return true
		}
	}
	return false
}

// flussNullability is column i's type as Fluss's schema has it: nullable
// when its NOT NULL is sqlgate's (ColumnMeta.NotNull).
func flussNullability(t types.T, m TableMeta, i int) types.T {
	if m.Column(i).NotNull {
		return t.Nullable()
	}
	return t
}
