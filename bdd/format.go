package bdd

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/gapset/gapset/internal/sysprobe"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/keyset"
)

// File format, version 4 (integers little-endian; versions 3 and 2, whose
// headers lack the block at 96+L and whose payloads are described below
// the table and in format3.go, are still read):
//
//	offset size
//	0      8    magic "GAPBDD\x00\x00"
//	8      2    version (4; or 3, 2)
//	10     1    rows
//	11     1    cols
//	12     1    cells k (the set holds the last k cells; k = rows*cols: whole boards)
//	13     1    gap (at most gap, or exactly gap with the exact flag)
//	14     1    flags: bit 0 exact gap, bit 1 ZDD (zero-suppressed) rather than BDD,
//	            bits 2-3 the encoding (0 cells, 1 tiles, 2 ranks, 3 ranks-reverse; encoding.go),
//	            bit 4 approximated: a superset of the gap set (as in the key-set header; name ends in "a")
//	15     1    L = number of variables (4k)
//	16     8    node count n (decision nodes; terminals not counted)
//	24     8    root reference (0 False, 1 True, 2..n+1 the nodes in file order)
//	32     8    pattern count (members of the set)
//	40     8    build time in nanoseconds (information only)
//	48     8    ZDD node count of the same set and order (information; 0 = unknown)
//	56     8    payload length in bytes
//	64     32   order name, NUL-padded ASCII
//	96     L    order: byte i = key bit tested at level i (bit 0 = least significant)
//	96+L   8    version 4: nodes on the widest level (checked against the payload)
//	104+L  8    version 4: the builder's peak resident memory in bytes when the build ended, before
//	            the save (information only; 0 = unknown)
//	112+L  1    version 4: node reference bytes a reader needs: 4 (the 12-byte in-memory node)
//	            when n <= 2^32 - 3, else 8 (this program reads 4 only, and says so)
//	113+L  1    version 4: build flags: bit 0 built out of core (information only)
//	114+L  6    version 4: zero
//	...    ...  payload (versions 3 and 4 alike: a level of any width)
//	end    4    CRC-32C (Castagnoli) of every byte before it
//
// The version 3 and 4 payload is described in format3.go. The version 2 payload:
// a bit stream (most significant bit of each byte first), nodes
// children-first, grouped by level from the deepest (L-1) to the root's (0).
// Within the level whose first id is S, a child reference r < S is coded as
// 0/1 for the terminals False/True and as 2+(S-1-r) for a node, so children
// on the next level down get the small codes; nodes are sorted by (low
// code, high code). For each level: gamma(c+1) with c its node count; if
// c > 0, a coder for the low-code differences and one for the high codes
// (6-bit selector: 0..61 Rice code with that many low bits, 62 Elias gamma
// of x+1, 63 fixed width given in the next 6 bits), then per node the
// difference of its low code from the previous node's (the first from 0)
// and its high code. gamma(x) is the Elias gamma code of x >= 1. Node ids
// follow the file order: the first node is 2.
const (
	bddMagic   = "GAPBDD\x00\x00"
	bddVersion = 4 // written; versions 2 and 3 are read too
	bddV3      = 3
	bddV2      = 2
	fixedSize  = 96
	extSize    = 24 // the version 4 block after the order
	maxNarrow  = 1<<32 - 3
	flagOOC    = 1 // build flag: out of core
	nameSize   = 32
	flagExact  = 1
	flagZDD    = 2
	encShift   = 2 // the encoding in bits 2-3
	encMask    = 3 << encShift
	flagApprox = 16
)

