package pdb

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/infile"
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
//
// Version 3 (blank-aware, BuildBlank) is version 2 over the placements of
// the group's tiles and the blank: entries n!/(n-k-1)!, step 1. Its files
// have names of their own (BlankFileName), so both kinds of a group live in
// one directory; a load asks for one kind and refuses the other.
const (
	magic      = "GAPSPDB\x01"
	headerSize = 8 + 4 + 16 + 8 + 4
	compactVer = 2
	blankVer   = 3
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

// BlankFileName is the name of a group's blank-aware file, e.g.
// "4x4-1-2-3-4-5-6-7-8-blank.pdb".
func BlankFileName(rows, cols int, group []uint8) string {
	return strings.TrimSuffix(FileName(rows, cols, group), ".pdb") + blankSuffix
}

const blankSuffix = "-blank.pdb"

// fileName is the name of group g's file of the partition's kind.
func (p Partition) fileName(g []uint8) string {
	if p.Blank {
		return BlankFileName(p.Rows, p.Cols, g)
	}
	return FileName(p.Rows, p.Cols, g)
}

// Write stores one group's table at path atomically: it writes a temporary
// file in the same directory and renames it.
func Write(path string, rows, cols int, group []uint8, table []uint8, step int) error {
	return writePlain(context.Background(), path, rows, cols, group, table, step)
}

// writePlain is Write renaming only while ctx is not done.
func writePlain(ctx context.Context, path string, rows, cols int, group []uint8, table []uint8, step int) error {
	if len(table) != Entries(rows*cols, len(group)) {
		return fmt.Errorf("table has %d entries, want %d", len(table), Entries(rows*cols, len(group)))
	}
	return write(ctx, path, rows, cols, group, table, len(table), step, magic[7])
}

// WriteCompact stores one group's compact table (Databases.Compact's coding) as
// a version-2 file: half the bytes to read at load.
func WriteCompact(path string, rows, cols int, group []uint8, nib []uint8, step int) error {
	return writeCompact(context.Background(), path, rows, cols, group, nib, step)
}

// writeCompact is WriteCompact renaming only while ctx is not done.
func writeCompact(ctx context.Context, path string, rows, cols int, group []uint8, nib []uint8, step int) error {
	entries := Entries(rows*cols, len(group))
	if len(nib) != (entries+1)/2 {
		return fmt.Errorf("compact table has %d bytes, want %d", len(nib), (entries+1)/2)
	}
	return write(ctx, path, rows, cols, group, nib, entries, step, compactVer)
}

// WriteBlank stores one group's blank-aware table (BuildBlank's coding) as
// a version-3 file; once ctx is done it is not renamed into place.
func WriteBlank(ctx context.Context, path string, rows, cols int, group []uint8, nib []uint8) error {
	entries := BlankEntries(rows*cols, len(group))
	if len(nib) != (entries+1)/2 {
		return fmt.Errorf("blank-aware table has %d bytes, want %d", len(nib), (entries+1)/2)
	}
	return write(ctx, path, rows, cols, group, nib, entries, 1, blankVer)
}

// write writes a table file; once ctx is done it is not renamed into
// place (atomicfile.File.CommitContext).
func write(ctx context.Context, path string, rows, cols int, group []uint8, payload []uint8, entries, step int, version byte) error {
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
	return f.CommitContext(ctx)
}

// Read loads one group's table and checks that it is the table of that group
// on that board, complete and with a matching checksum, and its contents
// (see checkWhole). A compact file is decoded to a byte per entry; the table
// of a byte file of 1 MiB or more is the file mapped read-only (it must not
// be written).
func Read(path string, rows, cols int, group []uint8) (table []uint8, step int, err error) {
	st, err := readKind(path, rows, cols, group, false, nil, false)
	if err != nil || !st.compact {
		return st.data, st.step, err
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, 0, err
	}
	return expandTable(geo, group, st.data, Entries(rows*cols, len(group)), runtime.NumCPU()), st.step, nil
}

// ReadBlank loads one group's blank-aware file (BlankFileName), checked as
// Read checks the others, and returns its compact entries (BuildBlank's
// coding).
func ReadBlank(path string, rows, cols int, group []uint8) ([]uint8, error) {
	st, err := readKind(path, rows, cols, group, true, nil, false)
	return st.data, err
}

// stored is one group's file as loaded.
type stored struct {
	data    []uint8 // a byte per entry, or (compact) the compact entries
	compact bool
	step    int
	// whole: the contents were checked whole (a known digest, or the
	// table built again); else only the sampled checks saw them.
	whole bool
	// hashed is the digest the file's SHA-256 was found equal to at this
	// load ("" when no hash was taken).
	hashed string
	// later, when set, is the checksum still running (decode's later).
	later *safe.Pending
}

// readRaw loads one group's file as it is stored: a byte per entry, or
// (compact) the compact entries.
// A file that v records as checked whole, unchanged since, is not hashed
// again (v nil: every file is).
func readRaw(path string, rows, cols int, group []uint8, v *Verified, later bool) (stored, error) {
	return readKind(path, rows, cols, group, false, v, later)
}

// readKind is readRaw of a blank-aware file (blank) or of another.
func readKind(path string, rows, cols int, group []uint8, blank bool, v *Verified, later bool) (stored, error) {
	f, err := infile.Open(path)
	if err != nil {
		return stored{}, err
	}
	defer f.Close()
	fi, err := f.Stat() // before reading: a change while it is read changes the identity
	if err != nil {
		return stored{}, err
	}
	st, err := decodeKind(f, path, rows, cols, group, blank, func(size int64) ([]byte, func()) {
		if size < mapMin || !mapFiles {
			return nil, nil
		}
		return mapPayload(f, headerSize, size)
	}, func(digest string) bool { return v.has(path, fi, digest) }, later)
	if err == nil && st.hashed != "" {
		v.add(path, fi, st.hashed)
	}
	return st, err
}

// mapFiles maps files of mapMin bytes or more instead of reading them (see
// mapPayload): mapping the page cache's pages costs less than copying them.
const mapFiles = true

const mapMin = 1 << 20

// decode reads a file's header and payload from r, or takes the payload
// from mapped (when it returns the payload's bytes for its size, and how to
// release them if the file fails its checks; nil: read it from r). The
// cheap checks come first, so that their errors name what is wrong; the
// complete check (checkWhole) last.
//
// checked, when set, tells whether the file was already found equal to a
// digest (Verified): its hash is then not taken again. With later, the
// checksum of such a file, when mapped, is left running: stored.later
// gives its outcome (see LoadBeside).
func decode(r io.Reader, name string, rows, cols int, group []uint8, mapped func(size int64) ([]byte, func()), checked func(digest string) bool, later bool) (_ stored, err error) {
	return decodeKind(r, name, rows, cols, group, false, mapped, checked, later)
}

// decodeKind is decode of a blank-aware file (blank: version 3 only) or of
// another (versions 1 and 2).
func decodeKind(r io.Reader, name string, rows, cols int, group []uint8, blank bool, mapped func(size int64) ([]byte, func()), checked func(digest string) bool, later bool) (_ stored, err error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %s: %s", ErrCorrupt, name, fmt.Sprintf(format, a...))
	}
	hdr := make([]byte, headerSize)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return stored{}, bad("header too short")
	}
	if string(hdr[:7]) != magic[:7] {
		return stored{}, bad("not a pattern database file")
	}
	switch {
	case blank && hdr[7] != blankVer:
		return stored{}, bad("format version %d, want %d (a blank-aware database)", hdr[7], blankVer)
	case !blank && hdr[7] == blankVer:
		return stored{}, bad("format version %d (a blank-aware database), want %d or %d", hdr[7], magic[7], compactVer)
	case !blank && hdr[7] != magic[7] && hdr[7] != compactVer:
		return stored{}, bad("format version %d, want %d or %d", hdr[7], magic[7], compactVer)
	}
	compact := hdr[7] == compactVer || blank
	var want [16]byte
	copy(want[:], group)
	if int(hdr[8]) != rows || int(hdr[9]) != cols || int(hdr[10]) != len(group) || !bytes.Equal(hdr[12:28], want[:]) {
		return stored{}, bad("holds group %v of a %dx%d board, want %v of %dx%d",
			hdr[12:12+min(int(hdr[10]), 16)], hdr[8], hdr[9], group, rows, cols)
	}
	entries := binary.LittleEndian.Uint64(hdr[28:])
	wantEntries := Entries(rows*cols, len(group))
	if blank {
		wantEntries = BlankEntries(rows*cols, len(group))
	}
	if entries != uint64(wantEntries) {
		return stored{}, bad("%d entries, want %d", entries, wantEntries)
	}
	size := entries
	if compact {
		size = (entries + 1) / 2
	}
	// A file of a known group is hashed as it is read (see checkWhole).
	digest, known := knownDigest(rows, cols, group, compact, blank)
	trusted := known && checked != nil && checked(digest)
	var sha hash.Hash
	if known && !trusted {
		sha = sha256.New()
		sha.Write(hdr)
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
	step := int(hdr[11])
	if data != nil && trusted && later && step != 0 {
		// Nothing but the checksum is left to check (see below): it runs
		// beside the search, and the mapping stays even if it fails (the
		// search may be reading it; the caller reports the failure).
		want, head := binary.LittleEndian.Uint32(hdr[36:]), crc32.Checksum(hdr[:36], castagnoli)
		check := safe.Start(func() error {
			if sum, _ := sumMapped(data, head, false, nil); sum != want {
				return bad("checksum mismatch")
			}
			return nil
		})
		return stored{data: data, compact: compact, step: step, whole: true, later: check}, nil
	}
	var sampled error
	beside := false  // the sampled checks ran beside the checksum
	if data != nil { // the length was checked by the mapping
		// A compact table's sampled checks need no count of its zeros: they
		// run beside the checksum, and their answer is given after its.
		var samples safe.Group
		if compact && step != 0 && !trusted {
			beside = true
			samples.Go(func() { sampled = checkStored(rows, cols, group, data, int(entries), step, blank) })
		}
		sum, zeros = sumMapped(data, crc32.Checksum(hdr[:36], castagnoli), !compact, sha)
		samples.Wait()
	} else {
		data = make([]uint8, size)
		hugemem.Hint(data)
		sum, zeros, err = readSummed(r, data, crc32.Checksum(hdr[:36], castagnoli), sha)
		if err != nil {
			return stored{}, bad("truncated payload")
		}
		if n, _ := r.Read(make([]byte, 1)); n != 0 {
			return stored{}, bad("trailing bytes after the payload")
		}
	}
	if sum != binary.LittleEndian.Uint32(hdr[36:]) {
		return stored{}, bad("checksum mismatch")
	}
	if step == 0 {
		return stored{}, bad("step 0")
	}
	if blank && step != 1 {
		return stored{}, bad("step %d in a blank-aware database (one move changes its value by exactly 1)", step)
	}
	switch {
	case trusted:
		// Found equal to the built file's digest before, unchanged since
		// (its identity), and its CRC holds: the sampled checks, which
		// look for writer bugs and damage behind a recomputed CRC, cannot
		// find anything the digest did not rule out.
	case beside:
		err = sampled
	case compact:
		err = checkStored(rows, cols, group, data, int(entries), step, blank)
	default:
		err = check(rows, cols, group, data, step, zeros)
	}
	if err != nil {
		return stored{}, fmt.Errorf("%s: %w", name, err)
	}
	if trusted {
		return stored{data: data, compact: compact, step: step, whole: true}, nil
	}
	var got []byte
	if known {
		got = sha.Sum(nil)
	}
	whole, err := checkWhole(rows, cols, group, data, compact, blank, step, digest, got)
	if err != nil {
		return stored{}, fmt.Errorf("%w %s: %w", ErrCorrupt, name, err)
	}
	st := stored{data: data, compact: compact, step: step, whole: whole}
	if known {
		st.hashed = digest
	}
	return st, nil
}

