package engine

import (
	"context"
	"slices"
	"sync"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgcatalog"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Sequences (CREATE / ALTER / DROP SEQUENCE, SERIAL and identity columns,
// nextval and friends) are kept by the store when it is a
// fluss.SequenceStore: the embedded store (durable, values logged ahead in
// blocks) and a Fluss cluster (a log of changes in the cluster that every
// sqlgate server applies in one order: fluss/remote/sequences.go). A store
// that keeps none refuses them with 0A000. Sequence changes are not
// transactional, as in PostgreSQL: nextval is never rolled back, and the
// DDL refuses a transaction block as every other DDL here does.
//
// The session resolves a sequence's OID once per statement (byOID keeps
// the store's list until the next statement): on a cluster the list is a
// request, which an INSERT drawing a SERIAL value for each row must not
// make per row.

// sequenceStore is the store's sequences, or the 0A000 saying why there
// are none.
func (s *session) sequenceStore() (fluss.SequenceStore, error) {
	if q, ok := s.eng.store.(fluss.SequenceStore); ok {
		return q, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "sequences are not supported on this store").
		WithHint("Give the key from the application (a UUID from gen_random_uuid() needs no sequence).")
}

// sequencePath is the path of a sequence named in a statement.
func sequencePath(n sql.ObjectName) fluss.TablePath {
	db := n.Schema
	if db == "" {
		db = fluss.DefaultDatabase
	}
	return fluss.TablePath{Database: db, Table: n.Name}
}

// execSequence runs CREATE, ALTER or DROP SEQUENCE.
func (s *session) execSequence(ctx context.Context, st *sql.SequenceStmt) (pgwire.Result, error) {
	tags := map[sql.SequenceOp]string{sql.CreateSequence: "CREATE SEQUENCE", sql.AlterSequence: "ALTER SEQUENCE", sql.DropSequence: "DROP SEQUENCE"}
	return s.runSequence(ctx, st, tags[st.Op])
}

// runSequence runs st under the command tag tag (ALTER TABLE's, for
// ALTER TABLE ... RENAME TO of a sequence).
func (s *session) runSequence(ctx context.Context, st *sql.SequenceStmt, tag string) (pgwire.Result, error) {
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	q, err := s.sequenceStore()
	if err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	defer s.seqs.newStatement()
	switch st.Op {
	case sql.CreateSequence:
		path := sequencePath(st.Names[0])
		if _, err := s.eng.storeTable(ctx, path); err == nil {
			if st.IfNotExists {
				return noticeResult(tag, existsSkipping(sqlerr.DuplicateTable, "relation", path.Table)), nil
			}
			return nil, sqlerr.RelationExists(path.Table)
		}
		if _, isView := s.eng.meta.Views().Get(path); isView {
			return nil, sqlerr.RelationExists(path.Table)
		}
		if _, err := q.GetSequence(ctx, path); err == nil && st.IfNotExists {
			// the store would skip it silently; PostgreSQL says so
			s.changedNothing() // txddl.go
			return noticeResult(tag, existsSkipping(sqlerr.DuplicateTable, "relation", path.Table)), nil
		}
		def, _, err := binder.ResolveSequence(path.Table, nil, st.Options)
		if err != nil {
			return nil, err
		}
		if err := s.ownedBy(ctx, &def, st.Options); err != nil {
			return nil, err
		}
		def.Owner = s.info.User
		if _, err := q.CreateSequence(ctx, path, def, st.IfNotExists); err != nil {
			return nil, err
		}
		s.undoStatement("DROP SEQUENCE IF EXISTS " + quoteIdent(path.Database) + "." + quoteIdent(path.Table) + " CASCADE") // txddl.go
	case sql.AlterSequence:
		if st.RenameTo != "" || st.SetSchema != "" {
			return s.moveSequenceStmt(ctx, q, st, tag) // sequencerename.go
		}
		path := sequencePath(st.Names[0])
		cur, err := q.GetSequence(ctx, path)
		if err != nil {
			if st.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
				return noticeResult(tag, skipped("relation", path.Table)), nil
			}
			return nil, err
		}
		def, restart, err := binder.ResolveSequence(path.Table, &cur.Def, st.Options)
		if err != nil {
			return nil, err
		}
		if err := s.mayOwnSequence(cur); err != nil {
			return nil, err
		}
		if err := s.ownedBy(ctx, &def, st.Options); err != nil {
			return nil, err
		}
		if err := q.AlterSequence(ctx, path, def, restart); err != nil {
			return nil, err
		}
	case sql.DropSequence:
		var notices []*sqlerr.Error
		var drop []fluss.TablePath
		// every name is checked before one is dropped, as PostgreSQL does
		for _, n := range st.Names {
			path := sequencePath(n)
			cur, err := q.GetSequence(ctx, path)
			if err != nil {
				if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
					if st.IfExists {
						notices = append(notices, s.skippedNamed(ctx, "sequence", path.Database, path.Table))
						continue
					}
					return nil, s.dropMissing(ctx, path, "sequence")
				}
				return nil, err
			}
			if err := s.mayOwnSequence(cur); err != nil {
				return nil, err
			}
			if err := s.sequenceInUse(ctx, cur, st.Cascade); err != nil {
				return nil, err
			}
			drop = append(drop, path)
		}
		for _, path := range drop {
			if err := q.DropSequence(ctx, path, st.IfExists); err != nil {
				return nil, err
			}
		}
		return noticeResult(tag, notices...), nil
	}
	return tagOnly(tag), nil
}

