package engine

import (
	"context"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SUBSCRIBE: an unbounded result that follows a table's changelog
// (fluss.ChangelogFollower), served as rows (a bare SUBSCRIBE, which
// drivers read as they come), as COPY (SUBSCRIBE ...) TO STDOUT, or
// through DECLARE c CURSOR FOR SUBSCRIBE ... and FETCH (subscribecursor.go).
//
// Its rows are the change's metadata (_change_type as Fluss spells it:
// +A for a log table's rows, +I/-U/+U/-D for a primary-key table's
// changelog; _bucket; _log_offset; _commit_timestamp) and then the
// query's columns. The query (SUBSCRIBE t is SELECT * FROM t) may
// project and filter one table, row by row: it is bound once against the
// table's changelog (SELECT _change_type, _log_offset, _commit_timestamp,
// <its select list> FROM t$changelog WHERE ...) and that plan runs over
// each batch of changes the follow returns, the scan reading the batch in
// hand (streamTables). Aggregates, joins, ordering and limits are refused:
// their answer is not a function of one change.
//
// Memory: the follow reads the committed log as the subscriber asks for
// rows (the embedded store from disk; on a Fluss cluster each bucket's
// fetcher holds at most one fetch ahead, fluss/remote/follow.go), so a
// subscriber that falls behind lags in the log and holds nothing more;
// one poll holds at most subscribeBatchRows changes and their projected
// rows. A subscriber whose client stops taking data
// is ended by pgwire after the send timeout (the setting
// sqlgate.subscribe_send_timeout, default 30s: pgwire.StreamingResult).
//
// PROGRESS rows (WITH (PROGRESS)) have NULL metadata and columns except
// _commit_timestamp: every change committed up to it has been sent. One
// is sent each time the subscription has caught up with the committed
// log after sending (or filtering out) changes.

// subscribeBatchRows bounds the changes one poll reads.
const subscribeBatchRows = 4096

// defaultSendTimeout is how long a streaming subscriber's client may leave
// sent rows unread before the subscription is ended.
const defaultSendTimeout = 30 * time.Second

// subscribeSendTimeoutSetting names the session setting that changes it.
const subscribeSendTimeoutSetting = "sqlgate.subscribe_send_timeout"

// changelogMeta is how many metadata columns the changelog plan puts
// before the query's own.
const changelogMeta = 3

// subscribePlan is a prepared SUBSCRIBE.
type subscribePlan struct {
	stmt *sql.SubscribeStmt
	info fluss.TableInfo
	// query is the changelog query; cols the subscription's columns and
	// out their Arrow schema.
	query *statement
	cols  []pgwire.ResultColumn
	out   *arrow.Schema
	// whole: SUBSCRIBE t, whose query is every changelog column in order:
	// the changes are shaped as they are, without running the plan.
	whole bool
	// changelog is the schema of the table's changelog (snapshot rows are
	// given it).
	changelog *arrow.Schema
}

// subscribeColumns are the metadata columns a subscription starts with.
var subscribeColumns = [...]struct {
	name string
	t    types.T
}{
	{"_change_type", types.StringType},
	{"_bucket", types.Int32Type},
	{"_log_offset", types.Int64Type},
	{"_commit_timestamp", types.T{Kind: types.TimestampTZ, Precision: 3}},
}

// prepareSubscribe binds SUBSCRIBE's query against the table's changelog.
func (s *session) prepareSubscribe(ctx context.Context, ps *statement) (*statement, error) {
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	sub := ps.parsed.DDL.Subscribe
	text := sub.Query
	if text == "" {
		n := sub.Table
		from := quoteIdent(n.Name)
		if n.Schema != "" {
			from = quoteIdent(n.Schema) + "." + from
		}
		text = "SELECT * FROM " + from
	}
	stmts, err := s.parser.Parse(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 || stmts[0].Kind != sql.Select {
		return nil, notPerChange("a statement other than SELECT")
	}
	sel, ok := stmts[0].AST.(*ast.SelectStmt)
	if !ok {
		return nil, notPerChange("a set operation")
	}
	tn, src, err := subscribeShape(sel)
	if err != nil {
		return nil, err
	}
	info, err := s.resolveTable(ctx, sql.ObjectName{Schema: tn.Schema.O, Name: tn.Name.O})
	if err != nil {
		return nil, err
	}
	path := info.Path
	if info.IsPartitioned() {
		return nil, sqlerr.NotSupported("SUBSCRIBE to a partitioned table")
	}
	// Read the changelog under the table's own name, so that the query's
	// qualified references (t.a) still resolve.
	if src.AsName.O == "" {
		src.AsName = ast.NewCIStr(tn.Name.O)
	}
	tn.Schema, tn.Name = ast.NewCIStr(path.Database), ast.NewCIStr(path.Table+"$changelog")
	sel.Fields.Fields = subscribeFields(sel.Fields.Fields, info, src.AsName)
	qps, err := s.prepareOne(ctx, stmts[0], nil)
	if err != nil {
		return nil, err
	}
	if len(qps.params) > 0 {
		return nil, noParameter(1)
	}
	if _, ok := qps.bound.(*binder.Query); !ok || qps.plan == nil {
		return nil, notPerChange("this query")
	}
	plan := &subscribePlan{stmt: sub, info: info, query: qps, whole: sub.Query == "", changelog: changelogSchema(info)}
	fields := make([]arrow.Field, 0, len(qps.cols)+1)
	for _, m := range subscribeColumns {
		plan.cols = append(plan.cols, pgwire.ResultColumn{Name: m.name, Type: m.t})
		fields = append(fields, arrow.Field{Name: m.name, Type: m.t.ArrowType(), Nullable: true})
	}
	for _, c := range qps.cols[changelogMeta:] {
		plan.cols = append(plan.cols, c)
		fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true})
	}
	plan.out = arrow.NewSchema(fields, nil)
	ps.sub, ps.cols = plan, plan.cols
	return ps, nil
}

