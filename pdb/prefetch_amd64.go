package pdb

import "unsafe"

// prefetchKids asks for the cache lines of the children's entries,
// base[kid.r] with entries of 1<<logSize bytes, without waiting for them
// (PREFETCHT0; Go has no prefetch of its own, and a load that is not
// needed yet would still hold up the instructions after it). It reads
// child.r at offset 0 of each 16-byte child (TestChildLayout).
//
//go:noescape
func prefetchKids(base unsafe.Pointer, logSize uint, kids []child)

// prefetch asks for the cache line at p without waiting for it.
//
//go:noescape
func prefetch(p unsafe.Pointer)
