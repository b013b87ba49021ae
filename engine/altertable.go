package engine

import (
	"cmp"
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// alterTable runs ALTER TABLE as Fluss 0.9.1 allows it: ADD COLUMN of a
// nullable column at the end (of a domain too: domains.go) (a new schema id; rows written before read
// NULL in it, or its DEFAULT's value, and a NOT NULL is sqlgate's:
// altercolumn.go), SET / RESET of properties, ALTER COLUMN SET / DROP DEFAULT,
// SET / DROP NOT NULL (altercolumn.go)
// and CHECK constraints (sqlgate's metadata; altercheck.go), UNIQUE and
// FOREIGN KEY constraints (uniqueddl.go, fkddl.go) and, by a rewrite of
// the table (rewrite.go), the actions Fluss cannot make in place (ALTER
// COLUMN TYPE, DROP / RENAME COLUMN, ADD PRIMARY KEY: addpk.go); every other
// action fails with
// 0A000 naming the Fluss limit and what to do instead. The actions apply
// together or not at all.
func (s *session) alterTable(ctx context.Context, d *sql.DDLStmt) (_ pgwire.Result, err error) {
	info, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		if d.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			return noticeResult("ALTER TABLE", skipped("relation", d.Table.Name)), nil
		}
		return nil, err
	}
	if err := s.blockDDL("ALTER TABLE", pathIn([]fluss.TablePath{info.Path})); err != nil {
		return nil, err
	}
	if locksTable(d.Actions) {
		// the table as it is once its writers are done (ddllock.go)
		if info, err = s.lockDDLTable(ctx, info.Path); err != nil {
			return nil, err
		}
	}
	if needsRewrite(info, d.Actions) { // rewrite.go
		return s.alterByRewrite(ctx, info, d)
	}
	var changes []fluss.TableChange
	var notices, warnings []*sqlerr.Error
	var partitions []sql.AlterAction  // ADD / DROP PARTITION (partitions.go)
	checks := s.newCheckActions(info) // altercheck.go
	path := info.Path                 // (info is the table's after its change, zero when that failed)
	defer func() {
		if err != nil && len(checks.built) > 0 {
			s.dropUntaken(ctx, path, checks.built)
		}
	}()
	notNulls := s.newNotNullActions(info) // altercolumn.go
	for _, a := range inPasses(d.Actions) {
		if a.Kind == sql.AlterAddUniqueUsingIndex {
			if err := checks.at(changes); err != nil {
				return nil, err
			}
			cs, err := s.uniqueUsingIndex(ctx, checks, a) // alterindex.go
			if err != nil {
				return nil, err
			}
			changes = append(changes, cs...)
			continue
		}
		if a.Kind == sql.AlterAddUnique || a.Kind == sql.AlterDropConstraint {
			if err := checks.at(changes); err != nil {
				return nil, err
			}
			if cs, ok, err := s.uniqueAlter(ctx, checks, a); ok || err != nil { // uniqueddl.go
				if err != nil {
					return nil, err
				}
				changes = append(changes, cs...)
				continue
			}
		}
		if a.Kind == sql.AlterAddCheck || a.Kind == sql.AlterDropConstraint || a.Kind == sql.AlterValidateConstraint || a.Kind == sql.AlterAddForeignKey {
			// the table as the statement's earlier actions leave it
			if err := checks.at(changes); err != nil {
				return nil, err
			}
			if cs, ok, err := s.fkAlter(ctx, checks, a); ok || err != nil { // fkddl.go: a foreign key's
				if err != nil {
					return nil, err
				}
				changes = append(changes, cs...)
				continue
			}
		}
		switch a.Kind {
		case sql.AlterAddCheck:
			cs, err := checks.add(ctx, a)
			if err != nil {
				return nil, err
			}
			changes = append(changes, cs...)
		case sql.AlterDropConstraint:
			cs, notice, err := checks.drop(a)
			if err != nil {
				return nil, err
			}
			if notice != nil {
				notices = append(notices, notice)
			}
			changes = append(changes, cs...)
		case sql.AlterValidateConstraint:
			cs, err := checks.validate(ctx, a)
			if err != nil {
				return nil, err
			}
			changes = append(changes, cs...)
		case sql.AlterAddPartition, sql.AlterDropPartition:
			partitions = append(partitions, a)
		case sql.AlterUnsupported:
			e := sqlerr.New(sqlerr.FeatureNotSupported, "%s", a.Unsupported)
			if a.Instead != "" {
				e = e.WithHint("%s", a.Instead)
			}
			return nil, e
		case sql.AlterAddColumn:
			switch a.Constraint { // (DEFAULT and NOT NULL: altercolumn.go)
			case "":
			default:
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "ALTER TABLE ... ADD COLUMN ... %s is not supported: Fluss 0.9.1 adds plain nullable columns only", a.Constraint).
					WithHint("Declare the constraint in CREATE TABLE: create a new table and copy the rows (CREATE TABLE new (...); INSERT INTO new SELECT ... FROM t).")
			}
			exists := info.ColumnIndex(a.Column) >= 0
			for _, c := range changes {
				exists = exists || c.Kind == fluss.ChangeAddColumn && c.Column.Name == a.Column
			}
			if exists {
				if a.IfNotExists {
					notices = append(notices, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists, skipping", a.Column, info.Path.Table))
					continue
				}
				return nil, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", a.Column, info.Path.Table)
			}
			t, err := binder.ColumnTypeIn(a.Type, engineTypes{s.eng}) // enumtypes.go
			if err != nil {
				err = binder.RefuseCompositeColumn(a.Column, a.Type, engineTypes{s.eng}, err) // binder/composite.go
			}
			if err == nil {
				err = binder.RefuseUnlimitedChar(a.Column, t)
			}
			if err != nil {
				return nil, err
			}
			added := fluss.TableChange{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: a.Column, Type: t.Nullable()}}
			var filled *types.Domain // a domain whose default or constraints the stored rows meet (altercolumn.go)
			if dom, array := binder.DomainOfTypeName(a.Type, engineTypes{s.eng}); dom != nil {
				n := 1 + len(info.Descriptor.Schema.Columns) + addedColumns(changes)
				pg := fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: fluss.ColumnTypeKey(n), Value: binder.DomainPGType(dom.OID, array)}
				if array {
					if pg, err = s.domainColumnAdd(ctx, info, dom, array, n); err != nil { // domains.go
						return nil, err
					}
				} else {
					filled = dom
				}
				changes = append(changes, added, pg)
			} else {
				changes = append(changes, added)
			}
			extra, err := notNulls.addColumn(ctx, changes, a, filled) // altercolumn.go
			if err != nil {
				return nil, err
			}
			changes = append(changes, extra...)
		case sql.AlterSetNotNull, sql.AlterDropNotNull:
			set := notNulls.setNotNull
			if a.Kind == sql.AlterDropNotNull {
				set = notNulls.dropNotNull
			}
			cs, err := set(changes, a) // altercolumn.go
			if err != nil {
				return nil, err
			}
			changes = append(changes, cs...)
		case sql.AlterSetDefault, sql.AlterDropDefault:
			change, err := s.alterColumnDefault(ctx, info, a)
			if err != nil {
				return nil, err
			}
			changes = append(changes, change)
		case sql.AlterSetProperties:
			for _, kv := range a.Props {
				if err := fluss.CheckPropertyChange(kv[0]); err != nil {
					return nil, err
				}
				if err := checkRelOption(kv[0], kv[1]); err != nil { // pgstorage.go
					return nil, err
				}
				changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: kv[0], Value: kv[1]})
			}
		case sql.AlterReplicaIdentity, sql.AlterClusterOn, sql.AlterSetWithoutCluster, sql.AlterNoOp,
			sql.AlterSetStatistics, sql.AlterSetStorage, sql.AlterSetCompression:
			cs, warning, err := s.storageChange(ctx, info, a) // pgstorage.go
			if err != nil {
				return nil, err
			}
			if warning != nil {
				warnings = append(warnings, warningOf(warning))
			}
			changes = append(changes, cs...)
		case sql.AlterResetProperties:
			for _, k := range a.Keys {
				if err := fluss.CheckPropertyChange(k); err != nil {
					return nil, err
				}
				changes = append(changes, fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: k})
			}
		}
	}
	if err := notNulls.checkStored(ctx, changes); err != nil {
		return nil, err
	}
	if err := checks.checkStored(ctx); err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		if info, err = s.applyTableChanges(ctx, info, lastPerKey(changes)); err != nil {
			return nil, err
		}
	}
	// past the table's change the other tables follow whatever ends ctx
	for _, f := range checks.after { // uniqueddl.go: a CASCADE's other tables
		if err := f(context.WithoutCancel(ctx)); err != nil {
			return nil, err
		}
	}
	notices = append(notices, checks.notices...)
	pn, err := s.alterPartitions(ctx, info, partitions)
	if err != nil {
		return nil, err
	}
	res := noticeResult("ALTER TABLE", append(notices, pn...)...).(*noticeTagResult)
	res.notices = append(res.notices, warnings...) // (noticeResult makes NOTICEs)
	return res, nil
}

