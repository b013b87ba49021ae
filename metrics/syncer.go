package metrics

import (
	"time"

	"github.com/sqlgate/sqlgate/fluss/embedded"
)

// Syncer times every sync of the embedded store (embedded.Options.Syncer)
// into sqlgate_store_syncs_total and sqlgate_store_sync_duration_seconds,
// passing each to next (nil: the system call itself).
func (m *Metrics) Syncer(next embedded.Syncer) embedded.Syncer {
	return timedSyncer{m: m, next: next}
}

type timedSyncer struct {
	m    *Metrics
	next embedded.Syncer
}

func (t timedSyncer) Sync(name string, kind embedded.SyncKind, sync func() error) error {
	start := time.Now()
	var err error
	if t.next != nil {
		err = t.next.Sync(name, kind, sync)
	} else {
		err = sync()
	}
	t.m.ObserveSync(kind.String(), time.Since(start))
	return err
}
