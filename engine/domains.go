package engine

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Domains (CREATE / ALTER / DROP DOMAIN). A domain is a row of the
// metadata store (meta.Domain), so it persists and a cluster's servers
// share it; its columns are the base type in Fluss, each naming the
// domain by OID in its table's metadata (fluss.ColumnMeta.PGType
// "domain:<oid>", binder/domains.go). The engine publishes its domains to
// the store's registry (Engine.Types, Registry.PublishDomains) with a check of their
// constraints (types.Domain.Validate), which writes (tableChecks) and
// casts to a domain call.

// domainsMeta is the metadata store's domains (*meta.Store has them).
type domainsMeta interface{ Domains() *meta.Domains }

// publishDomains publishes the metadata's domains when they are not the
// version published last (refreshMeta, as publishEnumTypes), and reports
// whether it published.
func (e *Engine) publishDomains() bool {
	dm, ok := e.meta.(domainsMeta)
	if !ok || isPublished(&e.domainsPublished, dm.Domains()) { // enumtypes.go
		return false
	}
	e.domains()
	return true
}

// domains is the current domains, published to the store's registry.
func (e *Engine) domains() map[uint32]meta.Domain {
	dm, ok := e.meta.(domainsMeta)
	if !ok {
		return nil
	}
	cur := dm.Domains()
	all := cur.All()
	publishSet(&e.domainsPublished, cur, all, e.domainDef, e.typeReg.PublishDomains)
	return all
}

// domainDef is the registry's form of a stored domain, with its check.
func (e *Engine) domainDef(d meta.Domain) *types.Domain {
	def := &types.Domain{OID: d.OID, ArrayOID: d.OID + 1, Schema: d.Schema, Name: d.Name, Owner: d.Owner, Base: d.Base, Parent: d.Parent,
		TypMod: d.TypMod, NotNull: d.NotNull, NotNullName: d.NotNullName, Default: d.Default, Checks: d.Checks}
	v := &domainValidator{e: e, d: def}
	e.domainValidators.Store(def.OID, v)
	def.Validate = func(ctx context.Context, a arrow.Array) error { return v.validate(ctx, def.QualifiedName(), a) }
	return def
}

// domainValidator checks values against one domain version's
// constraints; its CHECK expressions are bound and lowered at first use,
// once for each Arrow type the values come as (a numeric domain's column
// is stored as DECIMAL(38,10), a cast to it gives numeric).
type domainValidator struct {
	e     *Engine
	d     *types.Domain
	mu    sync.Mutex
	exprs map[string][]exec.Expr
}

// checksFor is the lowered CHECKs over values of Arrow type dt.
func (v *domainValidator) checksFor(ctx context.Context, dt arrow.DataType) ([]exec.Expr, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if xs, ok := v.exprs[dt.Fingerprint()]; ok {
		return xs, nil
	}
	base, ok := storedAs(v.d.Base, dt)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "values of type %s for domain %s of type %s", dt, v.d.Name, v.d.Base.PGName())
	}
	xs, err := v.e.lowerDomainChecks(ctx, &types.Domain{Base: base, Checks: v.d.Checks})
	if err != nil {
		return nil, err
	}
	if v.exprs == nil {
		v.exprs = map[string][]exec.Expr{}
	}
	v.exprs[dt.Fingerprint()] = xs
	return xs, nil
}

// storedAs is base as a column stores it when its values come as Arrow
// type dt: a table's column may hold the domain's type with another
// precision (NUMERIC as DECIMAL(38,10), TIME as Fluss's TIME(0)).
func storedAs(base types.T, dt arrow.DataType) (types.T, bool) {
	if arrow.TypeEqual(base.ArrowType(), dt) {
		return base, true
	}
	unitPrecision := map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}
	switch d := dt.(type) {
	case *arrow.Decimal128Type:
		if base.Kind == types.Decimal {
			return types.DecimalType(int(d.Precision), int(d.Scale)), true
		}
	case *arrow.Time32Type, *arrow.Time64Type, *arrow.TimestampType:
		if base.Kind == types.Time || base.Kind == types.Timestamp || base.Kind == types.TimestampTZ {
			base.Precision = unitPrecision[dt.(arrow.TemporalWithUnit).TimeUnit()]
			return base, arrow.TypeEqual(base.ArrowType(), dt)
		}
	}
	return base, false
}