func notPerChange(what string) error {
	return sqlerr.NotSupported("SUBSCRIBE to " + what + " (SUBSCRIBE follows one table, row by row: SELECT columns FROM table WHERE condition)")
}

// subscribeShape checks that sel reads one table row by row and returns
// that table's name and source.
func subscribeShape(sel *ast.SelectStmt) (*ast.TableName, *ast.TableSource, error) {
	switch {
	case sel.Kind != ast.SelectStmtKindSelect:
		return nil, nil, notPerChange("VALUES or TABLE")
	case sel.With != nil:
		return nil, nil, notPerChange("a query with WITH")
	case sel.Distinct:
		return nil, nil, notPerChange("SELECT DISTINCT")
	case sel.GroupBy != nil, sel.Having != nil:
		return nil, nil, notPerChange("a grouped query")
	case sel.OrderBy != nil:
		return nil, nil, notPerChange("a query with ORDER BY")
	case sel.Limit != nil:
		return nil, nil, notPerChange("a query with LIMIT or OFFSET")
	case len(sel.WindowSpecs) > 0:
		return nil, nil, notPerChange("a query with windows")
	case sel.LockInfo != nil && sel.LockInfo.LockType != ast.SelectLockNone:
		return nil, nil, notPerChange("SELECT ... FOR UPDATE")
	case sel.From == nil || sel.From.TableRefs == nil || sel.From.TableRefs.Right != nil:
		return nil, nil, notPerChange("a query that does not read exactly one table")
	}
	src, ok := sel.From.TableRefs.Left.(*ast.TableSource)
	if !ok {
		return nil, nil, notPerChange("a query that does not read exactly one table")
	}
	tn, ok := src.Source.(*ast.TableName)
	if !ok {
		return nil, nil, notPerChange("a query that does not read exactly one table")
	}
	if strings.Contains(tn.Name.O, "$") {
		return nil, nil, notPerChange("a table's $changelog or $binlog")
	}
	v := &perChangeCheck{}
	sel.Fields.Accept(v)
	if sel.Where != nil {
		sel.Where.Accept(v)
	}
	if v.bad != "" {
		return nil, nil, notPerChange("a query with " + v.bad)
	}
	return tn, src, nil
}

