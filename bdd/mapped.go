package bdd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
	"unsafe"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
)

// The mapped form of a diagram is the builder's chunk pool as it lies: 8
// bytes a node (its two child references), the level of each chunk of 2^16
// nodes in a table. A query walks it as it walks the flat layout, one
// access a level, but nothing is decoded at load: the file is mapped, its
// pages live in the page cache, and a diagram bigger than the memory a
// search may take (the whole-board gap <= 4 set: 8 bytes a node against
// the 12 of the flat layout, plus 16 a shared node while it decodes)
// answers from there. The .bdd file stays the diagram's canonical,
// compact form; the mapped form is written beside it by the build
// (gapset build --map) and is a few times larger.
//
// Layout, integers little-endian:
//
//	offset size
//	0      8    magic "GAPBDDM\x00"
//	8      4    version (1)
//	12     4    header bytes H: everything before the payload, a multiple of 4096
//	16     8    payload bytes: C chunks of 2^16 nodes of 8 bytes
//	24     4    C, the chunks
//	28     4    root reference (0 False, 1 True, else chunk << 16 | index)
//	32     4    I, the bytes of the .bdd header that follows
//	36     4    B, the payload's blocks of 64 MiB (the last may be shorter)
//	40     I    the header of the diagram's .bdd file (format 4: set, order, nodes, count)
//	...    C    level of each chunk
//	...    4C   nodes used in each chunk (chunk 0, level 0's first: its two
//	            first places stand for the terminals)
//	...    4B   CRC-32C of each payload block
//	...    4    CRC-32C of the header bytes before it
//	...         zeros up to H
//	H      8    payload: node i of chunk c at H + 8(c << 16 + i): low child, high child
//
// A load checks the header's CRC, then reads the whole payload once: every
// block's CRC, and every node's children on deeper levels and within the
// pool (so that a damaged or forged file is refused instead of walked out
// of range). That pass reads the file at the disk's or the page cache's
// speed (a few seconds a GB from the cache).
const (
	mappedMagic   = "GAPBDDM\x00"
	mappedVersion = 1
	mappedFixed   = 40
	mappedAlign   = 4096
	mappedBlock   = 64 << 20
	// maxMappedHeader bounds the header a reader accepts: the .bdd header,
	// 5 bytes a chunk and 4 a block, rounded up.
	maxMappedHeader = 1 << 20
)

// ErrMapped marks a damaged or foreign mapped-diagram file.
var ErrMapped = errors.New("bad mapped BDD file")

// IsMapped reports whether path starts with the mapped form's magic.
func IsMapped(path string) bool {
	f, err := infile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [8]byte
	_, err = io.ReadFull(f, b[:])
	return err == nil && string(b[:]) == mappedMagic
}

// WriteMapped writes d's mapped form to path atomically; in is what its
// .bdd file says (Save's Info), kept in the header.
func WriteMapped(path string, d *LevelDiagram, in Info) error {
	f, err := mappedTo(path, d, in)
	if err != nil {
		return err
	}
	return f.Commit()
}

// mappedTo writes the mapped form whole to a temporary of path, not yet in
// place: the caller commits or aborts it.
func mappedTo(path string, d *LevelDiagram, in Info) (f *atomicfile.File, err error) {
	if d.ZDD || in.ZDD {
		return nil, errors.New("the mapped form is for BDDs (membership queries), not ZDDs")
	}
	if in.Version != bddVersion || uint64(d.NodeCount()) != in.Nodes {
		return nil, fmt.Errorf("the mapped form needs the diagram's own format %d header (%d nodes, the diagram %d)", bddVersion, in.Nodes, d.NodeCount())
	}
	C := len(d.chunks)
	payload := int64(C) * chunkBytes
	B := int((payload + mappedBlock - 1) / mappedBlock)
	info := in.header()
	size := mappedFixed + len(info) + 5*C + 4*B + 4
	H := (size + mappedAlign - 1) / mappedAlign * mappedAlign
	f, err = atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Abort()
			f = nil
		}
	}()
	if _, err := f.Seek(int64(H), io.SeekStart); err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	sums := make([]uint32, B)
	var off int64
	buf := make([]byte, chunkBytes)
	for c := range C {
		clear(buf)
		for i, p := range d.chunks[c] {
			binary.LittleEndian.PutUint32(buf[8*i:], p.lo)
			binary.LittleEndian.PutUint32(buf[8*i+4:], p.hi)
		}
		blk := off / mappedBlock
		sums[blk] = crc32.Update(sums[blk], castagnoli, buf)
		if _, err := bw.Write(buf); err != nil {
			return nil, err
		}
		off += chunkBytes
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	h := make([]byte, H)
	copy(h, mappedMagic)
	le := binary.LittleEndian
	le.PutUint32(h[8:], mappedVersion)
	le.PutUint32(h[12:], uint32(H))
	le.PutUint64(h[16:], uint64(payload))
	le.PutUint32(h[24:], uint32(C))
	le.PutUint32(h[28:], d.Root)
	le.PutUint32(h[32:], uint32(len(info)))
	le.PutUint32(h[36:], uint32(B))
	x := h[mappedFixed:]
	x = x[copy(x, info):]
	for c := range C {
		x[c] = d.level[c]
	}
	x = x[C:]
	for c := range C {
		le.PutUint32(x[4*c:], uint32(len(d.chunks[c])))
	}
	x = x[4*C:]
	for b, s := range sums {
		le.PutUint32(x[4*b:], s)
	}
	le.PutUint32(h[size-4:], crc32.Checksum(h[:size-4], castagnoli))
	if _, err := f.WriteAt(h, 0); err != nil {
		return nil, err
	}
	return f, nil
}

