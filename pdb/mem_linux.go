package pdb

import (
	"syscall"
	"unsafe"
)

// hugeMin is the size from which a search table is mapped with transparent
// huge pages: its entries are read in random order, and with 4 KiB pages
// nearly every read also misses the TLB.
const hugeMin = 64 << 20

// alloc returns a zeroed table of n words, the function that frees it and
// one that gives the memory of entries [lo, hi) back to the OS (they read
// as zero afterwards; a no-op for a table on the Go heap).
func alloc[W word](n int) ([]W, func(), func(lo, hi int)) {
	size := n * int(unsafe.Sizeof(W(0)))
	if size < hugeMin {
		return make([]W, n), func() {}, func(int, int) {}
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]W, n), func() {}, func(int, int) {}
	}
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) // a hint: without it the table still works
	release := func(lo, hi int) {
		const page = 4 << 10
		a := (lo*int(unsafe.Sizeof(W(0))) + page - 1) &^ (page - 1)
		b := min(hi*int(unsafe.Sizeof(W(0))), size) &^ (page - 1)
		if hi == n {
			b = size
		}
		if a < b {
			_ = syscall.Madvise(mem[a:b], syscall.MADV_DONTNEED) // a hint as well
		}
	}
	return unsafe.Slice((*W)(unsafe.Pointer(&mem[0])), n), func() { _ = syscall.Munmap(mem) }, release
}

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

// hugeHint asks the kernel to back the pages of b not touched yet with
// transparent huge pages, so that random reads of a loaded table miss the
// TLB far less. The memory stays the Go heap's; only the whole huge pages
// inside b are marked.
func hugeHint(b []byte) {
	if len(b) < hugeMin {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := int((start+hugePage-1)&^(hugePage-1) - start)
	hi := int((start+uintptr(len(b)))&^(hugePage-1) - start)
	if lo < hi {
		_ = syscall.Madvise(b[lo:hi], syscall.MADV_HUGEPAGE) // a hint
	}
}
