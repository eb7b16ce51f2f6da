package heuristic

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
)

// gapDBs opens the gap databases of the options once (each checked whole
// at load).
func (r *Resolver) gapDBs() ([]*gapdb.DB, error) {
	if r.dbs != nil {
		return r.dbs, nil
	}
	o := r.opt
	if len(o.Keys) > 0 || len(o.BDDs) > 0 || len(o.Cells) > 0 {
		return nil, fmt.Errorf("--gapdb and --keys, --bdd or --cells: give the gap levels one way")
	}
	var dbs []*gapdb.DB
	for _, path := range o.GapDBs {
		d, err := gapdb.Open(path)
		if err != nil {
			return nil, err
		}
		if d.Rows != o.Rows || d.Cols != o.Cols {
			return nil, fmt.Errorf("%s: a %dx%d database, but the boards are %dx%d (use --rows/--cols)", path, d.Rows, d.Cols, o.Rows, o.Cols)
		}
		dbs = append(dbs, d)
	}
	r.dbs = dbs
	return dbs, nil
}

// DBNotes describes the gap databases opened, a table row each: how much
// of each the kernel maps with 2 MiB pages, which decides what a read of a
// big table costs (a TLB miss on nearly every read with 4 KiB pages).
func (r *Resolver) DBNotes() []string {
	if len(r.dbs) == 0 {
		return nil
	}
	out := []string{"| database | file | bytes | filter cells | mapped with 2 MiB pages |", "|---|---|---:|---:|---:|"}
	for _, d := range r.dbs {
		size := d.TableOff + d.TableLen + d.FilterLen
		huge := "not known"
		if d.Huge >= 0 {
			huge = fmt.Sprintf("%.0f%%", 100*float64(d.Huge)/float64(size))
		}
		out = append(out, fmt.Sprintf("| %s | %s | %d | %d | %s |", d.Name(), filepath.Base(d.Path), size, d.FilterCells, huge))
	}
	return out
}

// gapDBHeuristic is h_G:maxGap read from the gap databases on the given
// number of cells (0: every one given), each a projection; transpose asks each
// about the board's transpose too.
func (r *Resolver) gapDBHeuristic(maxGap, cells, filter int, transpose bool) (gapdb.Heuristic, error) {
	if filter != 0 {
		return gapdb.Heuristic{}, fmt.Errorf("gap%d:%d/%d: filter sets do not apply to --gapdb (its filter is its own: gapset gapdb --filter-cells)", maxGap, cells, filter)
	}
	if transpose && r.opt.Rows != r.opt.Cols {
		return gapdb.Heuristic{}, fmt.Errorf("gap%dr asks about the transpose: a square board, not %dx%d", maxGap, r.opt.Rows, r.opt.Cols)
	}
	dbs, err := r.gapDBs()
	if err != nil {
		return gapdb.Heuristic{}, err
	}
	h := gapdb.Heuristic{Levels: maxGap/2 + 1, Transpose: transpose, NoSkip: r.opt.NoSkip}
	// The databases' filters are their dense tables: --dense 0 turns them
	// off (comparisons: the same nodes); their cells are the build's.
	if r.opt.NameDense {
		if len(r.opt.Dense) != 1 || r.opt.Dense[0] != 0 {
			return gapdb.Heuristic{}, fmt.Errorf("--dense %v with --gapdb: a gap database's filter is chosen when it is built (gapset gapdb --filter-cells); --dense 0 turns it off", r.opt.Dense)
		}
		h.NoFilter = true
	}
	var names []string
	top := -1
	residual, both := 0, 0
	for _, d := range dbs {
		if cells != 0 && len(d.Cells) != cells {
			continue
		}
		if d.Both() { // both levels in one entry are both's
			both++
			continue
		}
		if !d.Base.IsZero() { // residual levels are the residual heuristic's
			residual++
			continue
		}
		top = max(top, d.MaxGap())
		h.DBs = append(h.DBs, d)
		names = append(names, d.Name())
	}
	if len(h.DBs) == 0 {
		var other []string
		if residual > 0 {
			other = append(other, fmt.Sprintf("%d of residual levels, which resG reads", residual))
		}
		if both > 0 {
			other = append(other, fmt.Sprintf("%d of both levels, which both reads", both))
		}
		if other != nil {
			return gapdb.Heuristic{}, fmt.Errorf("no gap database on %d cells given (--gapdb: %s)", cells, strings.Join(other, "; "))
		}
		return gapdb.Heuristic{}, fmt.Errorf("no gap database on %d cells given (--gapdb)", cells)
	}
	// Databases of fewer levels join one that reaches maxGap (their top
	// entry is the bound "above their gap"); without one the name would lie.
	if top < maxGap {
		return gapdb.Heuristic{}, fmt.Errorf("gap%d needs a gap database of gap <= %d; the largest given holds gap <= %d (%s)", maxGap, maxGap, top, strings.Join(names, ", "))
	}
	r2 := ""
	if transpose {
		r2 = "r"
	}
	h.Label = fmt.Sprintf("gap%d%s(%s)", maxGap, r2, strings.Join(names, "+"))
	if h.NoSkip {
		h.Label += "-noskip"
	}
	if h.NoFilter {
		h.Label += "-nofilter"
	}
	return h, h.Check() // here, not at the first board's search: bad input before any work
}

