package pdb

import (
	"syscall"
	"unsafe"

	"github.com/gapset/gapset/internal/hugemem"
)

// hugeMin is the size from which a search table is mapped with transparent
// huge pages (see hugemem).
const hugeMin = hugemem.Min

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

// hugeHint asks for transparent huge pages behind a loaded table.
func hugeHint(b []byte) { hugemem.Hint(b) }