// validate checks a against the domain's constraints as PostgreSQL
// checks each value: the constraints of the domain underneath first, at
// each level NOT NULL and then the CHECKs in name order; the first row
// that fails one is reported, with its first failing constraint. Errors
// name outer, the domain the values were written as (PostgreSQL's words
// name it, not the one underneath whose constraint failed).
func (v *domainValidator) validate(ctx context.Context, outer string, a arrow.Array) error {
	var levels []*domainValidator
	for cur := v; cur != nil; {
		levels = append([]*domainValidator{cur}, levels...)
		p := v.e.typeReg.Domain(cur.d.Parent)
		if cur.d.Parent == 0 || p == nil {
			break
		}
		cur = validatorOf(v.e, p)
	}
	bestRow, bestErr := a.Len(), error(nil)
	for _, l := range levels {
		row, err := l.firstViolation(ctx, outer, a)
		if err != nil && sqlerr.CodeOf(err) != checkViolationCode && sqlerr.CodeOf(err) != sqlerr.NotNullViolation {
			return err // the check itself failed to evaluate
		}
		if err != nil && row < bestRow {
			bestRow, bestErr = row, err
		}
	}
	return bestErr
}

// firstViolation is the first row of a that fails one of this level's
// constraints, and the error for it (nil when all hold).
func (v *domainValidator) firstViolation(ctx context.Context, outer string, a arrow.Array) (int, error) {
	row, err := a.Len(), error(nil)
	if v.d.NotNull && a.NullN() > 0 {
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				row, err = i, domainNotNull(outer)
				break
			}
		}
	}
	if len(v.d.Checks) == 0 || a.Len() == 0 {
		return row, err
	}
	exprs, err2 := v.checksFor(ctx, a.DataType())
	if err2 != nil {
		return 0, err2
	}
	order := checkOrder(v.d.Checks)
	for _, k := range order {
		r, evalErr := v.e.firstFailingRow(ctx, exprs[k], a)
		if evalErr != nil {
			return 0, evalErr
		}
		if r >= 0 && r < row {
			row, err = r, sqlerr.New(checkViolationCode, "value for domain %s violates check constraint \"%s\"", outer, v.d.Checks[k].Name)
		}
	}
	return row, err
}

// checkOrder is the order PostgreSQL checks a domain's CHECKs in: by name.
func checkOrder(cs []types.DomainCheck) []int {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cs[a].Name, cs[b].Name) })
	return order
}

// validatorOf is d's validator: the one e made when it published d, whose
// lowered CHECKs it keeps, or a new one when d is not the version e
// published last (e keeps one validator an OID, so replaced versions
// are not kept alive).
func validatorOf(e *Engine, d *types.Domain) *domainValidator {
	if v, ok := e.domainValidators.Load(d.OID); ok && v.(*domainValidator).d == d {
		return v.(*domainValidator)
	}
	return &domainValidator{e: e, d: d}
}

// domainNotNull is the error for a NULL of a NOT NULL domain.
func domainNotNull(name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.NotNullViolation, "domain %s does not allow null values", name)
}

// lowerDomainChecks binds and lowers d's CHECK expressions over its base
// type.
func (e *Engine) lowerDomainChecks(ctx context.Context, d *types.Domain) ([]exec.Expr, error) {
	out := make([]exec.Expr, 0, len(d.Checks))
	for _, c := range d.Checks {
		be, err := binder.DomainCheck(ctx, e.tables, d.Base, c.Expr)
		if err != nil {
			return nil, err
		}
		es, err := lower.LowerExprs([]binder.Expr{be})
		if err != nil {
			return nil, err
		}
		out = append(out, es[0])
	}
	return out, nil
}

// firstFailingCheck evaluates exprs over a batch whose one column is a
// (VALUE) and returns the index of the first that is false for some row
// (NULL passes), -1 when all hold.
func (e *Engine) firstFailingCheck(ctx context.Context, exprs []exec.Expr, a arrow.Array) (int, error) {
	rec := valueRecord(a)
	defer rec.Release()
	ec := &exec.EvalContext{Ctx: ctx, Mem: e.mem}
	for k, x := range exprs {
		b, err := evalCheck(ec, x, rec)
		if err != nil {
			return -1, err
		}
		failing := firstFalseRow(b)
		b.Release()
		if failing >= 0 {
			return k, nil
		}
	}
	return -1, nil
}

