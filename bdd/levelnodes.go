package bdd

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
)

// LevelNodes returns the nodes on each level of the BDD file at path (the
// root's level first) and what its header says, reading the file once from
// start to end and keeping a few numbers per level, where Load holds every
// node (about 12 bytes each: 9.3 GB for Gap6_10). It checks the checksum,
// the node total and (version 4) the widest level against the header, and
// refuses with ErrFormat a payload that is not well formed: a child not
// below its parent, a reference past the nodes of its level, a node whose
// branches break the reduction rule, trailing data. What needs a number
// per node (the shared flags, the member count) is left to Load.
func LevelNodes(path string) ([]uint64, Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, Info{}, err
	}
	if st.IsDir() {
		return nil, Info{}, fmt.Errorf("%s: %w: a directory, not a BDD file", path, ErrFormat)
	}
	levels, in, err := readLevels(bufio.NewReaderSize(f, 1<<20), st.Size())
	if err != nil {
		return nil, Info{}, fmt.Errorf("%s: %w", path, err)
	}
	return levels, in, nil
}

// readLevels is LevelNodes on the size bytes of a file image read from r.
func readLevels(r io.Reader, size int64) (levels []uint64, in Info, err error) {
	in, err = readStream(r, size, func(br *bitReader, in Info) error {
		if in.Version == bddV2 {
			levels, err = levelsV2(br, in)
		} else {
			levels, err = levelsV3(br, in)
		}
		return err
	})
	return levels, in, err
}

// readStream reads a file image of size bytes from r: the header, then the
// payload through walk, then the checksum, which it checks whatever walk
// said (a damaged file is reported as damaged, however its stream looked).
// Errors of the file's form wrap ErrFormat; walk's ErrTooBig is passed on.
func readStream(r io.Reader, size int64, walk func(br *bitReader, in Info) error) (Info, error) {
	sum := crc32.New(castagnoli)
	r = io.TeeReader(io.LimitReader(r, size), sum)
	head := make([]byte, fixedSize, fixedSize+255+extSize) // L is a byte
	if _, err := io.ReadFull(r, head); err != nil {
		return Info{}, fmt.Errorf("%w: too short for a header (%d bytes)", ErrFormat, size)
	}
	more := int(head[15]) // the order; version 4 adds its block
	if binary.LittleEndian.Uint16(head[8:]) >= bddVersion {
		more += extSize
	}
	head = head[:fixedSize+more]
	if _, err := io.ReadFull(r, head[fixedSize:]); err != nil {
		return Info{}, fmt.Errorf("%w: too short for the header", ErrFormat)
	}
	in, err := parseHeader(head)
	if err != nil {
		return Info{}, err
	}
	in.FileSize = size
	if want := int64(in.headerSize()) + int64(in.PayloadSize) + 4; want != size || in.PayloadSize > uint64(size) {
		return Info{}, fmt.Errorf("%w: %d bytes, header says %d: truncated or padded", ErrFormat, size, want)
	}
	payload := io.LimitReader(r, int64(in.PayloadSize))
	err = walk(&bitReader{src: payload}, in)
	if errors.Is(err, ErrTooBig) {
		return Info{}, err
	}
	if _, cerr := io.Copy(io.Discard, payload); cerr != nil {
		return Info{}, cerr
	}
	want := sum.Sum32()
	var tail [4]byte
	if _, cerr := io.ReadFull(r, tail[:]); cerr != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrFormat, cerr)
	}
	if want != binary.LittleEndian.Uint32(tail[:]) {
		return Info{}, fmt.Errorf("%w: checksum mismatch (file corrupt)", ErrFormat)
	}
	if err != nil {
		return Info{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return in, nil
}

// levelsV2 counts the nodes of a version 2 payload (each level says its
// count; its nodes are read past, their references checked).
func levelsV2(br *bitReader, in Info) ([]uint64, error) {
	L := in.Order.Vars()
	count := make([]uint64, L)
	var total uint64
	for lv := L - 1; lv >= 0; lv-- {
		c := br.gamma() - 1
		if br.err != nil || c > in.Nodes-total {
			return nil, fmt.Errorf("level %d: bad node count", lv)
		}
		count[lv] = c
		if c == 0 {
			continue
		}
		loc, hic := readCoder(br), readCoder(br)
		S := uint32(total + 2)
		var lo uint64
		for k := uint64(0); k < c; k++ {
			lo += loc.get(br)
			hi := hic.get(br)
			if br.err != nil {
				return nil, fmt.Errorf("payload ends inside level %d", lv)
			}
			_, ok1 := decode(lo, S)
			_, ok2 := decode(hi, S)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("level %d: child reference out of range", lv)
			}
			if !in.ZDD && lo == hi || in.ZDD && hi == uint64(False) {
				return nil, fmt.Errorf("level %d: a node breaks the reduction rule", lv)
			}
		}
		total += c
	}
	if total != in.Nodes {
		return nil, fmt.Errorf("payload holds %d nodes, header says %d", total, in.Nodes)
	}
	if !br.rest() {
		return nil, errors.New("payload has trailing data")
	}
	return count, nil
}

