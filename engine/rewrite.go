package engine

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// ALTER TABLE by table rewrite, as PostgreSQL rewrites a table for ALTER
// COLUMN ... TYPE: the actions Fluss 0.9.1 cannot make to a table's schema
// (ALTER COLUMN ... TYPE [USING], DROP COLUMN, RENAME COLUMN, DROP NOT
// NULL of a NOT NULL declared in CREATE TABLE, which is Fluss's own, and
// ADD PRIMARY KEY of a log table: addpk.go) make
// a new table at the same path with the new schema (a new table id), its
// rows copied from the old one and converted (rewritecopy.go), which then
// replaces the old table in one catalog change (fluss.TableReplacer: a
// crash leaves the old table or the new one, whole). A rewrite, not a
// hidden column kept as PostgreSQL's attisdropped: the Fluss schema is
// what Flink and pyfluss read, and a dropped or renamed column must not
// live on there under its old name, nor a column keep its old type.
//
// What sqlgate keeps about the table comes along: its metadata (defaults,
// identity and sequences, generated columns, NOT NULLs it enforces,
// CHECKs, foreign keys: by column position, renumbered past a dropped
// column; UNIQUE constraints, whose indexes are built anew for the new
// table: rewriteunique.go), comments, properties, buckets, the owner and grants (which move
// to the new id: fluss.GrantsFromProperty, as TRUNCATE's re-created table
// takes them), the views over it (their dependency on the old id moves to
// the new one) and the foreign keys of other tables that reference it.
// A column's missing value (fluss/missing.go) is written into every row.
// What follows the table elsewhere (other tables' foreign keys, owned
// sequences, views, the old index tables) is recorded on the new table by
// the swap's own catalog write and done after it (rewritefollow.go): a
// crash in between is finished at the next start.
//
// The rewrite locks the table whole (rowlock: it waits for the
// transactions holding row locks in it, or appending to it, as
// PostgreSQL's ACCESS EXCLUSIVE lock does; the new table is locked whole
// too, until the statement's transaction ends), makes its writers wait
// until it ends (rewritegate.go: they are bound then, to the new table) and
// copies the rows without the server-wide DDL lock, which it takes for the
// swap alone (swapRewrite): sessions using other tables are not held up by
// the copy. Readers read the old table until the swap.
//
// Only the embedded store replaces a table atomically; on a Fluss cluster
// these actions stay 0A000 (no rename, no atomic change of two tables).
// A partitioned table is replaced with its partitions (the store swaps
// them in the same catalog write); a PostgreSQL-partitioned table's
// partition relations follow it to the new id (retargetViews) and are
// bound again over its new columns after the swap (refreshPartitionsOf;
// at the next start too, where a crash came between), as PostgreSQL's
// ALTER of a partitioned table reaches its partitions. Its partition key
// is neither dropped nor retyped (PostgreSQL's 42P16), and a primary key
// added to it includes it (0A000, PostgreSQL's and Fluss's rule).
// Where no row changes - varchar(n) widened to varchar(m >= n) or to text,
// the same Fluss STRING - the table is altered in place, not rewritten.

// rewriteAction reports whether a is carried out by a rewrite of info's
// table.
func rewriteAction(info fluss.TableInfo, a sql.AlterAction) bool {
	switch a.Kind {
	case sql.AlterColumnType, sql.AlterDropColumn, sql.AlterRenameColumn, sql.AlterAddPrimaryKey:
		return true
	case sql.AlterDropNotNull:
		i := info.ColumnIndex(a.Column)
		return i >= 0 && info.Descriptor.Schema.Columns[i].Type.NotNull &&
			!slices.Contains(info.Descriptor.Schema.PrimaryKey, a.Column) && !fluss.MetaOf(info.Descriptor).Column(i).NotNull
	}
	return false
}

// needsRewrite reports whether one of actions is a rewrite's.
func needsRewrite(info fluss.TableInfo, actions []sql.AlterAction) bool {
	return slices.ContainsFunc(actions, func(a sql.AlterAction) bool { return rewriteAction(info, a) })
}

// rwColumn is one column of the rewritten table.
type rwColumn struct {
	src  int // the old table's column it is made from
	col  fluss.Column
	meta fluss.ColumnMeta
	// conv converts the old row's values (ALTER COLUMN TYPE); nil: the
	// old column's values as they are.
	conv binder.Expr
	// checkNull is SET NOT NULL's: the rows are checked for NULLs.
	checkNull bool
	// defaultText is a default to bind anew over the new table ("" none).
	defaultText string
}

