package pdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/safe"
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
//
// Version 2 (compact) has the same header and (entries+1)/2 bytes of
// payload: the compact entries (see Compact), rank r in the low nibble of
// byte r/2 when r is even, else in the high one.
const (
	magic      = "GAPSPDB\x01"
	headerSize = 8 + 4 + 16 + 8 + 4
	compactVer = 2
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
	return write(path, rows, cols, group, table, len(table), step, magic[7])
}

// WriteCompact stores one group's compact table (Set.Compact's coding) as
// a version-2 file: half the bytes to read at load.
func WriteCompact(path string, rows, cols int, group []uint8, nib []uint8, step int) error {
	entries := Entries(rows*cols, len(group))
	if len(nib) != (entries+1)/2 {
		return fmt.Errorf("compact table has %d bytes, want %d", len(nib), (entries+1)/2)
	}
	return write(path, rows, cols, group, nib, entries, step, compactVer)
}

func write(path string, rows, cols int, group []uint8, payload []uint8, entries, step int, version byte) error {
	hdr := make([]byte, headerSize)
	copy(hdr, magic)
	hdr[7] = version
	hdr[8], hdr[9], hdr[10], hdr[11] = uint8(rows), uint8(cols), uint8(len(group)), uint8(step)
	copy(hdr[12:28], group)
	binary.LittleEndian.PutUint64(hdr[28:], uint64(entries))
	binary.LittleEndian.PutUint32(hdr[36:], crc32.Update(crc32.Checksum(hdr[:36], castagnoli), castagnoli, payload))

	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort() // a no-op after Commit
	if _, err := f.Write(hdr); err != nil {
		return err
	}
	if _, err := f.Write(payload); err != nil {
		return err
	}
	return f.Commit()
}

// Read loads one group's table and checks that it is the table of that group
// on that board, complete and with a matching checksum. A compact file is
// decoded to a byte per entry; the table of a byte file of 64 MiB or more is
// the file mapped read-only (it must not be written).
func Read(path string, rows, cols int, group []uint8) (table []uint8, step int, err error) {
	data, compact, step, err := readRaw(path, rows, cols, group)
	if err != nil || !compact {
		return data, step, err
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, 0, err
	}
	return expandTable(geo, group, data, Entries(rows*cols, len(group)), runtime.NumCPU()), step, nil
}

// readRaw loads one group's file as it is stored: a byte per entry, or
// (compact) the compact entries.
func readRaw(path string, rows, cols int, group []uint8) (data []uint8, compact bool, step int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, 0, err
	}
	defer f.Close()
	return decode(f, path, rows, cols, group, func(size int64) ([]byte, func()) {
		if size < hugeMin || !mapFiles {
			return nil, nil
		}
		return mapPayload(f, headerSize, size)
	})
}

// mapFiles maps large files instead of reading them (see mapPayload).
const mapFiles = true

// decode reads a file's header and payload from r, or takes the payload
// from mapped (when it returns the payload's bytes for its size, and how to
// release them if the file fails its checks; nil: read it from r).
func decode(r io.Reader, name string, rows, cols int, group []uint8, mapped func(size int64) ([]byte, func())) (_ []uint8, _ bool, _ int, err error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %s: %s", ErrCorrupt, name, fmt.Sprintf(format, a...))
	}
	hdr := make([]byte, headerSize)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, false, 0, bad("header too short")
	}
	if string(hdr[:7]) != magic[:7] {
		return nil, false, 0, bad("not a pattern database file")
	}
	if hdr[7] != magic[7] && hdr[7] != compactVer {
		return nil, false, 0, bad("format version %d, want %d or %d", hdr[7], magic[7], compactVer)
	}
	compact := hdr[7] == compactVer
	var want [16]byte
	copy(want[:], group)
	if int(hdr[8]) != rows || int(hdr[9]) != cols || int(hdr[10]) != len(group) || !bytes.Equal(hdr[12:28], want[:]) {
		return nil, false, 0, bad("holds group %v of a %dx%d board, want %v of %dx%d",
			hdr[12:12+min(int(hdr[10]), 16)], hdr[8], hdr[9], group, rows, cols)
	}
	entries := binary.LittleEndian.Uint64(hdr[28:])
	if entries != uint64(Entries(rows*cols, len(group))) {
		return nil, false, 0, bad("%d entries, want %d", entries, Entries(rows*cols, len(group)))
	}
	size := entries
	if compact {
		size = (entries + 1) / 2
	}
	var data []uint8
	var sum uint32
	var zeros int
	if mapped != nil {
		var unmap func()
		if data, unmap = mapped(int64(size)); unmap != nil {
			defer func() {
				if err != nil {
					unmap()
				}
			}()
		}
	}
	if data != nil { // the length was checked by the mapping
		sum, zeros = sumMapped(data, crc32.Checksum(hdr[:36], castagnoli), !compact)
	} else {
		data = make([]uint8, size)
		hugeHint(data)
		sum, zeros, err = readSummed(r, data, crc32.Checksum(hdr[:36], castagnoli))
		if err != nil {
			return nil, false, 0, bad("truncated payload")
		}
		if n, _ := r.Read(make([]byte, 1)); n != 0 {
			return nil, false, 0, bad("trailing bytes after the payload")
		}
	}
	if sum != binary.LittleEndian.Uint32(hdr[36:]) {
		return nil, false, 0, bad("checksum mismatch")
	}
	step := int(hdr[11])
	if step == 0 {
		return nil, false, 0, bad("step 0")
	}
	if compact {
		err = checkCompact(rows, cols, group, data, int(entries), step)
	} else {
		err = check(rows, cols, group, data, step, zeros)
	}
	if err != nil {
		return nil, false, 0, fmt.Errorf("%s: %w", name, err)
	}
	return data, compact, step, nil
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
	zeros := 0
	var sum safe.Group
	sum.Go(func() {
		defer func() {
			for range chunks { // after a panic: the reader must not wait for this goroutine
			}
		}()
		for b := range chunks {
			crc = crc32.Update(crc, castagnoli, b)
			zeros += bytes.Count(b, []byte{0})
		}
	})
	var err error
	for off := 0; off < len(table) && err == nil; off += readChunk {
		b := table[off:min(off+readChunk, len(table))]
		if _, err = io.ReadFull(r, b); err == nil {
			chunks <- b
		}
	}
	close(chunks)
	sum.Wait()
	return crc, zeros, err
}

// sumMapped is readSummed for a payload already in memory: the checksum on
// this core, the zero count (when wanted) on another.
func sumMapped(data []byte, crc uint32, countZeros bool) (uint32, int) {
	zeros := -1
	var count safe.Group
	if countZeros {
		count.Go(func() { zeros = bytes.Count(data, []byte{0}) })
	}
	crc = crc32.Update(crc, castagnoli, data)
	count.Wait()
	return crc, zeros
}