// ErrFormat marks a file that is not a valid gapset BDD file.
var ErrFormat = errors.New("bad BDD file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Info is what a BDD file says about itself.
type Info struct {
	Rows, Cols, Cells, Gap int
	Exact, ZDD             bool
	Approx                 bool // a superset of the gap set (keyset.Header.Approx)
	Encoding               Encoding
	Order                  Order
	Nodes                  uint64 // decision nodes
	Root                   uint64
	Count                  uint64 // patterns
	BuildTime              time.Duration
	ZDDNodes               uint64 // ZDD node count for the same set and order (0 = unknown)
	PayloadSize            uint64
	FileSize               int64
	Version                int // of the file format
	// Version 4 on (zero in older files):
	WidestLevel uint64 // nodes on the widest level
	PeakMemory  int64  // the build's peak resident memory, bytes (0 = unknown)
	RefBytes    int    // node reference bytes a reader needs (4 or 8)
	OutOfCore   bool   // built out of core
}

// headerSize is the bytes before the payload.
func (in Info) headerSize() int {
	if in.Version >= bddVersion {
		return fixedSize + in.Order.Vars() + extSize
	}
	return fixedSize + in.Order.Vars()
}

// Name is the paper's name of the set (Gap0_8, Gap2, ...).
func (in Info) Name() string {
	return keyset.Header{Rows: in.Rows, Cols: in.Cols, Cells: in.Cells, Gap: in.Gap, Exact: in.Exact, Approx: in.Approx}.Name()
}

func (in Info) validate() error {
	if in.Rows < 2 || in.Cols < 2 || in.Rows*in.Cols > 16 || in.Cells < 1 || in.Cells > in.Rows*in.Cols {
		return fmt.Errorf("board %dx%d with %d cells is not supported", in.Rows, in.Cols, in.Cells)
	}
	if in.Gap < 0 || in.Gap%2 != 0 {
		return fmt.Errorf("gap %d must be even and non-negative", in.Gap)
	}
	if in.Encoding > RanksReverse {
		return fmt.Errorf("unknown %v", in.Encoding)
	}
	if in.Encoding == Tiles && in.Cells != in.Rows*in.Cols {
		return fmt.Errorf("the %v encoding needs whole boards (%d of %d cells)", in.Encoding, in.Cells, in.Rows*in.Cols)
	}
	if in.Order.Vars() != 4*in.Cells {
		return fmt.Errorf("order has %d variables, %d cells need %d", in.Order.Vars(), in.Cells, 4*in.Cells)
	}
	if err := in.Order.Validate(); err != nil {
		return err
	}
	if len(in.Order.Name) > nameSize || strings.IndexByte(in.Order.Name, 0) >= 0 {
		return fmt.Errorf("order name %q too long", in.Order.Name)
	}
	return nil
}

func (in Info) header() []byte {
	b := make([]byte, in.headerSize())
	copy(b, bddMagic)
	binary.LittleEndian.PutUint16(b[8:], uint16(in.Version))
	b[10], b[11], b[12], b[13] = byte(in.Rows), byte(in.Cols), byte(in.Cells), byte(in.Gap)
	if in.Exact {
		b[14] |= flagExact
	}
	if in.ZDD {
		b[14] |= flagZDD
	}
	if in.Approx {
		b[14] |= flagApprox
	}
	b[14] |= byte(in.Encoding) << encShift
	b[15] = byte(in.Order.Vars())
	binary.LittleEndian.PutUint64(b[16:], in.Nodes)
	binary.LittleEndian.PutUint64(b[24:], in.Root)
	binary.LittleEndian.PutUint64(b[32:], in.Count)
	binary.LittleEndian.PutUint64(b[40:], uint64(in.BuildTime))
	binary.LittleEndian.PutUint64(b[48:], in.ZDDNodes)
	binary.LittleEndian.PutUint64(b[56:], in.PayloadSize)
	copy(b[64:64+nameSize], in.Order.Name)
	copy(b[fixedSize:], in.Order.Bits)
	if in.Version >= bddVersion {
		x := b[fixedSize+in.Order.Vars():]
		binary.LittleEndian.PutUint64(x, in.WidestLevel)
		binary.LittleEndian.PutUint64(x[8:], uint64(in.PeakMemory))
		x[16] = byte(in.RefBytes)
		if in.OutOfCore {
			x[17] |= flagOOC
		}
	}
	return b
}

func parseHeader(b []byte) (Info, error) {
	if len(b) < fixedSize {
		return Info{}, fmt.Errorf("%w: too short for a header (%d bytes)", ErrFormat, len(b))
	}
	if string(b[:8]) != bddMagic {
		return Info{}, fmt.Errorf("%w: wrong magic (not a gapset BDD file)", ErrFormat)
	}
	v := binary.LittleEndian.Uint16(b[8:])
	if v != bddVersion && v != bddV3 && v != bddV2 {
		return Info{}, fmt.Errorf("%w: version %d, this program reads versions %d to %d", ErrFormat, v, bddV2, bddVersion)
	}
	if b[14]&^(flagExact|flagZDD|encMask|flagApprox) != 0 {
		return Info{}, fmt.Errorf("%w: unknown flags %#x", ErrFormat, b[14])
	}
	L := int(b[15])
	if len(b) < fixedSize+L {
		return Info{}, fmt.Errorf("%w: too short for the variable order", ErrFormat)
	}
	name := string(b[64 : 64+nameSize])
	if i := strings.IndexByte(name, 0); i >= 0 {
		if strings.Trim(name[i:], "\x00") != "" {
			return Info{}, fmt.Errorf("%w: order name not NUL-padded", ErrFormat)
		}
		name = name[:i]
	}
	in := Info{Rows: int(b[10]), Cols: int(b[11]), Cells: int(b[12]), Gap: int(b[13]),
		Exact: b[14]&flagExact != 0, ZDD: b[14]&flagZDD != 0, Approx: b[14]&flagApprox != 0,
		Encoding:    Encoding(b[14] & encMask >> encShift),
		Order:       Order{Name: name, Bits: append([]uint8(nil), b[fixedSize:fixedSize+L]...)},
		Nodes:       binary.LittleEndian.Uint64(b[16:]),
		Root:        binary.LittleEndian.Uint64(b[24:]),
		Count:       binary.LittleEndian.Uint64(b[32:]),
		BuildTime:   time.Duration(binary.LittleEndian.Uint64(b[40:])),
		ZDDNodes:    binary.LittleEndian.Uint64(b[48:]),
		PayloadSize: binary.LittleEndian.Uint64(b[56:]),
		Version:     int(v),
	}
	if err := in.validate(); err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if in.Nodes > 1<<62 || in.Root >= in.Nodes+2 {
		return Info{}, fmt.Errorf("%w: node count %d / root %d out of range", ErrFormat, in.Nodes, in.Root)
	}
	if in.Version < bddVersion {
		if in.Nodes > maxNarrow {
			return Info{}, fmt.Errorf("%w: node count %d out of range", ErrFormat, in.Nodes)
		}
		return in, nil
	}
	if len(b) < in.headerSize() {
		return Info{}, fmt.Errorf("%w: too short for the version %d header", ErrFormat, in.Version)
	}
	x := b[fixedSize+L : in.headerSize()]
	in.WidestLevel = binary.LittleEndian.Uint64(x)
	in.PeakMemory = int64(binary.LittleEndian.Uint64(x[8:]))
	in.RefBytes = int(x[16])
	in.OutOfCore = x[17]&flagOOC != 0
	switch {
	case x[17]&^flagOOC != 0 || strings.Trim(string(x[18:]), "\x00") != "":
		return Info{}, fmt.Errorf("%w: unknown build flags or reserved bytes set", ErrFormat)
	case in.PeakMemory < 0:
		return Info{}, fmt.Errorf("%w: peak memory %d", ErrFormat, in.PeakMemory)
	case in.WidestLevel > in.Nodes || (in.Nodes > 0) != (in.WidestLevel > 0):
		return Info{}, fmt.Errorf("%w: widest level %d of %d nodes", ErrFormat, in.WidestLevel, in.Nodes)
	case in.RefBytes != refBytes(in.Nodes):
		return Info{}, fmt.Errorf("%w: %d-byte references for %d nodes", ErrFormat, in.RefBytes, in.Nodes)
	case in.RefBytes > 4:
		return Info{}, fmt.Errorf("%w: %d nodes need 8-byte references; this program reads diagrams of at most %d nodes", ErrLevelFull, in.Nodes, uint64(maxNarrow))
	}
	return in, nil
}

// refBytes is the node reference size a diagram of n nodes needs.
func refBytes(n uint64) int {
	if n > maxNarrow {
		return 8
	}
	return 4
}

// Meta is what a caller knows about a diagram beyond its structure.
type Meta struct {
	Rows, Cols, Cells, Gap int
	Exact                  bool
	Approx                 bool
	Encoding               Encoding
	BuildTime              time.Duration
	ZDDNodes               uint64
	PeakMemory             int64 // the build's peak resident memory (0 = unknown)
	OutOfCore              bool  // built out of core
}

// Meta returns what the file says beyond its structure, to write the same
// set again (a rewrite that forgets a field, such as the encoding, would
// change what the diagram means).
func (in Info) Meta() Meta {
	return Meta{Rows: in.Rows, Cols: in.Cols, Cells: in.Cells, Gap: in.Gap, Exact: in.Exact, Approx: in.Approx, Encoding: in.Encoding,
		BuildTime: in.BuildTime, ZDDNodes: in.ZDDNodes, PeakMemory: in.PeakMemory, OutOfCore: in.OutOfCore}
}

// Graph is a diagram the file format writes: a *Diagram or a
// *LevelDiagram (as a build leaves it).
type Graph interface {
	NodeCount() int
	graph() // only this package's diagrams
}

func (*Diagram) graph()      {}
func (*LevelDiagram) graph() {}

// Encode writes the diagram in the file format (version 3), streaming the
// payload. The file is a function of the set and the order: the numbering
// and the form of the diagram do not matter.
func Encode(w io.Writer, g Graph, m Meta) (Info, error) {
	switch d := g.(type) {
	case *Diagram:
		if err := d.check(); err != nil {
			return Info{}, fmt.Errorf("refusing to write a malformed diagram: %v", err)
		}
		return encodeFile(w, diagramView{d}, d.Order, d.Count, m)
	case *LevelDiagram:
		if err := d.check(); err != nil {
			return Info{}, fmt.Errorf("refusing to write a malformed diagram: %v", err)
		}
		return encodeFile(w, levelView{d}, d.Order, d.Count, m)
	}
	return Info{}, fmt.Errorf("cannot write a %T", g)
}

func encodeFile[V view](w io.Writer, v V, o Order, count uint64, m Meta) (Info, error) {
	nodes := v.size() - 2
	root := uint64(v.root())
	if root >= 2 {
		root = uint64(nodes) + 1 // post-order: the root comes last
	}
	in := Info{Rows: m.Rows, Cols: m.Cols, Cells: m.Cells, Gap: m.Gap, Exact: m.Exact, Approx: m.Approx, ZDD: v.zdd(), Encoding: m.Encoding,
		Order: o, Nodes: uint64(nodes), Root: root, Count: count,
		BuildTime: m.BuildTime, ZDDNodes: m.ZDDNodes, Version: bddVersion,
		WidestLevel: widest(v), PeakMemory: m.PeakMemory, RefBytes: refBytes(uint64(nodes)), OutOfCore: m.OutOfCore}
	cw := &crcWriter{w: w}
	var hsize int
	err := encodeV3(v, nodes, func(payload uint64) error {
		in.PayloadSize = payload
		if err := in.validate(); err != nil {
			return err
		}
		h := in.header()
		hsize = len(h)
		_, err := cw.Write(h)
		return err
	}, cw)
	if err != nil {
		return Info{}, err
	}
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], cw.crc)
	if _, err := w.Write(tail[:]); err != nil {
		return Info{}, err
	}
	in.FileSize = int64(hsize) + int64(in.PayloadSize) + 4
	return in, nil
}