// rewritePlan is the rewritten table a statement's actions describe.
type rewritePlan struct {
	s        *session
	old      fluss.TableInfo
	oldMeta  fluss.TableMeta
	cols     []rwColumn
	checks   []fluss.CheckConstraint
	fks      []fluss.ForeignKey       // columns as the old table's indexes
	uniques  []fluss.UniqueConstraint // columns as the old table's indexes
	pk, bkey []string
	// partKeys are the partition keys (renamed with their columns).
	partKeys []string
	copy     bool // rows change: a rewrite, not an alteration in place
	// addedPK: ADD PRIMARY KEY made pk (addpk.go); the copy checks its
	// values for duplicates.
	addedPK bool
	// pkName is the name ADD CONSTRAINT name PRIMARY KEY gave the key
	// ("": table_pkey), kept in PrimaryKeyNameProperty (addpk.go).
	pkName  string
	notices []string
	// what goes with the statement (DROP COLUMN ... CASCADE)
	dropViews []views.View
	dropRefs  []fkRef
	dropSeqs  []string
	// renamed: old column name -> new (their sequences follow)
	renamed map[string]string
	// retyped: columns whose type changed (their identity sequences follow)
	retyped map[string]types.T
}

func (s *session) newRewritePlan(info fluss.TableInfo) *rewritePlan {
	m := fluss.MetaOf(info.Descriptor)
	p := &rewritePlan{s: s, old: info, oldMeta: m, checks: slices.Clone(m.Checks), fks: slices.Clone(m.ForeignKeys), uniques: slices.Clone(m.Uniques),
		pk: slices.Clone(info.Descriptor.Schema.PrimaryKey), bkey: slices.Clone(info.Descriptor.BucketKey),
		partKeys: slices.Clone(info.Descriptor.PartitionKeys),
		renamed:  map[string]string{}, retyped: map[string]types.T{}}
	for i, c := range info.Descriptor.Schema.Columns {
		cm := m.Column(i)
		cm.Missing, cm.MissingText = "", "" // every row carries its value now
		p.cols = append(p.cols, rwColumn{src: i, col: c, meta: cm})
	}
	return p
}

// find is the position of the column named name in the new table (-1).
func (p *rewritePlan) find(name string) int {
	return slices.IndexFunc(p.cols, func(c rwColumn) bool { return c.col.Name == name })
}

// alterByRewrite runs an ALTER TABLE one of whose actions needs a rewrite.
func (s *session) alterByRewrite(ctx context.Context, info fluss.TableInfo, d *sql.DDLStmt) (pgwire.Result, error) {
	if err := secondKey(info, d.Actions); err != nil { // addpk.go: on both stores
		return nil, err
	}
	rep, ok := s.eng.store.(fluss.TableReplacer)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "ALTER TABLE ... %s is not supported on a Fluss cluster: it rewrites the table, and Fluss 0.9.1 can neither rename a table nor replace one atomically", rewriteWhat(info, d.Actions)).
			WithHint("%s", "Create a new table with the columns you want and copy the rows: CREATE TABLE new AS SELECT ... FROM t; then DROP TABLE t.")
	}
	if err := s.mayDrop(info); err != nil { // the owner alone alters, as in PostgreSQL
		return nil, err
	}
	// The table is locked whole (PostgreSQL's ACCESS EXCLUSIVE: the
	// rewrite waits for the transactions writing it, and its writers wait
	// at the gate until the rewrite ends), and the rows are copied without
	// the server-wide DDL lock, which is taken for the swap alone: sessions
	// using other tables go on meanwhile (they waited for the whole copy
	// before). The swap plans the statement again over the catalog as it
	// is then and takes the copy only if nothing it depends on changed;
	// else the copy runs again (rewriteAttempts).
	info, err := s.lockDDLTable(ctx, info.Path)
	if err != nil {
		return nil, err
	}
	defer s.eng.rewrites.hold(info.Path)() // rewritegate.go
	for attempt := 1; ; attempt++ {
		p, desc, err := s.planRewrite(ctx, info, d)
		if err != nil {
			return nil, err
		}
		var st *stagedRewrite
		if p.copy {
			if st, err = s.stageRewrite(ctx, rep, p, desc); err != nil { // rewritecopy.go
				return nil, err
			}
		}
		res, again, err := s.swapRewrite(ctx, d, info, p, desc, st)
		if err == nil && partitionedByValues(info) {
			// its partition relations over the new columns (pgpartitions.go;
			// binding takes the DDL lock the swap held)
			// (past the swap: finished whatever ends ctx, as swapRewrite)
			done := context.WithoutCancel(ctx)
			if now, gerr := s.eng.storeTable(done, info.Path); gerr == nil {
				err = s.refreshPartitionsOf(done, now)
			}
		}
		if !again || attempt == rewriteAttempts {
			return res, err
		}
		if info, err = s.lockDDLTable(ctx, info.Path); err != nil {
			return nil, err
		}
	}
}