// mayOwnSequence checks that the session may alter or drop seq: its
// owner ("" is the bootstrap superuser's) or a superuser.
func (s *session) mayOwnSequence(seq fluss.SequenceInfo) error {
	if s.superuser || seq.Def.Owner != "" && seq.Def.Owner == s.info.User {
		return nil
	}
	return mustOwn("sequence", seq.Path.Table)
}

// ownedBy applies OWNED BY to def: the table must exist (in the
// sequence's database) and have the column.
func (s *session) ownedBy(ctx context.Context, def *fluss.SequenceDef, o sql.SequenceOptions) error {
	switch {
	case o.OwnedByNone:
		def.OwnedBy, def.OwnedColumn = fluss.TablePath{}, ""
	case o.OwnedBy != nil:
		path := sequencePath(*o.OwnedBy)
		info, err := s.eng.storeTable(ctx, path)
		if err != nil {
			return err
		}
		if info.ColumnIndex(o.OwnedColumn) < 0 {
			return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", o.OwnedColumn, path.Table)
		}
		def.OwnedBy, def.OwnedColumn = path, o.OwnedColumn
	}
	return nil
}

// sequenceInUse refuses to drop a sequence a column default or identity
// uses (2BP01, as PostgreSQL's dependency check), unless it is CASCADE: a
// SERIAL or identity column's, or a default naming it as nextval('s')
// does (PostgreSQL holds its OID there).
// sqlgate cannot drop a column's default alone, so CASCADE is refused too
// when a table still uses it.
func (s *session) sequenceInUse(ctx context.Context, seq fluss.SequenceInfo, cascade bool) error {
	tables, err := s.eng.store.ListTables(ctx, seq.Path.Database)
	if err != nil {
		return err
	}
	for _, t := range tables {
		meta := fluss.MetaOf(t.Descriptor)
		for i, c := range meta.Columns {
			if c.Sequence != seq.Path.Table && !sql.RegclassNames(c.Default, fluss.DefaultDatabase, seq.Path.Database, seq.Path.Table) {
				continue
			}
			col := t.Descriptor.Schema.Columns[i].Name
			if cascade {
				return sqlerr.NotSupported("DROP SEQUENCE ... CASCADE of a sequence a column uses (drop the table instead)")
			}
			what := "default value for column"
			if c.Identity != 0 {
				return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop sequence %s because column %s of table %s requires it", seq.Path.Table, col, t.Path.Table).
					WithHint("You can drop column %s of table %s instead.", col, t.Path.Table)
			}
			return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop sequence %s because other objects depend on it", seq.Path.Table).
				WithDetail("%s %s of table %s depends on sequence %s", what, col, t.Path.Table, seq.Path.Table).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
	}
	return nil
}

// createTableSequences creates the sequences of a new table's SERIAL and
// identity columns, before the table (so its defaults never name a missing
// sequence; a crash in between leaves an unused sequence, not a broken
// table). It returns a function that drops them again, for when creating
// the table fails.
func (s *session) createTableSequences(ctx context.Context, seqs []binder.NewSequence) (undo func(), err error) {
	if len(seqs) == 0 {
		return func() {}, nil
	}
	q, err := s.sequenceStore()
	if err != nil {
		return nil, err
	}
	var made []fluss.TablePath
	undo = func() {
		for _, p := range made {
			if err := q.DropSequence(context.WithoutCancel(ctx), p, true); err != nil {
				s.eng.log.Error("dropping the sequence of a table not created", "sequence", p.String(), "error", err)
			}
		}
	}
	for _, n := range seqs {
		if _, err := s.eng.storeTable(ctx, n.Path); err == nil {
			undo()
			return nil, sqlerr.RelationExists(n.Path.Table)
		}
		def := n.Def
		if def.Owner == "" {
			def.Owner = s.info.User // the new table's owner, who creates it
		}
		if _, err := q.CreateSequence(ctx, n.Path, def, false); err != nil {
			undo()
			return nil, err
		}
		made = append(made, n.Path)
	}
	return undo, nil
}

// dropOwnedSequences drops the sequences a dropped table owned.
func (s *session) dropOwnedSequences(ctx context.Context, table fluss.TablePath) error {
	q, seqs, err := s.ownedSequences(ctx, map[fluss.TablePath]bool{table: true})
	for _, sq := range seqs {
		if err = q.DropSequence(ctx, sq.Path, true); err != nil {
			break
		}
	}
	return err
}

// ownedSequences are the sequences owned by a column of one of tables
// (serial, identity, OWNED BY), with the store that keeps them; none when
// the store keeps no sequences.
func (s *session) ownedSequences(ctx context.Context, tables map[fluss.TablePath]bool) (fluss.SequenceStore, []fluss.SequenceInfo, error) {
	q, ok := s.eng.store.(fluss.SequenceStore)
	if !ok {
		return nil, nil, nil
	}
	databases := map[string]bool{}
	for p := range tables {
		databases[p.Database] = true
	}
	var owned []fluss.SequenceInfo
	for db := range databases {
		seqs, err := q.ListSequences(ctx, db)
		if err != nil {
			return nil, nil, err
		}
		for _, sq := range seqs {
			if tables[sq.Def.OwnedBy] {
				owned = append(owned, sq)
			}
		}
	}
	return q, owned, nil
}

// sessionSequences serves the sequence functions for one session:
// currval and lastval are the session's own (the last value its nextval
// returned), as in PostgreSQL.
type sessionSequences struct {
	s    *session
	mu   sync.Mutex
	curr map[uint32]int64
	// last is the sequence nextval used last (lastval's), 0 for none.
	last uint32
	// list is the store's sequences as the statement first read them
	// (nil: not read yet); newStatement forgets it.
	list []fluss.SequenceInfo
	// journal is the calls of nextval and setval since the outermost
	// Mark (marks of them open), which Rewind may take back.
	journal []seqCall
	marks   int
}

// seqCall is a nextval's or setval's call in the journal, with the
// session's currval of its sequence and lastval's sequence before it.
type seqCall struct {
	oid      uint32
	value    int64
	set      bool
	prevCurr int64
	prevHad  bool
	prevLast uint32
}

// discard forgets the values currval and lastval would return (DISCARD
// SEQUENCES).
func (ss *sessionSequences) discard() {
	ss.mu.Lock()
	clear(ss.curr)
	ss.last = 0
	ss.mu.Unlock()
}

// newStatement forgets the sequences read by the previous statement.
func (ss *sessionSequences) newStatement() {
	ss.mu.Lock()
	ss.list = nil
	ss.mu.Unlock()
}

// sequences lists the store's sequences of every schema, once per
// statement.
func (ss *sessionSequences) sequences(ctx context.Context, q fluss.SequenceStore) ([]fluss.SequenceInfo, error) {
	ss.mu.Lock()
	list := ss.list
	ss.mu.Unlock()
	if list != nil {
		return list, nil
	}
	list, err := fluss.AllSequences(ctx, ss.s.eng.store, q)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []fluss.SequenceInfo{}
	}
	ss.mu.Lock()
	ss.list = list
	ss.mu.Unlock()
	return list, nil
}

