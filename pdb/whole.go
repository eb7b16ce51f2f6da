package pdb

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"runtime"

	"github.com/gapset/gapset/encode"
)

// The complete check at load (docs/file-checks.md says why it is this one).
//
// A group's table is min over the blank's region of a distance in the
// (placement, region) graph: a projection that no local rule over the
// placements' entries pins down (one move may change an entry by up to
// the step, 7 on the 3x3 and 4x4 tables, in either direction), so no
// single pass over a table can tell it from a table raised where it
// should not be. Builds are deterministic byte for byte, though, so a
// file of a known group is checked whole by its SHA-256, and a small table
// of another group by building it again.

// rebuildMax is the largest table (entries) without a known digest that a
// load builds again to compare: a tenth of a second on two cores (a 4x4
// group of 5 tiles, 524,160 entries; every 3x3 group).
const rebuildMax = 1 << 20

// knownDigest returns the SHA-256 of the whole file gapset builds for the
// group (compact: the --compact file), as sha256sum prints it, when the
// group is one of a named partition's.
func knownDigest(rows, cols int, group []uint8, compact, blank bool) (string, bool) {
	name := FileName(rows, cols, group)
	if blank {
		name = BlankFileName(rows, cols, group)
	} else if compact {
		name += " compact"
	}
	d, ok := knownDigests[name]
	return d, ok
}

// checkWhole runs the complete check of a table that passed the others:
// got, the file's SHA-256, against digest for a known group; else, for a
// small table, the table built again; else nothing (whole is false: only
// the sampled checks saw it).
func checkWhole(rows, cols int, group []uint8, data []uint8, compact, blank bool, step int, digest string, got []byte) (whole bool, err error) {
	if digest != "" {
		if hex.EncodeToString(got) != digest {
			return false, fmt.Errorf("not the file gapset builds for group %v on %dx%d (SHA-256 %.6x..., the build's %.12s...)", group, rows, cols, got, digest)
		}
		return true, nil
	}
	if blank {
		if BlankEntries(rows*cols, len(group)) > rebuildMax {
			return false, nil
		}
		want, err := BuildBlank(context.Background(), rows, cols, group, runtime.NumCPU(), nil)
		if err != nil {
			return false, err
		}
		if i := firstDiff(data, want); i >= 0 {
			return false, fmt.Errorf("byte %d of blank-aware entries is %d, the table built again has %d", i, data[i], want[i])
		}
		return true, nil
	}
	if Entries(rows*cols, len(group)) > rebuildMax {
		return false, nil
	}
	want, wstep, err := Build(context.Background(), rows, cols, group, runtime.NumCPU(), nil)
	if err != nil {
		return false, err
	}
	if compact {
		geo, err := encode.NewGeometry(rows, cols)
		if err != nil {
			return false, err
		}
		if want, err = compactTable(geo, group, want, runtime.NumCPU()); err != nil {
			return false, err
		}
	}
	if wstep != step {
		return false, fmt.Errorf("stored step %d, the table built again has %d", step, wstep)
	}
	if !bytes.Equal(data, want) {
		i := 0
		for data[i] == want[i] {
			i++
		}
		what := "entry"
		if compact {
			what = "byte of compact entries"
		}
		return false, fmt.Errorf("%s %d is %d, the table built again has %d", what, i, data[i], want[i])
	}
	return true, nil
}

// firstDiff is the first index where a and b differ (the shorter length
// when one is a prefix of the other), or -1.
func firstDiff(a, b []uint8) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
