//go:build !cgo || !linux

package embedded

// returnFreedCMemory does nothing without cgo on Linux: pebble's memory is
// then Go's, which the Go runtime returns to the system itself
// (trim_cgo.go says why cgo builds need it).
func returnFreedCMemory() {}