// firstFailingRow is the first row of a (VALUE) for which x is false
// (NULL passes), -1 when none.
func (e *Engine) firstFailingRow(ctx context.Context, x exec.Expr, a arrow.Array) (int, error) {
	rec := valueRecord(a)
	defer rec.Release()
	b, err := evalCheck(&exec.EvalContext{Ctx: ctx, Mem: e.mem}, x, rec)
	if err != nil {
		return -1, err
	}
	defer b.Release()
	return firstFalseRow(b), nil
}

// valueRecord is a batch whose one column, VALUE, is a: what a domain's
// CHECK expressions read.
func valueRecord(a arrow.Array) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "value", Type: a.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
}

// domainValues is what a domain check reads of a column: the column, or
// for an array of a domain the elements of its arrays.
func domainValues(a arrow.Array, isArray bool) arrow.Array {
	if l, ok := a.(*array.List); ok && isArray {
		return l.ListValues()
	}
	return a
}

// DomainType finds a domain by schema ("" for the default) and name
// (binder.DomainCatalog), as EnumTypeNamed finds an enum type.
func (e *Engine) DomainType(schema, name string) (*types.Domain, bool) {
	d, ok := namedType(maps.Values(e.domains()), func(d meta.Domain) (string, string) { return d.Schema, d.Name }, schema, name) // compositetypes.go
	if !ok {
		return nil, false
	}
	dom := e.typeReg.Domain(d.OID)
	return dom, dom != nil
}

// DomainType is binder.DomainCatalog over the engine's domains.
func (t engineTypes) DomainType(schema, name string) (*types.Domain, bool) {
	return t.e.DomainType(schema, name)
}

// DomainType is binder.DomainCatalog over the engine's domains.
func (c *recordingCatalog) DomainType(schema, name string) (*types.Domain, bool) {
	if c.files == nil {
		return nil, false
	}
	return onTypePath(c.files, schema, name, c.files.eng.DomainType) // typepath.go
}

// DomainDefs lists the domains now, sorted by OID
// (pgcatalog.Options.Domains).
func (e *Engine) DomainDefs() []*types.Domain {
	all := e.domains()
	out := make([]*types.Domain, 0, len(all))
	for oid := range all {
		if d := e.typeReg.Domain(oid); d != nil {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *types.Domain) int { return cmp.Compare(a.OID, b.OID) })
	return out
}

// domainColumn is a column whose type is a domain or an array of one.
type domainColumn struct {
	info  fluss.TableInfo
	col   int
	oid   uint32
	array bool
}

// describe names the column as PostgreSQL's dependency messages do.
func (c domainColumn) describe() string {
	name := c.info.Path.Table
	if c.info.Path.Database != fluss.DefaultDatabase {
		name = c.info.Path.Database + "." + name
	}
	return fmt.Sprintf("column %s of table %s", c.info.Descriptor.Schema.Columns[c.col].Name, name)
}

// tableDomainColumns are info's columns of a domain.
func tableDomainColumns(info fluss.TableInfo) []domainColumn {
	return domainColumnsOf(info, fluss.MetaOf(info.Descriptor))
}

// domainColumnsOf are info's columns of a domain, m its metadata.
func domainColumnsOf(info fluss.TableInfo, m fluss.TableMeta) []domainColumn {
	var out []domainColumn
	for i := range info.Descriptor.Schema.Columns {
		if oid, array, ok := binder.ParseDomainPGType(m.Column(i).PGType); ok {
			out = append(out, domainColumn{info: info, col: i, oid: oid, array: array})
		}
	}
	return out
}

