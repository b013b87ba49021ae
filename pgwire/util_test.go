package pgwire

import (
	"io"
	"math/big"
	"sync"
)

func bigInt(v int64) *big.Int { return big.NewInt(v) }

// lockedWriter serialises log writes from the server's goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  interface {
		io.Writer
		String() string
	}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