// widest counts the nodes of the widest level.
func widest[V view](v V) uint64 {
	n := make([]uint64, v.vars())
	v.each(func(r uint32) { n[v.level(r)]++ })
	if len(n) == 0 {
		return 0
	}
	return slices.Max(n)
}

// crcWriter passes bytes on and keeps their CRC-32C.
type crcWriter struct {
	w   io.Writer
	crc uint32
}

func (c *crcWriter) Write(p []byte) (int, error) {
	c.crc = crc32.Update(c.crc, castagnoli, p)
	return c.w.Write(p)
}

// Save writes the diagram to path atomically (temporary file, then rename).
func Save(path string, d Graph, m Meta) (Info, error) {
	return SaveContext(context.Background(), path, d, m)
}

// SaveContext is Save renaming only while ctx is not done
// (atomicfile.File.CommitContext): an interrupt finds the file whole or
// as it was.
func SaveContext(ctx context.Context, path string, d Graph, m Meta) (Info, error) {
	f, in, err := encodeTo(path, d, m)
	if err == nil {
		err = f.CommitContext(ctx)
	}
	if err != nil {
		return Info{}, err
	}
	return in, nil
}

// encodeTo writes the diagram whole to a temporary of path, not yet in
// place: the caller commits or aborts it.
func encodeTo(path string, d Graph, m Meta) (*atomicfile.File, Info, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, Info{}, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	in, err := Encode(bw, d, m)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		f.Abort()
		return nil, Info{}, err
	}
	return f, in, nil
}

