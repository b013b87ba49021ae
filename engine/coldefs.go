package engine

import (
	"context"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Column defaults and CHECK constraints at write time. The binder binds
// both from the table's metadata (fluss.TableMeta): INSERT's defaults are
// in its plan; COPY fills omitted columns here; every write of rows to a
// table with CHECK constraints (INSERT, UPDATE, ON CONFLICT DO UPDATE,
// COPY) passes them (pendingTable.Check, which the transaction's overlay
// calls) before it is kept.

// checkViolationCode is PostgreSQL's check_violation.
const checkViolationCode sqlerr.Code = "23514"

// tableChecks are a table's CHECK constraints, lowered for evaluation.
type tableChecks struct {
	mem   memory.Allocator
	info  fluss.TableInfo
	names []string
	exprs []exec.Expr
	// domains are the columns of a domain, whose values its constraints
	// check first (domains.go).
	domains []domainColumn
	// partition is a PostgreSQL-partitioned table's check that each row
	// has a partition (pgpartitions.go), which PostgreSQL makes before
	// the partition's constraints.
	partition *partitionRowCheck
	// types is the store's registry, where the domains are.
	types *types.Registry
}

// checksFor binds and lowers info's CHECK constraints (nil when it has
// none).
func (s *session) checksFor(ctx context.Context, info fluss.TableInfo) (*tableChecks, error) {
	m := fluss.MetaOf(info.Descriptor)
	domains := domainColumnsOf(info, m) // domains.go
	part := s.partitionCheckFor(info)   // pgpartitions.go
	if len(m.Checks) == 0 && len(domains) == 0 && part == nil {
		return nil, nil
	}
	bound, err := binder.TableChecks(ctx, s.eng.tables, info)
	if err != nil {
		return nil, err
	}
	tc := &tableChecks{mem: s.eng.mem, info: info, domains: domains, partition: part, types: s.eng.typeReg}
	for _, c := range bound {
		es, err := lower.LowerExprs([]binder.Expr{c.Expr})
		if err != nil {
			return nil, err
		}
		tc.names = append(tc.names, c.Name)
		tc.exprs = append(tc.exprs, es[0])
	}
	return tc, nil
}

// check evaluates the constraints over rec (the table's columns): a row
// fails a constraint that is false (NULL passes), with PostgreSQL's 23514
// naming the first constraint and the row.
func (tc *tableChecks) check(ctx context.Context, rec arrow.RecordBatch) error {
	_, err := tc.checkRow(ctx, rec)
	return err
}

// checkRow is check that also says which row failed a constraint (-1
// when none did, or when the error is not a row's violation): a writer
// of several rows reports the first row's failure of any kind, as
// PostgreSQL, which writes a row at a time, does (checkFirst).
func (tc *tableChecks) checkRow(ctx context.Context, rec arrow.RecordBatch) (int, error) {
	if tc == nil || rec.NumRows() == 0 {
		return -1, nil
	}
	if i, err := tc.partition.check(ctx, rec); err != nil {
		return i, err
	}
	for _, c := range tc.domains {
		if d := tc.types.Domain(c.oid); d != nil && d.Validate != nil {
			if err := d.Validate(ctx, domainValues(rec.Column(c.col), c.array)); err != nil {
				return -1, err
			}
		}
	}
	ec := &exec.EvalContext{Ctx: ctx, Mem: tc.mem}
	// PostgreSQL checks a row at a time, its constraints in name order
	// (relcache sorts them): the failure reported is the first row's
	// that fails one, and that row's first constraint by name
	row, con := -1, -1
	for k, e := range tc.exprs {
		b, err := evalCheck(ec, e, rec)
		if err != nil {
			return -1, err
		}
		i := firstFalseRow(b)
		b.Release()
		if i >= 0 && (row < 0 || i < row || i == row && tc.names[k] < tc.names[con]) {
			row, con = i, k
		}
	}
	if row >= 0 {
		return row, sqlerr.New(checkViolationCode, "new row for relation \"%s\" violates check constraint \"%s\"", tc.info.Path.Table, tc.names[con]).
			WithDetail("Failing row contains %s.", failingRow(ctx, tc.info, rec, row))
	}
	return -1, nil
}

// evalCheck evaluates a CHECK expression (a table's or a domain's) over
// rec: a boolean per row.
func evalCheck(ec *exec.EvalContext, x exec.Expr, rec arrow.RecordBatch) (*array.Boolean, error) {
	res, err := x.Eval(ec, rec)
	if err != nil {
		return nil, err
	}
	b, ok := res.(*array.Boolean)
	if !ok {
		res.Release()
		return nil, sqlerr.New(sqlerr.InternalError, "a check constraint evaluated to %s, not a boolean", res.DataType())
	}
	return b, nil
}

// firstFalseRow is the first row where a check's result is false, -1 when
// none is (a NULL passes, as in PostgreSQL).
func firstFalseRow(b *array.Boolean) int {
	for i := 0; i < b.Len(); i++ {
		if b.IsValid(i) && !b.Value(i) {
			return i
		}
	}
	return -1
}

// failingRow is a row as PostgreSQL's errdetail prints it: (v1, v2, ...),
// each value in its text form (the wire's, so that arrays, records and
// the like print whole, as fluss.CheckNotNull's row does), null for NULL.
func failingRow(ctx context.Context, info fluss.TableInfo, rec arrow.RecordBatch, i int) string {
	var sb strings.Builder
	sb.WriteByte('(')
	loc, st := (&exec.EvalContext{Ctx: ctx}).Location(), functions.StyleOf(ctx)
	for c := range int(rec.NumCols()) {
		if c > 0 {
			sb.WriteString(", ")
		}
		t := info.Descriptor.Schema.Columns[c].Type
		if col := rec.Column(c); !col.IsNull(i) {
			if b, _, err := pgtypes.AppendValueStyle(nil, t.Nullable(), pgtypes.FormatText, col, i, loc, st); err == nil {
				sb.Write(b)
				continue
			}
		}
		sb.WriteString(exec.DetailValue(types.ValueAt(rec.Column(c), i), t, loc, st))
	}
	sb.WriteByte(')')
	return sb.String()
}

// copyDefaults returns the filler of the columns a COPY FROM omits: each
// gets its DEFAULT (evaluated per row: nextval gives every row its own
// value), or NULL.
func (s *session) copyDefaults(ctx context.Context, info fluss.TableInfo, cols []pgwire.ResultColumn) (func(col int, rows int64) (arrow.Array, error), error) {
	copied := map[int]bool{}
	for _, c := range cols {
		copied[int(c.ColumnNumber)-1] = true
	}
	bound, err := binder.ColumnDefaults(ctx, s.eng.tables, info)
	if err != nil {
		return nil, err
	}
	exprs := make([]exec.Expr, len(bound))
	any := false
	for i, e := range bound {
		if e == nil || copied[i] {
			continue
		}
		es, err := lower.LowerExprs([]binder.Expr{e})
		if err != nil {
			return nil, err
		}
		exprs[i], any = es[0], true
	}
	if !any {
		return nil, nil
	}
	mem := s.eng.mem
	ec := &exec.EvalContext{Ctx: ctx, Mem: mem}
	empty := arrow.NewSchema(nil, nil)
	return func(col int, rows int64) (arrow.Array, error) {
		if exprs[col] == nil {
			return array.MakeArrayOfNull(mem, info.Descriptor.Schema.Columns[col].Type.ArrowType(), int(rows)), nil
		}
		// a batch of rows rows and no column: what a constant's Eval sizes by
		rec := array.NewRecordBatch(empty, nil, rows)
		defer rec.Release()
		return exprs[col].Eval(ec, rec)
	}, nil
}

// attachChecks gives a table a transaction writes its CHECK constraints,
// once.
func (s *session) attachChecks(ctx context.Context, pt *pendingTable) error {
	if pt.checksBound {
		return nil
	}
	tc, err := s.cachedChecks(ctx, pt.Info())
	if err != nil {
		return err
	}
	pt.checks, pt.checksBound = tc, true
	return nil
}

// checksEntry is a table's checks (nil: none) as the session last built
// them, and what they were built from.
type checksEntry struct {
	key checksKey
	tc  *tableChecks
}

// checksKey is what a table's checks are built from: the version of its
// schema (its TableInfo's ArrowSchemas, new with every schema change), its
// descriptor's property maps (where the constraints are kept: ALTER TABLE
// ADD CONSTRAINT makes new ones), the catalog count (any DDL here: a
// domain, a function) and search_path.
type checksKey struct {
	catalog       uint64
	searchPath    string
	schemas       *fluss.ArrowSchemas
	props, custom uintptr
}

// maxCachedChecks bounds the session's checks cache.
const maxCachedChecks = 64

// cachedChecks is checksFor, built once per table and version of its
// definition for the session: every transaction's first write to a table
// read the table's metadata again (fluss.MetaOf parses its properties),
// four allocations and a walk of the property map per UPDATE of the W10
// transaction. A TableInfo without ArrowSchemas (a catalog that keeps no
// versions) is not cached.
func (s *session) cachedChecks(ctx context.Context, info fluss.TableInfo) (*tableChecks, error) {
	if info.ArrowSchemas == nil {
		return s.checksFor(ctx, info)
	}
	key := checksKey{catalog: s.eng.catalog.Load(), searchPath: s.settings["search_path"], schemas: info.ArrowSchemas,
		props: reflect.ValueOf(info.Descriptor.Properties).Pointer(), custom: reflect.ValueOf(info.Descriptor.CustomProperties).Pointer()}
	if e, ok := s.checks[info.TableID]; ok && e.key == key {
		return e.tc, nil
	}
	tc, err := s.checksFor(ctx, info)
	if err != nil {
		return nil, err
	}
	if s.checks == nil || len(s.checks) >= maxCachedChecks {
		s.checks = map[int64]checksEntry{}
	}
	s.checks[info.TableID] = checksEntry{key: key, tc: tc}
	return tc, nil
}

// copyContext is the statement context of a COPY FROM, as execute builds
// one for other statements: defaults may call now(), nextval (the
// session's sequences) or read the catalog.
func (s *session) copyContext(ctx context.Context) context.Context {
	ci, _ := s.eng.opts.Virtual.(functions.CatalogInfo)
	s.seqs.s = s
	now := time.Now()
	start := s.txStart
	if start.IsZero() || s.txStatus == 'I' && !s.held {
		start = now
	}
	return functions.WithStatement(ctx, functions.Clock{TransactionStart: start, StatementStart: now}, ci,
		functions.Session{User: s.info.User, SchemaUsable: s.usableFn, Database: s.info.Database, BackendPID: int32(s.info.ProcessID), Setting: s.statusFn, Style: &s.parsedStyle,
			Location: s.location(), SetSetting: s.setFn, Sequences: &s.seqs})
}