// domainColumns are the columns of every table whose domain is one of
// oids.
func (s *session) domainColumns(ctx context.Context, oids map[uint32]bool) ([]domainColumn, error) {
	ts, err := s.userTables(ctx)
	if err != nil {
		return nil, err
	}
	var out []domainColumn
	for _, t := range ts {
		for _, c := range tableDomainColumns(t) {
			if oids[c.oid] {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// domainFamily is oid and every domain over it (at any depth) in ds.
func domainFamily(ds map[uint32]meta.Domain, oid uint32) map[uint32]bool {
	fam := map[uint32]bool{oid: true}
	for grew := true; grew; {
		grew = false
		for o, d := range ds {
			if !fam[o] && fam[d.Parent] {
				fam[o], grew = true, true
			}
		}
	}
	return fam
}

// findDomain is the OID of the domain schema.name in ds, 0 when none.
func findDomain(ds map[uint32]meta.Domain, n sql.ObjectName) uint32 {
	schema := typeSchema(n)
	for oid, d := range ds {
		if d.Name == n.Name && d.Schema == schema {
			return oid
		}
	}
	return 0
}

// execDomain runs CREATE, ALTER and DROP DOMAIN.
func (s *session) execDomain(ctx context.Context, st *sql.DomainStmt) (pgwire.Result, error) {
	tag := "ALTER DOMAIN"
	switch st.Op {
	case sql.CreateDomain:
		tag = "CREATE DOMAIN"
	case sql.DropDomain:
		tag = "DROP DOMAIN"
	}
	return s.runDomain(ctx, st, tag)
}

// runDomain runs a domain statement whose command tag is tag (DROP TYPE
// of a domain is DROP DOMAIN tagged DROP TYPE).
func (s *session) runDomain(ctx context.Context, st *sql.DomainStmt, tag string) (pgwire.Result, error) {
	_, stored := s.eng.meta.(domainsMeta)
	return s.runTypeDDL(tag, stored, "domains", func() { s.eng.domains() }, func() ([]*sqlerr.Error, error) { // enumtypes.go
		switch st.Op {
		case sql.CreateDomain:
			defer s.undoMetaObjects(ctx)() // txundo.go: a ROLLBACK drops it
			return nil, s.createDomain(ctx, st)
		case sql.DropDomain:
			return s.dropDomains(ctx, st)
		}
		return oneNotice(s.alterDomain(ctx, st))
	})
}

// domainTypMod is pg_type.typtypmod of a domain over t: the type's
// modifier as PostgreSQL encodes it (VARHDRSZ + length, or precision and
// scale), -1 for none.
func domainTypMod(t types.T) int32 {
	switch {
	case t.Kind == types.String && t.Length > 0, t.Kind == types.Char && t.Length > 0:
		return int32(t.Length + 4)
	case t.Kind == types.Decimal && t.Precision > 0:
		return int32(t.Precision<<16|t.Scale) + 4
	}
	return -1
}

// typeNameTaken reports whether schema.name names an enum type or a
// domain.
func typeNameTaken(tx *meta.Tx, n sql.ObjectName) bool {
	return findType(tx.Types, n) != 0 || findDomain(tx.Domains, n) != 0
}

func (s *session) createDomain(ctx context.Context, st *sql.DomainStmt) error {
	n := st.Names[0]
	if err := s.schemaExists(ctx, typeSchema(n)); err != nil { // enumtypes.go
		return err
	}
	base, parent, err := binder.DomainBase(st.BaseType, engineTypes{s.eng})
	if err != nil {
		return err
	}
	if st.Collation != "" && !base.IsString() && base.Kind != types.Char {
		return types.CollationsNotSupported(base.PGName())
	}
	d := meta.Domain{Schema: typeSchema(n), Name: n.Name, Owner: s.info.User, Base: base, BaseText: st.BaseType,
		TypMod: domainTypMod(base), Collation: st.Collation, Default: st.Default}
	if parent != nil {
		d.Parent = parent.OID
		d.Default = parent.Default // PostgreSQL copies the default of the domain underneath
	}
	if st.Default != "" {
		if d.Default, err = binder.DomainDefault(ctx, s.eng.tables, base, st.Default); err != nil {
			return err
		}
	}
	sawNull, sawNotNull := false, false
	for _, c := range st.Constraints {
		switch {
		case c.NotNull:
			if sawNull {
				return sqlerr.New(sqlerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			sawNotNull, d.NotNull, d.NotNullName = true, true, c.Name
		case c.Null:
			if sawNotNull {
				return sqlerr.New(sqlerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			sawNull = true
		default:
			if _, err := binder.DomainCheck(ctx, s.eng.tables, base, c.Check); err != nil {
				return err
			}
		}
	}
	return s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.Domains == nil {
			tx.Domains = map[uint32]meta.Domain{}
		}
		if typeNameTaken(tx, n) {
			return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists", n.Name)
		}
		d.OID = s.newDomainOID(tx)
		for _, c := range st.Constraints {
			if c.Check == "" {
				continue
			}
			if err := addDomainCheck(&d, c, s.newDomainOID(tx)); err != nil {
				return err
			}
		}
		tx.Domains[d.OID] = d
		return nil
	})
}

// newDomainOID draws an OID no enum type, label or domain holds.
func (s *session) newDomainOID(tx *meta.Tx) uint32 {
	taken := map[uint32]meta.EnumType{}
	for o, t := range tx.Types {
		taken[o] = t
		for _, l := range t.Labels {
			taken[l.OID] = t
		}
	}
	for o, d := range tx.Domains {
		taken[o] = meta.EnumType{}
		for _, c := range d.Checks {
			taken[c.OID] = meta.EnumType{}
		}
	}
	return newTypeOID(taken)
}

// addDomainCheck adds a CHECK constraint to d, named as PostgreSQL names
// an unnamed one (domain_check, domain_check1, ...).
func addDomainCheck(d *meta.Domain, c sql.DomainConstraint, oid uint32) error {
	taken := map[string]bool{}
	for _, x := range d.Checks {
		taken[x.Name] = true
	}
	name := c.Name
	if name == "" {
		name = d.Name + "_check"
		for k := 1; taken[name]; k++ {
			name = fmt.Sprintf("%s_check%d", d.Name, k)
		}
	} else if taken[name] {
		return sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for domain \"%s\" already exists", name, d.Name)
	}
	d.Checks = append(d.Checks, types.DomainCheck{Name: name, Expr: c.Check, NotValid: c.NotValid, OID: oid})
	return nil
}

func (s *session) alterDomain(ctx context.Context, st *sql.DomainStmt) (*sqlerr.Error, error) {
	var notice *sqlerr.Error
	n := st.Names[0]
	var rename typeRename
	var edits []tableEdit
	if st.Op == sql.AlterDomainRename || st.Op == sql.AlterDomainSetSchema {
		if st.Op == sql.AlterDomainRename {
			rename = s.eng.newTypeRename(typeSchema(n), n.Name, st.NewName)
		} else {
			rename = s.eng.newTypeRename(typeSchema(n), n.Name, n.Name)
			rename.toSchema = st.NewName
		}
		var err error
		if edits, err = s.typeRenameTables(ctx, rename); err != nil { // typerename.go
			return nil, err
		}
	}
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		oid := findDomain(tx.Domains, n)
		if oid == 0 {
			if findType(tx.Types, n) != 0 {
				return sqlerr.New(sqlerr.WrongObjectType, "%s is not a domain", n.Name)
			}
			return sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", n.Name)
		}
		d := tx.Domains[oid]
		d.Checks = slices.Clone(d.Checks)
		if d.Owner != s.info.User && !s.superuser {
			return mustOwn("type", d.Name)
		}
		constraint := func(name string) int {
			return slices.IndexFunc(d.Checks, func(c types.DomainCheck) bool { return c.Name == name })
		}
		switch st.Op {
		case sql.AlterDomainSetDefault:
			def, err := binder.DomainDefault(ctx, s.eng.tables, d.Base, st.Default)
			if err != nil {
				return err
			}
			d.Default = def
		case sql.AlterDomainDropDefault:
			d.Default = ""
		case sql.AlterDomainSetNotNull:
			if !d.NotNull {
				if err := s.validateDomainData(ctx, tx.Domains, oid, nil, true); err != nil {
					return err
				}
			}
			d.NotNull = true
		case sql.AlterDomainDropNotNull:
			d.NotNull, d.NotNullName = false, ""
		case sql.AlterDomainAddConstraint:
			c := st.Constraints[0]
			if c.NotNull {
				if !d.NotNull {
					if err := s.validateDomainData(ctx, tx.Domains, oid, nil, true); err != nil {
						return err
					}
				}
				d.NotNull, d.NotNullName = true, c.Name
				break
			}
			if _, err := binder.DomainCheck(ctx, s.eng.tables, d.Base, c.Check); err != nil {
				return err
			}
			if err := addDomainCheck(&d, c, s.newDomainOID(tx)); err != nil {
				return err
			}
			if !c.NotValid {
				if err := s.validateDomainData(ctx, tx.Domains, oid, &d.Checks[len(d.Checks)-1], false); err != nil {
					return err
				}
			}
		case sql.AlterDomainDropConstraint:
			k := constraint(st.Constraint)
			if k < 0 {
				if st.IfExists {
					notice = sqlerr.New(sqlerr.SuccessfulCompletion, "constraint \"%s\" of domain \"%s\" does not exist, skipping", st.Constraint, d.Name)
					return nil
				}
				return sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" of domain \"%s\" does not exist", st.Constraint, d.Name)
			}
			d.Checks = slices.Delete(d.Checks, k, k+1)
		case sql.AlterDomainValidateConstraint:
			k := constraint(st.Constraint)
			if k < 0 {
				return sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" of domain \"%s\" does not exist", st.Constraint, d.Name)
			}
			if d.Checks[k].NotValid {
				if err := s.validateDomainData(ctx, tx.Domains, oid, &d.Checks[k], false); err != nil {
					return err
				}
				d.Checks[k].NotValid = false
			}
		case sql.AlterDomainRenameConstraint:
			k := constraint(st.Constraint)
			if k < 0 {
				return sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" for domain \"%s\" does not exist", st.Constraint, d.Name)
			}
			if constraint(st.NewName) >= 0 {
				return sqlerr.New(sqlerr.DuplicateObject, "constraint \"%s\" for domain \"%s\" already exists", st.NewName, d.Name)
			}
			d.Checks[k].Name = st.NewName
		case sql.AlterDomainRename:
			to := sql.ObjectName{Schema: d.Schema, Name: st.NewName}
			if typeNameTaken(tx, to) {
				return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists", st.NewName)
			}
			d.Name = st.NewName
			tx.Domains[oid] = d
			if err := rename.inMeta(tx); err != nil {
				return err
			}
			if err := recordTableEdits(tx, edits); err != nil { // typerename.go
				return err
			}
			d = tx.Domains[oid]
		case sql.AlterDomainOwner:
			role, err := s.ownerRole(st.NewName) // owners.go
			if err != nil {
				return err
			}
			if same, err := s.mayGiveTo("domain", d.Name, d.Owner, role); same || err != nil {
				return err
			}
			d.Owner = role
		case sql.AlterDomainSetSchema:
			if err := s.schemaExists(ctx, st.NewName); err != nil {
				return err
			}
			to := sql.ObjectName{Schema: st.NewName, Name: d.Name}
			if d.Schema != st.NewName && typeNameTaken(tx, to) {
				return sqlerr.New(sqlerr.DuplicateObject, "type \"%s\" already exists in schema \"%s\"", d.Name, st.NewName)
			}
			if d.Schema != st.NewName {
				d.Schema = st.NewName
				tx.Domains[oid] = d
				if err := rename.inMeta(tx); err != nil { // typerename.go
					return err
				}
				if err := recordTableEdits(tx, edits); err != nil {
					return err
				}
				d = tx.Domains[oid]
			}
		}
		tx.Domains[oid] = d
		return nil
	})
	if err == nil {
		err = s.followTableEdits(ctx, edits)
	}
	return notice, err
}

