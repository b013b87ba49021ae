//go:build !(linux || darwin || freebsd)

package pgwire

// canPeek is false: every connection keeps a reader goroutine (conn.readLoop).
const canPeek = false

func peek(uintptr) (int, error) { return 0, nil }