var (
	_ functions.Sequences        = (*sessionSequences)(nil)
	_ functions.SequenceRewinder = (*sessionSequences)(nil)
)

// byOID finds the sequence with the relation OID oid.
func (ss *sessionSequences) byOID(ctx context.Context, oid uint32) (fluss.SequenceStore, fluss.SequenceInfo, error) {
	q, err := ss.s.sequenceStore()
	if err != nil {
		return nil, fluss.SequenceInfo{}, err
	}
	seqs, err := ss.sequences(ctx, q)
	if err != nil {
		return nil, fluss.SequenceInfo{}, err
	}
	for _, sq := range seqs {
		if pgcatalog.SequenceOID(sq.ID) == oid {
			return q, sq, nil
		}
	}
	if name, ok := ss.s.relationName(ctx, oid); ok {
		// PostgreSQL's init_sequence names the relation (its relname)
		return nil, fluss.SequenceInfo{}, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a sequence", name)
	}
	return nil, fluss.SequenceInfo{}, sqlerr.New(sqlerr.UndefinedTable, "could not open relation with OID %d", oid)
}

// relationName is the name of the table or view oid names (unquoted,
// unqualified); ok false when none.
func (s *session) relationName(ctx context.Context, oid uint32) (string, bool) {
	ci, ok := s.eng.opts.Virtual.(interface {
		RelationName(context.Context, uint32) (string, bool, error)
	})
	if !ok {
		return "", false
	}
	name, found, err := ci.RelationName(ctx, oid)
	if err != nil || !found {
		return "", false
	}
	// the regclass text (schema-qualified and quoted where it must be)
	if parts, ok := types.SplitIdentifierString(name, '.'); ok && len(parts) > 0 {
		name = parts[len(parts)-1]
	}
	return name, true
}