// residualEntries are h + 2*level over the residual levels of a base
// (gapdb.Residual): resG reads the residual databases of --gapdb (r <= G
// reached by one of them), the base they record built from --pdb.
func residualEntries() []Entry {
	var es []Entry
	for g := 0; g <= maxRegisteredGap; g += 2 {
		for _, tr := range []bool{false, true} {
			name, what := "res"+strconv.Itoa(g), ""
			if tr {
				name, what = name+"r", ", asking about the transpose too (a symmetric base: pdbbr, pdb78b)"
			}
			es = append(es, Entry{
				Name:    name,
				Args:    "K",
				Usage:   fmt.Sprintf("the base heuristic h the residual databases (--gapdb) record, plus twice their level (r <= 0..%d)%s (K: the databases of K cells)", g, what),
				Options: []string{OptGapDB, OptPDB, OptNoSkip},
				Make: func(r *Resolver, args string) (ida.Heuristic, error) {
					cells, filter, err := gapArgs(g, args)
					if err != nil || filter != 0 {
						return nil, fmt.Errorf("bad heuristic %s:%s: want %s or %s:K with cells K", name, quote(args), name, name)
					}
					return r.residualHeuristic(g, cells, tr)
				},
			})
		}
	}
	return es
}

// residualHeuristic is h + 2*level over the residual databases on the
// given number of cells (0: every one given), h their base.
func (r *Resolver) residualHeuristic(maxGap, cells int, transpose bool) (gapdb.Residual, error) {
	dbs, err := r.gapDBs()
	if err != nil {
		return gapdb.Residual{}, err
	}
	h := gapdb.Residual{Levels: maxGap/2 + 1, Transpose: transpose, NoSkip: r.opt.NoSkip}
	var names []string
	top := -1
	for _, d := range dbs {
		if cells != 0 && len(d.Cells) != cells || d.Base.IsZero() || d.Both() {
			continue
		}
		if len(h.DBs) > 0 && d.Base != h.BaseID {
			return gapdb.Residual{}, fmt.Errorf("%s is relative to the base %s, %s to %s: one residual heuristic reads the levels of one base", d.Path, d.Base, h.DBs[0].Path, h.BaseID)
		}
		h.BaseID = d.Base
		top = max(top, d.MaxGap())
		h.DBs = append(h.DBs, d)
		names = append(names, d.Name())
	}
	if len(h.DBs) == 0 {
		return gapdb.Residual{}, fmt.Errorf("no residual database on %d cells given (--gapdb: gapset gapdb of the sets gapset enumerate --base writes)", cells)
	}
	if top < maxGap {
		return gapdb.Residual{}, fmt.Errorf("res%d needs a residual database of r <= %d; the largest given holds r <= %d (%s)", maxGap, maxGap, top, strings.Join(names, ", "))
	}
	tm, err := r.recordedBase(h.BaseID, names, transpose, fmt.Sprintf("res%dr", maxGap))
	if err != nil {
		return gapdb.Residual{}, err
	}
	h.Base = tm
	r2 := ""
	if transpose {
		r2 = "r"
	}
	h.Label = fmt.Sprintf("res%d%s(%s+%s)", maxGap, r2, h.BaseID.Spec, strings.Join(names, "+"))
	if h.NoSkip {
		h.Label += "-noskip"
	}
	return h, nil
}

// recordedBase builds the base that databases of residual levels record
// (id) from --pdb, refusing tables of another digest and, when name (the
// heuristic asking about the transpose) is to read the transpose's
// levels, a base that is not symmetric; names are the databases'.
func (r *Resolver) recordedBase(id keyset.Base, names []string, transpose bool, name string) (ida.TrackerMaker, error) {
	base, err := r.Base(id.Spec)
	if err != nil {
		return nil, err
	}
	if base.ID() != id {
		return nil, fmt.Errorf("%s: the databases are relative to %s, but the base built from --pdb %s is %s: other tables", strings.Join(names, ", "), id, r.PDBDir(), base.ID())
	}
	if transpose && !base.Symmetric() {
		return nil, fmt.Errorf("%s asks the databases about the transpose: their base %s is not symmetric (pdbbr and pdb78b are)", name, id.Spec)
	}
	tm, ok := base.Heuristic.(ida.TrackerMaker)
	if !ok {
		return nil, fmt.Errorf("the base %s offers no tracker", id.Spec)
	}
	return tm, nil
}
