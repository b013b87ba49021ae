package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE ... ADD [CONSTRAINT name] PRIMARY KEY (cols), which pg_dump
// writes after it loaded a table's rows: a Fluss table's primary key is
// its schema's, so a log table given one is rewritten (rewrite.go) into a
// primary-key table with the same columns, the key's columns NOT NULL.
// PostgreSQL's checks come with it: a table that has a primary key
// refuses a second (42P16), a duplicated key value fails the statement as
// the index build does (23505 "could not create unique index"), before a
// NULL in a key column (23502), as PostgreSQL reports them. The copy into
// a primary-key table would merge two rows of one key into one, so the
// copy counts the rows it writes and the rows the new table holds; when
// they differ, the old table is scanned for the first duplicated key,
// converted as the copy converts it (its keys held in memory: the
// statement fails anyway). The key is named table_pkey
// (fluss.PrimaryKeyName) unless CONSTRAINT name says otherwise: that name
// is kept in the table's fluss.PrimaryKeyNameProperty, which catalogs and
// errors read (TableInfo.PrimaryKeyName), 42710 when another constraint
// of the table has it.

// secondKey is the 42P16 of ADD PRIMARY KEY on a table that has one,
// which a Fluss cluster (where no table is rewritten) reports too.
func secondKey(info fluss.TableInfo, actions []sql.AlterAction) error {
	for _, a := range actions {
		if a.Kind == sql.AlterAddPrimaryKey && info.HasPrimaryKey() {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", info.Path.Table)
		}
	}
	return nil
}

// addPrimaryKey takes ADD PRIMARY KEY into the plan.
func (p *rewritePlan) addPrimaryKey(a sql.AlterAction) error {
	table := p.old.Path.Table
	u := a.Unique
	if len(p.pk) > 0 || p.addedPK {
		return sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", table)
	}
	if u.Name != "" && u.Name != fluss.PrimaryKeyName(table) {
		m := fluss.MetaOf(p.old.Descriptor)
		if slices.ContainsFunc(m.Uniques, func(c fluss.UniqueConstraint) bool { return c.Name == u.Name }) ||
			slices.ContainsFunc(m.Checks, func(c fluss.CheckConstraint) bool { return c.Name == u.Name }) ||
			slices.ContainsFunc(m.ForeignKeys, func(c fluss.ForeignKey) bool { return c.Name == u.Name }) {
			return sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", u.Name, table)
		}
		p.pkName = u.Name
	}
	var pk []string
	for _, name := range u.Columns {
		if slices.Contains(pk, name) {
			return sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" appears twice in primary key constraint", name).WithPosition(u.Pos)
		}
		pk = append(pk, name)
	}
	for _, name := range pk {
		i := p.find(name)
		if i < 0 {
			return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, table)
		}
		c := &p.cols[i]
		c.col.Type.NotNull, c.meta.NotNull, c.checkNull = true, false, true
	}
	for _, k := range p.partKeys { // PostgreSQL's rule, and Fluss's: a partition holds its key's rows
		if !slices.Contains(pk, k) {
			return sqlerr.New(sqlerr.FeatureNotSupported, "unique constraint on partitioned table must include all partitioning columns").
				WithDetail("PRIMARY KEY constraint on table \"%s\" lacks column \"%s\" which is part of the partition key.", table, k)
		}
	}
	p.pk, p.addedPK, p.copy = pk, true, true
	if slices.ContainsFunc(p.bkey, func(k string) bool { return !slices.Contains(pk, k) }) {
		p.bkey = nil // a bucket key is part of the primary key: the key's own
	}
	return nil
}

// keyName is the name of the primary key the plan adds.
func (p *rewritePlan) keyName() string {
	return cmp.Or(p.pkName, fluss.PrimaryKeyName(p.old.Path.Table))
}

// checkAddedKey refuses a primary key over column types a Fluss primary
// key cannot hold (0A000), before any row is copied.
func (p *rewritePlan) checkAddedKey(desc fluss.TableDescriptor) error {
	if !p.addedPK {
		return nil
	}
	if _, err := fluss.ValidateDescriptor(desc); err != nil {
		return sqlerr.New(sqlerr.FeatureNotSupported, "PRIMARY KEY (%s) of table \"%s\" is not supported on its column types", strings.Join(p.pk, ", "), p.old.Path.Table).
			WithDetail("%s", strings.TrimSpace(err.Error()))
	}
	return nil
}

