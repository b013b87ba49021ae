package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Notifications is a session's LISTEN / NOTIFY (the engine's, over package
// notify), which pg_notify and pg_listening_channels reach.
type Notifications interface {
	// Notify queues a notification in the session's transaction, or
	// returns PostgreSQL's error for its channel or payload.
	Notify(channel, payload string) error
	// ListeningChannels are the channels the session listens to, in the
	// order LISTENed.
	ListeningChannels() []string
}

// notifyFuncs are pg_notify(text, text), which is not strict (a NULL
// channel is the empty one PostgreSQL refuses, a NULL payload the empty
// payload), and pg_notification_queue_usage(): sqlgate's notifications
// wait in each listener's own unbounded queue, never in a shared one that
// could fill, so the fraction of it in use is 0, what an idle PostgreSQL
// shows.
func notifyFuncs() []*Func {
	return []*Func{
		{Name: "pg_notify", Args: []types.T{tText, tText}, Ret: types.VoidType, Volatile: true,
			Kernel: rowFunc(types.VoidType, false, func(ctx context.Context, vals []any) (any, error) {
				n := sessionOf(ctx).Notifications
				if n == nil {
					return nil, sqlerr.New(sqlerr.FeatureNotSupported, "NOTIFY is not available here")
				}
				channel, _ := vals[0].(string)
				payload, _ := vals[1].(string)
				return "", n.Notify(channel, payload)
			})},
		{Name: "pg_notification_queue_usage", Ret: tFloat8, Strict: true, Volatile: true,
			Kernel: rowFunc(tFloat8, true, func(context.Context, []any) (any, error) { return 0.0, nil })},
	}
}

// listeningChannelRows is pg_listening_channels(): the session's channels.
func listeningChannelRows(ctx context.Context, _ []any) (func() (any, bool, error), error) {
	var channels []string
	if n := sessionOf(ctx).Notifications; n != nil {
		channels = n.ListeningChannels()
	}
	return func() (any, bool, error) {
		if len(channels) == 0 {
			return nil, false, nil
		}
		c := channels[0]
		channels = channels[1:]
		return c, true, nil
	}, nil
}
