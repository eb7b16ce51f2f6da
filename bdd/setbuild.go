package bdd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
)

// SetBuild is one build of a set's diagram as gapset build runs it: from
// a key file (in memory, in passes of Keys.MaxKeys, or out of core with
// PlanBuild's configuration) or from keys enumerated in memory, saved to
// Out and, with Map, in its mapped form too.
type SetBuild struct {
	KeyFile string
	// Enumerate gives the keys when KeyFile is "".
	Enumerate func() ([]uint64, error)
	Header    keyset.Header // the set: board, cells, gap, count
	Keys      KeysBuild
	// OutOfCore, if set, builds out of core from KeyFile; its State, if
	// any, is removed once the file is saved.
	OutOfCore *OutOfCore
	Out, Map  string
	// Saving, if set, hears the node count before the files are written.
	Saving func(nodes int)
}

// Run builds and saves the diagram and returns the lines gapset build
// prints: the file's (order, counts, size, build time) and the mapped
// form's (those made before an error, with it).
func (b SetBuild) Run(ctx context.Context) ([]string, error) {
	n, k := b.Header.Rows*b.Header.Cols, b.Header.Cells
	var built Built
	var err error
	switch {
	case b.OutOfCore != nil:
		built, err = BuildOutOfCore(b.KeyFile, n, k, b.Keys, *b.OutOfCore)
		if err == nil {
			defer built.BDD.Close()
		}
	case b.KeyFile == "":
		var keys []uint64
		if keys, err = b.Enumerate(); err == nil {
			kb := b.Keys
			kb.Count = uint64(len(keys))
			built, err = BuildKeys(keys, n, k, kb)
		}
	default:
		built, err = BuildKeyFile(b.KeyFile, n, k, b.Keys)
	}
	if errors.Is(err, ErrLevelFull) {
		err = fmt.Errorf("%w (solve and bench take the key-set file as it is)", err)
	}
	if err != nil {
		return nil, err
	}
	_, peak := sysprobe.Memory()
	built.Peak = int64(peak)
	if b.Saving != nil {
		b.Saving(built.BDD.NodeCount())
	}
	in, err := built.SaveAll(ctx, b.Out, b.Map, b.Header, b.Keys.Encoding)
	if err != nil {
		return nil, err
	}
	if b.OutOfCore != nil && b.OutOfCore.State != nil { // saved: the state goes
		if err := b.OutOfCore.State.Remove(); err != nil {
			return nil, err
		}
	}
	mode := ""
	if b.OutOfCore != nil {
		mode = fmt.Sprintf(" out_of_core=%d_parts bottom_levels=%d", slices.Max(built.BDD.Parts), built.BDD.Bottom)
	}
	lines := []string{fmt.Sprintf("%s order=%s patterns=%d nodes=%d zdd_nodes=%d bytes=%d build=%.1fs table_bytes=%d%s -> %s",
		in.Name(), b.Keys.Order.Name, in.Count, in.Nodes, in.ZDDNodes, in.FileSize, built.Took.Seconds(), built.BDD.TableBytes, mode, b.Out)}
	if b.Map != "" {
		st, err := os.Stat(b.Map)
		if err != nil {
			return lines, err
		}
		lines = append(lines, fmt.Sprintf("%s mapped nodes=%d bytes=%d -> %s", in.Name(), in.Nodes, st.Size(), b.Map))
	}
	return lines, nil
}