// alterColumnDefault is the change of ALTER COLUMN SET / DROP DEFAULT:
// the column's default in sqlgate's metadata (a custom property of the
// table, which both stores alter), bound and checked as CREATE TABLE's.
// Statements planned before it (prepared INSERTs) see the new default
// when they are planned again for the table's new descriptor.
func (s *session) alterColumnDefault(ctx context.Context, info fluss.TableInfo, a sql.AlterAction) (fluss.TableChange, error) {
	i := info.ColumnIndex(a.Column)
	if i < 0 {
		return fluss.TableChange{}, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Column, info.Path.Table)
	}
	text := ""
	if a.Kind == sql.AlterSetDefault {
		text = a.Default
	}
	rctx, _ := s.regContext(ctx) // regnames.go: its reg* literals resolve now, by the search path
	display, err := binder.AlterColumnDefault(rctx, s.eng.tables, info, i, text)
	if err != nil {
		return fluss.TableChange{}, err
	}
	key := fluss.ColumnDefaultKey(i + 1)
	if display == "" {
		return fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: key}, nil
	}
	return fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: key, Value: display}, nil
}

// addedColumns counts the columns changes add.
func addedColumns(changes []fluss.TableChange) int {
	n := 0
	for _, c := range changes {
		if c.Kind == fluss.ChangeAddColumn {
			n++
		}
	}
	return n
}

