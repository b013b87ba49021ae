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
	a := h.NewListener(1, func() { wakes["a"]++ })
	b := h.NewListener(2, func() { wakes["b"]++ })
	commit := func(l *Listener, pid uint32, f func(p *Pending)) {
		var p Pending
		f(&p)
		h.Commit(l, pid, &p)
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
	a.Close()
	commit(b, 2, func(p *Pending) { p.Notify("c", "nobody") })
	if len(h.channels) != 0 {
		t.Errorf("hub keeps channels %v", h.channels)
	}
}