// planRewrite is the rewritten table d's actions make of info's, and its
// descriptor.
func (s *session) planRewrite(ctx context.Context, info fluss.TableInfo, d *sql.DDLStmt) (*rewritePlan, fluss.TableDescriptor, error) {
	p := s.newRewritePlan(info)
	for _, a := range inPasses(d.Actions) {
		if err := p.apply(ctx, a); err != nil {
			return nil, fluss.TableDescriptor{}, err
		}
	}
	if err := p.checkKeyTypes(ctx); err != nil {
		return nil, fluss.TableDescriptor{}, err
	}
	if len(p.cols) == 0 {
		return nil, fluss.TableDescriptor{}, sqlerr.New(sqlerr.FeatureNotSupported, "cannot drop the last column of table \"%s\": a Fluss table has at least one column", info.Path.Table).
			WithHint("Drop the table instead, or add the column you want first.")
	}
	desc, err := p.descriptor(ctx)
	if err != nil {
		return nil, fluss.TableDescriptor{}, err
	}
	if err := s.planUniques(p, fluss.TableInfo{Path: info.Path, Descriptor: desc}); err != nil { // rewriteunique.go
		return nil, fluss.TableDescriptor{}, err
	}
	if err := p.checkAddedKey(desc); err != nil { // addpk.go
		return nil, fluss.TableDescriptor{}, err
	}
	return p, desc, nil
}

// swapRewrite puts the rewritten table in place under the DDL lock: the
// staged copy st (nil when no row changes: the table is altered in place)
// of info's table as p planned it. The statement is planned again over the
// catalog as it is now; where the table, the plan or the descriptor it
// makes changed since the copy (another session's DDL in between: a
// default set, a view or foreign key made over the column), or rows were
// written to the table during the copy (fluss.StagedReplacement.Replace),
// the copy is discarded and again says to run it anew (the error is the
// 40001 of the last attempt).
func (s *session) swapRewrite(ctx context.Context, d *sql.DDLStmt, info fluss.TableInfo, p *rewritePlan, desc fluss.TableDescriptor, st *stagedRewrite) (res pgwire.Result, again bool, err error) {
	discard := func() {
		if st != nil {
			s.discardRewrite(ctx, st)
		}
	}
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	now, err := s.eng.storeTable(ctx, info.Path)
	if err != nil {
		discard()
		return nil, false, err
	}
	p2, desc2, err := s.planRewrite(ctx, now, d)
	if err != nil {
		discard()
		return nil, false, err
	}
	if now.TableID != info.TableID || p2.copy != p.copy || !reflect.DeepEqual(desc2, desc) ||
		p.copy && !reflect.DeepEqual(now.Descriptor, info.Descriptor) {
		discard()
		return nil, true, sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent change of table \"%s\" while it was rewritten", info.Path.Table).
			WithHint("Run the statement again.")
	}
	s.eng.catalog.Add(1)
	if st == nil { // no row changes: no position, id or sequence either
		if _, err := s.alterInPlace(ctx, now, desc2); err != nil {
			return nil, false, err
		}
		return noticeResult("ALTER TABLE", p2.noticeErrors()...), false, nil
	}
	// What the swap leaves to do in other objects is recorded on the new
	// table by the swap's own catalog write (rewritefollow.go): a crash
	// before it is done leaves it for the next start.
	f, err := s.planFollowUps(ctx, now, p2)
	var props map[string]string
	if err == nil {
		props, err = f.property()
	}
	var created fluss.TableInfo
	if err == nil {
		created, err = st.st.Replace(ctx, props)
	}
	if err != nil && created.TableID == 0 {
		discard()
		return nil, sqlerr.CodeOf(err) == sqlerr.SerializationFailure, err
	}
	// The swap is the commit point: past it the statement is finished,
	// not undone, whatever ends its context (a cancel, statement_timeout,
	// the connection's end), as PostgreSQL's DDL is all or nothing. A
	// cancel here would answer 57014 for a change that stays, and leave
	// the follow-ups for the next start.
	ctx = context.WithoutCancel(ctx)
	if err != nil { // the store's work after its commit (sequences, old files)
		s.eng.log.Warn("finishing a table rewrite's swap", "table", info.Path.String(), "error", err)
	}
	s.eng.step(stepSwapped)
	if err := s.finishFollowUps(ctx, created, f, true); err != nil {
		return nil, false, err
	}
	// The statement's transaction holds the new table whole as it held the
	// old: in a block, its writers wait for the COMMIT (PostgreSQL's lock
	// lasts until then), not for the statement's end, when the gate opens.
	// Nobody else can hold the new id's locks yet.
	if err := s.lockForBuild(ctx, created); err != nil { // uniqueddl.go
		return nil, false, err
	}
	return noticeResult("ALTER TABLE", p2.noticeErrors()...), false, nil
}

// rewriteWhat names the first rewriting action, for the cluster's 0A000.
func rewriteWhat(info fluss.TableInfo, actions []sql.AlterAction) string {
	for _, a := range actions {
		if !rewriteAction(info, a) {
			continue
		}
		switch a.Kind {
		case sql.AlterColumnType:
			return "ALTER COLUMN ... TYPE"
		case sql.AlterDropColumn:
			return "DROP COLUMN"
		case sql.AlterRenameColumn:
			return "RENAME COLUMN"
		case sql.AlterAddPrimaryKey:
			return "ADD PRIMARY KEY"
		}
		return "ALTER COLUMN ... DROP NOT NULL (of a NOT NULL declared in CREATE TABLE)"
	}
	return "ALTER TABLE"
}

