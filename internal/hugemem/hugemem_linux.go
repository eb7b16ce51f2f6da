// Package hugemem asks the kernel for transparent huge pages behind large
// tables read in random order (pattern databases, rank-indexed bit sets):
// with 4 KiB pages nearly every such read also misses the TLB. It is the
// one place that does: Hint for tables on the Go heap and mapped files,
// Alloc for tables mapped outside the heap that give memory back as they
// go (a test refuses a second place).
package hugemem

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/gapset/gapset/internal/infile"
)

// Min is the size from which a table is worth the hint.
const Min = 64 << 20

// page is the size of a transparent huge page on amd64 and arm64.
const page = 2 << 20

// Hint asks the kernel to back the pages of b (on the Go heap, or a mapped
// file) not touched yet with transparent huge pages. Only the whole huge
// pages inside b are marked. A hint: without it the table still works.
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
func Words(w []uint64) { Slice(w) }

// Slice is Hint for a table of any fixed-size elements, over its capacity
// (a slice made with room to grow into gets its pages advised before they
// are touched).
func Slice[T any](s []T) {
	if cap(s) > 0 {
		var t T
		Hint(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s)*int(unsafe.Sizeof(t))))
	}
}

// Alloc returns a zeroed table of n words, the function that frees it and
// one that gives the memory of entries [lo, hi) back to the OS (they read
// as zero afterwards). From Min bytes on the table is mapped outside the
// Go heap with huge pages asked for; below, or if the mapping fails, it is
// on the heap and release does nothing.
func Alloc[W any](n int) ([]W, func(), func(lo, hi int)) {
	var zero W
	w := int(unsafe.Sizeof(zero))
	size := n * w
	if size < Min {
		return make([]W, n), func() {}, func(int, int) {}
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]W, n), func() {}, func(int, int) {}
	}
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) // a hint: without it the table still works
	release := func(lo, hi int) {
		const small = 4 << 10 // whole small pages: a huge page is split
		a := (lo*w + small - 1) &^ (small - 1)
		b := min(hi*w, size) &^ (small - 1)
		if hi == n {
			b = size
		}
		if a < b {
			_ = syscall.Madvise(mem[a:b], syscall.MADV_DONTNEED) // a hint as well
		}
	}
	return unsafe.Slice((*W)(unsafe.Pointer(&mem[0])), n), func() { _ = syscall.Munmap(mem) }, release
}

// Mapped reports how many bytes of the mapping that holds b are mapped
// with huge pages (the kernel's FilePmdMapped and AnonHugePages in
// /proc/self/smaps), and false where the kernel does not say. A file's
// pages are mapped huge only where the page cache holds them in 2 MiB
// folios: those read from the disk, not those the file was written with.
func Mapped(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	addr := uint64(uintptr(unsafe.Pointer(&b[0])))
	raw, err := infile.ReadAll("/proc/self/smaps", "a mapping list", 256<<20)
	if err != nil {
		return 0, false
	}
	in, found := false, false
	var huge int64
	for _, line := range strings.Split(string(raw), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			z, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && a <= addr && addr < z
			found = found || in
			continue
		}
		if in && len(f) >= 2 && (f[0] == "FilePmdMapped:" || f[0] == "AnonHugePages:") {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				huge += kb << 10
			}
		}
	}
	return huge, found
}

// Uncache asks the kernel to drop a file's pages from the page cache (a
// hint; dirty pages stay), so that its next read comes from the disk into
// large folios: a table written and then mapped would otherwise be mapped
// with the 4 KiB pages it was written with.
func Uncache(f *os.File) {
	_, _, _ = syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, 4 /* POSIX_FADV_DONTNEED */, 0, 0)
}