// perChangeCheck finds what cannot be computed from one change alone.
type perChangeCheck struct{ bad string }

func (v *perChangeCheck) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		v.bad = "aggregate functions"
	case *ast.WindowFuncExpr:
		v.bad = "window functions"
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr:
		v.bad = "subqueries"
	}
	return n, v.bad != ""
}

func (v *perChangeCheck) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// subscribeFields puts the changelog's metadata columns before the select
// list and spells out its * as the table's own columns (the changelog's *
// would repeat the metadata).
func subscribeFields(fields []*ast.SelectField, info fluss.TableInfo, alias ast.CIStr) []*ast.SelectField {
	col := func(name string, qualify bool) *ast.SelectField {
		cn := &ast.ColumnName{Name: ast.NewCIStr(name)}
		if qualify {
			cn.Table = alias
		}
		return &ast.SelectField{Expr: &ast.ColumnNameExpr{Name: cn}}
	}
	out := []*ast.SelectField{col(fluss.ChangeTypeColumn, true), col(fluss.LogOffsetColumn, true), col(fluss.CommitTimestampColumn, true)}
	for _, f := range fields {
		if f.WildCard == nil {
			out = append(out, f)
			continue
		}
		for _, c := range info.Descriptor.Schema.Columns {
			out = append(out, col(c.Name, true))
		}
	}
	return out
}

// execSubscribe starts a prepared SUBSCRIBE (bare or inside COPY).
func (s *session) execSubscribe(ctx context.Context, ps *statement) (pgwire.Result, error) {
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	sub, err := s.startSubscription(ctx, ps.sub)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return sub, nil
}

// startSubscription opens the follow a subscription reads.
func (s *session) startSubscription(ctx context.Context, plan *subscribePlan) (*subscription, error) {
	if err := s.authorize(plan.query); err != nil {
		return nil, err
	}
	st := plan.stmt
	s.eng.ddl.RLock()
	t, err := s.eng.store.Table(ctx, plan.info.Path)
	s.eng.ddl.RUnlock()
	if err != nil {
		return nil, err
	}
	if t.Info().TableID != plan.info.TableID || t.Info().SchemaID != plan.info.SchemaID {
		return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table \"%s\" changed since the SUBSCRIBE was prepared", plan.info.Path.Table)
	}
	fl, ok := t.(fluss.ChangelogFollower)
	if !ok {
		return nil, sqlerr.NotSupported("SUBSCRIBE to a table whose store cannot follow its changelog")
	}
	opts := fluss.FollowOptions{MaxRows: subscribeBatchRows}
	switch st.Start {
	case sql.SubscribeDefault:
		opts.Snapshot = st.Snapshot == nil || *st.Snapshot
	case sql.SubscribeEarliest:
		opts.From = make([]int64, plan.info.Descriptor.BucketCount)
	case sql.SubscribeLatest:
		opts.From = nil
	case sql.SubscribeOffsets:
		n := plan.info.Descriptor.BucketCount
		opts.From = make([]int64, n)
		for b, off := range st.Offsets {
			if b >= n {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "table \"%s\" has no bucket %d (it has %d)", plan.info.Path.Table, b, n)
			}
			opts.From[b] = off
		}
	case sql.SubscribeTimestamp:
		// Microseconds, as PostgreSQL's timestamptz (precision 0 would round).
		tz := types.TimestampTZType(6)
		v, err := types.ParseTextOrder(st.Timestamp, tz, s.location(), time.Now(), s.dateStyle().Order)
		if err != nil {
			return nil, err
		}
		opts.From = make([]int64, plan.info.Descriptor.BucketCount)
		opts.FromTimestamp = types.ValueToTime(v, tz).UnixMicro()
	}
	if st.Start != sql.SubscribeDefault && st.Snapshot != nil && *st.Snapshot {
		return nil, sqlerr.New(sqlerr.InvalidParameterValue, "SNAPSHOT = true cannot be combined with FROM: the snapshot is the table's current rows, the changes after it follow")
	}
	f, err := fl.FollowChangelog(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &subscription{sess: s, plan: plan, follow: f, table: t, progress: st.Progress, mem: s.eng.mem,
		logTable: !plan.info.HasPrimaryKey(), evalCtx: s.copyContext(context.WithoutCancel(ctx)),
		sendTimeout: s.subscribeSendTimeout()}, nil
}

