package gapdb

import (
	"os"
	"syscall"

	"github.com/gapset/gapset/internal/hugemem"
)

// mapTable maps the file read-only and returns the table (size bytes from
// off on), or nil when mapping fails (the caller then reads). The pages are
// the page cache's own: loading costs no copy. A file replaced by a rebuild
// (written under another name and renamed) leaves the mapping intact.
func mapTable(f *os.File, off, size int64) (table []byte, unmap func()) {
	b, err := syscall.Mmap(int(f.Fd()), 0, int(off+size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, nil
	}
	hugemem.Hint(b) // a hint (a file's pages get huge pages only where the file system gives them)
	return b[off:], func() { _ = syscall.Munmap(b) }
}