// validateDomainData checks the stored values of every column of the
// domain oid (or a domain over it) against a new constraint: the CHECK
// check, or NOT NULL when notNull. PostgreSQL refuses the change when a
// value violates it (23514, or 23502 for a NULL), naming the column.
func (s *session) validateDomainData(ctx context.Context, ds map[uint32]meta.Domain, oid uint32, check *types.DomainCheck, notNull bool) error {
	cols, err := s.domainColumns(ctx, domainFamily(ds, oid))
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		return nil
	}
	var v *domainValidator
	if check != nil {
		v = &domainValidator{e: s.eng, d: &types.Domain{Name: ds[oid].Name, Base: ds[oid].Base, Checks: []types.DomainCheck{*check}}}
	}
	for _, c := range cols {
		bad, err := s.columnViolates(ctx, c, v, notNull)
		if err != nil {
			return err
		}
		if !bad {
			continue
		}
		col := c.info.Descriptor.Schema.Columns[c.col].Name
		if notNull {
			return sqlerr.New(sqlerr.NotNullViolation, "column \"%s\" of table \"%s\" contains null values", col, c.info.Path.Table)
		}
		return sqlerr.New(checkViolationCode, "column \"%s\" of table \"%s\" contains values that violate the new constraint", col, c.info.Path.Table)
	}
	return nil
}

