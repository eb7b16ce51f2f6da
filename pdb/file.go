package pdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// File format of one group's database (little-endian):
//
//	magic    8 bytes  "GAPSPDB\x01" (the last byte is the version)
//	rows     1 byte
//	cols     1 byte
//	k        1 byte   tiles in the group
//	step     1 byte   largest change of value along one move (see Build)
//	tiles    16 bytes the group's tiles in rank order, zero-padded
//	entries  8 bytes  n!/(n-k)!
//	crc      4 bytes  CRC-32C of the 36 bytes before it and the payload
//	payload  entries bytes, one move count per placement rank
const (
	magic      = "GAPSPDB\x01"
	headerSize = 8 + 4 + 16 + 8 + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by every error about a file's contents.
var ErrCorrupt = errors.New("corrupt pattern database")

// FileName is the name of a group's file in a database directory, e.g.
// "4x4-9-10-11-12-13-14-15.pdb".
func FileName(rows, cols int, group []uint8) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%dx%d", rows, cols)
	for _, t := range group {
		sb.WriteString("-" + strconv.Itoa(int(t)))
	}
	return sb.String() + ".pdb"
}

// Write stores one group's table at path atomically: it writes a temporary
// file in the same directory and renames it.
func Write(path string, rows, cols int, group []uint8, table []uint8, step int) error {
	if len(table) != Entries(rows*cols, len(group)) {
		return fmt.Errorf("table has %d entries, want %d", len(table), Entries(rows*cols, len(group)))
	}
	hdr := make([]byte, headerSize)
	copy(hdr, magic)
	hdr[8], hdr[9], hdr[10], hdr[11] = uint8(rows), uint8(cols), uint8(len(group)), uint8(step)
	copy(hdr[12:28], group)
	binary.LittleEndian.PutUint64(hdr[28:], uint64(len(table)))
	binary.LittleEndian.PutUint32(hdr[36:], crc32.Update(crc32.Checksum(hdr[:36], castagnoli), castagnoli, table))

	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())              // no-op after a successful rename
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes it private
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(hdr); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(table); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Read loads one group's table and checks that it is the table of that group
// on that board, complete and with a matching checksum.
func Read(path string, rows, cols int, group []uint8) (table []uint8, step int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return decode(f, path, rows, cols, group)
}

func decode(r io.Reader, name string, rows, cols int, group []uint8) ([]uint8, int, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %s: %s", ErrCorrupt, name, fmt.Sprintf(format, a...))
	}
	hdr := make([]byte, headerSize)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, 0, bad("header too short")
	}
	if string(hdr[:7]) != magic[:7] {
		return nil, 0, bad("not a pattern database file")
	}
	if hdr[7] != magic[7] {
		return nil, 0, bad("format version %d, want %d", hdr[7], magic[7])
	}
	var want [16]byte
	copy(want[:], group)
	if int(hdr[8]) != rows || int(hdr[9]) != cols || int(hdr[10]) != len(group) || !bytes.Equal(hdr[12:28], want[:]) {
		return nil, 0, bad("holds group %v of a %dx%d board, want %v of %dx%d",
			hdr[12:12+min(int(hdr[10]), 16)], hdr[8], hdr[9], group, rows, cols)
	}
	entries := binary.LittleEndian.Uint64(hdr[28:])
	if entries != uint64(Entries(rows*cols, len(group))) {
		return nil, 0, bad("%d entries, want %d", entries, Entries(rows*cols, len(group)))
	}
	table := make([]uint8, entries)
	hugeHint(table)
	sum, zeros, err := readSummed(r, table, crc32.Checksum(hdr[:36], castagnoli))
	if err != nil {
		return nil, 0, bad("truncated payload")
	}
	if n, _ := r.Read(make([]byte, 1)); n != 0 {
		return nil, 0, bad("trailing bytes after the payload")
	}
	if sum != binary.LittleEndian.Uint32(hdr[36:]) {
		return nil, 0, bad("checksum mismatch")
	}
	if hdr[11] == 0 {
		return nil, 0, bad("step 0")
	}
	if err := check(rows, cols, group, table, int(hdr[11]), zeros); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	return table, int(hdr[11]), nil
}

// readChunk is how much readSummed reads before handing it to the checksum:
// small enough to be summed while still in the cache.
const readChunk = 4 << 20

// readSummed fills table from r and returns the CRC-32C of its bytes
// continuing crc, and how many of them are 0. Reading (the kernel's copy)
// and summing run on two cores, chunk by chunk: loading the 7-8 tables is
// then bounded by the copy alone, not by the copy and two more passes.
func readSummed(r io.Reader, table []byte, crc uint32) (uint32, int, error) {
	chunks := make(chan []byte, 4)
	type result struct {
		crc   uint32
		zeros int
	}
	done := make(chan result)
	go func() {
		res := result{crc: crc}
		for b := range chunks {
			res.crc = crc32.Update(res.crc, castagnoli, b)
			res.zeros += bytes.Count(b, []byte{0})
		}
		done <- res
	}()
	var err error
	for off := 0; off < len(table) && err == nil; off += readChunk {
		b := table[off:min(off+readChunk, len(table))]
		if _, err = io.ReadFull(r, b); err == nil {
			chunks <- b
		}
	}
	close(chunks)
	res := <-done
	return res.crc, res.zeros, err
}
