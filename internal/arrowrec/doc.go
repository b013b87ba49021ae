// Package arrowrec holds Record, the header of an arrow.RecordBatch meant
// to be embedded in a struct that also holds the record's storage (its
// column list, the columns' Data and buffer headers), so that a record of
// one row costs one or two allocations instead of the half-dozen arrow's
// own constructors make. The point-lookup path builds one per query: its
// key record (exec) and its result row (fluss/format).
package arrowrec
