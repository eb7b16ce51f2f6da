package gapset

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/keyset"
)

// ScratchName names the enumerator's scratch directories (sorted runs); the
// file writer's naming adds the PID, so that a later run can tell the
// scratch of a dead process from a live one's (atomicfile.RemoveStale).
const ScratchName = "gapset-runs"

// ScratchDir is the directory the scratch directory goes into: TempDir, or
// the output directory.
func (c Config) ScratchDir() string {
	if c.TempDir != "" {
		return c.TempDir
	}
	if c.Dir == "" {
		return "."
	}
	return c.Dir
}

// ScratchGlob matches the scratch directories this process makes in dir.
func ScratchGlob(dir string) string { return atomicfile.DirGlob(dir, ScratchName) }

// OutputPath is the key-set file of the projection onto the last k cells.
func (c Config) OutputPath(k int) string { return c.OutputPathOf(encode.LastCells(c.Rows*c.Cols, k)) }

// OutputPathOf is the key-set file of the projection onto the cells of s:
// Paths[s] if given, else its standard name in Dir.
func (c Config) OutputPathOf(s encode.CellSet) string {
	if p, ok := c.Paths[s]; ok {
		return p
	}
	dir := c.Dir
	if dir == "" {
		dir = "."
	}
	return filepath.Join(dir, c.header(s).Name()+".keys")
}

// header describes the projection onto the cells of s.
func (c Config) header(s encode.CellSet) keyset.Header {
	return keyset.Header{Rows: c.Rows, Cols: c.Cols, Gap: c.MaxGap, Exact: c.Exact && c.MaxGap > 0, Packed: c.Packed, Base: baseID(c.Base)}.OnCells(s)
}

// Projections are the cells of every key-set file the run writes: the
// last k for each of Cells, then Sets.
func (c Config) Projections() []encode.CellSet {
	var out []encode.CellSet
	for _, k := range c.Cells {
		out = append(out, encode.LastCells(c.Rows*c.Cols, k))
	}
	return append(out, c.Sets...)
}

// OutputPaths are the key-set files the run writes, one per projection.
func (c Config) OutputPaths() []string {
	var out []string
	for _, s := range c.Projections() {
		out = append(out, c.OutputPathOf(s))
	}
	return out
}

// check is checkArgs on the configuration's projections: Cells and Sets
// (a run may ask for sets alone).
func (c Config) check() (*geometry, error) {
	cells := c.Cells
	if len(cells) == 0 && len(c.Sets) > 0 {
		cells = []int{c.Rows * c.Cols} // the board's checks; no projection
	}
	g, err := checkArgs(c.Rows, c.Cols, c.MaxGap, cells)
	if err != nil {
		return nil, err
	}
	seen := map[encode.CellSet]bool{}
	for _, s := range c.Sets {
		if err := s.Check(g.N); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArgs, err)
		}
		if s.IsLast(g.N) {
			return nil, fmt.Errorf("%w: cell set %s is the last %d cells: ask for %d in cells", ErrArgs, s, s.Len(), s.Len())
		}
		if seen[s] {
			return nil, fmt.Errorf("%w: cell set %s asked for twice", ErrArgs, s)
		}
		seen[s] = true
	}
	return g, nil
}

// Check reports the arguments Enumerate would refuse (board size, gap,
// cells, memory), wrapping ErrArgs, so a command can refuse them before it
// creates anything.
func (c Config) Check() error {
	if _, err := c.check(); err != nil {
		return err
	}
	if c.Memory < 0 {
		return fmt.Errorf("%w: memory budget %d is negative", ErrArgs, c.Memory)
	}
	if c.RawRuns && c.RankRuns {
		return fmt.Errorf("%w: runs are either raw or rank-coded, not both", ErrArgs)
	}
	if c.PrefixBits > maxPrefixBits {
		return fmt.Errorf("%w: %d prefix bits: at most %d", ErrArgs, c.PrefixBits, maxPrefixBits)
	}
	if c.MaxStep < 0 {
		return fmt.Errorf("%w: max step %d: want 0 (no limit) or more", ErrArgs, c.MaxStep)
	}
	if c.CheckpointEvery < 0 {
		return fmt.Errorf("%w: checkpoint interval %v: want 0 (after every step) or more", ErrArgs, c.CheckpointEvery)
	}
	if c.Base != nil {
		g, _ := c.check()
		if err := checkBase(c.Base, g, c.transposer() != nil); err != nil {
			return err
		}
	}
	return nil
}

// ParseCells reads a comma-separated list of projections of an n-cell
// board: K (the last K cells) or @SET, a cell set as encode.ParseCellSet
// reads it ("8,10,@0-3+8-11"). A set that is the last k cells is k.
func ParseCells(s string, n int) ([]int, []encode.CellSet, error) {
	var out []int
	var sets []encode.CellSet
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if spec, ok := strings.CutPrefix(f, "@"); ok {
			set, err := encode.ParseCellSet(spec)
			if err != nil {
				return nil, nil, fmt.Errorf("--cells: %v", err)
			}
			if err := set.Check(n); err != nil {
				return nil, nil, fmt.Errorf("--cells: %v", err)
			}
			if set.IsLast(n) {
				out = append(out, set.Len())
			} else {
				sets = append(sets, set)
			}
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil {
			return nil, nil, fmt.Errorf("--cells: %q is not a number K nor @SET (a set's cells and ranges joined by \"+\": @0-3+8-11)", f)
		}
		out = append(out, k)
	}
	if len(out)+len(sets) == 0 {
		return nil, nil, fmt.Errorf("--cells: no projection given")
	}
	return out, sets, nil
}
