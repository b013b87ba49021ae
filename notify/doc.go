// Package notify is PostgreSQL's LISTEN / NOTIFY for one sqlgate server:
// the hub every session of the server shares, each session's Listener,
// and a transaction's Pending notifications and LISTEN / UNLISTEN actions.
//
// PostgreSQL 15's rules, which it keeps:
//
//   - NOTIFY and pg_notify queue a notification in the transaction
//     (Pending.Notify); it reaches the listeners only when the transaction
//     commits (Hub.Commit, called once the commit is durable), never when
//     it rolls back. A ROLLBACK TO SAVEPOINT drops what was queued since the
//     savepoint (Pending.Savepoint, RollbackTo).
//   - Notifications of one transaction with the same channel and payload
//     are delivered once, in the order first queued.
//   - LISTEN, UNLISTEN channel and UNLISTEN * take effect when their
//     transaction commits, in the order run, before its notifications are
//     handed out: a session that listens and notifies in one transaction
//     receives its own notification, as in PostgreSQL.
//   - Every listening session of the sender's database receives each
//     notification once, the sender too when it listens, with the
//     sender's backend process id. As in PostgreSQL's queue, a session
//     that listens to any channel (registered) is handed every
//     notification of its database and keeps, when it reads them
//     (Listener.Take, between transactions), those of the channels it
//     listens to then: one queued while it sat in a transaction block
//     that LISTENed to its channel is received, one whose channel it
//     UNLISTENed is dropped. A session's first LISTEN counts from its
//     commit; its last UNLISTEN drops what it had not read.
//   - Channel names are at most 63 bytes and not empty, payloads shorter
//     than 8000 bytes (22023, PostgreSQL's messages; CheckNotify).
//
// Order: Hub.Commit hands a transaction's notifications to every listener
// under the hub's lock, so all listeners see the transactions in the same
// order, the order in which their commits reached the hub (right after
// each became durable). Two transactions that commit at the same instant
// may reach it in either order; PostgreSQL orders them by its commit
// record.
//
// Waking: a Listener has a wake function (given by pgwire through the
// engine) called, from the committing session's goroutine, whenever a
// notification is queued for it, so that an idle connection pushes it to
// its client at once without waiting for a message (or, as PostgreSQL's
// signalled backend, reads and drops those of other channels). wake must
// not block.
//
// Scope: one server. On a Fluss cluster with several sqlgate servers a
// notification reaches only the sessions of the server its sender is
// connected to (PostgreSQL has a single server; README, cluster section).
//
// Must not: know about SQL text, the wire protocol or storage; keep
// package-level mutable state.
package notify