// readChunk is how much readSummed reads before handing it to the checksum:
// small enough to be summed while still in the cache.
const readChunk = 4 << 20

// readSummed fills table from r and returns the CRC-32C of its bytes
// continuing crc, and how many of them are 0; sha, when set, is fed them
// too. Reading (the kernel's copy) and summing run on two cores, chunk by
// chunk: loading the 7-8 tables is then bounded by the copy alone, not by
// the copy and two more passes.
func readSummed(r io.Reader, table []byte, crc uint32, sha hash.Hash) (uint32, int, error) {
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
			if sha != nil {
				sha.Write(b)
			}
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
// this core, the zero count (when wanted) and the digest (sha, when set) on
// others.
func sumMapped(data []byte, crc uint32, countZeros bool, sha hash.Hash) (uint32, int) {
	zeros := -1
	var others safe.Group
	if countZeros {
		others.Go(func() { zeros = bytes.Count(data, []byte{0}) })
	}
	if sha != nil {
		others.Go(func() { sha.Write(data) })
	}
	if countZeros || sha != nil || len(data) < splitSum {
		crc = crc32.Update(crc, castagnoli, data)
		others.Wait()
		return crc, zeros
	}
	// Nothing else to do: the second half's checksum on another core,
	// joined to the first's (the check of a file recorded as hashed is
	// then bounded by half a pass).
	half := len(data) / 2
	var tail uint32
	others.Go(func() { tail = crc32.Update(0, castagnoli, data[half:]) })
	crc = crc32.Update(crc, castagnoli, data[:half])
	others.Wait()
	return crc32Join(crc, tail, len(data)-half), zeros
}

// splitSum is the payload size from which sumMapped splits the checksum.
const splitSum = 8 << 20

// crc32Join returns the CRC-32C of a||b from a's CRC (head) and b's taken
// from 0 (tail), n = len(b). The CRC is linear over GF(2) once its initial
// and final inversions cancel: Update(head, b) = Z^n(head) xor Update(0, b),
// where Z^n is the register's update by n zero bytes; Z^n is built from the
// one-bit update by squaring.
func crc32Join(head, tail uint32, n int) uint32 {
	var op [32]uint32 // op[i]: the image of bit i under the update by one zero bit
	op[0] = crc32.Castagnoli
	for i := 1; i < 32; i++ {
		op[i] = 1 << (i - 1)
	}
	for range 3 { // one bit -> one byte
		op = gf2Square(op)
	}
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			head = gf2Apply(op, head)
		}
		op = gf2Square(op)
	}
	return head ^ tail
}

func gf2Apply(op [32]uint32, v uint32) uint32 {
	var r uint32
	for i := 0; v != 0; i, v = i+1, v>>1 {
		if v&1 != 0 {
			r ^= op[i]
		}
	}
	return r
}

func gf2Square(op [32]uint32) [32]uint32 {
	var sq [32]uint32
	for i := range op {
		sq[i] = gf2Apply(op, op[i])
	}
	return sq
}
