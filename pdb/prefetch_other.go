//go:build !amd64

package pdb

import "unsafe"

// prefetchKids does nothing here: the entries are read when they are
// visited.
func prefetchKids(base unsafe.Pointer, logSize uint, kids []child) {}

// prefetch does nothing here.
func prefetch(p unsafe.Pointer) {}