// child names a node within the walk of levelsV3: a terminal (level -1),
// a shared node by its level and number, or any other node by a number no
// other node has; two children are the same node exactly when equal.
type child struct {
	level int
	num   uint64
}

// levelsV3 counts the nodes of a version 3 or 4 payload, walking its
// depth-first stream with a count of nodes and of shared nodes per level:
// a reference to an earlier node only has to fall within its level's
// shared nodes.
func levelsV3(br *bitReader, in Info) ([]uint64, error) {
	L := in.Order.Vars()
	rank, newC, backC, idx, err := readCodes(br, L)
	if err != nil {
		return nil, err
	}
	count := make([]uint64, L)
	shared := make([]uint64, L)
	var total uint64
	errBad := errors.New("bad node stream")
	var node func(lv int) child
	node = func(lv int) child {
		if total >= in.Nodes {
			br.err = fmt.Errorf("more nodes than the header's %d", in.Nodes)
			return child{}
		}
		total++
		me := total
		isShared := br.read(1) == 1
		var kids [2]child
		for e := range kids {
			switch rank[e].get(br) {
			case edgeFalse:
				kids[e] = child{-1, uint64(False)}
			case edgeTrue:
				kids[e] = child{-1, uint64(True)}
			case edgeNew:
				cl := lv + 1 + int(newC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return child{}
				}
				kids[e] = node(cl)
			case edgeBack:
				cl := lv + 1 + int(backC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return child{}
				}
				i := idx[cl].get(br)
				if br.err != nil || i >= shared[cl] {
					br.err = errBad
					return child{}
				}
				kids[e] = child{cl, shared[cl] - 1 - i}
			}
			if br.err != nil {
				return child{}
			}
		}
		if !in.ZDD && kids[0] == kids[1] || in.ZDD && kids[1] == (child{-1, uint64(False)}) {
			br.err = fmt.Errorf("level %d: a node breaks the reduction rule", lv)
			return child{}
		}
		count[lv]++
		if isShared {
			shared[lv]++
			return child{lv, shared[lv] - 1}
		}
		return child{lv, 1<<63 | me}
	}
	if in.Nodes > 0 {
		lv := newC.get(br)
		if br.err != nil || lv >= uint64(L) {
			return nil, errBad
		}
		node(int(lv))
		if br.err != nil {
			return nil, br.err
		}
		if in.Root != in.Nodes+1 {
			return nil, fmt.Errorf("root is node %d, header says %d", in.Nodes+1, in.Root)
		}
	}
	if !br.rest() {
		return nil, errors.New("payload has trailing data")
	}
	if total != in.Nodes {
		return nil, fmt.Errorf("payload holds %d nodes, header says %d", total, in.Nodes)
	}
	if w := slices.Max(append([]uint64{0}, count...)); in.Version >= bddVersion && w != in.WidestLevel {
		return nil, fmt.Errorf("the widest level holds %d nodes, header says %d", w, in.WidestLevel)
	}
	return count, nil
}

// Check reads the BDD file at path once and checks everything Load
// checks (checksum, reduction, the shared flags, the member count, the
// widest level), returning its nodes per level as LevelNodes does. A
// format 3 or 4 BDD is checked in one stream holding only its nodes with
// several parents (16 bytes each: about 0.8 GB for Gap6_10, where Load
// holds 40 bytes a node); it stops with ErrTooBig if those would pass
// limit bytes (0: no limit). Older files and ZDDs are loaded whole.
func Check(path string, limit uint64) ([]uint64, Info, error) {
	in, err := ReadInfo(path)
	if err != nil {
		return nil, Info{}, err
	}
	if in.ZDD || in.Version < bddV3 {
		d, in, err := Load(path)
		if err != nil {
			return nil, Info{}, err
		}
		levels := make([]uint64, d.Order.Vars())
		for lv, n := range d.LevelSizes() {
			levels[lv] = uint64(n)
		}
		return levels, in, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	var levels []uint64
	in, err = readStream(bufio.NewReaderSize(f, 1<<20), in.FileSize, func(br *bitReader, in Info) (err error) {
		_, levels, err = leanWalk(br, in, limit, false)
		return err
	})
	if err != nil {
		return nil, Info{}, fmt.Errorf("%s: %w", path, err)
	}
	return levels, in, nil
}
