package gapset

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

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

// OutputPath is the key-set file of the projection onto k cells: Paths[k]
// if given, else its standard name in Dir.
func (c Config) OutputPath(k int) string {
	if p, ok := c.Paths[k]; ok {
		return p
	}
	dir := c.Dir
	if dir == "" {
		dir = "."
	}
	return filepath.Join(dir, c.header(k).Name()+".keys")
}

// header describes the projection onto k cells.
func (c Config) header(k int) keyset.Header {
	return keyset.Header{Rows: c.Rows, Cols: c.Cols, Cells: k, Gap: c.MaxGap, Exact: c.Exact && c.MaxGap > 0, Packed: c.Packed}
}

// OutputPaths are the key-set files the run writes, one per projection.
func (c Config) OutputPaths() []string {
	var out []string
	for _, k := range c.Cells {
		out = append(out, c.OutputPath(k))
	}
	return out
}

// Check reports the arguments Enumerate would refuse (board size, gap,
// cells, memory), wrapping ErrArgs, so a command can refuse them before it
// creates anything.
func (c Config) Check() error {
	if _, err := checkArgs(c.Rows, c.Cols, c.MaxGap, c.Cells); err != nil {
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
	return nil
}

// ParseCells reads a comma-separated list of projections ("8,10,12").
func ParseCells(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("--cells: %q is not a number", f)
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--cells: no projection given")
	}
	return out, nil
}