// apply takes one action into the plan.
func (p *rewritePlan) apply(ctx context.Context, a sql.AlterAction) error {
	table := p.old.Path.Table
	switch a.Kind {
	case sql.AlterColumnType:
		return p.columnType(ctx, a)
	case sql.AlterDropColumn:
		return p.dropColumn(ctx, a)
	case sql.AlterRenameColumn:
		return p.renameColumn(ctx, a)
	case sql.AlterAddPrimaryKey:
		return p.addPrimaryKey(a) // addpk.go
	case sql.AlterDropNotNull, sql.AlterSetNotNull:
		i := p.find(a.Column)
		if i < 0 {
			return noColumn(a.Column, table)
		}
		c := &p.cols[i]
		if a.Kind == sql.AlterSetNotNull {
			if !c.col.Type.NotNull && !c.meta.NotNull {
				c.meta.NotNull, c.checkNull, p.copy = true, true, true
			}
			return nil
		}
		if slices.Contains(p.pk, c.col.Name) {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "column \"%s\" is in a primary key", a.Column)
		}
		c.meta.NotNull, c.checkNull = false, false
		if c.col.Type.NotNull {
			c.col.Type.NotNull, p.copy = false, true
		}
		return nil
	case sql.AlterSetDefault, sql.AlterDropDefault:
		i := p.find(a.Column)
		if i < 0 {
			return noColumn(a.Column, table)
		}
		c := &p.cols[i]
		if c.meta.Identity != 0 || c.meta.Generated != "" {
			what := "an identity column"
			if c.meta.Generated != "" {
				what = "a generated column"
			}
			return sqlerr.New(sqlerr.SyntaxError, "column \"%s\" of relation \"%s\" is %s", a.Column, table, what)
		}
		c.meta.Default, c.defaultText = "", ""
		if a.Kind == sql.AlterSetDefault {
			c.defaultText = a.Default
		}
		return nil
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "this ALTER TABLE action cannot be combined with ALTER COLUMN ... TYPE, DROP COLUMN or DROP NOT NULL in one statement: sqlgate rewrites the table for those").
		WithHint("Run the actions as separate ALTER TABLE statements.")
}

// columnType is ALTER COLUMN c TYPE t [USING e].
func (p *rewritePlan) columnType(ctx context.Context, a sql.AlterAction) error {
	s, table := p.s, p.old.Path.Table
	i := p.find(a.Column)
	if i < 0 {
		return noColumn(a.Column, table)
	}
	c := &p.cols[i]
	if c.conv != nil {
		return sqlerr.New(sqlerr.SyntaxError, "cannot alter type of column \"%s\" twice", a.Column)
	}
	if p.partitionKey(c.src) {
		return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot alter column \"%s\" because it is part of the partition key of relation \"%s\"", a.Column, table)
	}
	if dom, _ := binder.DomainOfTypeName(a.Type, engineTypes{s.eng}); dom != nil {
		return sqlerr.New(sqlerr.FeatureNotSupported, "ALTER COLUMN ... TYPE to a domain is not supported").
			WithHint("Add a column of the domain, copy the values with UPDATE, then drop the old column.")
	}
	t, err := binder.ColumnTypeIn(a.Type, engineTypes{s.eng})
	if err != nil {
		err = binder.RefuseCompositeColumn(a.Column, a.Type, engineTypes{s.eng}, err)
	}
	if err == nil {
		err = binder.RefuseUnlimitedChar(a.Column, t)
	}
	var collation string
	if err == nil {
		collation, err = binder.ColumnCollation(t, a.Collation) // the new type's, or COLLATE's
	}
	if err != nil {
		return err
	}
	if c.meta.Generated != "" {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot alter type of generated column \"%s\": sqlgate does not compute a generated column again", a.Column).
			WithHint("Drop the column and add it again with the new type.")
	}
	for _, o := range p.cols {
		if o.meta.Generated != "" && slices.Contains(p.reads(ctx, o.meta.Generated), c.col.Name) {
			return sqlerr.New(sqlerr.FeatureNotSupported, "cannot alter type of a column used by a generated column").
				WithDetail("Column \"%s\" is used by generated column \"%s\".", a.Column, o.col.Name)
		}
	}
	old := c.col.Type
	conv, err := binder.ColumnConversion(ctx, s.eng.tables, p.old, c.src, a.Default, t)
	if err != nil {
		return err
	}
	if v, ok := p.viewReading(c.col.Name); ok { // (after the conversion's errors, as PostgreSQL)
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot alter type of a column used by a view or rule").
			WithDetail("rule _RETURN on view %s depends on column \"%s\"", v.Path.Table, a.Column)
	}
	t.NotNull = old.NotNull
	c.col.Type = t
	c.meta.PGType = "" // the descriptor's validation records a variant's anew
	c.meta.Collation = collation
	if c.meta.Default != "" {
		c.defaultText, c.meta.Default = c.meta.Default, ""
	}
	p.retyped[c.col.Name] = t
	if a.Default == "" && sameStoredString(old, t) {
		return nil // no row changes: the same Fluss STRING, no longer limit
	}
	c.conv, p.copy = conv, true
	return nil
}

