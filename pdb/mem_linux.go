package pdb

import (
	"syscall"
	"unsafe"
)

// hugeMin is the size from which a search table is mapped with transparent
// huge pages: its entries are read in random order, and with 4 KiB pages
// nearly every read also misses the TLB.
const hugeMin = 64 << 20

// alloc returns a zeroed table of n words and the function that frees it.
func alloc[W word](n int) ([]W, func()) {
	size := n * int(unsafe.Sizeof(W(0)))
	if size < hugeMin {
		return make([]W, n), func() {}
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]W, n), func() {}
	}
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) // a hint: without it the table still works
	return unsafe.Slice((*W)(unsafe.Pointer(&mem[0])), n), func() { _ = syscall.Munmap(mem) }
}