// columnViolates scans column c's committed values and reports whether one
// fails v's CHECK (or is NULL, when notNull).
func (s *session) columnViolates(ctx context.Context, c domainColumn, v *domainValidator, notNull bool) (bool, error) {
	return s.anyBatch(ctx, c.info.Path, []int{c.col}, func(b arrow.RecordBatch) (bool, error) {
		vals := domainValues(b.Column(0), c.array)
		if notNull && vals.NullN() > 0 {
			return true, nil
		}
		if v == nil {
			return false, nil
		}
		exprs, err := v.checksFor(ctx, vals.DataType())
		if err != nil {
			return false, err
		}
		k, err := s.eng.firstFailingCheck(ctx, exprs, vals)
		return k >= 0, err
	})
}

// anyBatch scans the columns proj (nil: all) of path's committed rows and
// reports whether hit holds for one of its batches (the scan stops there).
func (s *session) anyBatch(ctx context.Context, path fluss.TablePath, proj []int, hit func(arrow.RecordBatch) (bool, error)) (bool, error) {
	t, err := s.eng.store.Table(ctx, path)
	if err != nil {
		return false, err
	}
	r, err := t.Scan(ctx, fluss.ScanOptions{Projection: proj})
	if err != nil {
		return false, err
	}
	defer r.Close()
	for {
		b, err := r.Next(ctx)
		if err != nil || b == nil {
			return false, err
		}
		found, err := hit(b)
		b.Release()
		if err != nil || found {
			return found, err
		}
	}
}

