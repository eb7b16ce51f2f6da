package pdb

import (
	"os"
	"syscall"

	"github.com/gapset/gapset/internal/hugemem"
)

// mapPayload maps the file read-only and returns its bytes from off on
// (size of them), or nil when mapping fails (the caller then reads). The
// pages are the page cache's own: loading costs no copy and no zeroed
// memory, and the kernel may back them with huge pages. The mapping lives
// as long as the process; a file replaced by a rebuild (written under
// another name and renamed) leaves it intact, a file truncated in place
// would fault the search.
// unmap releases the mapping (for a file that fails its checks).
func mapPayload(f *os.File, off, size int64) (payload []byte, unmap func()) {
	st, err := f.Stat()
	if err != nil || st.Size() != off+size {
		return nil, nil // the reading path reports the wrong length
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(off+size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, nil
	}
	hugemem.Hint(b)
	return b[off:], func() { _ = syscall.Munmap(b) }
}
