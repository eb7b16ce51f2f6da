package gapdb

import "unsafe"

// prefetch asks for the cache line at p without waiting for it
// (PREFETCHT0; Go has no prefetch of its own).
//
//go:noescape
func prefetch(p unsafe.Pointer)
