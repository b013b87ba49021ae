package pgcatalog

import (
	"context"
	"strconv"

	"github.com/sqlgate/sqlgate/rowlock"
)

// LockLister lists the locks held and awaited on the server (the engine's
// row-lock manager), for pg_locks.
type LockLister interface {
	Locks() []rowlock.LockInfo
}

// lockRows is pg_locks: each writing transaction's own transactionid
// lock, the table locks in PostgreSQL's modes (a row per mode held:
// AccessShareLock of a read, RowShareLock under SELECT ... FOR UPDATE,
// RowExclusiveLock of a write, AccessExclusiveLock of DDL...) and the row locks (locktype tuple; a
// row is named by its key, not a page and tuple number, so page and tuple
// are NULL), held or awaited (granted false, with waitstart), and the
// advisory locks (locktype advisory).
func (c *Catalog) lockRows(context.Context, *snapshot) ([]row, error) {
	if c.opts.Locks == nil {
		return nil, nil
	}
	var rows []row
	for _, l := range c.opts.Locks.Locks() {
		vxid := strconv.Itoa(int(l.PID)) + "/" + strconv.FormatUint(l.XID, 10)
		r := row{"locktype": l.Kind, "virtualtransaction": vxid, "pid": int(l.PID), "mode": l.Mode,
			"granted": l.Granted, "fastpath": false}
		switch l.Kind {
		case "transactionid":
			r["transactionid"] = int(l.XID)
		case "advisory":
			// PostgreSQL's advisory tag: the database, then the key's
			// halves (or two keys) as classid and objid, and objsubid 1 for
			// a bigint key, 2 for two integers.
			a := l.Advisory
			r["database"], r["classid"], r["objid"], r["objsubid"] = a.Database, a.Class, a.Object, int(a.Form)
		default:
			r["database"] = c.databaseOIDOf("")
			r["relation"] = RelationOID(l.Table)
		}
		if !l.Granted {
			r["waitstart"] = l.WaitStart
		}
		rows = append(rows, r)
	}
	return rows, nil
}
