//go:build !linux

// Package hugemem asks the kernel for transparent huge pages behind large
// tables; elsewhere than Linux it does nothing.
package hugemem

import "os"

// Min is the size from which a table is worth the hint.
const Min = 64 << 20

// Hint does nothing where transparent huge pages are not known.
func Hint([]byte) {}

// Words does nothing where transparent huge pages are not known.
func Words([]uint64) {}

// Slice does nothing where transparent huge pages are not known.
func Slice[T any]([]T) {}

// Alloc returns a zeroed table of n words on the Go heap, the function that
// frees it and one that would give entries back to the OS (here a no-op).
func Alloc[W any](n int) ([]W, func(), func(lo, hi int)) {
	return make([]W, n), func() {}, func(int, int) {}
}

// Mapped reports nothing where the kernel's page sizes are not known.
func Mapped([]byte) (int64, bool) { return 0, false }

// Uncache does nothing where the page cache cannot be told.
func Uncache(*os.File) {}
