package fluss

import (
	"context"
	"math"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// SequenceDef is a sequence's definition (CREATE SEQUENCE after
// PostgreSQL's defaults are applied: every field is set).
type SequenceDef struct {
	// Type is the sequence's data type: "smallint", "integer" or "bigint".
	Type                              string
	Start, Increment, Min, Max, Cache int64
	Cycle                             bool
	// OwnedBy is the table whose column (OwnedColumn) owns the sequence
	// (SERIAL, identity, OWNED BY): dropping the table drops it. Zero: none.
	OwnedBy     TablePath
	OwnedColumn string
	// Identity marks the sequence of an identity column (pg_depend's 'i').
	Identity bool
	// Owner is the role that owns the sequence (pg_class.relowner); ""
	// for one made before owners were kept: the bootstrap superuser's.
	// It is kept with the definition so that it commits with it.
	Owner string `json:",omitempty"`
}

// SequenceInfo is a created sequence and its state.
type SequenceInfo struct {
	Path TablePath
	// ID is unique in the store and never reused (OIDs are built on it).
	ID  int64
	Def SequenceDef
	// Last and Called are PostgreSQL's last_value and is_called: the next
	// nextval returns Last when Called is false, else Last + Increment. On
	// a store that hands values out in blocks, Last is the end of the block
	// logged, which a restart resumes after.
	Last   int64
	Called bool
}

// SequenceStore is implemented by stores that keep sequences durably:
// nextval's values are unique and increase (in the increment's direction,
// until a CYCLE wraps) across restarts and crashes, under concurrent
// callers. Errors are *sqlerr.Error: 42P07 for an existing name, 42P01 for
// a missing one, 2200H when nextval passes a bound without CYCLE, 22003 for
// a setval out of bounds.
type SequenceStore interface {
	CreateSequence(ctx context.Context, path TablePath, def SequenceDef, ifNotExists bool) (SequenceInfo, error)
	// AlterSequence replaces the definition; restart, when set, makes the
	// next nextval return it.
	AlterSequence(ctx context.Context, path TablePath, def SequenceDef, restart *int64) error
	DropSequence(ctx context.Context, path TablePath, ifExists bool) error
	GetSequence(ctx context.Context, path TablePath) (SequenceInfo, error)
	// ListSequences lists a database's sequences, sorted by name.
	ListSequences(ctx context.Context, database string) ([]SequenceInfo, error)
	NextValue(ctx context.Context, path TablePath) (int64, error)
	// SetValue is setval(seq, v, called).
	SetValue(ctx context.Context, path TablePath, v int64, called bool) error
}

// SequenceRenamer is implemented by a SequenceStore that can move a
// sequence to another name or schema (ALTER SEQUENCE ... RENAME TO / SET
// SCHEMA): it keeps its id (so its OID), definition and values. 42P01
// when from is missing, 42P07 when to is taken by a sequence or a table.
type SequenceRenamer interface {
	RenameSequence(ctx context.Context, from, to TablePath) error
}

// SequenceRewinder is implemented by a SequenceStore that can take back
// values nextval handed out: RewindValue sets the sequence's state to
// (to, toCalled) when the last value handed out is still from (no other
// caller drew one since) and ok says whether it did. The values after to
// may then be handed out again, as PostgreSQL hands them out when a
// statement's later rows never called nextval (engine's sequence
// journal). A store may refuse (ok false) what it cannot take back
// exactly, such as values of a block reserved before the last one.
type SequenceRewinder interface {
	RewindValue(ctx context.Context, path TablePath, from, to int64, toCalled bool) (ok bool, err error)
}

// SequenceTypeRange is the range of a sequence data type.
func SequenceTypeRange(typ string) (lo, hi int64) {
	switch typ {
	case "smallint":
		return math.MinInt16, math.MaxInt16
	case "integer":
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// NextSequenceValue is nextval's step, as PostgreSQL's nextval_internal
// computes it: the value after last (or last itself when not called),
// wrapped by CYCLE or refused at a bound with 2200H.
func NextSequenceValue(name string, def SequenceDef, last int64, called bool) (int64, error) {
	if !called {
		return last, nil
	}
	inc := def.Increment
	if inc > 0 {
		if last > def.Max-inc { // overflow-safe last+inc > max
			if !def.Cycle {
				return 0, sqlerr.New(sequenceLimitCode, "nextval: reached maximum value of sequence \"%s\" (%d)", name, def.Max)
			}
			return def.Min, nil
		}
		return last + inc, nil
	}
	if last < def.Min-inc {
		if !def.Cycle {
			return 0, sqlerr.New(sequenceLimitCode, "nextval: reached minimum value of sequence \"%s\" (%d)", name, def.Min)
		}
		return def.Max, nil
	}
	return last + inc, nil
}

// sequenceLimitCode is PostgreSQL's sequence_generator_limit_exceeded.
const sequenceLimitCode sqlerr.Code = "2200H"

// CheckSetValue is setval's bounds check (22003, PostgreSQL's message).
func CheckSetValue(name string, def SequenceDef, v int64) error {
	if v < def.Min || v > def.Max {
		return sqlerr.New(sqlerr.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence \"%s\" (%d..%d)", v, name, def.Min, def.Max)
	}
	return nil
}

// SequenceBlockEnd is the last value of a block of at most n values that
// starts at next, within the sequence's bounds (a block never wraps: a
// CYCLE starts the next block). Stores that hand values out of blocks
// reserved ahead (the embedded store's log, a cluster's reservations)
// share it.
func SequenceBlockEnd(def SequenceDef, next, n int64) int64 {
	n--
	inc := def.Increment
	if inc > 0 {
		if n > 0 && (def.Max-next)/inc < n {
			n = (def.Max - next) / inc
		}
		return next + n*inc
	}
	if n > 0 && (next-def.Min)/(-inc) < n {
		n = (next - def.Min) / (-inc)
	}
	return next + n*inc
}

// AllSequences lists the sequences of every database of c that q keeps,
// by database, each database's by name: pg_class's sequences, and those
// nextval and setval resolve by OID, in every schema.
func AllSequences(ctx context.Context, c Catalog, q SequenceStore) ([]SequenceInfo, error) {
	dbs, err := c.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	var out []SequenceInfo
	for _, db := range dbs {
		seqs, err := q.ListSequences(ctx, db)
		if err != nil {
			return nil, err
		}
		out = append(out, seqs...)
	}
	return out, nil
}