// checkKeyTypes holds the foreign keys on either side of a retyped column
// to the rule CREATE TABLE holds them to (binder.ForeignKeyTypes), with
// the columns' new types: PostgreSQL rebuilds such a key after ALTER
// COLUMN ... TYPE and refuses the statement (42804) where the types no
// longer compare (integer to text), while integer to bigint on either
// side stays allowed. Checked once every action is in the plan, as
// PostgreSQL rebuilds the keys after all of a statement's changes (a
// self-referencing key whose two columns change together stays), and
// before any row is copied.
func (p *rewritePlan) checkKeyTypes(ctx context.Context) error {
	if len(p.retyped) == 0 {
		return nil
	}
	col := map[int]fluss.Column{} // old index -> the column it becomes
	for _, c := range p.cols {
		col[c.src] = c.col
	}
	retyped := func(cols []int) bool {
		return slices.ContainsFunc(cols, func(i int) bool {
			c, ok := col[i]
			_, changed := p.retyped[c.Name]
			return ok && changed
		})
	}
	pair := func(name string, child, parent func(int) (fluss.Column, bool), cols, refs []int) error {
		for k := range cols {
			fc, ok1 := child(cols[k])
			pc, ok2 := parent(refs[k])
			if !ok1 || !ok2 {
				continue // a dropped column's key goes with it
			}
			if err := binder.ForeignKeyTypes(name, fc.Name, pc.Name, fc.Type, pc.Type); err != nil {
				return err
			}
		}
		return nil
	}
	self := func(i int) (fluss.Column, bool) { c, ok := col[i]; return c, ok }
	// the table's own keys
	for _, fk := range p.fks {
		refSelf := fk.RefTable == p.old.Path
		if !retyped(fk.Columns) && !(refSelf && retyped(fk.RefColumns)) {
			continue
		}
		parent := self
		if !refSelf {
			info, err := p.s.eng.storeTable(ctx, fk.RefTable)
			if err != nil {
				return err
			}
			parent = columnOf(info)
		}
		if err := pair(fk.Name, self, parent, fk.Columns, fk.RefColumns); err != nil {
			return err
		}
	}
	// other tables' keys that reference it
	refs, err := p.s.fkOthers(ctx, p.old.Path, nil) // fkddl.go
	if err != nil {
		return err
	}
	for _, r := range refs {
		if !retyped(r.fk.RefColumns) {
			continue
		}
		info, err := p.s.eng.storeTable(ctx, r.child)
		if err != nil {
			return err
		}
		if err := pair(r.fk.Name, columnOf(info), self, r.fk.Columns, r.fk.RefColumns); err != nil {
			return err
		}
	}
	return nil
}

// columnOf looks a column of info up by index.
func columnOf(info fluss.TableInfo) func(int) (fluss.Column, bool) {
	cols := info.Descriptor.Schema.Columns
	return func(i int) (fluss.Column, bool) {
		if i < 0 || i >= len(cols) {
			return fluss.Column{}, false
		}
		return cols[i], true
	}
}

// sameStoredString reports whether a column of type from keeps its
// values as they are as type to: varchar(n) to varchar(m >= n) or to
// text, text to text (PostgreSQL's binary coercion, without a length
// check). A shorter limit checks the rows (22001) by a rewrite.
func sameStoredString(from, to types.T) bool {
	if from.Kind != types.String || to.Kind != types.String || from.Variant != to.Variant || from.Variant != 0 {
		return false
	}
	return to.Length == 0 || from.Length > 0 && to.Length >= from.Length
}

