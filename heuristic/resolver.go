package heuristic

import (
	"context"
	"fmt"
	"slices"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/pdb"
)

// DefaultPDBDir is where pattern databases are looked for when
// Options.PDBDir is empty.
const DefaultPDBDir = "pdb-data"

// Options are the files and settings heuristics may read.
type Options struct {
	Rows, Cols int
	// Keys and BDDs are gap-set files (key sets held exactly in memory,
	// BDDs queried in place).
	Keys, BDDs []string
	// GapDBs are gap databases (gapdb), one a projection: the gap
	// heuristics read their levels from them instead of from sets.
	GapDBs []string
	// Cells enumerates in memory the sets Gap0, Gap2, ..., Gap<MaxGap>
	// projected onto each of these cell counts.
	Cells  []int
	MaxGap int
	// Dense is the cells of the bit tables put in front of each gap set
	// (nil: DefaultDense; 0 entries are skipped). NameDense adds them to
	// the heuristic's name, to tell runs apart.
	Dense     []int
	NameDense bool
	// NoSkip makes gap heuristics query their sets at every node.
	NoSkip bool
	// PDBDir holds the pattern databases (empty: DefaultPDBDir).
	PDBDir string
	// PDBVerified remembers the database files checked whole before:
	// those unchanged since are not hashed again (nil: all are).
	PDBVerified *pdb.Verified
	// ChecksBeside leaves the checksum of the database files PDBVerified
	// records running beside the search (pdb.LoadBeside): the caller must
	// not report anything found before every one of Pending has passed.
	ChecksBeside bool
	// Context cancels a running enumeration (nil: never).
	Context context.Context
	// Progress, when set, hears from enumerations of Cells (gap: the set's
	// gap being enumerated).
	Progress func(gap int, p gapset.Progress)
	// Note, when set, hears what a BDD of a GiB or more will take before it
	// loads, and how it was laid out (bdd.OpenOptions).
	Note func(string)
}

// Resolver builds heuristics from specs. It loads each file once, however
// many specs use it. Not safe for concurrent use; the heuristics it returns
// are.
type Resolver struct {
	opt  Options
	pool *pool
	dbs  []*gapdb.DB // GapDBs, once opened
	pdbs map[string]*pdb.Databases
	// pending are the checks of loaded files still running (ChecksBeside).
	pending []*safe.Pending
	used    map[string]bool
}

// New returns a Resolver over the options; nothing is loaded yet.
func New(opt Options) *Resolver {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	if opt.Dense == nil {
		opt.Dense = DefaultDense()
	}
	return &Resolver{opt: opt, pdbs: map[string]*pdb.Databases{}, used: map[string]bool{}}
}

// Pending returns the checks of the loaded files still running (only with
// Options.ChecksBeside): nothing found with the heuristics may be reported
// before each has returned nil.
func (r *Resolver) Pending() []*safe.Pending { return r.pending }

// Resolve parses spec and builds its heuristic.
func (r *Resolver) Resolve(spec string) (ida.Heuristic, error) {
	sp, err := Parse(spec)
	if err != nil {
		return nil, err
	}
	base := sp
	base.Search = nil
	var fsm safe.Group
	if slices.Contains(sp.Search, "fsm") { // compiled on another core while the tables load
		fsm.Go(func() { ida.DefaultFSM() })
	}
	h, err := r.build(base)
	fsm.Wait()
	if err != nil || sp.Search == nil {
		return h, err
	}
	v := ida.Variant{Heuristic: h, Label: h.Name()}
	for _, o := range sp.Search {
		v.Label += "+" + o
		switch o {
		case "fsm":
			v.FSM = ida.DefaultFSM()
		case "bpmx":
			v.BPMX = true
		}
	}
	return v, nil
}

func (r *Resolver) build(sp Spec) (ida.Heuristic, error) {
	if sp.Parts != nil {
		m := ida.Max{Label: sp.String()}
		for _, p := range sp.Parts {
			h, err := r.build(p)
			if err != nil {
				return nil, err
			}
			m.Parts = append(m.Parts, h)
		}
		return m, nil
	}
	e, err := lookup(sp.Name)
	if err != nil {
		return nil, err
	}
	if sp.Args != "" && e.Args == "" {
		return nil, fmt.Errorf("heuristic %s takes no arguments (got %s)", e.Name, quote(sp.Args))
	}
	for _, o := range e.Options {
		r.used[o] = true
	}
	return e.Make(r, sp.Args)
}

// Uses reports whether a heuristic resolved so far reads the option (one of
// OptKeys, ...).
func (r *Resolver) Uses(option string) bool { return r.used[option] }

// SaveVerified writes the record of databases checked whole, when one was
// given and loads added to it (best effort: an error means only that the
// next load hashes them again).
func (r *Resolver) SaveVerified() error { return r.opt.PDBVerified.Save() }
