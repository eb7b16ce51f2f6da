//go:build !linux

package bdd

import (
	"io"
	"os"
)

// mapFile reads size bytes of f into memory (mapping is done on Linux
// only).
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	return mapRange(f, 0, size)
}

// mapRange reads size bytes of f from off into memory.
func mapRange(f *os.File, off, size int64) (data []byte, unmap func() error, err error) {
	data = make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, off, size), data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
