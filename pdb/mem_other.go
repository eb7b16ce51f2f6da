//go:build !linux

package pdb

// alloc returns a zeroed table of n words and the function that frees it.
func alloc[W word](n int) ([]W, func()) { return make([]W, n), func() {} }

// hugeHint is a no-op where transparent huge pages are not known.
func hugeHint([]byte) {}