// mappedHeader is a mapped file's header, parsed and checked.
type mappedHeader struct {
	info   Info
	H      int64
	root   uint32
	levels []uint8  // of each chunk
	used   []uint32 // nodes in each chunk
	sums   []uint32 // of each payload block
}

// parseMapped checks the header bytes b (at least its first H) of a file
// of size bytes.
func parseMapped(b []byte, size int64) (mappedHeader, error) {
	bad := func(format string, a ...any) (mappedHeader, error) {
		return mappedHeader{}, fmt.Errorf("%w: %s", ErrMapped, fmt.Sprintf(format, a...))
	}
	if len(b) < mappedFixed || string(b[:8]) != mappedMagic {
		return bad("wrong magic (not a mapped gapset BDD file)")
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != mappedVersion {
		return bad("version %d, this program reads version %d", v, mappedVersion)
	}
	H, payload, C := int64(le.Uint32(b[12:])), le.Uint64(b[16:]), uint64(le.Uint32(b[24:]))
	I, B := int64(le.Uint32(b[32:])), uint64(le.Uint32(b[36:]))
	switch {
	case H%mappedAlign != 0 || H > maxMappedHeader || H > int64(len(b)):
		return bad("header of %d bytes", H)
	case C == 0 || C > MaxChunks || payload != C*uint64(chunkBytes):
		return bad("%d chunks in %d payload bytes", C, payload)
	case B != (payload+mappedBlock-1)/mappedBlock:
		return bad("%d CRC blocks for %d payload bytes", B, payload)
	case size != H+int64(payload):
		return bad("%d bytes, the header says %d: truncated or extended", size, H+int64(payload))
	}
	end := mappedFixed + I + 5*int64(C) + 4*int64(B) + 4
	if I < fixedSize || end > H {
		return bad("header parts of %d bytes in %d", end, H)
	}
	if got, want := crc32.Checksum(b[:end-4], castagnoli), le.Uint32(b[end-4:]); got != want {
		return bad("header checksum %08x, stored %08x", got, want)
	}
	if nz := b[end:H]; len(nz) > 0 && string(nz) != string(make([]byte, len(nz))) {
		return bad("padding after the header not zero")
	}
	in, err := parseHeader(b[mappedFixed : mappedFixed+I])
	if err != nil {
		return mappedHeader{}, fmt.Errorf("%w: the diagram's header: %v", ErrMapped, err)
	}
	if in.Version != bddVersion || in.headerSize() != int(I) || in.ZDD {
		return bad("the diagram's header is not a format %d BDD's", bddVersion)
	}
	m := mappedHeader{info: in, H: H, root: le.Uint32(b[28:])}
	x := b[mappedFixed+I:]
	m.levels = append([]uint8(nil), x[:C]...)
	x = x[C:]
	m.used = make([]uint32, C)
	var nodes uint64
	L := in.Order.Vars()
	for c := range m.used {
		m.used[c] = le.Uint32(x[4*c:])
		if m.used[c] > chunkSize || int(m.levels[c]) >= L {
			return bad("chunk %d: %d nodes on level %d", c, m.used[c], m.levels[c])
		}
		nodes += uint64(m.used[c])
	}
	if m.levels[0] != 0 || m.used[0] < 2 || nodes-2 != in.Nodes {
		return bad("%d nodes in the chunks, the diagram has %d", nodes-2, in.Nodes)
	}
	x = x[4*C:]
	m.sums = make([]uint32, B)
	for i := range m.sums {
		m.sums[i] = le.Uint32(x[4*i:])
	}
	if !m.inRange(m.root, -1) || (in.Nodes == 0) != (m.root < 2) {
		return bad("root %#x out of range", m.root)
	}
	return m, nil
}

// inRange: r is a terminal or a node of the pool below level above.
func (m *mappedHeader) inRange(r uint32, above int) bool {
	if r < 2 {
		return true
	}
	c, i := r>>chunkBits, r&chunkMask
	return int(c) < len(m.used) && i < m.used[c] && (c != 0 || i >= 2) && int(m.levels[c]) > above
}

// check reads the payload p once: each block's CRC, each node's children.
func (m *mappedHeader) check(p []byte) error {
	le := binary.LittleEndian
	for b, want := range m.sums {
		blk := p[b*mappedBlock : min(len(p), (b+1)*mappedBlock)]
		if got := crc32.Checksum(blk, castagnoli); got != want {
			return fmt.Errorf("%w: payload block %d (bytes %d-%d): checksum %08x, stored %08x", ErrMapped, b, int64(b)*mappedBlock, int64(b)*mappedBlock+int64(len(blk)), got, want)
		}
	}
	for c, n := range m.used {
		l := int(m.levels[c])
		for i := uint32(0); i < n; i++ {
			if c == 0 && i < 2 { // the terminals' places
				continue
			}
			at := (c<<chunkBits + int(i)) * 8
			lo, hi := le.Uint32(p[at:]), le.Uint32(p[at+4:])
			if !m.inRange(lo, l) || !m.inRange(hi, l) || lo == hi {
				return fmt.Errorf("%w: node %d of chunk %d (level %d): children %#x, %#x", ErrMapped, i, c, l, lo, hi)
			}
		}
	}
	return nil
}

// pairsOf views a payload as the nodes it holds: the file's byte order is
// the machine's (openMapped refuses big-endian machines).
func pairsOf(p []byte) []pair {
	return unsafe.Slice((*pair)(unsafe.Pointer(unsafe.SliceData(p))), len(p)/8)
}

// openMapped maps a mapped-form file for queries, after the checks above;
// note, when set, hears what the check of a file of a GiB or more takes.
func openMapped(path string, note func(string)) (*Set, error) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return nil, fmt.Errorf("%s: the mapped form is read on little-endian machines only", path)
	}
	f, err := infile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	head := make([]byte, min(st.Size(), maxMappedHeader))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrMapped, err)
	}
	m, err := parseMapped(head, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	data, unmap, err := mapRange(f, m.H, st.Size()-m.H)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := m.check(data); err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if note != nil && len(data) >= 1<<30 {
		note(fmt.Sprintf("%s: mapped %d nodes (%.1f GiB) and checked them in %.0f s; queries read them from the page cache", path, m.info.Nodes, gib(uint64(len(data))), time.Since(start).Seconds()))
	}
	in := m.info
	in.FileSize = st.Size()
	s := &Set{info: in, root: m.root, enc: in.Encoding, n: in.Rows * in.Cols, k: in.Cells, unmap: unmap}
	s.pairs = pairsOf(data)
	s.chunkShift, s.chunkLevel = make([]uint8, len(m.levels)), m.levels
	for c, l := range m.levels {
		s.chunkShift[c] = in.Order.Bits[l]
	}
	return s, nil
}

// Members lists a mapped set's members as Diagram.Members does (in level
// order: under the natural order, the keys in increasing order), walking
// the file's nodes; it holds nothing but the path.
func (s *Set) Members(yield func(uint64) bool) (bool, error) {
	if s.pairs == nil {
		return false, errors.New("members are listed from the mapped form only (Diagram.Members lists a loaded one)")
	}
	L := s.info.Order.Vars()
	if L > 64 || L == 64 && s.root == True {
		return false, errOverflow
	}
	level := func(n uint32) int { return int(s.chunkLevel[n>>chunkBits]) }
	kids := func(n uint32) (uint32, uint32) { p := s.pairs[n]; return p.lo, p.hi }
	return listMembers(L, s.root, level, kids, yield), nil
}
