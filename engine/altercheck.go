package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE's CHECK constraints: ADD [CONSTRAINT name] CHECK (expr)
// [NOT VALID], DROP CONSTRAINT [IF EXISTS] name and VALIDATE CONSTRAINT
// name. A CHECK constraint is sqlgate's metadata (fluss.TableMeta: keys
// of the table's custom properties, on both stores), so adding one is a
// property change, after the rows already stored were checked against it
// as PostgreSQL checks them (unless NOT VALID). A table's primary key is
// Fluss's, which ALTER TABLE cannot drop.

// checkActions turns the statement's CHECK actions into the property
// changes that make them, in order; notices are IF EXISTS's.
type checkActions struct {
	s *session
	// stored is the table as the store has it (its rows are read as
	// that); work is the table as the statement's earlier actions leave it
	// (at), which names, numbers and binds the constraints: a constraint
	// dropped earlier in the statement is gone, one added is there, a
	// column added may be checked.
	stored, work fluss.TableInfo
	// pending are the added constraints the stored rows must pass, which
	// PostgreSQL checks together in one pass over the rows once every
	// action was taken (its ALTER TABLE's third phase): the first row
	// failing one names the constraint, the statement's first for a row
	// failing several.
	pending []boundCheck
	// fkPending are the added foreign keys the stored rows must pass
	// (fkddl.go), checked after the CHECK constraints.
	fkPending []fluss.ForeignKey
	// built are the index tables of the UNIQUE constraints the statement
	// adds (uniqueddl.go), dropped when it fails (alterTable).
	built []fluss.TablePath
	// after is the work on other tables that the statement's own catalog
	// change must succeed before (a dropped UNIQUE constraint's CASCADE:
	// other tables' foreign keys and its index table, uniqueddl.go), and
	// notices what that work tells the client.
	after   []func(context.Context) error
	notices []*sqlerr.Error
}

// boundCheck is a CHECK constraint bound over its table's columns.
type boundCheck struct {
	name string
	expr binder.Expr
}

func (s *session) newCheckActions(info fluss.TableInfo) *checkActions {
	return &checkActions{s: s, stored: info, work: info}
}

// at makes the table the statement's changes so far leave the one the
// next action sees.
func (c *checkActions) at(changes []fluss.TableChange) error {
	desc, _, err := fluss.ApplyTableChanges(c.stored, changes)
	if err != nil {
		return err
	}
	c.work = c.stored
	c.work.Descriptor, c.work.ArrowSchemas = desc, nil
	return nil
}

// add binds a new CHECK constraint, leaves it to checkStored unless NOT
// VALID, and returns its keys' changes.
func (c *checkActions) add(ctx context.Context, a sql.AlterAction) ([]fluss.TableChange, error) {
	ch, e, err := binder.AddCheck(ctx, c.s.eng.tables, c.work, a.Constraint, a.Default)
	if err != nil {
		return nil, err
	}
	if a.NotValid {
		ch.NotValid = true
	} else {
		c.pending = append(c.pending, boundCheck{name: ch.Name, expr: e})
	}
	n := 1
	if numbers := fluss.CheckNumbers(c.work.Descriptor); len(numbers) > 0 {
		n += slices.Max(numbers)
	}
	name, expr, notValid := fluss.CheckKeys(n)
	changes := []fluss.TableChange{
		{Kind: fluss.ChangeSetProperty, Key: name, Value: ch.Name},
		{Kind: fluss.ChangeSetProperty, Key: expr, Value: ch.Expr},
	}
	if ch.NotValid {
		changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: notValid, Value: "t"})
	}
	return changes, nil
}

// find returns the key number of the work table's CHECK constraint
// named name, or a refusal: the primary key's name is Fluss's key
// (0A000), an unknown name 42704.
func (c *checkActions) find(name string) (int, fluss.CheckConstraint, error) {
	numbers := fluss.CheckNumbers(c.work.Descriptor)
	for k, ch := range fluss.MetaOf(c.work.Descriptor).Checks {
		if ch.Name == name {
			return numbers[k], ch, nil
		}
	}
	table := c.work.Path.Table
	if c.work.HasPrimaryKey() && name == c.work.PrimaryKeyName() {
		return 0, fluss.CheckConstraint{}, sqlerr.New(sqlerr.FeatureNotSupported, "ALTER TABLE ... DROP CONSTRAINT %s is not supported: Fluss 0.9.1 cannot change a table's primary key", name).
			WithHint("Create a new table with the key you want and copy the rows: CREATE TABLE new (...); INSERT INTO new SELECT ... FROM t; then DROP TABLE t.")
	}
	return 0, fluss.CheckConstraint{}, noConstraint(name, table)
}

// noConstraint is 42704 for a constraint name the table does not have.
func noConstraint(name, table string) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" of relation \"%s\" does not exist", name, table)
}

