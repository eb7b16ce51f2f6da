package bdd

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// ReadInfoChecked reads a file's header like ReadInfo and also checks the
// checksum of the whole file, streaming it (no decode): what a report of
// the header needs so that it never prints a damaged header's values.
func ReadInfoChecked(path string) (Info, error) {
	in, err := ReadInfo(path)
	if err != nil {
		return Info{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	if _, err := io.CopyN(h, f, in.FileSize-4); err != nil {
		return Info{}, fmt.Errorf("%s: %w: %v", path, ErrFormat, err)
	}
	var tail [4]byte
	if _, err := io.ReadFull(f, tail[:]); err != nil {
		return Info{}, fmt.Errorf("%s: %w: %v", path, ErrFormat, err)
	}
	if h.Sum32() != binary.LittleEndian.Uint32(tail[:]) {
		return Info{}, fmt.Errorf("%s: %w: checksum mismatch (file corrupt)", path, ErrFormat)
	}
	return in, nil
}
