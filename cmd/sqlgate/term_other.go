//go:build !linux

package main

import (
	"errors"
	"os"
)

// Terminals are recognised on Linux only; elsewhere the password is read
// from standard input as a line.
func isTerminal(*os.File) bool { return false }

func readNoEcho(*os.File) (string, error) { return "", errors.New("no terminal support") }