// coder is the per-level choice of code for a sequence of numbers: Rice
// codes (selector k = 0..61: the quotient x>>k in unary, then k low bits),
// Elias gamma of x+1 (selector 62) or fixed width (63, then the width in 6
// bits). The encoder picks the cheapest for each level and field.
type coder struct {
	sel uint
	w   uint
}

const (
	selGamma = 62
	selFixed = 63
)

func (c coder) header(bw *bitWriter) {
	bw.write(uint64(c.sel), 6)
	if c.sel == selFixed {
		bw.write(uint64(c.w), 6)
	}
}

func (c coder) put(bw *bitWriter, x uint64) {
	switch c.sel {
	case selGamma:
		bw.gamma(x + 1)
	case selFixed:
		bw.write(x, c.w)
	default:
		q := x >> c.sel
		for ; q >= 32; q -= 32 {
			bw.write(0, 32)
		}
		bw.write(1, uint(q)+1)
		bw.write(x, c.sel)
	}
}

func readCoder(br *bitReader) coder {
	c := coder{sel: uint(br.read(6))}
	if c.sel == selFixed {
		c.w = uint(br.read(6))
	}
	return c
}

func (c coder) get(br *bitReader) uint64 {
	switch c.sel {
	case selGamma:
		return br.gamma() - 1
	case selFixed:
		return br.read(c.w)
	default:
		var q uint64
		for br.read(1) == 0 {
			if br.err != nil || q >= 1<<32 {
				br.err = errors.New("bad Rice code")
				return 0
			}
			q++
		}
		return q<<c.sel | br.read(c.sel)
	}
}