// subscribeSendTimeout reads sqlgate.subscribe_send_timeout.
func (s *session) subscribeSendTimeout() time.Duration {
	if v, ok := s.Status(subscribeSendTimeoutSetting); ok && v != "" {
		if d, ok := pgwire.ParseGUCDuration(v); ok && d > 0 {
			return d
		}
	}
	return defaultSendTimeout
}

// subscription is a running SUBSCRIBE: a pgwire.StreamingResult.
type subscription struct {
	sess     *session
	plan     *subscribePlan
	follow   fluss.ChangelogFollow
	table    fluss.Table
	progress bool
	logTable bool
	mem      memory.Allocator
	// evalCtx carries the statement's clock and session for the query's
	// expressions (not its cancellation: each call brings its own).
	evalCtx     context.Context
	sendTimeout time.Duration
	// queue is the rows of the last poll not yet returned.
	queue []arrow.RecordBatch
	// lastCommit is the commit time (ms) of the last change read;
	// progressDue says that changes were read since the last PROGRESS row.
	lastCommit  int64
	progressDue bool
	closed      bool
	// symbols and buckets are columns of one repeated change type or
	// bucket number, sliced for each batch by shape (repeatColumn).
	symbols map[string]arrow.Array
	buckets map[int]arrow.Array
}

var _ pgwire.StreamingResult = (*subscription)(nil)

// Next returns the next rows, waiting for commits as long as ctx lasts.
func (r *subscription) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		b, err := r.next(ctx, false)
		if err != nil || b != nil {
			return b, err
		}
		select {
		case <-r.follow.Wait():
		case <-ctx.Done():
			return nil, sqlerr.Wrap(ctx.Err(), sqlerr.QueryCanceled, "canceling statement due to user request")
		}
	}
}

// next returns the next rows available without waiting (nil when none
// are); a PROGRESS row when it has caught up and progress is due, unless
// noProgress.
func (r *subscription) next(ctx context.Context, noProgress bool) (arrow.RecordBatch, error) {
	if r.closed {
		return nil, sqlerr.New(codeInvalidCursorState, "the subscription has ended")
	}
	for len(r.queue) == 0 {
		read, err := r.poll(ctx)
		if err != nil {
			return nil, err
		}
		if !read {
			if r.progress && r.progressDue && !noProgress && r.lastCommit > 0 {
				r.progressDue = false
				return r.progressRow()
			}
			return nil, nil
		}
	}
	b := r.queue[0]
	r.queue[0] = nil
	r.queue = r.queue[1:]
	return b, nil
}

// Ready implements pgwire.StreamingResult: rows are in hand.
func (r *subscription) Ready() bool { return len(r.queue) > 0 }

// SendTimeout implements pgwire.StreamingResult.
func (r *subscription) SendTimeout() time.Duration { return r.sendTimeout }

func (r *subscription) Tag() string { return "SUBSCRIBE" }

func (r *subscription) Close() {
	if r.closed {
		return
	}
	r.closed = true
	for _, b := range r.queue {
		b.Release()
	}
	r.queue = nil
	releaseColumns(r.symbols)
	releaseColumns(r.buckets)
	r.symbols, r.buckets = nil, nil
	r.follow.Close()
}

// poll reads the next changes and queues the query's rows of them; it
// reports whether it read any (rows may all have been filtered out).
func (r *subscription) poll(ctx context.Context) (bool, error) {
	cb, err := r.follow.Poll(ctx)
	if err != nil || cb.Record == nil {
		return false, err
	}
	defer cb.Record.Release()
	in := cb.Record
	if cb.Snapshot {
		in = snapshotChanges(cb.Record, r.plan.changelog, r.mem)
		defer in.Release()
	} else {
		r.lastCommit = max(r.lastCommit, cb.CommitMillis)
		r.progressDue = true
	}
	return true, r.evaluate(ctx, cb.Bucket, in)
}

