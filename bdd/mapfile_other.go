//go:build !linux

package bdd

import (
	"io"
	"os"
)

// mapFile reads size bytes of f into memory (mapping is done on Linux
// only).
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	data = make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