// dropColumn is DROP COLUMN [IF EXISTS] c [CASCADE]: the table's own
// constraints on c (its CHECKs and foreign keys that read it, the primary
// key: the table becomes a log table) go with it, as in PostgreSQL;
// dependents elsewhere (views, other tables' foreign keys, generated
// columns) need CASCADE (refuseDependents).
func (p *rewritePlan) dropColumn(ctx context.Context, a sql.AlterAction) error {
	table := p.old.Path.Table
	i := p.find(a.Column)
	if i < 0 {
		if a.IfNotExists {
			p.notices = append(p.notices, fmt.Sprintf("column \"%s\" of relation \"%s\" does not exist, skipping", a.Column, table))
			return nil
		}
		return noColumn(a.Column, table)
	}
	c := p.cols[i]
	if p.partitionKey(c.src) {
		return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot drop column \"%s\" because it is part of the partition key of relation \"%s\"", a.Column, table)
	}
	cascade := a.Cascade
	var lines, cascaded []string
	// generated columns that read it
	for _, o := range p.cols {
		if o.col.Name != c.col.Name && o.meta.Generated != "" && slices.Contains(p.reads(ctx, o.meta.Generated), c.col.Name) {
			lines = append(lines, fmt.Sprintf("column %s of table %s depends on column %s of table %s", o.col.Name, table, c.col.Name, table))
			cascaded = append(cascaded, fmt.Sprintf("drop cascades to column %s of table %s", o.col.Name, table))
		}
	}
	// views that read it
	var vs []views.View
	for _, d := range p.dependents() {
		if viewReads(d, c.col.Name) {
			vs = append(vs, d)
			lines = append(lines, fmt.Sprintf("view %s depends on column %s of table %s", d.Path.Table, c.col.Name, table))
			cascaded = append(cascaded, fmt.Sprintf("drop cascades to view %s", d.Path.Table))
		}
	}
	// other tables' foreign keys that reference it
	refs, err := p.s.fkOthers(ctx, p.old.Path, nil) // fkddl.go
	if err != nil {
		return err
	}
	var drops []fkRef
	for _, r := range refs {
		if slices.Contains(r.fk.RefColumns, c.src) {
			drops = append(drops, r)
			lines = append(lines, fmt.Sprintf("constraint %s on table %s depends on column %s of table %s", r.fk.Name, r.child.Table, c.col.Name, table))
			cascaded = append(cascaded, fmt.Sprintf("drop cascades to constraint %s on table %s", r.fk.Name, r.child.Table))
		}
	}
	if len(lines) > 0 && !cascade {
		return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop column %s of table %s because other objects depend on it", c.col.Name, table).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	if len(cascaded) == 1 {
		p.notices = append(p.notices, cascaded[0])
	} else if len(cascaded) > 1 {
		p.notices = append(p.notices, fmt.Sprintf("drop cascades to %d other objects\x00%s", len(cascaded), strings.Join(cascaded, "\n")))
	}
	p.dropViews = append(p.dropViews, vs...)
	p.dropRefs = append(p.dropRefs, drops...)
	// the generated columns that read it go with it
	gone := []string{c.col.Name}
	for _, o := range p.cols {
		if o.col.Name != c.col.Name && o.meta.Generated != "" && slices.Contains(p.reads(ctx, o.meta.Generated), c.col.Name) {
			gone = append(gone, o.col.Name)
		}
	}
	for _, name := range gone {
		k := p.find(name)
		dropped := p.cols[k]
		p.cols = slices.Delete(p.cols, k, k+1)
		if dropped.meta.Sequence != "" {
			p.dropSeqs = append(p.dropSeqs, dropped.meta.Sequence)
		}
		// the table's own constraints that read it
		p.checks = slices.DeleteFunc(p.checks, func(ch fluss.CheckConstraint) bool {
			return slices.Contains(p.reads(ctx, ch.Expr), name)
		})
		p.fks = slices.DeleteFunc(p.fks, func(fk fluss.ForeignKey) bool {
			return slices.Contains(fk.Columns, dropped.src) || fk.RefTable == p.old.Path && slices.Contains(fk.RefColumns, dropped.src)
		})
		p.uniques = slices.DeleteFunc(p.uniques, func(u fluss.UniqueConstraint) bool { // rewriteunique.go
			return slices.Contains(u.Columns, dropped.src)
		})
		if slices.Contains(p.pk, name) {
			p.pk = nil // the primary key goes: a log table
			if slices.Equal(p.bkey, p.old.Descriptor.Schema.PrimaryKey) {
				p.bkey = nil
			}
		}
		if slices.Contains(p.bkey, name) {
			p.bkey = nil
		}
	}
	p.copy = true
	return nil
}