// evaluate runs the changelog query over one bucket's changes and queues
// its rows with the subscription's metadata columns.
func (r *subscription) evaluate(ctx context.Context, bucket int, in arrow.RecordBatch) error {
	if r.plan.whole {
		out, err := r.shape(in, bucket)
		if err != nil {
			return err
		}
		r.queue = append(r.queue, out)
		return nil
	}
	s := r.sess
	ps := r.plan.query
	backend, err := ps.backend(new(exec.BackendRequest))
	if err != nil {
		return err
	}
	// One batch's evaluation is short: it runs under the statement's
	// values alone, and the caller checks ctx between polls.
	ectx := r.evalCtx
	ec := &exec.EvalContext{Ctx: ectx, Mem: r.mem, Backend: backend.Default, Families: backend.Families}
	rt := &lower.Runtime{Ctx: ectx, Tables: streamTables{table: r.table, rec: in}, EC: ec, Backends: backend,
		Mem: relop.NewMemoryAccount(s.eng.opts.QueryMemoryLimit), SpillDir: s.eng.opts.SpillDir, Untransacted: true}
	ec.Env = rt
	defer rt.Close() // after op's Close: its WITH query rows
	op, err := lower.Build(rt, ps.plan)
	if err != nil {
		return err
	}
	defer op.Close()
	for {
		b, err := op.Next(ectx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		out, err := r.shape(b, bucket)
		b.Release()
		if err != nil {
			return err
		}
		r.queue = append(r.queue, out)
	}
}

// changeTypeSymbol is Fluss's short name of a change type, by the
// changelog's long one (a log table's rows are +A).
func changeTypeSymbol(kind string, logTable bool) string {
	switch kind {
	case "update_before":
		return "-U"
	case "update_after":
		return "+U"
	case "delete":
		return "-D"
	}
	if logTable {
		return "+A"
	}
	return "+I"
}

// shape turns a row of the changelog query (change type, offset, commit
// time, the query's columns) into the subscription's. The change type
// and bucket columns are written straight into their buffers: shape runs
// for every batch of every subscriber.
func (r *subscription) shape(b arrow.RecordBatch, bucket int) (arrow.RecordBatch, error) {
	n := int(b.NumRows())
	kinds, ok := b.Column(0).(*array.String)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "changelog change type is %s, not text", b.Column(0).DataType())
	}
	// Most batches have one change type (a log table's are all +A, a
	// batch of inserts all +I): its column is a slice of a cached one.
	var kind arrow.Array
	if n > 0 {
		first := kinds.Value(0)
		uniform := true
		for i := 1; i < n && uniform; i++ {
			uniform = kinds.Value(i) == first
		}
		if uniform {
			sym := changeTypeSymbol(first, r.logTable)
			kind = repeatColumn(&r.symbols, sym, n, func(size int) arrow.Array { return fluss.StringColumn([]string{sym}, size) })
		}
	}
	if kind == nil {
		syms := make([]string, n)
		for i := range n {
			syms[i] = changeTypeSymbol(kinds.Value(i), r.logTable)
		}
		kind = fluss.StringColumn(syms, n)
	}
	cols := []arrow.Array{kind, repeatColumn(&r.buckets, bucket, n, func(size int) arrow.Array { return fluss.Int32Column(int32(bucket), size) })}
	for i := 1; i < int(b.NumCols()); i++ {
		c := b.Column(i)
		c.Retain()
		cols = append(cols, c)
	}
	out := array.NewRecordBatch(r.plan.out, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// repeatColumn returns n rows of the column of one repeated value cached
// under key, building it (of at least 4,096 rows, doubling) when the cache
// has none long enough: shape runs for every batch of every subscriber,
// and these columns were a third of a subscription's allocations (issue
// 28's soak: 64 subscribers allocated 40 MB/s, a collection every few
// seconds). The slice shares the cached column's memory, which is never
// written.
func repeatColumn[K comparable](cache *map[K]arrow.Array, key K, n int, build func(size int) arrow.Array) arrow.Array {
	if *cache == nil {
		*cache = map[K]arrow.Array{}
	}
	c := (*cache)[key]
	if c == nil || c.Len() < n {
		size := max(n, subscribeBatchRows)
		if c != nil {
			size = max(n, 2*c.Len())
			c.Release()
		}
		c = build(size)
		(*cache)[key] = c
	}
	return array.NewSlice(c, 0, int64(n))
}

// releaseColumns releases the columns of a repeatColumn cache.
func releaseColumns[K comparable](cache map[K]arrow.Array) {
	for _, c := range cache {
		c.Release()
	}
}

// progressRow is a PROGRESS row at the last commit read.
func (r *subscription) progressRow() (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, r.plan.out.NumFields())
	for i, f := range r.plan.out.Fields() {
		if i == 3 {
			tb := array.NewTimestampBuilder(r.mem, f.Type.(*arrow.TimestampType))
			tb.Append(arrow.Timestamp(r.lastCommit * 1000))
			cols[i] = tb.NewArray()
			tb.Release()
			continue
		}
		cols[i] = array.MakeArrayOfNull(r.mem, f.Type, 1)
	}
	out := array.NewRecordBatch(r.plan.out, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// changelogSchema is the Arrow schema of info's changelog columns.
func changelogSchema(info fluss.TableInfo) *arrow.Schema {
	all := fluss.ChangelogColumns(info)
	fields := make([]arrow.Field, 0, len(all))
	for _, c := range all {
		fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true})
	}
	return arrow.NewSchema(fields, nil)
}

