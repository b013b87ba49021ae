package notify

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestCheckNotify(t *testing.T) {
	tests := []struct {
		channel, payload, msg string
	}{
		{"c", "", ""},
		{strings.Repeat("a", 63), strings.Repeat("x", 7999), ""},
		{"", "x", "channel name cannot be empty"},
		{strings.Repeat("a", 64), "", "channel name too long"},
		{"c", strings.Repeat("x", 8000), "payload string too long"},
	}
	for _, tc := range tests {
		err := CheckNotify(tc.channel, tc.payload)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%d/%d bytes: %v", len(tc.channel), len(tc.payload), err)
			}
			continue
		}
		if se := sqlerr.As(err); se == nil || se.Code != sqlerr.InvalidParameterValue || se.Message != tc.msg {
			t.Errorf("%d/%d bytes: %v, want 22023 %s", len(tc.channel), len(tc.payload), err, tc.msg)
		}
	}
}

func TestHubDelivery(t *testing.T) {
	h := NewHub()
	wakes := map[string]int{}
	a := h.NewListener("db", func() { wakes["a"]++ })
	b := h.NewListener("db", func() { wakes["b"]++ })
	commit := func(l *Listener, pid uint32, f func(p *Pending)) {
		var p Pending
		f(&p)
		h.Commit(l, "db", pid, &p)
	}
	// LISTEN takes effect at commit, before the transaction's own
	// notifications: a receives its own.
	commit(a, 1, func(p *Pending) {
		p.Listen(Action{Listen: true, Channel: "c"})
		p.Notify("c", "self")
	})
	commit(b, 2, func(p *Pending) {
		p.Listen(Action{Listen: true, Channel: "c"})
		p.Listen(Action{Listen: true, Channel: "d"})
	})
	// duplicates within a transaction are sent once; a rolled-back
	// savepoint's are not sent.
	commit(b, 2, func(p *Pending) {
		p.Notify("c", "x")
		p.Notify("c", "x")
		p.Savepoint()
		p.Notify("c", "gone")
		p.Listen(Action{Channel: "c"})
		p.RollbackTo(0)
		p.Notify("d", "y")
		p.Notify("c", "x")
	})
	want := []Notification{{1, "c", "self"}, {2, "c", "x"}}
	if got := a.Take(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("a got %v, want %v", got, want)
	}
	want = []Notification{{2, "c", "x"}, {2, "d", "y"}}
	if got := b.Take(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("b got %v, want %v", got, want)
	}
	if !reflect.DeepEqual(b.Channels(), []string{"c", "d"}) {
		t.Errorf("b listens to %v", b.Channels())
	}
	if wakes["a"] != 2 || wakes["b"] != 1 {
		t.Errorf("wakes %v", wakes)
	}
	// a notification queued before UNLISTEN commits is dropped when read
	// after it, as PostgreSQL checks the channel when it reads its queue.
	commit(a, 1, func(p *Pending) { p.Notify("d", "late") })
	commit(b, 2, func(p *Pending) { p.Listen(Action{}) }) // UNLISTEN *
	if got := b.Take(nil); len(got) != 0 || b.Listening() {
		t.Errorf("b after UNLISTEN *: %v, listening %v", got, b.Channels())
	}
	// A registered listener gets what was committed while it had not
	// read yet for a channel it LISTENs to since (PostgreSQL reads its
	// queue with the channels of the moment); a new listener does not.
	commit(b, 2, func(p *Pending) { p.Listen(Action{Listen: true, Channel: "e"}) })
	commit(a, 1, func(p *Pending) { p.Notify("f", "early") })
	commit(b, 2, func(p *Pending) { p.Listen(Action{Listen: true, Channel: "f"}) })
	want = []Notification{{1, "f", "early"}}
	if got := b.Take(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("b got %v, want %v", got, want)
	}
	// Another database's sessions get nothing.
	other := h.NewListener("other", nil)
	h.Commit(other, "other", 3, &Pending{actions: []Action{{Listen: true, Channel: "c"}}})
	commit(a, 1, func(p *Pending) { p.Notify("c", "db only") })
	if got := other.Take(nil); len(got) != 0 {
		t.Errorf("other database got %v", got)
	}
	a.Close()
	b.Close()
	other.Close()
	if len(h.registered) != 0 {
		t.Errorf("hub keeps listeners %v", h.registered)
	}
}

// TestUnlistenListenKeepsQueue: UNLISTEN a; LISTEN a in one transaction
// leaves the listener registered, with what waited unread (PostgreSQL
// unregisters only when the transaction's actions leave no channel).
func TestUnlistenListenKeepsQueue(t *testing.T) {
	h := NewHub()
	a, b := h.NewListener("db", nil), h.NewListener("db", nil)
	h.Commit(a, "db", 1, &Pending{actions: []Action{{Listen: true, Channel: "c"}}})
	h.Commit(b, "db", 2, &Pending{notes: []Notification{{Channel: "c", Payload: "waiting"}}})
	h.Commit(a, "db", 1, &Pending{actions: []Action{{Channel: "c"}, {Listen: true, Channel: "c"}}})
	want := []Notification{{2, "c", "waiting"}}
	if got := a.Take(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	h.Commit(b, "db", 2, &Pending{notes: []Notification{{Channel: "c", Payload: "dropped"}}})
	h.Commit(a, "db", 1, &Pending{actions: []Action{{}}}) // UNLISTEN *: unregistered, queue dropped
	h.Commit(a, "db", 1, &Pending{actions: []Action{{Listen: true, Channel: "c"}}})
	if got := a.Take(nil); len(got) != 0 {
		t.Errorf("after UNLISTEN * and LISTEN: %v", got)
	}
}