// decodeV2 reads a version 2 payload into d.
func decodeV2(payload []byte, d *Diagram, nodes uint64) error {
	d.Nodes = make([]Node, 2, nodes+2)
	br := bitReader{buf: payload}
	L := d.Order.Vars()
	for lv := L - 1; lv >= 0; lv-- {
		c := br.gamma() - 1
		if br.err != nil || c > nodes-uint64(len(d.Nodes)-2) {
			return fmt.Errorf("level %d: bad node count", lv)
		}
		if c == 0 {
			continue
		}
		loc, hic := readCoder(&br), readCoder(&br)
		S := uint32(len(d.Nodes))
		var lo uint64
		for k := uint64(0); k < c; k++ {
			lo += loc.get(&br)
			hi := hic.get(&br)
			if br.err != nil {
				return fmt.Errorf("payload ends inside level %d", lv)
			}
			l, ok1 := decode(lo, S)
			h, ok2 := decode(hi, S)
			if !ok1 || !ok2 {
				return fmt.Errorf("level %d: child reference out of range", lv)
			}
			d.Nodes = append(d.Nodes, Node{Lo: l, Hi: h, Level: uint8(lv)})
		}
	}
	if uint64(len(d.Nodes)-2) != nodes {
		return fmt.Errorf("payload holds %d nodes, header says %d", len(d.Nodes)-2, nodes)
	}
	if !br.rest() {
		return fmt.Errorf("payload has trailing data")
	}
	return nil
}

