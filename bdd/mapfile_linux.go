package bdd

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of f read-only: the out-of-core builder's nodes
// stay in the page cache, which the kernel may evict and read again,
// instead of the heap. unmap releases them.
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	return mapRange(f, 0, size)
}

// mapRange maps size bytes of f from off (a multiple of the page size)
// read-only.
func mapRange(f *os.File, off, size int64) (data []byte, unmap func() error, err error) {
	data, err = syscall.Mmap(int(f.Fd()), off, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
