package engine

import (
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
	"github.com/sqlgate/sqlgate/types"
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
// statement fails anyway). sqlgate names a
// table's primary key table_pkey (fluss.PrimaryKeyName), which is what
// pg_dump writes; another name is refused (0A000) rather than dropped.

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
		return sqlerr.New(sqlerr.FeatureNotSupported, "primary key name \"%s\" is not supported: sqlgate names the primary key of table \"%s\" \"%s\"", u.Name, table, fluss.PrimaryKeyName(table)).
			WithHint("Leave out CONSTRAINT name, or name it %s.", fluss.PrimaryKeyName(table))
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
	p.pk, p.addedPK, p.copy = pk, true, true
	if slices.ContainsFunc(p.bkey, func(k string) bool { return !slices.Contains(pk, k) }) {
		p.bkey = nil // a bucket key is part of the primary key: the key's own
	}
	return nil
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
// one, numeric 1.2 and 1.4 integer 1): rows with a NULL in the key are no
// duplicates, as in PostgreSQL's unique index.
func (s *session) duplicatedKey(ctx context.Context, p *rewritePlan) error {
	keyCols := make([]int, len(p.pk)) // positions in the new table
	var convs []binder.Expr
	for k, name := range p.pk {
		keyCols[k] = p.find(name)
		if c := p.cols[keyCols[k]]; c.conv != nil {
			convs = append(convs, c.conv)
		}
	}
	lowered, err := lower.LowerExprs(convs)
	if err != nil {
		return err
	}
	newCols := make([]fluss.Column, len(p.cols))
	for i, c := range p.cols {
		newCols[i] = c.col
	}
	info := fluss.TableInfo{Path: p.old.Path, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: newCols}}}
	c := fluss.UniqueConstraint{Name: fluss.PrimaryKeyName(p.old.Path.Table), Columns: keyCols}
	u := &uniqueTable{}
	ec := &exec.EvalContext{Ctx: ctx, Mem: s.eng.mem}
	seen := map[string]bool{}
	var dup error
	full := p.old.ArrowSchema()
	missing := fluss.MissingOf(p.old.Descriptor)
	err = s.eachBatch(ctx, p.old.Path, copyBatchRows, func(b arrow.RecordBatch) (bool, error) {
		if int(b.NumCols()) < len(p.old.Descriptor.Schema.Columns) {
			b.Retain()
			wide, err := missing.WidenRecord(b, full)
			if err != nil {
				return false, err
			}
			defer wide.Release()
			b = wide
		}
		arrays := make([]arrow.Array, len(keyCols))
		next := 0
		for k, i := range keyCols {
			if p.cols[i].conv == nil {
				arrays[k] = b.Column(p.cols[i].src)
				continue
			}
			v, err := lowered[next].Eval(ec, b)
			if err != nil {
				return false, err
			}
			next++
			defer v.Release()
			arrays[k] = v
		}
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]any, len(p.cols))
			for k, i := range keyCols {
				vals[i] = types.ValueAt(arrays[k], r)
			}
			key := u.keyOf(vals, keyCols)
			if key == "" {
				continue
			}
			if seen[key] {
				dup = s.duplicateIn(info, c, uniqueRow{vals: vals}) // uniqueddl.go
				return true, nil
			}
			seen[key] = true
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	return dup
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
	return sqlerr.New(sqlerr.UniqueViolation, "could not create unique index \"%s\"", fluss.PrimaryKeyName(p.old.Path.Table)).
		WithDetail("%d rows were copied and %d kept.", written, n)
}