// snapshotChanges gives a snapshot batch (the table's current rows) the
// changelog's columns (schema): inserts, with no offset or commit time.
func snapshotChanges(rec arrow.RecordBatch, schema *arrow.Schema, mem memory.Allocator) arrow.RecordBatch {
	n := int(rec.NumRows())
	cols := []arrow.Array{fluss.StringColumn([]string{"insert"}, n), array.MakeArrayOfNull(mem, schema.Field(1).Type, n), array.MakeArrayOfNull(mem, schema.Field(2).Type, n)}
	for _, c := range rec.Columns() {
		c.Retain()
		cols = append(cols, c)
	}
	out := array.NewRecordBatch(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return out
}

// streamTables is what the changelog query's scan reads: the batch of
// changes in hand, whatever table it asks for (it reads one).
type streamTables struct {
	table fluss.Table
	rec   arrow.RecordBatch
}

func (t streamTables) Table(context.Context, fluss.TablePath) (fluss.Table, error) {
	return streamTable{Table: t.table, rec: t.rec}, nil
}

// streamTable answers a changelog scan with the batch in hand.
type streamTable struct {
	fluss.Table
	rec arrow.RecordBatch
}

func (t streamTable) ScanChangelog(_ context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	proj := opts.Projection
	if proj == nil {
		proj = make([]int, t.rec.NumCols())
		for i := range proj {
			proj[i] = i
		}
	}
	fields := make([]arrow.Field, len(proj))
	cols := make([]arrow.Array, len(proj))
	for i, c := range proj {
		if c < 0 || c >= int(t.rec.NumCols()) {
			return nil, sqlerr.New(sqlerr.InternalError, "changelog column %d does not exist", c)
		}
		fields[i], cols[i] = t.rec.Schema().Field(c), t.rec.Column(c)
	}
	return &oneBatch{rec: array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, t.rec.NumRows())}, nil
}

// oneBatch is a RecordReader of one batch.
type oneBatch struct{ rec arrow.RecordBatch }

func (o *oneBatch) Schema() *arrow.Schema { return o.rec.Schema() }

func (o *oneBatch) Next(context.Context) (arrow.RecordBatch, error) {
	b := o.rec
	o.rec = nil
	if b == nil {
		return nil, nil
	}
	return b, nil
}

func (o *oneBatch) Close() {
	if o.rec != nil {
		o.rec.Release()
		o.rec = nil
	}
}
