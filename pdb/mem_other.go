//go:build !linux

package pdb

// alloc returns a zeroed table of n words, the function that frees it and
// one that would give entries back to the OS (here a no-op).
func alloc[W word](n int) ([]W, func(), func(lo, hi int)) {
	return make([]W, n), func() {}, func(int, int) {}
}

// hugeHint is a no-op where transparent huge pages are not known.
func hugeHint([]byte) {}