func (s *session) dropDomains(ctx context.Context, st *sql.DomainStmt) ([]*sqlerr.Error, error) {
	var notices []*sqlerr.Error
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		drop := map[uint32]bool{}
		named := map[uint32]bool{} // what the statement drops depends on none of it
		for _, n := range st.Names {
			if oid := findDomain(tx.Domains, n); oid != 0 {
				named[oid] = true
			}
		}
		for _, n := range st.Names {
			oid := findDomain(tx.Domains, n)
			if oid == 0 {
				if findType(tx.Types, n) != 0 {
					return sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a domain", n.Name)
				}
				if st.IfExists {
					notices = append(notices, s.skippedNamed(ctx, "type", n.Schema, qualifiedText(n.Schema, n.Name)))
					continue
				}
				return s.typeMissing(ctx, n)
			}
			d := tx.Domains[oid]
			if d.Owner != s.info.User && !s.superuser {
				return mustOwn("type", d.Name)
			}
			fam := domainFamily(tx.Domains, oid)
			cols, err := s.domainColumns(ctx, fam)
			if err != nil {
				return err
			}
			lines := dependentLines(tx.Domains, cols, oid, named)
			if len(lines) > 0 && !st.Cascade {
				return sqlerr.New(sqlerr.Code("2BP01"), "cannot drop type %s because other objects depend on it", d.Name).
					WithDetail("%s", strings.Join(lines, "\n")).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			var deps, children []string
			for _, c := range cols {
				deps = append(deps, c.describe())
			}
			for o := range fam {
				if o != oid && !named[o] {
					children = append(children, "type "+tx.Domains[o].Name)
				}
			}
			slices.Sort(children)
			if len(deps) > 0 {
				// PostgreSQL drops the columns; a Fluss table cannot lose
				// a column
				return sqlerr.NotSupported(fmt.Sprintf("DROP DOMAIN ... CASCADE of a domain columns use (%s)", deps[0]))
			}
			if len(children) > 0 {
				notices = append(notices, schemaCascadeNotice(children))
			}
			for o := range fam {
				drop[o] = true
			}
		}
		for o := range drop {
			delete(tx.Domains, o)
			delete(tx.Comments, meta.CommentKey(meta.CommentDomain, strconv.FormatUint(uint64(o), 10)))
		}
		return nil
	})
	return notices, err
}