// renameColumn is RENAME COLUMN c TO n. The expressions sqlgate keeps as
// text name columns: the table's CHECKs and generated columns have c's
// name rewritten; a view that names c refuses the rename (0A000: a view's
// query may name other relations' columns alike, which a rewrite of its
// text could not tell apart) rather than be left naming a column that is
// gone.
func (p *rewritePlan) renameColumn(ctx context.Context, a sql.AlterAction) error {
	table := p.old.Path.Table
	i := p.find(a.Column)
	if i < 0 {
		return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", a.Column)
	}
	if p.find(a.NewName) >= 0 {
		return sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", a.NewName, table)
	}
	if a.NewName == a.Column {
		return nil
	}
	refuse := func(what string) error {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot rename column \"%s\" of relation \"%s\": %s names it, and sqlgate keeps that expression as text it cannot rewrite", a.Column, table, what).
			WithHint("Drop it, rename the column, then create it again naming the new name.")
	}
	// The table's own expressions (a CHECK's, a generated column's) read
	// its columns alone: the name is rewritten in their text
	// (sql.RenameColumnInExpr), and the text bound again over the new
	// columns before anything changes (descriptor).
	renameIn := func(text string) (string, bool) {
		if !slices.Contains(p.reads(ctx, text), a.Column) {
			return text, true
		}
		return sql.RenameColumnInExpr(text, a.Column, functions.QuoteIdent(a.NewName))
	}
	for k, ch := range p.checks {
		text, ok := renameIn(ch.Expr)
		if !ok {
			return refuse(fmt.Sprintf("check constraint \"%s\"", ch.Name))
		}
		p.checks[k].Expr = text
	}
	for k, o := range p.cols {
		if o.meta.Generated == "" {
			continue
		}
		text, ok := renameIn(o.meta.Generated)
		if !ok {
			return refuse(fmt.Sprintf("generated column \"%s\"", o.col.Name))
		}
		p.cols[k].meta.Generated = text
	}
	if v, ok := p.viewReading(a.Column); ok {
		return refuse(fmt.Sprintf("view \"%s\"", v.Path.Table))
	}
	c := &p.cols[i]
	c.col.Name = a.NewName
	for _, keys := range []*[]string{&p.pk, &p.bkey, &p.partKeys} {
		for k, n := range *keys {
			if n == a.Column {
				(*keys)[k] = a.NewName
			}
		}
	}
	p.renamed[a.Column] = a.NewName
	p.copy = true
	return nil
}

// reads are the columns of the old table an expression kept as text
// reads; one that does not bind counts as reading every column.
func (p *rewritePlan) reads(ctx context.Context, text string) []string {
	names, ok := binder.ColumnReadsOf(ctx, p.s.eng.tables, p.old, text)
	if !ok {
		for _, c := range p.old.Descriptor.Schema.Columns {
			names = append(names, c.Name)
		}
	}
	return names
}

// viewReading is a view over the table whose definition may read column
// name (viewReads).
func (p *rewritePlan) viewReading(name string) (views.View, bool) {
	for _, v := range p.dependents() {
		if viewReads(v, name) {
			return v, true
		}
	}
	return views.View{}, false
}

// dependents are the views over the table a change of its columns must
// check: not its partition relations, which are bound again over the new
// columns (refreshPartitionsOf), but the views over them.
func (p *rewritePlan) dependents() []views.View {
	var out []views.View
	for _, v := range p.s.eng.meta.Views().Dependents(p.old.Path) {
		if v.Partition != nil && v.Partition.ParentID == p.old.TableID {
			out = append(out, p.s.eng.meta.Views().Dependents(v.Path)...)
			continue
		}
		out = append(out, v)
	}
	return out
}

// partitionKey reports whether the old table's column i is a partition
// key.
func (p *rewritePlan) partitionKey(i int) bool {
	return slices.Contains(p.old.Descriptor.PartitionKeys, p.old.Descriptor.Schema.Columns[i].Name)
}

