package engine

import (
	"context"
	"maps"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// truncateTables is TRUNCATE of a list of tables: every one is resolved
// and its privilege checked before the first is emptied, a table named
// twice is emptied once, and RESTART IDENTITY starts the sequences their
// columns own (serial, identity, OWNED BY) again from their START. Inside
// a transaction block it is the block's (truncateInBlock).
func (s *session) truncateTables(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	var infos []fluss.TableInfo
	var parts []views.View // partitions named (pgpartitions.go)
	seen := map[fluss.TablePath]bool{}
	for k, n := range d.Tables {
		v, isPart, err := s.partitionNamed(ctx, n) // pgpartitions.go
		if err != nil {
			return nil, err
		}
		if isPart {
			if err := s.needSchemaUsage(v.Path.Database); err != nil {
				return nil, err
			}
			if err := s.need(v.ACLKey(), v.Path, access.Truncate); err != nil {
				return nil, err
			}
			parts = append(parts, v)
			continue
		}
		info, err := s.resolveTable(ctx, n)
		if err != nil {
			return nil, err
		}
		if err := s.needSchemaUsage(info.Path.Database); err != nil { // schemaprivs.go
			return nil, err
		}
		if err := s.need(info.TableID, info.Path, access.Truncate); err != nil {
			return nil, err
		}
		if info.PartitionStrategy() != "" && k < len(d.Only) && d.Only[k] {
			return nil, sqlerr.New(sqlerr.WrongObjectType, "cannot truncate only a partitioned table").
				WithHint("Do not specify the ONLY keyword, or use TRUNCATE ONLY on the partitions directly.")
		}
		if !seen[info.Path] {
			seen[info.Path] = true
			infos = append(infos, info)
		}
	}
	infos, notices, err := s.fkTruncate(ctx, infos, seen, d.Cascade) // fkddl.go
	if err != nil {
		return nil, err
	}
	if len(parts) > 0 || slices.ContainsFunc(infos, partitionedByValues) {
		if err := s.truncatePartitioned(ctx, infos, parts); err != nil { // pgpartitions.go
			return nil, err
		}
		if d.RestartIdentity {
			if err := s.restartOwnedSequences(ctx, seen); err != nil {
				return nil, err
			}
		}
		return noticeResult("TRUNCATE TABLE", notices...), nil
	}
	if s.txStatus != 'I' {
		res, err := s.truncateInBlock(ctx, infos, seen, d.RestartIdentity)
		if err == nil && len(notices) > 0 {
			res = noticeResult("TRUNCATE TABLE", notices...)
		}
		return res, err
	}
	for i, info := range infos { // ddllock.go: their writers first
		if infos[i], err = s.lockDDLTable(ctx, info.Path); err != nil {
			return nil, err
		}
	}
	for _, info := range infos {
		if _, err := s.truncate(ctx, info); err != nil {
			return nil, err
		}
	}
	if d.RestartIdentity {
		if err := s.restartOwnedSequences(ctx, seen); err != nil {
			return nil, err
		}
	}
	return noticeResult("TRUNCATE TABLE", notices...), nil
}

// truncateInBlock is TRUNCATE inside a transaction block, transactional
// as PostgreSQL's (txnstore/truncate.go): each table is locked whole, as
// ACCESS EXCLUSIVE does (waiting for the transactions that hold row locks
// in it, and making its writers wait until this one ends), then reads
// empty to this transaction until COMMIT empties it; ROLLBACK, or ROLLBACK
// TO a savepoint made before, forgets it. RESTART IDENTITY restarts the
// owned sequences at once, and a rollback past the TRUNCATE puts them
// back as they were before it, as PostgreSQL's does (which also forgets
// the values nextval handed out since; a rollback to a later savepoint
// does not).
//
// Other sessions' readers wait for its ACCESS EXCLUSIVE lock, as in
// PostgreSQL (ddllock.go). A Fluss cluster has no lock other writers honour (fluss.RowLockable),
// so a concurrent writer's rows could survive the COMMIT's deletion, or
// vanish with it: there TRUNCATE still refuses a block.
func (s *session) truncateInBlock(ctx context.Context, infos []fluss.TableInfo, seen map[fluss.TablePath]bool, restart bool) (pgwire.Result, error) {
	if s.eng.locks == nil {
		return nil, inTransactionBlock("TRUNCATE TABLE").
			WithDetail("This store (a Fluss cluster) has no table lock that other writers honour, so a transaction's TRUNCATE could not keep their rows out of the table it empties at COMMIT.").
			WithHint("Run TRUNCATE outside a transaction block.")
	}
	pts := make([]*pendingTable, len(infos))
	for i, info := range infos {
		pt, err := s.writeTable(ctx, "TRUNCATE TABLE", info) // write.go
		if err != nil {
			return nil, err
		}
		tx := s.tx
		if err := tx.Locks.LockWhole(ctx, rowlock.Request{Table: info.TableID, Name: info.Path.Table, Timeout: tx.LockTimeout,
			DeadlockTimeout: tx.DeadlockTimeout, Statement: tx.Stmt}); err != nil {
			return nil, err
		}
		pts[i] = pt
	}
	for _, pt := range pts {
		if err := pt.Truncate(); err != nil {
			return nil, err
		}
		if err := pt.truncateIndexes(ctx); err != nil { // unique.go
			return nil, err
		}
	}
	tx := s.tx
	s.tx.Recreate = func(ctx context.Context, info fluss.TableInfo) (fluss.Table, error) {
		info.Descriptor = s.withoutOwnMark(info.Descriptor) // txddl.go: the block is committing
		s.eng.ddl.Lock()
		s.eng.catalog.Add(1)
		created, err := s.recreateLog(ctx, info)
		if err == nil {
			err = s.recreateIndexes(context.WithoutCancel(ctx), info, created, tx) // uniqueddl.go
		}
		s.eng.ddl.Unlock()
		if err != nil {
			return nil, err
		}
		return s.eng.store.Table(ctx, created.Path)
	}
	if restart {
		err := s.restartSequences(ctx, seen, func(q fluss.SequenceStore, was fluss.SequenceInfo) {
			tx.OnRollback(func() { _ = q.SetValue(context.Background(), was.Path, was.Last, was.Called) })
		})
		if err != nil {
			return nil, err
		}
	}
	return tagOnly("TRUNCATE TABLE"), nil
}

// restartOwnedSequences makes the next nextval of every sequence owned by
// one of tables return its START value.
func (s *session) restartOwnedSequences(ctx context.Context, tables map[fluss.TablePath]bool) error {
	return s.restartSequences(ctx, tables, nil)
}

// restartSequences is restartOwnedSequences, telling restarted (when not
// nil) each sequence as it was before.
func (s *session) restartSequences(ctx context.Context, tables map[fluss.TablePath]bool, restarted func(fluss.SequenceStore, fluss.SequenceInfo)) error {
	q, seqs, err := s.ownedSequences(ctx, tables) // sequences.go
	for _, sq := range seqs {
		start := sq.Def.Start
		if err = q.AlterSequence(ctx, sq.Path, sq.Def, &start); err != nil {
			break
		}
		if restarted != nil {
			restarted(q, sq)
		}
	}
	return err
}

// truncate empties a table. A primary-key table deletes every key (its
// changelog records the deletes, as Fluss would); a log table is
// append-only, so it is dropped and created again with the same descriptor.
func (s *session) truncate(ctx context.Context, info fluss.TableInfo) (pgwire.Result, error) {
	if s.txStatus != 'I' {
		return s.truncateInBlock(ctx, []fluss.TableInfo{info}, map[fluss.TablePath]bool{info.Path: true}, false)
	}
	if hasUniques(info.Descriptor) && info.HasPrimaryKey() {
		return s.truncateUnique(ctx, info) // uniqueddl.go
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if !info.HasPrimaryKey() {
		created, err := s.recreateLog(ctx, info)
		if err != nil {
			return nil, err
		}
		// (past the recreation: finished, as recreateLog)
		if err := s.recreateIndexes(context.WithoutCancel(ctx), info, created, nil); err != nil { // uniqueddl.go
			return nil, err
		}
		return tagOnly("TRUNCATE TABLE"), nil
	}
	t, err := s.eng.store.Table(ctx, info.Path)
	if err != nil {
		return nil, err
	}
	var proj []int
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		proj = append(proj, info.ColumnIndex(k))
	}
	r, err := t.Scan(ctx, fluss.ScanOptions{Projection: proj})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var keys []arrow.RecordBatch
	defer func() {
		for _, k := range keys {
			k.Release()
		}
	}()
	for {
		b, err := r.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		keys = append(keys, b)
	}
	// The deletes are not cancelled halfway (a cancel would leave part of
	// the rows): the keys read, the statement empties the table whole.
	done := context.WithoutCancel(ctx)
	for _, k := range keys {
		if _, err := t.Delete(done, k); err != nil {
			return nil, err
		}
	}
	return tagOnly("TRUNCATE TABLE"), nil
}

// recreateLog empties a log table, which is append-only, by replacing it
// with a new one with the same descriptor, owner and grants. The caller
// holds s.eng.ddl.
func (s *session) recreateLog(ctx context.Context, info fluss.TableInfo) (fluss.TableInfo, error) {
	// The new table names the old one's id, whose grants it takes
	// (fluss.GrantsFromProperty): they move after, and a crash before
	// that is mended by meta.Reconcile.
	desc := info.Descriptor
	desc.CustomProperties = maps.Clone(desc.CustomProperties)
	if desc.CustomProperties == nil {
		desc.CustomProperties = map[string]string{}
	}
	desc.CustomProperties[fluss.GrantsFromProperty] = strconv.FormatInt(info.TableID, 10)
	created, err := s.recreateTable(ctx, info.Path, desc)
	if err != nil && created.TableID == 0 {
		return fluss.TableInfo{}, err
	}
	// Past the recreation the statement finishes whatever ends ctx (a
	// cancel would answer 57014 for a table emptied, its grants left on
	// the old id); the store's error after its commit (its sequences, the
	// old files) leaves the table recreated all the same.
	ctx = context.WithoutCancel(ctx)
	if err != nil {
		s.eng.log.Warn("finishing a table's recreation", "table", info.Path.String(), "error", err)
	}
	// The owner came back with the descriptor's OwnerProperty; the
	// grants move to the new id.
	if err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		tx.MoveIndexes(info.TableID, created.TableID) // CREATE INDEX's indexes with it
		return tx.Access.Move(info.TableID, created.TableID)
	}); err != nil {
		return fluss.TableInfo{}, metaErr(err)
	}
	return created, nil
}

