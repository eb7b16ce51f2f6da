package heuristic

import (
	"fmt"
	"strings"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/ida"
)

// bothEntries are max(md + 2*gap level, h + 2*residual level) read from
// databases of both levels (gapdb.Both): one read a projection for both
// bounds, the bound of max(resR:K,gapG:K) over the same level files.
func bothEntries() []Entry {
	var es []Entry
	for _, tr := range []bool{false, true} {
		name, what := "both", ""
		if tr {
			name, what = "bothr", ", asking about the transpose too (a symmetric base: pdbbr, pdb78b)"
		}
		es = append(es, Entry{
			Name: name,
			Args: "K",
			Usage: "max(Manhattan distance + twice the gap level, the base h + twice the residual level), both levels read in one entry " +
				"of the databases of both (--gapdb: gapset gapdb of gap and residual level files together), all the levels they hold" + what +
				" (K: the databases of K cells)",
			Options: []string{OptGapDB, OptPDB, OptNoSkip, OptDense},
			Make: func(r *Resolver, args string) (ida.Heuristic, error) {
				cells, filter, err := gapArgs(0, args)
				if err != nil || filter != 0 {
					return nil, fmt.Errorf("bad heuristic %s:%s: want %s or %s:K with cells K", name, quote(args), name, name)
				}
				return r.bothHeuristic(cells, tr)
			},
		})
	}
	return es
}

// bothHeuristic is gapdb.Both over the databases of both levels on the
// given number of cells (0: every one given), their base built from --pdb.
func (r *Resolver) bothHeuristic(cells int, transpose bool) (gapdb.Both, error) {
	dbs, err := r.gapDBs()
	if err != nil {
		return gapdb.Both{}, err
	}
	h := gapdb.Both{Transpose: transpose, NoSkip: r.opt.NoSkip}
	if r.opt.NameDense {
		if len(r.opt.Dense) != 1 || r.opt.Dense[0] != 0 {
			return gapdb.Both{}, fmt.Errorf("--dense %v with --gapdb: a gap database's filter is chosen when it is built (gapset gapdb --filter-cells); --dense 0 turns it off", r.opt.Dense)
		}
		h.NoFilter = true
	}
	var names []string
	for _, d := range dbs {
		if cells != 0 && len(d.Cells) != cells || !d.Both() {
			continue
		}
		if len(h.DBs) > 0 && d.Base != h.BaseID {
			return gapdb.Both{}, fmt.Errorf("%s is relative to the base %s, %s to %s: one heuristic reads the levels of one base", d.Path, d.Base, h.DBs[0].Path, h.BaseID)
		}
		h.BaseID = d.Base
		h.Levels, h.ResLevels = max(h.Levels, d.Levels), max(h.ResLevels, d.ResLevels)
		h.DBs = append(h.DBs, d)
		names = append(names, d.Name())
	}
	if len(h.DBs) == 0 {
		return gapdb.Both{}, fmt.Errorf("no database of both levels on %d cells given (--gapdb: gapset gapdb of gap and residual level files together)", cells)
	}
	if transpose && r.opt.Rows != r.opt.Cols {
		return gapdb.Both{}, fmt.Errorf("bothr asks about the transpose: a square board, not %dx%d", r.opt.Rows, r.opt.Cols)
	}
	tm, err := r.recordedBase(h.BaseID, names, transpose, "bothr")
	if err != nil {
		return gapdb.Both{}, err
	}
	h.Base = tm
	r2 := ""
	if transpose {
		r2 = "r"
	}
	h.Label = fmt.Sprintf("both%s(%s+%s)", r2, h.BaseID.Spec, strings.Join(names, "+"))
	if h.NoSkip {
		h.Label += "-noskip"
	}
	if h.NoFilter {
		h.Label += "-nofilter"
	}
	return h, h.Check()
}
