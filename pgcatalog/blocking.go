package pgcatalog

import (
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/rowlock"
)

// BlockingPIDs implements functions.BlockingPIDs (pg_blocking_pids): the
// sessions holding a lock that session pid waits for, from the row-lock
// manager's list (pg_locks): a holder of the same row, or of the
// transaction the waiter waits on.
func (c *Catalog) BlockingPIDs(_ context.Context, pid int32) []int32 {
	if c.opts.Locks == nil {
		return nil
	}
	locks := c.opts.Locks.Locks()
	var out []int32
	for _, w := range locks {
		if w.PID != pid || w.Granted {
			continue
		}
		for _, h := range locks {
			if !h.Granted || h.PID == pid || h.Kind != w.Kind {
				continue
			}
			same := h.Table == w.Table && h.Key == w.Key
			switch w.Kind {
			case "transactionid":
				same = h.XID == w.XID
			case "advisory": // shared holders block only an exclusive wait
				same = same && (h.Mode == "ExclusiveLock" || w.Mode == "ExclusiveLock")
			case "relation": // a holder of a mode that conflicts
				hm, _ := rowlock.ParseTableMode(h.Mode)
				wm, _ := rowlock.ParseTableMode(w.Mode)
				same = same && hm > 0 && wm > 0 && rowlock.TableModesConflict(wm, hm)
			}
			if same {
				out = append(out, h.PID)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