// describeResult lists a table's columns: name, Fluss type, nullability, key.
func describeResult(e *Engine, info fluss.TableInfo) pgwire.Result {
	str := arrow.BinaryTypes.String
	schema := arrow.NewSchema([]arrow.Field{{Name: "column_name", Type: str, Nullable: true}, {Name: "data_type", Type: str, Nullable: true},
		{Name: "is_nullable", Type: str, Nullable: true}, {Name: "key", Type: str, Nullable: true}}, nil)
	b := array.NewRecordBuilder(e.mem, schema)
	defer b.Release()
	pk := map[string]bool{}
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		pk[k] = true
	}
	bucket := map[string]bool{}
	for _, k := range info.Descriptor.BucketKey {
		bucket[k] = true
	}
	for _, c := range info.Descriptor.Schema.Columns {
		b.Field(0).(*array.StringBuilder).Append(c.Name)
		b.Field(1).(*array.StringBuilder).Append(c.Type.Nullable().String())
		nullable := "YES"
		if c.Type.NotNull {
			nullable = "NO"
		}
		b.Field(2).(*array.StringBuilder).Append(nullable)
		key := ""
		switch {
		case pk[c.Name] && bucket[c.Name]:
			key = "PRI, BUCKET"
		case pk[c.Name]:
			key = "PRI"
		case bucket[c.Name]:
			key = "BUCKET"
		}
		b.Field(3).(*array.StringBuilder).Append(key)
	}
	return &queryResult{op: &onceOperator{batch: b.NewRecordBatch()}, verb: "SELECT"}
}

// recreateTable replaces a log table by an empty one with the same
// descriptor: in one commit where the store can (fluss.TableRecreator: a
// crash leaves the old table or the new one), else as a drop and a
// create (a Fluss cluster), between which a crash loses the table.
func (s *session) recreateTable(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor) (fluss.TableInfo, error) {
	if r, ok := s.eng.store.(fluss.TableRecreator); ok {
		return r.RecreateTable(ctx, path, desc)
	}
	if err := s.eng.store.DropTable(ctx, path, false); err != nil {
		return fluss.TableInfo{}, err
	}
	// (the table dropped, a cancel must not lose it)
	return s.eng.store.CreateTable(context.WithoutCancel(ctx), path, desc, false)
}
