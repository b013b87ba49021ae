package pgwire

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// notifyBackend's sessions are fakeSessions with a Notifier: the test
// delivers notifications to them as the engine's hub would.
type notifyBackend struct {
	*fakeBackend
	sessions chan *notifySession
}

func (b *notifyBackend) NewSession(ctx context.Context, info SessionInfo) (Session, error) {
	s, err := b.fakeBackend.NewSession(ctx, info)
	if err != nil {
		return nil, err
	}
	ns := &notifySession{fakeSession: s.(*fakeSession)}
	b.sessions <- ns
	return ns, nil
}

type notifySession struct {
	*fakeSession
	listening atomic.Bool
	mu        sync.Mutex
	wake      func()
	queue     []Notification
}

func (s *notifySession) SetNotificationWaker(wake func()) { s.wake = wake }
func (s *notifySession) Listening() bool                  { return s.listening.Load() }

func (s *notifySession) TakeNotifications(dst []Notification) []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst = append(dst, s.queue...)
	s.queue = nil
	return dst
}

// deliver is the hub's side: queue, then wake, from another goroutine.
func (s *notifySession) deliver(n Notification) {
	s.mu.Lock()
	s.queue = append(s.queue, n)
	s.mu.Unlock()
	s.wake()
}

// TestNotificationsReachIdleListener: a listening session idle outside a
// transaction gets its notification at once, without sending anything,
// after lone round trips that put its socket in the blocking wait; one in
// a block gets it only before the ReadyForQuery that ends the block; a
// session that is not listening gets what is queued before its next
// ReadyForQuery.
func TestNotificationsReachIdleListener(t *testing.T) {
	nb := &notifyBackend{fakeBackend: newFakeBackend(), sessions: make(chan *notifySession, 4)}
	ts := startServer(t, func(c *Config) { c.Backend = nb })
	ctx := testCtx(t)
	c := ts.connect(t, pgx.QueryExecModeSimpleProtocol)
	s := <-nb.sessions
	wait := func(want string) {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		n, err := c.WaitForNotification(wctx)
		if err != nil {
			t.Fatalf("waiting for %q: %v", want, err)
		}
		if n.Payload != want || n.Channel != "c" || n.PID != 42 {
			t.Fatalf("notification %+v, want c/%s from 42", *n, want)
		}
	}
	none := func() {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if n, err := c.WaitForNotification(wctx); err == nil {
			t.Fatalf("unexpected notification %+v", *n)
		}
	}

	// Not listening yet: queued, sent before the next ReadyForQuery only.
	s.deliver(Notification{PID: 42, Channel: "c", Payload: "at ready"})
	if _, err := c.Exec(ctx, "INSERT"); err != nil {
		t.Fatal(err)
	}
	wait("at ready")

	for i := 0; i < 64; i++ { // twice blockwait_linux.go's soleWaitsToBlock
		if _, err := c.Exec(ctx, "INSERT"); err != nil {
			t.Fatal(err)
		}
	}
	s.listening.Store(true)
	if _, err := c.Exec(ctx, "INSERT"); err != nil { // the next wait is the reader's
		t.Fatal(err)
	}
	for _, p := range []string{"idle 1", "idle 2"} {
		s.deliver(Notification{PID: 42, Channel: "c", Payload: p})
		wait(p)
	}

	if _, err := c.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	s.deliver(Notification{PID: 42, Channel: "c", Payload: "after the block"})
	none()
	if _, err := c.Exec(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	wait("after the block")

	// The connection still serves statements after its notifications.
	if _, err := c.Exec(ctx, "INSERT"); err != nil {
		t.Fatal(err)
	}
}