// viewReads reports whether v's definition may read the column name: it
// names it (an identifier, quoted or not, anywhere in the text) or
// selects * (which PostgreSQL expands when the view is made). Erring on
// the side of a dependency: a false one refuses the action, where a
// missed one would leave a view that no longer binds.
func viewReads(v views.View, name string) bool {
	text := v.Definition
	if strings.Contains(text, "*") {
		return true
	}
	lower := strings.ToLower(text)
	for _, want := range []string{`"` + name + `"`, strings.ToLower(name)} {
		hay := text
		if want[0] != '"' {
			hay = lower
		}
		for i := 0; ; {
			k := strings.Index(hay[i:], want)
			if k < 0 {
				break
			}
			at := i + k
			end := at + len(want)
			if want[0] == '"' || (at == 0 || !identByte(hay[at-1])) && (end == len(hay) || !identByte(hay[end])) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

func identByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// descriptor is the rewritten table's descriptor: the old one's with the
// new columns, keys and metadata (foreign keys renumbered to the new
// positions), and the defaults bound anew over the new columns.
func (p *rewritePlan) descriptor(ctx context.Context) (fluss.TableDescriptor, error) {
	d := p.old.Descriptor
	d.Schema.Columns = make([]fluss.Column, len(p.cols))
	pos := map[int]int{} // old index -> new index
	for i, c := range p.cols {
		d.Schema.Columns[i] = c.col
		pos[c.src] = i
	}
	d.Schema.PrimaryKey, d.BucketKey, d.PartitionKeys = p.pk, p.bkey, p.partKeys
	d.Properties = maps.Clone(d.Properties)
	d.CustomProperties = maps.Clone(d.CustomProperties)
	if d.CustomProperties == nil {
		d.CustomProperties = map[string]string{}
	}
	if p.pkName != "" {
		d.CustomProperties[fluss.PrimaryKeyNameProperty] = p.pkName
	}
	m := fluss.TableMeta{Checks: p.checks}
	for _, c := range p.cols {
		m.Columns = append(m.Columns, c.meta)
	}
	for _, fk := range p.fks {
		fk.Columns = remapColumns(fk.Columns, pos)
		if fk.RefTable == p.old.Path {
			fk.RefColumns = remapColumns(fk.RefColumns, pos)
		}
		if fk.DeleteSetColumns != nil {
			fk.DeleteSetColumns = remapColumns(fk.DeleteSetColumns, pos)
		}
		m.ForeignKeys = append(m.ForeignKeys, fk)
	}
	for _, u := range p.uniques {
		u.Columns = remapColumns(u.Columns, pos)
		m.Uniques = append(m.Uniques, u)
	}
	fluss.SetTableMeta(&d, m)
	// The new table takes the old one's grants (meta.Reconcile moves them
	// after a crash) and says it was rewritten from it (a transaction that
	// wrote the old one fails its COMMIT with 40001: txnstore).
	d.CustomProperties[fluss.GrantsFromProperty] = strconv.FormatInt(p.old.TableID, 10)
	chain := []string{strconv.FormatInt(p.old.TableID, 10)}
	if prev := p.old.Descriptor.CustomProperties[fluss.RewrittenFromProperty]; prev != "" {
		chain = append(chain, strings.Split(prev, ",")...)
	}
	d.CustomProperties[fluss.RewrittenFromProperty] = strings.Join(chain[:min(len(chain), fluss.RewrittenFromDepth)], ",")
	work := fluss.TableInfo{Path: p.old.Path, Descriptor: d}
	for i, c := range p.cols {
		if c.defaultText == "" {
			continue
		}
		display, err := binder.AlterColumnDefault(ctx, p.s.eng.tables, work, i, c.defaultText)
		if err != nil {
			if sqlerr.CodeOf(err) == sqlerr.DatatypeMismatch {
				return d, sqlerr.New(sqlerr.DatatypeMismatch, "default for column \"%s\" cannot be cast automatically to type %s", c.col.Name, c.col.Type.Nullable().PGName())
			}
			return d, err
		}
		key := fluss.ColumnDefaultKey(i + 1)
		if display == "" {
			delete(d.CustomProperties, key)
		} else {
			d.CustomProperties[key] = display
		}
	}
	// the table's expressions bind over the new columns (a renamed
	// column's name was rewritten in them)
	for _, c := range p.cols {
		if c.meta.Generated == "" {
			continue
		}
		if _, ok := binder.ColumnReadsOf(ctx, p.s.eng.tables, work, c.meta.Generated); !ok {
			return d, sqlerr.New(sqlerr.FeatureNotSupported, "cannot change table \"%s\": the expression of generated column \"%s\" would no longer bind", p.old.Path.Table, c.col.Name)
		}
	}
	for _, ch := range p.checks { // PostgreSQL's error of a CHECK over a retyped column (42883, ...)
		if _, err := binder.BindCheck(ctx, p.s.eng.tables, work, ch); err != nil {
			return d, err
		}
	}
	return d, nil
}

// remapColumns maps old column indexes to new ones.
func remapColumns(idx []int, pos map[int]int) []int {
	out := make([]int, len(idx))
	for i, c := range idx {
		out[i] = pos[c]
	}
	return out
}

// alterInPlace changes the table's columns' types where no row changes
// (sameStoredString): the embedded store's AlterTable with the new
// descriptor's columns and metadata.
func (s *session) alterInPlace(ctx context.Context, info fluss.TableInfo, desc fluss.TableDescriptor) (fluss.TableInfo, error) {
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return info, sqlerr.NotSupported("ALTER TABLE on this store")
	}
	var changes []fluss.TableChange
	for i, c := range desc.Schema.Columns {
		if !c.Type.Equal(info.Descriptor.Schema.Columns[i].Type) {
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeColumnType, Column: c})
		}
	}
	for k, v := range desc.CustomProperties {
		if k == fluss.GrantsFromProperty || k == fluss.RewrittenFromProperty {
			continue
		}
		if info.Descriptor.CustomProperties[k] != v {
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: v})
		}
	}
	for k := range info.Descriptor.CustomProperties {
		if _, ok := desc.CustomProperties[k]; !ok {
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: k})
		}
	}
	return alt.AlterTable(ctx, info.Path, changes)
}

// noticeErrors are the plan's notices as NOTICE messages (a notice with
// a DETAIL carries it after a NUL).
func (p *rewritePlan) noticeErrors() []*sqlerr.Error {
	var out []*sqlerr.Error
	for _, n := range p.notices {
		msg, detail, ok := strings.Cut(n, "\x00")
		e := sqlerr.New(sqlerr.SuccessfulCompletion, "%s", msg)
		if ok {
			e = e.WithDetail("%s", detail)
		}
		out = append(out, e)
	}
	return out
}
