package pdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gapset/gapset/encode"
)

// Paths are the files of the partition's databases in dir.
func (p Partition) Paths(dir string) []string {
	var out []string
	for _, g := range p.Groups {
		out = append(out, filepath.Join(dir, p.fileName(g)))
	}
	return out
}

// DiskNeed is the most free disk BuildFiles takes to write part into dir
// (compact or not). The files are written one at a time, each beside the
// file it replaces until the rename, so the peak is the largest, over the
// files in order, of the growth of those already written plus the whole
// file being written. Rebuilding in place needs little more than the
// largest file.
func (p Partition) DiskNeed(dir string, compact bool) int64 {
	var grown, peak int64
	for i, path := range p.Paths(dir) {
		size := p.fileSize(p.Groups[i], compact)
		peak = max(peak, grown+size)
		var old int64
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			old = st.Size()
		}
		grown += size - old
	}
	return peak
}

// fileSize is the size of group g's file.
func (p Partition) fileSize(g []uint8, compact bool) int64 {
	n := p.Rows * p.Cols
	size := int64(Entries(n, len(g))) // a byte per placement of the group's tiles
	if p.Blank {
		size = (int64(BlankEntries(n, len(g))) + 1) / 2 // 4 bits per placement of the tiles and the blank
	} else if compact {
		size = (size + 1) / 2
	}
	return size + headerSize
}

// BuildMemory is the most memory BuildFiles takes for part (compact or
// not), from its tables, one group at a time: the group's search table (4
// bytes a placement of its tiles with at most 8 free cells, else 8), which
// is given back as the table of a byte a placement is filled (Build), and
// the compact table coded from that; blank-aware, the search table and a
// byte a placement of the tiles and the blank while the values are
// gathered, then those bytes and the 4-bit table they are coded into. The
// program and the small tables add about 100 MB.
func (p Partition) BuildMemory(compact bool) int64 {
	n := p.Rows * p.Cols
	var peak int64
	for _, g := range p.Groups {
		k := len(g)
		placements := int64(Entries(n, k))
		word := int64(4)
		if n-k > 8 {
			word = 8
		}
		search := placements * word
		var need int64
		if p.Blank {
			vals := int64(BlankEntries(n, k))
			need = max(search+vals, vals+(vals+1)/2)
		} else {
			// the result is filled as the search table is given back
			need = max(search, placements)
			if compact {
				need = max(need, placements+(placements+1)/2)
			}
		}
		peak = max(peak, need)
	}
	return peak
}

// Written describes one database BuildFiles wrote.
type Written struct {
	Path    string
	Entries int
	Max     int // the largest entry: moves of the group's hardest placement
	Step    int
	Took    time.Duration
	Sys     uint64 // bytes obtained from the OS so far (runtime.MemStats.Sys)
}

// BuildFiles builds the database of each group of part in turn and writes
// it into dir (atomically, FileName), holding one table at a time. prog,
// when set, is asked for the progress report of each group as its build
// starts; written hears of each file. Once ctx is done it stops with
// ctx's error and no file takes its name after that; the groups' files
// written before stay, each whole.
//
// compact writes the tables in the compact coding (WriteCompact): the
// groups must cover every tile. With part.Blank it writes the blank-aware
// tables (BuildBlank, WriteBlank), whose coding is always compact.
func BuildFiles(ctx context.Context, part Partition, dir string, workers int, compact bool, prog func(group int) Progress, written func(Written)) error {
	paths := part.Paths(dir)
	if part.Blank {
		return buildBlankFiles(ctx, part, paths, workers, prog, written)
	}
	if compact {
		if err := part.checkCovers(); err != nil {
			return err
		}
	}
	for gi, g := range part.Groups {
		t0 := time.Now()
		var pr Progress
		if prog != nil {
			pr = prog(gi)
		}
		table, step, err := Build(ctx, part.Rows, part.Cols, g, workers, pr)
		if err != nil {
			return err
		}
		if compact {
			geo, err := encode.NewGeometry(part.Rows, part.Cols)
			if err != nil {
				return err
			}
			nib, err := compactTable(geo, g, table, workers)
			if err != nil {
				return err
			}
			err = writeCompact(ctx, paths[gi], part.Rows, part.Cols, g, nib, step)
		} else {
			err = writePlain(ctx, paths[gi], part.Rows, part.Cols, g, table, step)
		}
		if err != nil {
			return err
		}
		w := Written{Path: paths[gi], Entries: len(table), Step: step, Took: time.Since(t0)}
		for _, v := range table {
			w.Max = max(w.Max, int(v))
		}
		report(w, written)
	}
	return nil
}

// report tells written (when set) of a file written, with the memory
// taken so far, and gives the group's memory back before the next.
func report(w Written, written func(Written)) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	w.Sys = ms.Sys
	if written != nil {
		written(w)
	}
	runtime.GC()
}

// buildBlankFiles is BuildFiles of blank-aware tables.
func buildBlankFiles(ctx context.Context, part Partition, paths []string, workers int, prog func(group int) Progress, written func(Written)) error {
	if err := part.checkCovers(); err != nil {
		return err
	}
	geo, err := encode.NewGeometry(part.Rows, part.Cols)
	if err != nil {
		return err
	}
	for gi, g := range part.Groups {
		t0 := time.Now()
		var pr Progress
		if prog != nil {
			pr = prog(gi)
		}
		nib, err := BuildBlank(ctx, part.Rows, part.Cols, g, workers, pr)
		if err != nil {
			return err
		}
		if err := WriteBlank(ctx, paths[gi], part.Rows, part.Cols, g, nib); err != nil {
			return err
		}
		w := Written{Path: paths[gi], Entries: BlankEntries(geo.N, len(g)), Step: 1, Took: time.Since(t0), Max: blankMax(geo, g, nib, workers)}
		nib = nil
		report(w, written)
	}
	return nil
}

// checkCovers reports whether the groups hold every tile and each leaves a
// cell free: what the compact coding needs (see Compact).
func (p Partition) checkCovers() error {
	n, covered := p.Rows*p.Cols, 0
	for _, g := range p.Groups {
		covered += len(g)
		if len(g) >= n-1 {
			return fmt.Errorf("compact coding: group %v holds every tile", g)
		}
	}
	if covered != n-1 {
		return fmt.Errorf("compact coding: partition %s covers %d of the %d tiles", p.Name, covered, n-1)
	}
	return nil
}