// inPasses orders a statement's actions as PostgreSQL's ALTER TABLE runs
// them, pass by pass, keeping the written order within a pass: drops (DROP
// DEFAULT, DROP CONSTRAINT, DROP NOT NULL) first, then added columns, added
// constraints, SET NOT NULL, defaults set, and the rest (AlterTablePass in tablecmds.c). So SET
// DEFAULT 7, DROP DEFAULT of one column leaves the default 7, and DROP
// CONSTRAINT k, ADD CONSTRAINT k replaces k whichever is written first. A
// refused action comes first: nothing else is looked at.
func inPasses(actions []sql.AlterAction) []sql.AlterAction {
	pass := func(a sql.AlterAction) int {
		switch a.Kind {
		case sql.AlterUnsupported:
			return -1
		case sql.AlterDropDefault, sql.AlterDropConstraint, sql.AlterDropNotNull, sql.AlterDropColumn:
			return 0
		case sql.AlterColumnType:
			return 1
		case sql.AlterAddColumn:
			return 4
		case sql.AlterAddCheck, sql.AlterAddForeignKey, sql.AlterAddPrimaryKey:
			return 5
		case sql.AlterSetNotNull:
			return 6
		case sql.AlterSetDefault:
			return 9
		}
		return 10
	}
	out := slices.Clone(actions)
	slices.SortStableFunc(out, func(a, b sql.AlterAction) int { return cmp.Compare(pass(a), pass(b)) })
	return out
}

// lastPerKey keeps of several changes to one property the last, in its
// place: a statement may reset a key and set it again (DROP DEFAULT after
// SET DEFAULT's pass, DROP CONSTRAINT k then ADD CONSTRAINT k under the
// same metadata number), and a Fluss cluster given both in one AlterTable
// does not apply them in order.
func lastPerKey(changes []fluss.TableChange) []fluss.TableChange {
	last := map[string]int{}
	for i, c := range changes {
		if c.Kind == fluss.ChangeSetProperty || c.Kind == fluss.ChangeResetProperty {
			last[c.Key] = i
		}
	}
	out := make([]fluss.TableChange, 0, len(changes))
	for i, c := range changes {
		if (c.Kind == fluss.ChangeSetProperty || c.Kind == fluss.ChangeResetProperty) && last[c.Key] != i {
			continue
		}
		out = append(out, c)
	}
	return out
}

// dropUntaken drops those of the index tables built that the table at
// path does not name (a failed or cancelled ALTER TABLE built them before
// its change, which did not happen), whatever ended ctx.
func (s *session) dropUntaken(ctx context.Context, path fluss.TablePath, built []fluss.TablePath) {
	ctx = context.WithoutCancel(ctx)
	now, err := s.eng.storeTable(ctx, path)
	if err != nil {
		return // (left to the start's sweep of unnamed index tables)
	}
	taken := uniqueIndexPaths(now) // rewriteunique.go
	s.dropIndexTables(ctx, slices.DeleteFunc(slices.Clone(built), func(p fluss.TablePath) bool { return slices.Contains(taken, p) }))
}
