package udf

import (
	"fmt"
	"runtime"
	"strings"
)

// Error is an error a UDF returns that carries the Go stack of where it
// was made: sqlgate reports its message (SQLSTATE 38000) with that stack in
// DETAIL, as it reports a panic's. Make one with Errorf or WithStack; an
// error without a stack is reported with its message alone.
type Error struct {
	err   error
	stack string
}

func (e *Error) Error() string { return e.err.Error() }
func (e *Error) Unwrap() error { return e.err }

// Stack is the stack of the goroutine that made the error, from its
// maker's caller outward (runtime/debug.Stack's format, minus the frames
// of this package).
func (e *Error) Stack() string { return e.stack }

// Errorf is fmt.Errorf with the caller's stack.
func Errorf(format string, args ...any) error {
	return &Error{err: fmt.Errorf(format, args...), stack: callerStack(3)}
}

// WithStack returns err with the caller's stack (nil stays nil; an error
// that has one keeps its own).
func WithStack(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*Error); ok {
		return err
	}
	return &Error{err: err, stack: callerStack(3)}
}

// callerStack formats the stack above skip frames (runtime.Callers,
// callerStack and its caller are skipped with skip = 3).
func callerStack(skip int) string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(skip, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	for {
		f, more := frames.Next()
		fmt.Fprintf(&b, "%s()\n\t%s:%d\n", f.Function, f.File, f.Line)
		if !more {
			break
		}
	}
	return b.String()
}