// drop returns the changes that remove the named CHECK constraint's keys
// (none, with a notice, for IF EXISTS of a name the table lacks).
func (c *checkActions) drop(a sql.AlterAction) ([]fluss.TableChange, *sqlerr.Error, error) {
	n, _, err := c.find(a.Constraint)
	if err != nil {
		if a.IfNotExists && sqlerr.CodeOf(err) == sqlerr.UndefinedObject {
			notice := noConstraint(a.Constraint, c.work.Path.Table)
			notice.Code, notice.Message = sqlerr.SuccessfulCompletion, notice.Message+", skipping"
			return nil, notice, nil
		}
		return nil, nil, err
	}
	name, expr, notValid := fluss.CheckKeys(n)
	return []fluss.TableChange{
		{Kind: fluss.ChangeResetProperty, Key: name},
		{Kind: fluss.ChangeResetProperty, Key: expr},
		{Kind: fluss.ChangeResetProperty, Key: notValid},
	}, nil, nil
}

// validate checks the stored rows against a NOT VALID constraint and
// returns the change that marks it valid (none for a valid one; the
// primary key is no constraint VALIDATE takes, 42809).
func (c *checkActions) validate(ctx context.Context, a sql.AlterAction) ([]fluss.TableChange, error) {
	if c.work.HasPrimaryKey() && a.Constraint == c.work.PrimaryKeyName() {
		return nil, sqlerr.New(sqlerr.WrongObjectType, "constraint \"%s\" of relation \"%s\" is not a foreign key or check constraint", a.Constraint, c.work.Path.Table)
	}
	n, ch, err := c.find(a.Constraint)
	if err != nil {
		return nil, err
	}
	if !ch.NotValid {
		return nil, nil
	}
	e, err := binder.BindCheck(ctx, c.s.eng.tables, c.work, ch)
	if err != nil {
		return nil, err
	}
	if err := c.s.validateChecks(ctx, c.stored, c.work, []boundCheck{{name: ch.Name, expr: e}}); err != nil {
		return nil, err
	}
	_, _, notValid := fluss.CheckKeys(n)
	return []fluss.TableChange{{Kind: fluss.ChangeResetProperty, Key: notValid}}, nil
}

// checkStored checks the stored rows against the statement's added
// constraints (pending), after every action was taken.
func (c *checkActions) checkStored(ctx context.Context) error {
	if len(c.pending) > 0 {
		if err := c.s.validateChecks(ctx, c.stored, c.work, c.pending); err != nil {
			return err
		}
	}
	for _, fk := range c.fkPending {
		if err := c.s.fkValidate(ctx, c.stored, c.work, fk); err != nil { // fkddl.go
			return err
		}
	}
	return nil
}

// validateChecks scans the committed rows of stored's table (and the
// block's rows the statement carries, uniquecarry.go) and fails
// with PostgreSQL's 23514 at the first row (in the store's order) for
// which one of checks, bound over work's columns (stored's and those the
// statement adds, each stored row reading their missing values), is false (NULL passes),
// naming the first such constraint.
func (s *session) validateChecks(ctx context.Context, stored, work fluss.TableInfo, checks []boundCheck) error {
	exprs := make([]binder.Expr, len(checks))
	for k, c := range checks {
		exprs[k] = c.expr
	}
	lowered, err := lower.LowerExprs(exprs)
	if err != nil {
		return err
	}
	ec := &exec.EvalContext{Ctx: ctx, Mem: s.eng.mem}
	failing := -1
	// the added columns' values in the stored rows
	missing := fluss.MissingOf(work.Descriptor)
	check := func(b arrow.RecordBatch) (bool, error) {
		if b.NumCols() < int64(len(work.Descriptor.Schema.Columns)) {
			b.Retain() // (WidenRecord takes a reference; the caller releases its own)
			wide, err := missing.WidenRecord(b, work.ArrowSchema())
			if err != nil {
				return false, err
			}
			defer wide.Release()
			b = wide
		}
		k, err := firstFalse(ec, lowered, b)
		failing = k
		return k >= 0, err
	}
	if _, err = s.anyBatch(ctx, stored.Path, nil, check); err != nil { // domains.go
		return err
	}
	if failing < 0 {
		if err := s.eachCarried(stored, check); err != nil { // uniquecarry.go: the block's rows
			return err
		}
	}
	if failing >= 0 {
		return sqlerr.New(checkViolationCode, "check constraint \"%s\" of relation \"%s\" is violated by some row", checks[failing].name, stored.Path.Table)
	}
	return nil
}

// firstFalse returns the index of the first of exprs that is false at the
// first row of rec where one is (-1 when none is).
func firstFalse(ec *exec.EvalContext, exprs []exec.Expr, rec arrow.RecordBatch) (int, error) {
	if rec.NumRows() == 0 {
		return -1, nil
	}
	results := make([]*array.Boolean, 0, len(exprs))
	defer func() {
		for _, r := range results {
			r.Release()
		}
	}()
	for _, x := range exprs {
		b, err := evalCheck(ec, x, rec) // coldefs.go
		if err != nil {
			return -1, err
		}
		results = append(results, b)
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		for k, b := range results {
			if b.IsValid(i) && !b.Value(i) {
				return k, nil
			}
		}
	}
	return -1, nil
}