// dependentLines words PostgreSQL's dependency detail of dropping the
// domain oid: depth first, each domain over it (but those named, which
// the same statement drops), then what depends on that one, then oid's
// own columns.
func dependentLines(ds map[uint32]meta.Domain, cols []domainColumn, oid uint32, named map[uint32]bool) []string {
	name := ds[oid].Name
	var children []meta.Domain
	for _, d := range ds {
		if d.Parent == oid && !named[d.OID] {
			children = append(children, d)
		}
	}
	slices.SortFunc(children, func(a, b meta.Domain) int { return cmp.Compare(a.Name, b.Name) })
	var out []string
	for _, c := range children {
		out = append(out, "type "+c.Name+" depends on type "+name)
		out = append(out, dependentLines(ds, cols, c.OID, named)...)
	}
	// the columns of its array type (PostgreSQL reaches them through the
	// array type, which belongs to the domain) come before its own
	for _, array := range []bool{true, false} {
		for _, c := range cols {
			if c.oid == oid && c.array == array {
				out = append(out, c.describe()+" depends on type "+name+map[bool]string{true: "[]"}[array])
			}
		}
	}
	return out
}

// domainColumnAdd is the change that records, in the table's metadata,
// the domain d (or an array of it) of the column ALTER TABLE ... ADD
// COLUMN adds as column n (1-based), after checking the rows already
// stored as PostgreSQL checks them: it fills each with the domain's
// default, NULL when it has none, and checks the domain's constraints.
// It serves arrays of a domain (a domain column's own default is the
// stored rows' missing value: altercolumn.go): such a column reads NULL in
// the rows written before it, so a domain with a default cannot be added
// to a table with rows (0A000), and NULL fails a NOT NULL domain as in PostgreSQL
// (23502). An empty table takes any domain: PostgreSQL checks no row.
func (s *session) domainColumnAdd(ctx context.Context, info fluss.TableInfo, d *types.Domain, array bool, n int) (fluss.TableChange, error) {
	pg := fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: fluss.ColumnTypeKey(n), Value: binder.DomainPGType(d.OID, array)}
	if array || d.Default == "" && !domainNotNullAt(s.eng.typeReg, d) {
		return pg, nil
	}
	rows, err := s.tableHasRows(ctx, info)
	if err != nil || !rows {
		return pg, err
	}
	if d.Default != "" {
		return pg, sqlerr.New(sqlerr.FeatureNotSupported, "cannot add a column of domain %s, which has a default, to table \"%s\", which has rows: Fluss 0.9.1 cannot fill the rows already stored", d.QualifiedName(), info.Path.Table).
			WithHint("Add the column to an empty table, or create a new table and copy the rows: CREATE TABLE new AS SELECT ... FROM t.")
	}
	return pg, domainNotNull(d.QualifiedName())
}

// domainNotNullAt reports whether d or a domain underneath it is NOT
// NULL.
func domainNotNullAt(reg *types.Registry, d *types.Domain) bool {
	for ; d != nil; d = reg.Domain(d.Parent) {
		if d.NotNull {
			return true
		}
		if d.Parent == 0 {
			break
		}
	}
	return false
}

// tableHasRows reports whether info's table holds a committed row.
func (s *session) tableHasRows(ctx context.Context, info fluss.TableInfo) (bool, error) {
	return s.anyBatch(ctx, info.Path, []int{0}, func(b arrow.RecordBatch) (bool, error) { return b.NumRows() > 0, nil })
}

// domainTypeStmt is DROP TYPE of domains as DROP DOMAIN: PostgreSQL's
// DROP TYPE drops a domain too. A DROP TYPE naming an enum type stays
// DROP TYPE.
func (s *session) domainTypeStmt(st *sql.TypeStmt) (*sql.DomainStmt, bool) {
	if st.Op == sql.AlterTypeSetSchema && findDomain(s.eng.domains(), st.Names[0]) != 0 {
		return &sql.DomainStmt{Op: sql.AlterDomainSetSchema, Names: st.Names, NewName: st.NewValue}, true
	}
	if st.Op != sql.DropType {
		return nil, false
	}
	ds := s.eng.domains()
	for _, n := range st.Names {
		if findDomain(ds, n) == 0 {
			return nil, false
		}
	}
	return &sql.DomainStmt{Op: sql.DropDomain, Names: st.Names, IfExists: st.IfExists, Cascade: st.Cascade}, true
}
