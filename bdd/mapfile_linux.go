package bdd

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of f read-only: the out-of-core builder's nodes
// stay in the page cache, which the kernel may evict and read again,
// instead of the heap. unmap releases them.
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
