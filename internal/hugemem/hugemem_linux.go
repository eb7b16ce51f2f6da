// Package hugemem asks the kernel for transparent huge pages behind large
// tables read in random order (pattern databases, rank-indexed bit sets):
// with 4 KiB pages nearly every such read also misses the TLB.
package hugemem

import (
	"syscall"
	"unsafe"
)

// Min is the size from which a table is worth the hint.
const Min = 64 << 20

// page is the size of a transparent huge page on amd64 and arm64.
const page = 2 << 20

// Hint asks the kernel to back the pages of b not touched yet with
// transparent huge pages. Only the whole huge pages inside b are marked;
// the memory stays the Go heap's. A hint: without it the table still works.
func Hint(b []byte) {
	if len(b) < Min {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := int((start+page-1)&^(page-1) - start)
	hi := int((start+uintptr(len(b)))&^(page-1) - start)
	if lo < hi {
		_ = syscall.Madvise(b[lo:hi], syscall.MADV_HUGEPAGE)
	}
}

// Words is Hint for a table of words.
func Words(w []uint64) {
	if len(w) > 0 {
		Hint(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w)))
	}
}