func (ss *sessionSequences) NextVal(ctx context.Context, oid uint32) (int64, error) {
	q, sq, err := ss.byOID(ctx, oid)
	if err != nil {
		return 0, err
	}
	v, err := q.NextValue(ctx, sq.Path)
	if err != nil {
		return 0, err
	}
	ss.mu.Lock()
	if ss.curr == nil {
		ss.curr = map[uint32]int64{}
	}
	ss.record(oid, v, false)
	ss.curr[oid] = v
	ss.last = oid
	ss.mu.Unlock()
	return v, nil
}

// record journals a call while a mark is open (ss.mu held).
func (ss *sessionSequences) record(oid uint32, v int64, set bool) {
	if ss.marks == 0 {
		return
	}
	prev, had := ss.curr[oid]
	ss.journal = append(ss.journal, seqCall{oid: oid, value: v, set: set, prevCurr: prev, prevHad: had, prevLast: ss.last})
}

// Mark implements functions.SequenceRewinder.
func (ss *sessionSequences) Mark() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.marks++
	return len(ss.journal)
}

// Unmark implements functions.SequenceRewinder.
func (ss *sessionSequences) Unmark(int) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.marks--; ss.marks <= 0 {
		ss.marks, ss.journal = 0, ss.journal[:0]
	}
}