// duplicatedKey is the 23505 of the first key value the rows hold twice
// (nil when none does), the key's values converted as the copy converts
// them (an ALTER COLUMN ... TYPE of the statement may make two values
// one, numeric 1.2 and 1.4 integer 1).
func (s *session) duplicatedKey(ctx context.Context, p *rewritePlan) error {
	keyCols := make([]int, len(p.pk)) // positions in the new table
	for k, name := range p.pk {
		keyCols[k] = p.find(name)
	}
	conv, err := s.newBatchConv(ctx, p, keyCols)
	if err != nil {
		return err
	}
	newCols := make([]fluss.Column, len(p.cols))
	for i, c := range p.cols {
		newCols[i] = c.col
	}
	info := fluss.TableInfo{Path: p.old.Path, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: newCols}}}
	d := newKeyDups(info, fluss.UniqueConstraint{Name: p.keyName(), Columns: keyCols}) // uniquecarry.go
	var dup error
	err = s.eachBatch(ctx, p.old.Path, copyBatchRows, func(b arrow.RecordBatch) (bool, error) {
		arrays, release, err := conv.convert(b)
		if err != nil {
			return false, err
		}
		defer release()
		for r := 0; r < int(b.NumRows()); r++ {
			if dup = d.add(s, arrays, r); dup != nil {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	return dup
}

// batchConv evaluates columns of a rewrite's new table over the old
// table's batches: a column the plan converts (ALTER COLUMN ... TYPE) by
// its conversion, lowered once, another as the old column, a batch
// written before an ADD COLUMN widened first. What copyRows
// (rewritecopy.go) does for every column of a batch, for the columns a
// check reads.
type batchConv struct {
	p       *rewritePlan
	cols    []int       // the new table's columns, by position
	lowered []exec.Expr // cols' conversions, nil for a copied column
	ec      *exec.EvalContext
	missing *fluss.Missing
	full    *arrow.Schema
}

// newBatchConv lowers the conversions of p's columns cols.
func (s *session) newBatchConv(ctx context.Context, p *rewritePlan, cols []int) (*batchConv, error) {
	var convs []binder.Expr
	for _, i := range cols {
		if c := p.cols[i]; c.conv != nil {
			convs = append(convs, c.conv)
		}
	}
	lowered, err := lower.LowerExprs(convs)
	if err != nil {
		return nil, err
	}
	bc := &batchConv{p: p, cols: cols, lowered: make([]exec.Expr, len(cols)), ec: &exec.EvalContext{Ctx: ctx, Mem: s.eng.mem},
		missing: fluss.MissingOf(p.old.Descriptor), full: p.old.ArrowSchema()}
	next := 0
	for k, i := range cols {
		if p.cols[i].conv != nil {
			bc.lowered[k] = lowered[next]
			next++
		}
	}
	return bc, nil
}

// convert is the columns of b (a batch of the old table) as the new
// table has them, and the release of what it made.
func (bc *batchConv) convert(b arrow.RecordBatch) ([]arrow.Array, func(), error) {
	var made []arrow.Array
	release := func() {
		for _, a := range made {
			a.Release()
		}
	}
	if int(b.NumCols()) < len(bc.p.old.Descriptor.Schema.Columns) {
		b.Retain() // (WidenRecord takes a reference; the caller releases its own)
		wide, err := bc.missing.WidenRecord(b, bc.full)
		if err != nil {
			return nil, release, err
		}
		defer wide.Release()
		b = wide
	}
	out := make([]arrow.Array, len(bc.cols))
	for k, i := range bc.cols {
		if bc.lowered[k] == nil {
			out[k] = b.Column(bc.p.cols[i].src)
			out[k].Retain() // (held past the widened batch's release)
			made = append(made, out[k])
			continue
		}
		v, err := bc.lowered[k].Eval(bc.ec, b)
		if err != nil {
			release()
			return nil, func() {}, err
		}
		out[k] = v
		made = append(made, v)
	}
	return out, release, nil
}

// countRows counts t's committed rows.
func countRows(ctx context.Context, t fluss.Table) (int64, error) {
	var n int64
	err := scanEach(ctx, t, fluss.ScanOptions{BatchRows: copyBatchRows}, func(b arrow.RecordBatch) (bool, error) { // tables.go
		n += b.NumRows()
		b.Release()
		return false, nil
	})
	return n, err
}

// checkAddedKeyCopy is the end of the copy of an ADD PRIMARY KEY rewrite:
// copyErr the copy's error (a NULL in a key column: a duplicate is
// reported first, as PostgreSQL builds the index before it checks the
// rows), written the rows the copy wrote into dst.
func (s *session) checkAddedKeyCopy(ctx context.Context, p *rewritePlan, dst fluss.Table, written int64, copyErr error) error {
	if copyErr != nil {
		if sqlerr.CodeOf(copyErr) != sqlerr.NotNullViolation {
			return copyErr
		}
		if err := s.duplicatedKey(ctx, p); err != nil {
			return err
		}
		return copyErr
	}
	n, err := countRows(ctx, dst)
	if err != nil || n == written {
		return err
	}
	if err := s.duplicatedKey(ctx, p); err != nil {
		return err
	}
	// (no key found twice, yet rows merged: the store's key encoding
	// makes values one that the check tells apart)
	return sqlerr.New(sqlerr.UniqueViolation, "could not create unique index \"%s\"", p.keyName()).
		WithDetail("%d rows were copied and %d kept.", written, n)
}