// ReadInfo reads and checks a file's header only (no checksum check).
func ReadInfo(path string) (Info, error) {
	f, err := infile.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	if st.IsDir() {
		return Info{}, fmt.Errorf("%s: %w: a directory, not a BDD file", path, ErrFormat)
	}
	b := make([]byte, fixedSize+64+extSize)
	n, _ := io.ReadFull(f, b)
	in, err := parseHeader(b[:n])
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	in.FileSize = st.Size()
	if want := int64(in.headerSize()) + int64(in.PayloadSize) + 4; want != st.Size() || in.PayloadSize > uint64(st.Size()) {
		return Info{}, fmt.Errorf("%s: %w: %d bytes, header says %d: truncated or padded", path, ErrFormat, st.Size(), want)
	}
	return in, nil
}

// Decode reads a whole file image and returns the diagram after checking
// the checksum, the structure and the member count.
func Decode(data []byte) (*Diagram, Info, error) {
	in, err := parseHeader(data)
	if err != nil {
		return nil, Info{}, err
	}
	hs := in.headerSize()
	if in.PayloadSize > uint64(len(data)) || uint64(len(data)) != uint64(hs)+in.PayloadSize+4 {
		return nil, Info{}, fmt.Errorf("%w: %d bytes, header says %d: truncated or padded", ErrFormat, len(data), uint64(hs)+in.PayloadSize+4)
	}
	in.FileSize = int64(len(data))
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, Info{}, fmt.Errorf("%w: checksum mismatch (file corrupt)", ErrFormat)
	}
	// A node takes at least 2 bits: refuse counts the payload cannot hold
	// before allocating for them.
	if in.Nodes > 8*in.PayloadSize {
		return nil, Info{}, fmt.Errorf("%w: %d nodes cannot fit in %d payload bytes", ErrFormat, in.Nodes, in.PayloadSize)
	}
	d := &Diagram{Order: in.Order, ZDD: in.ZDD, Count: in.Count, Root: uint32(in.Root)}
	payload := data[hs : len(data)-4]
	if in.Version == bddV2 {
		err = decodeV2(payload, d, in.Nodes)
	} else {
		err = decodeV3(payload, d, in.Nodes)
	}
	if err != nil {
		return nil, Info{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if err := d.check(); err != nil {
		return nil, Info{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	n, err := d.SatCount()
	if err != nil || n != in.Count {
		return nil, Info{}, fmt.Errorf("%w: the diagram holds %d members, header says %d", ErrFormat, n, in.Count)
	}
	if w := widest(diagramView{d}); in.Version >= bddVersion && w != in.WidestLevel {
		return nil, Info{}, fmt.Errorf("%w: the widest level holds %d nodes, header says %d", ErrFormat, w, in.WidestLevel)
	}
	return d, in, nil
}

// Load reads a BDD file into a Diagram. A BDD of format 3 or 4 is decoded
// from a stream (decodeLean: about 12 bytes a node where the file image and
// Decode's checks take 40 and more), refused with ErrTooBig if that would
// pass the machine's available memory; older files and ZDDs are read whole.
func Load(path string) (*Diagram, Info, error) {
	_, avail := sysprobe.Machine()
	return LoadWithin(path, avail)
}

// LoadWithin is Load with avail bytes of memory to load into (0: no
// limit) in place of the machine's available memory.
func LoadWithin(path string, avail uint64) (*Diagram, Info, error) {
	in, err := ReadInfo(path)
	if err != nil {
		return nil, Info{}, err
	}
	if !in.ZDD && in.Version >= bddV3 {
		if need := leanPeak(in.Nodes, 0); avail > 0 && need > avail {
			return nil, Info{}, fmt.Errorf("%s: %w: loading its %d nodes takes at least %.1f GiB, %.1f GiB are available",
				path, ErrTooBig, in.Nodes, gib(need), gib(avail))
		}
		return loadStream(path, in, avail)
	}
	data, err := infile.ReadAll(path, fmt.Sprintf("the BDD file whose header says %d bytes", in.FileSize), in.FileSize)
	if err != nil {
		return nil, Info{}, err
	}
	d, in, err := Decode(data)
	if err != nil {
		return nil, Info{}, fmt.Errorf("%s: %w", path, err)
	}
	return d, in, nil
}

// loadStream decodes the format 3 or 4 BDD at path (header in) from a
// stream, stopping with ErrTooBig past limit bytes (0: no limit).
func loadStream(path string, in Info, limit uint64) (*Diagram, Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	var d *Diagram
	in, err = readStream(bufio.NewReaderSize(f, 1<<20), in.FileSize, func(br *bitReader, in Info) (err error) {
		d, err = decodeLean(br, in, limit)
		return err
	})
	if err != nil {
		return nil, Info{}, fmt.Errorf("%s: %w", path, err)
	}
	return d, in, nil
}

// bitWriter writes bits, most significant first, to out in blocks (or,
// with out nil, keeps them all for bytes()).
type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
	out  io.Writer
	n    uint64 // bytes passed to out
	err  error
}

func (w *bitWriter) write(v uint64, n uint) {
	for n > 0 {
		k := min(n, 56-w.nacc)
		w.acc = w.acc<<k | (v>>(n-k))&(1<<k-1)
		w.nacc += k
		n -= k
		for w.nacc >= 8 {
			w.buf = append(w.buf, byte(w.acc>>(w.nacc-8)))
			w.nacc -= 8
		}
	}
	if w.out != nil && len(w.buf) >= 1<<16 {
		w.flush()
	}
}

func (w *bitWriter) flush() {
	if w.err == nil {
		_, w.err = w.out.Write(w.buf)
	}
	w.n += uint64(len(w.buf))
	w.buf = w.buf[:0]
}

func (w *bitWriter) gamma(x uint64) {
	n := uint(bits.Len64(x))
	w.write(0, n-1)
	w.write(x, n)
}

func (w *bitWriter) pad() {
	if w.nacc > 0 {
		w.write(0, 8-w.nacc)
	}
}

// bytes pads the last byte and returns everything written (out nil).
func (w *bitWriter) bytes() []byte {
	w.pad()
	return w.buf
}

// close pads the last byte and passes the rest to out.
func (w *bitWriter) close() error {
	w.pad()
	w.flush()
	return w.err
}

// bitReader reads bits, most significant first, from buf, or from src
// in blocks when src is set (then buf is the block in hand).
type bitReader struct {
	buf []byte
	pos uint64 // bit position in buf
	err error
	src io.Reader
	blk []byte // src's block buffer
}

func (r *bitReader) read(n uint) uint64 {
	if n <= 56 && r.pos+64 <= 8*uint64(len(r.buf)) { // the bits lie in one 8-byte load
		w := binary.BigEndian.Uint64(r.buf[r.pos>>3:])
		v := w << (r.pos & 7) >> (64 - n) // n = 0: shifted out, 0
		r.pos += uint64(n)
		return v
	}
	var v uint64
	for ; n > 0; n-- {
		if r.pos >= 8*uint64(len(r.buf)) && !r.refill() {
			if r.err == nil {
				r.err = io.ErrUnexpectedEOF
			}
			return 0
		}
		v = v<<1 | uint64(r.buf[r.pos>>3]>>(7-r.pos&7)&1)
		r.pos++
	}
	return v
}

// refill takes the next block from src once buf is used up.
func (r *bitReader) refill() bool {
	if r.src == nil {
		return false
	}
	if r.blk == nil {
		r.blk = make([]byte, 1<<20)
	}
	n, err := io.ReadFull(r.src, r.blk)
	if n == 0 {
		if err != io.EOF && err != nil {
			r.err = err
		}
		return false
	}
	r.buf, r.pos = r.blk[:n], 0
	return true
}

func (r *bitReader) gamma() uint64 {
	z := uint(0)
	for r.read(1) == 0 {
		if r.err != nil || z >= 63 {
			r.err = errors.New("bad gamma code")
			return 1
		}
		z++
	}
	return 1<<z | r.read(z)
}

// rest reports whether only zero padding (less than a byte) is left.
func (r *bitReader) rest() bool {
	left := 8*uint64(len(r.buf)) - r.pos
	if left >= 8 || r.read(uint(left)) != 0 {
		return false
	}
	return !r.refill() && r.err == nil // nothing more in src either
}
