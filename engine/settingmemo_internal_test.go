package engine

import (
	"sync"
	"testing"
)

// TestExecutorSettingsConcurrently: the settings lookup the session hands
// the executor (functions.Session.Setting) is called from a parallel
// aggregation's workers at once (current_setting per row). Under the race
// detector (make test) this fails if that lookup writes the session's
// memo of Status answers, as it did.
func TestExecutorSettingsConcurrently(t *testing.T) {
	ps := internalSession(t)
	setting := ps.statusFn
	names := []string{"application_name", "TimeZone", "search_path", "DateStyle", "statement_timeout"}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if _, ok := setting(names[(i+w)%len(names)]); !ok {
					t.Errorf("setting %q not found", names[(i+w)%len(names)])
					return
				}
			}
		}()
	}
	wg.Wait()
}
