//go:build !amd64

package gapdb

import "unsafe"

// prefetch does nothing here: the entries are read when they are asked.
func prefetch(p unsafe.Pointer) {}