// Rewind implements functions.SequenceRewinder: each sequence's calls past
// the kept ones are taken back in the store (fluss.SequenceRewinder, only
// when the last value handed out is still the journal's last) and in the
// session's currval and lastval, and leave the journal.
func (ss *sessionSequences) Rewind(ctx context.Context, mark int, rows, keep int) bool {
	ss.mu.Lock()
	if mark < 0 || mark >= len(ss.journal) {
		ss.mu.Unlock()
		return true
	}
	calls := slices.Clone(ss.journal[mark:])
	ss.mu.Unlock()
	var order []uint32
	byOID := map[uint32][]int{}
	for i, c := range calls {
		if byOID[c.oid] == nil {
			order = append(order, c.oid)
		}
		byOID[c.oid] = append(byOID[c.oid], i)
	}
	ok := true
	undone := make([]bool, len(calls))
	type currFix struct {
		v   int64
		had bool
	}
	fixes := map[uint32]currFix{}
	for _, oid := range order {
		idx := byOID[oid]
		k := keep
		if rows < 0 {
			k = 0
		}
		if slices.ContainsFunc(idx, func(i int) bool { return calls[i].set }) || rows >= 0 && len(idx) != rows {
			ok = false // which call was which row's is not known
			continue
		}
		if k >= len(idx) {
			continue
		}
		q, sq, err := ss.byOID(ctx, oid)
		rw, canRewind := q.(fluss.SequenceRewinder)
		if err != nil || !canRewind {
			ok = false
			continue
		}
		from := calls[idx[len(idx)-1]].value
		to, toCalled := calls[idx[0]].value, false
		if k > 0 {
			to, toCalled = calls[idx[k-1]].value, true
		} else if before, err := fluss.NextSequenceValue(sq.Path.Table, sq.Def, to-sq.Def.Increment, true); to != sq.Def.Start && err == nil && before == to {
			to, toCalled = to-sq.Def.Increment, true // as PostgreSQL shows it: the value before, called
		}
		if done, err := rw.RewindValue(ctx, sq.Path, from, to, toCalled); err != nil || !done {
			ok = false
			continue
		}
		for _, i := range idx[k:] {
			undone[i] = true
		}
		if k > 0 {
			fixes[oid] = currFix{v: calls[idx[k-1]].value, had: true}
		} else {
			fixes[oid] = currFix{v: calls[idx[0]].prevCurr, had: calls[idx[0]].prevHad}
		}
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for oid, f := range fixes {
		if f.had {
			ss.curr[oid] = f.v
		} else {
			delete(ss.curr, oid)
		}
	}
	kept := ss.journal[:mark]
	last, found := uint32(0), false
	for i, c := range calls {
		if undone[i] {
			continue
		}
		kept = append(kept, c)
		if !c.set {
			last, found = c.oid, true
		}
	}
	if slices.Contains(undone, true) {
		if !found {
			last = calls[0].prevLast
		}
		ss.last = last
	}
	ss.journal = kept
	return ok
}

func (ss *sessionSequences) CurrVal(ctx context.Context, oid uint32) (int64, error) {
	_, sq, err := ss.byOID(ctx, oid)
	if err != nil {
		return 0, err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	v, ok := ss.curr[oid]
	if !ok {
		return 0, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "currval of sequence \"%s\" is not yet defined in this session", sq.Path.Table)
	}
	return v, nil
}

func (ss *sessionSequences) SetVal(ctx context.Context, oid uint32, v int64, called bool) (int64, error) {
	q, sq, err := ss.byOID(ctx, oid)
	if err != nil {
		return 0, err
	}
	if err := q.SetValue(ctx, sq.Path, v, called); err != nil {
		return 0, err
	}
	ss.mu.Lock()
	ss.record(oid, v, true)
	ss.mu.Unlock()
	if called { // PostgreSQL: setval with is_called sets currval (not lastval's sequence)
		ss.mu.Lock()
		if ss.curr == nil {
			ss.curr = map[uint32]int64{}
		}
		ss.curr[oid] = v
		ss.mu.Unlock()
	}
	return v, nil
}

func (ss *sessionSequences) LastVal(ctx context.Context) (int64, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.last == 0 {
		return 0, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "lastval is not yet defined in this session")
	}
	return ss.curr[ss.last], nil
}
