package gapset

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/statedir"
)

// Projection tables. A run keeps a projection either as sorted runs,
// merged at the end (compaction keeps them near the final set's size, 3.4
// bytes a key above gap 4), or, with Config.Tables, as one bit per pattern
// of its cells in memory (placement.RankKey order, which is key order, so
// the key-set file is written from the table in one pass). A table costs
// n!/(n-k)!/8 bytes whatever the set holds: 3.6 GiB for 10 of 16 cells,
// 0.5 GiB for 9, against tens of GiB of runs for the large sets it serves
// (the gap <= 8 projections), and it is written whole into the checkpoint.
// The key-set files are the same bytes either way.

// tableFor reports whether the projection onto s is kept as a table in a
// run of cfg: below the whole board, within MaxApproxBytes.
func (c Config) tableFor(s encode.CellSet) bool {
	n := c.Rows * c.Cols
	return c.Tables && s.Len() < n && placement.Bytes(n, s.Len()) <= MaxApproxBytes
}

// TableBytes is the memory the projection tables of cfg take (and the
// disk of each copy in a checkpoint).
func (c Config) TableBytes() int64 {
	var b int64
	for _, s := range c.Projections() {
		if c.tableFor(s) {
			b += placement.Bytes(c.Rows*c.Cols, s.Len())
		}
	}
	return b
}

// addSorted sets the bits of sorted, distinct projected keys on the
// workers (each segment's words are its own but at its ends, which the
// atomic OR of set shares) and counts the patterns new to the table. A
// cancellation skips segments, so it is an error here: the table is then
// short of keys and no checkpoint may save it.
func (e *streamer) addSorted(b *Bits, a []uint64) error {
	var added atomic.Int64
	e.inSegments(len(a), func(lo, hi int) {
		p := placement.NewPrefix(b.rk)
		n := int64(0)
		for i, k := range a[lo:hi] {
			// Sorted keys share their leading digits: rank from the
			// first digit that differs from a recent key.
			if i&63 == 0 {
				p.Set(k)
			}
			if b.set(p.Rank(k)) {
				n++
			}
		}
		added.Add(n)
	})
	b.count += added.Load()
	return e.ctx.Err()
}

// tableRecord names a projection table's file in the checkpoint.
type tableRecord struct {
	Name  string `json:"name"`
	Count int64  `json:"count"` // patterns set
	Bytes int64  `json:"bytes"`
	Sum   uint32 `json:"crc32c"`
}

// writeTable writes b's words, little-endian, to a new file of the state
// directory and returns its record. The file is synced with the others
// before the manifest names it.
func (e *streamer) writeTable(s encode.CellSet, b *Bits) (tableRecord, error) {
	e.seq++
	name := fmt.Sprintf("%06d-%s", e.seq, statedir.Table(s.Len(), uint16(s)))
	path := filepath.Join(e.state, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return tableRecord{}, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	buf := make([]byte, 1<<16)
	crc := uint32(0)
	for i := 0; i < len(b.words); {
		m := 0
		for ; m+8 <= len(buf) && i < len(b.words); i++ {
			binary.LittleEndian.PutUint64(buf[m:], b.words[i])
			m += 8
		}
		crc = statedir.Update(crc, buf[:m])
		if _, err := w.Write(buf[:m]); err != nil {
			f.Close()
			os.Remove(path)
			return tableRecord{}, err
		}
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return tableRecord{}, err
	}
	bytes := int64(len(b.words)) * 8
	e.du.Add(bytes)
	e.fresh = append(e.fresh, path)
	return tableRecord{Name: name, Count: b.count, Bytes: bytes, Sum: crc}, nil
}

// readTable loads a table the checkpoint names, checking its size, its
// checksum and its count.
func (e *streamer) readTable(s encode.CellSet, rec tableRecord) (*Bits, error) {
	b := newRankedBits(e.g.N, s.Len())
	path := filepath.Join(e.state, rec.Name)
	if rec.Bytes != int64(len(b.words))*8 {
		return nil, statedir.Damaged(e.state, "the manifest's table %s has %d bytes, the cells %s take %d", rec.Name, rec.Bytes, s, len(b.words)*8)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, statedir.Damaged(e.state, "%s is missing or unreadable", rec.Name)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	buf := make([]byte, 1<<16)
	crc := uint32(0)
	count := int64(0)
	for i := 0; i < len(b.words); {
		m := min(len(buf), 8*(len(b.words)-i))
		if _, err := io.ReadFull(r, buf[:m]); err != nil {
			return nil, statedir.Damaged(e.state, "%s has fewer than %d bytes", rec.Name, rec.Bytes)
		}
		crc = statedir.Update(crc, buf[:m])
		for x := 0; x < m; x += 8 {
			w := binary.LittleEndian.Uint64(buf[x:])
			b.words[i] = w
			count += int64(bits.OnesCount64(w))
			i++
		}
	}
	if n, _ := r.Read(buf[:1]); n != 0 {
		return nil, statedir.Damaged(e.state, "%s has more than %d bytes", rec.Name, rec.Bytes)
	}
	switch {
	case crc != rec.Sum:
		return nil, statedir.Damaged(e.state, "%s fails its checksum", rec.Name)
	case count != rec.Count:
		return nil, statedir.Damaged(e.state, "%s holds %d patterns, the manifest says %d", rec.Name, count, rec.Count)
	}
	b.count = count
	e.du.Add(rec.Bytes)
	return b, nil
}

// checkpointTables writes every table into the state directory and
// returns their records by the set's hex digits; the files of the last
// checkpoint are removed once the new manifest is written (retireTables).
func (e *streamer) checkpointTables() (map[string]tableRecord, error) {
	if len(e.tables) == 0 {
		return nil, nil
	}
	recs := map[string]tableRecord{}
	for s, b := range e.tables {
		rec, err := e.writeTable(s, b)
		if err != nil {
			return nil, err
		}
		recs[s.Hex()] = rec
	}
	return recs, nil
}

// retireTables removes the table files the previous manifest named, now
// that one naming their successors is in place, and pins the new ones.
func (e *streamer) retireTables(recs map[string]tableRecord) {
	for _, rec := range e.tableFiles {
		os.Remove(filepath.Join(e.state, rec.Name))
		e.du.Remove(rec.Bytes)
	}
	e.tableFiles = recs
}

// keepTables makes the tables of the projections cfg keeps so.
func (e *streamer) keepTables() {
	e.tables = map[encode.CellSet]*Bits{}
	for _, s := range e.cfg.Projections() {
		if e.cfg.tableFor(s) {
			e.tables[s] = newRankedBits(e.g.N, s.Len())
		}
	}
}

// tableFileBytes is the disk the checkpoint's table files take.
func tableFileBytes(recs map[string]tableRecord) int64 {
	var n int64
	for _, r := range recs {
		n += r.Bytes
	}
	return n
}
