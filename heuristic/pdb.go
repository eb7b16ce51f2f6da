package heuristic

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/pdb"
)

func pdbEntries() []Entry {
	return []Entry{
		pdbEntry("pdb78", "7-8 additive databases, also looked up on the transpose", "7-8", 4, 4, true),
		pdbEntry("pdb663", "6-6-3 additive databases, also looked up on the transpose", "6-6-3", 4, 4, true),
		pdbEntry("pdb555", "5-5-5 additive databases, also looked up on the transpose", "5-5-5", 4, 4, true),
		pdbEntry("pdb78-direct", "7-8 additive databases, not looked up on the transpose", "7-8", 4, 4, false),
		pdbEntry("pdb78-noskip", "pdb78 evaluated at every node", "7-8", 4, 4, true),
		pdbEntry("pdb78-noprefetch", "pdb78 without the prefetch of the children's entries (for comparisons)", "7-8", 4, 4, true),
		pdbEntry("pdb78-compact", "pdb78 with 4-bit entries (half the memory; converted at load, about a second)", "7-8", 4, 4, true),
		pdbEntry("pdb78-dual", "pdb78, also the dual boards (the inverse permutations) where proven", "7-8", 4, 4, true),
		pdbEntry("pdb663-dual", "pdb663, also the dual boards (the inverse permutations) where proven", "6-6-3", 4, 4, true),
		pdbEntry("pdb44", "4-4 databases of the 3x3 board", "4-4", 3, 3, false),
		pdbMaxEntry("pdb78+663", "max of the transposing 7-8 and 6-6-3 databases", "7-8", "6-6-3"),
		pdbEntry("pdb78mid", "the 7-8-mid databases (middle rows; outer rows), also looked up on the transpose", "7-8-mid", 4, 4, true),
		pdbMaxEntry("pdb78+78mid", "max of the transposing 7-8 and 7-8-mid databases (the fewest nodes; both sets in --pdb)", "7-8", "7-8-mid"),
		{Name: "pdb78b", Usage: "the blank-aware 7-8 databases (pdb build --blank), also looked up on the transpose: changes by exactly one a move", Options: []string{OptPDB},
			Make: func(r *Resolver, _ string) (ida.Heuristic, error) {
				return r.pdbLoad("7-8", 4, 4, true, true, "pdb78b")
			}},
		blankEntry("pdbb", "blank-aware additive databases of PARTITION on the board of --rows/--cols (pdb build --blank), e.g. pdbb:1-6/7-11", false),
		blankEntry("pdbbr", "pdbb, also looked up on the transpose (square boards)", true),
	}
}

// blankEntry is the blank-aware databases of any partition: the spec's
// argument, in which '.' stands for ',' (a comma ends a part of max(...)).
func blankEntry(name, usage string, transpose bool) Entry {
	return Entry{Name: name, Args: "PARTITION", Usage: usage, Options: []string{OptPDB},
		Make: func(r *Resolver, args string) (ida.Heuristic, error) {
			if args == "" {
				return nil, fmt.Errorf("%s needs a partition: %s:7-8, or groups like %s:1-6/7-11 (tiles separated by '.', ranges by '-')", name, name, name)
			}
			rows, cols := r.opt.Rows, r.opt.Cols
			if rows == 0 {
				rows, cols = 4, 4
			}
			return r.pdbLoad(strings.ReplaceAll(args, ".", ","), rows, cols, transpose, true, name+":"+args)
		}}
}

// pdbMaxEntry is the largest of the transposing databases of 4x4 partitions.
func pdbMaxEntry(name, usage string, partitions ...string) Entry {
	return Entry{Name: name, Usage: usage, Options: []string{OptPDB},
		Make: func(r *Resolver, _ string) (ida.Heuristic, error) {
			var parts []ida.Heuristic
			for _, p := range partitions {
				h, err := r.pdbHeuristic(p, 4, 4, true, "pdb"+p)
				if err != nil {
					return nil, err
				}
				parts = append(parts, h)
			}
			return ida.Max{Parts: parts, Label: name}, nil
		}}
}

func pdbEntry(name, usage, partition string, rows, cols int, transpose bool) Entry {
	return Entry{Name: name, Usage: usage, Options: []string{OptPDB},
		Make: func(r *Resolver, _ string) (ida.Heuristic, error) {
			return r.pdbHeuristic(partition, rows, cols, transpose, name)
		}}
}

// PDBDir is the directory databases are read from.
func (r *Resolver) PDBDir() string {
	if r.opt.PDBDir == "" {
		return DefaultPDBDir
	}
	return r.opt.PDBDir
}

// pdbHeuristic loads (once) the databases of a partition.
func (r *Resolver) pdbHeuristic(partition string, rows, cols int, transpose bool, label string) (ida.Heuristic, error) {
	return r.pdbLoad(partition, rows, cols, transpose, false, label)
}

// pdbLoad loads (once) the databases of a partition, blank-aware ones
// with blank.
func (r *Resolver) pdbLoad(partition string, rows, cols int, transpose, blank bool, label string) (ida.Heuristic, error) {
	if r.opt.Rows != 0 && (r.opt.Rows != rows || r.opt.Cols != cols) {
		return nil, fmt.Errorf("heuristic %s is for %dx%d boards, not %dx%d", label, rows, cols, r.opt.Rows, r.opt.Cols)
	}
	part, err := pdb.ParsePartition(partition, rows, cols)
	if err != nil {
		return nil, err
	}
	part.Blank = blank
	if transpose && rows != cols {
		return nil, fmt.Errorf("heuristic %s looks up the transpose: a square board, not %dx%d", label, rows, cols)
	}
	dir := r.PDBDir()
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("--pdb %s is a file, not a directory of pattern databases", quote(dir))
	}
	compact := strings.HasSuffix(label, "-compact")
	key := part.Name
	if compact {
		key += "/compact"
	}
	loaded := part.Name // the key of the set as loaded
	if blank {
		key = fmt.Sprintf("%dx%d %v blank", rows, cols, part.Groups)
		loaded = key
	}
	set, ok := r.pdbs[key]
	if !ok {
		set, ok = r.pdbs[loaded]
		if !ok {
			var checks []*safe.Pending
			if r.opt.ChecksBeside {
				set, checks, err = pdb.LoadBeside(dir, part, r.opt.PDBVerified)
			} else {
				set, err = pdb.LoadVerified(dir, part, r.opt.PDBVerified)
			}
			if err != nil {
				return nil, err
			}
			r.pending = append(r.pending, checks...)
		}
		if compact { // the byte tables are dropped unless another heuristic holds them
			if set, err = set.Compact(runtime.NumCPU()); err != nil {
				return nil, err
			}
		}
		r.pdbs[key] = set
	}
	return &pdb.Heuristic{DBs: set, Transpose: transpose, Label: label,
		NoSkip: strings.HasSuffix(label, "-noskip"), Dual: strings.HasSuffix(label, "-dual"),
		NoPrefetch: strings.HasSuffix(label, "-noprefetch")}, nil
}
