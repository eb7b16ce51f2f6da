package heuristic

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/memset"
)

// maxRegisteredGap is the largest G of the registered names gapG.
const maxRegisteredGap = 8

func gapEntries() []Entry {
	var es []Entry
	for g := 0; g <= maxRegisteredGap; g += 2 {
		es = append(es, Entry{
			Name:    "gap" + strconv.Itoa(g),
			Args:    "K[/F]",
			Usage:   fmt.Sprintf("h_G:%d: Manhattan distance raised by the sets of gap 0..%d (K: the sets of K cells; F: filter sets of F cells asked first)", g, g),
			Options: gapOptions,
			Make: func(r *Resolver, args string) (ida.Heuristic, error) {
				cells, filter, err := gapArgs(g, args)
				if err != nil {
					return nil, err
				}
				if len(r.opt.GapDBs) > 0 {
					return r.gapDBHeuristic(g, cells, filter, false)
				}
				return r.gapHeuristic(g, cells, filter)
			},
		}, Entry{
			Name:    "gap" + strconv.Itoa(g) + "r",
			Args:    "K[/F]",
			Usage:   fmt.Sprintf("h_G:%d asking each set about the board and its transpose (square boards; a board is in a level only if both are)", g),
			Options: gapOptions,
			Make: func(r *Resolver, args string) (ida.Heuristic, error) {
				cells, filter, err := gapArgs(g, args)
				if err != nil {
					return nil, err
				}
				if len(r.opt.GapDBs) > 0 {
					return r.gapDBHeuristic(g, cells, filter, true)
				}
				h, err := r.gapHeuristic(g, cells, filter)
				if err != nil {
					return nil, err
				}
				return transposed(h.(ida.Gap), r.opt.Rows, r.opt.Cols)
			},
		})
	}
	return es
}

// transposed makes every level of h ask about the board's transpose too
// (transposedSet): the dense tables and filters stay in front, as they are
// supersets of the plain levels.
func transposed(h ida.Gap, rows, cols int) (ida.Heuristic, error) {
	t, err := encode.NewSquareTransposition(rows, cols)
	if err != nil {
		return nil, err
	}
	levels := make([]ida.Set, len(h.Levels))
	for i, s := range h.Levels {
		levels[i] = transposedSet{inner: s, t: t}
	}
	h.Levels = levels
	h.Label = strings.Replace(h.Label, "(", "r(", 1)
	return h, nil
}

// transposedSet is a gap set that holds a board only when the inner set holds
// both the board and its transpose: still a superset of the gap set (a
// board of gap <= 2i and its transpose, of the same gap, are both in the
// inner set), and smaller, since a projected set sees other cells of the
// transpose. It costs a second question and a transposition per query.
type transposedSet struct {
	inner ida.Set
	t     *encode.Transposition
}

// Contains implements ida.Set.
func (m transposedSet) Contains(key uint64) bool {
	return m.inner.Contains(key) && m.inner.Contains(m.t.Key(key))
}

// gapArgs reads "K" or "K/F" (empty: 0, 0).
func gapArgs(g int, args string) (cells, filter int, err error) {
	if args == "" {
		return 0, 0, nil
	}
	k, f, hasFilter := strings.Cut(args, "/")
	cells, err1 := strconv.Atoi(k)
	var err2 error
	if hasFilter {
		filter, err2 = strconv.Atoi(f)
	}
	if err1 != nil || err2 != nil || cells < 1 || cells > encode.MaxCells || (hasFilter && (filter < 1 || filter > encode.MaxCells)) {
		return 0, 0, fmt.Errorf("bad heuristic gap%d:%s: want gap%d:K or gap%d:K/F with cells K and filter cells F in 1..%d, e.g. gap%d:8 or gap%d:16/8",
			g, quote(args), g, g, encode.MaxCells, g, g)
	}
	return cells, filter, nil
}

// LoadedSet is one loaded gap set (the ida.Set it answers with, and where it
// came from).
type LoadedSet struct {
	Set   ida.Set
	Name  string // Gap0_8, Gap2, Gap0_8.bdd, ...
	Gap   int    // holds configurations of gap <= Gap
	Cells int
	Count int
	Bytes int64
	// BDDNodes is the decision-node count of a BDD (0 for an exact set).
	BDDNodes uint64
}

// pool is every set named by the options, loaded once, and the dense
// tables made from them.
type pool struct {
	sets   []LoadedSet
	tables map[string]*memset.Dense // by set name and cells
}

// BDDSet adapts a BDD for the gap heuristic: it tells the evaluator which
// key bits the BDD tests, so answers are memoised per projected key.
func BDDSet(s *bdd.Set) ida.Set { return bddSet{s, encode.ProjectMask(s.Info().Cells)} }

type bddSet struct {
	*bdd.Set
	mask uint64
}

func (b bddSet) Mask() uint64 { return b.mask }

// Sets loads (once) the sets the options name and returns them.
func (r *Resolver) Sets() ([]LoadedSet, error) {
	if r.pool != nil {
		return r.pool.sets, nil
	}
	o := r.opt
	if err := encode.CheckSize(o.Rows, o.Cols); err != nil {
		return nil, err
	}
	p := &pool{tables: map[string]*memset.Dense{}}
	sameSize := func(path string, rows, cols, gap int, exact bool, name string) error {
		if rows != o.Rows || cols != o.Cols {
			return fmt.Errorf("%s: a %dx%d set, but the boards are %dx%d (use --rows/--cols)", path, rows, cols, o.Rows, o.Cols)
		}
		if exact && gap > 0 {
			return fmt.Errorf("%s: %s holds gap exactly %d; the heuristic needs sets of gap at most 2i", path, name, gap)
		}
		return nil
	}
	for _, path := range o.Keys {
		r, err := keyset.Open(path)
		if err != nil {
			return nil, err
		}
		h := r.Header()
		r.Close()
		if err := sameSize(path, h.Rows, h.Cols, h.Gap, h.Exact, h.Name()); err != nil {
			return nil, err
		}
		set, err := p.loadKeys(path, h, o.Dense)
		if err != nil {
			return nil, err
		}
		p.sets = append(p.sets, set)
	}
	for _, path := range o.BDDs {
		s, err := bdd.OpenWith(path, bdd.OpenOptions{Note: o.Note})
		if err != nil {
			return nil, err
		}
		in := s.Info()
		if err := sameSize(path, in.Rows, in.Cols, in.Gap, in.Exact, in.Name()); err != nil {
			return nil, err
		}
		p.sets = append(p.sets, LoadedSet{Set: BDDSet(s), Name: in.Name() + ".bdd", Gap: in.Gap,
			Cells: in.Cells, Count: int(in.Count), Bytes: in.FileSize, BDDNodes: in.Nodes})
	}
	if len(o.Cells) > 0 {
		n := o.Rows * o.Cols
		cells := slices.Compact(slices.Sorted(slices.Values(o.Cells)))
		if o.MaxGap < 0 || o.MaxGap%2 != 0 {
			return nil, fmt.Errorf("--max-gap %d must be even and not negative", o.MaxGap)
		}
		// one enumeration gives every level: its layers are exact gaps
		sets, err := gapset.LevelSets(o.Context, o.Rows, o.Cols, o.MaxGap, cells, func(pr gapset.Progress) {
			if o.Progress != nil {
				o.Progress(o.MaxGap, pr)
			}
		})
		if err != nil {
			return nil, err
		}
		for i := 0; 2*i <= o.MaxGap; i++ {
			for _, k := range cells {
				s := memset.New(sets[k][i], k)
				name := "Gap" + strconv.Itoa(2*i)
				if k < n {
					name += "_" + strconv.Itoa(k)
				}
				p.sets = append(p.sets, LoadedSet{Set: s, Name: name, Gap: 2 * i, Cells: k, Count: s.Len(), Bytes: s.Bytes()})
			}
		}
	}
	r.pool = p
	return p.sets, nil
}

// loadKeys loads a key-set file (header h) in the form that holds it in the
// least memory: approximated sets of at most 8 cells, which hold a large
// share of all patterns, as one bit per pattern; exact sets where that is
// smaller (Gap2_10, Gap4_10) as one bit per placement rank, with their
// dense tables (cells in dense) made in the same pass, since a ranked set
// cannot be projected cheaply afterwards; the others as a hash table.
func (p *pool) loadKeys(path string, h keyset.Header, dense []int) (LoadedSet, error) {
	out := LoadedSet{Name: h.Name(), Gap: h.Gap, Cells: h.Cells}
	n := h.Rows * h.Cols
	switch {
	case h.Approx && h.Cells <= gapset.MaxApproxCells:
		b, _, err := gapset.LoadBits(path)
		if err != nil {
			return LoadedSet{}, err
		}
		out.Set, out.Count, out.Bytes = b, int(b.Len()), b.Bytes()
	case h.Cells < n && placement.Bytes(n, h.Cells) < memset.HashBytes(int(min(h.Count, 1<<40)), h.Cells):
		var tabs []*memset.Dense
		var ks []int
		for _, k := range dense {
			if k > 0 && k < h.Cells {
				d, err := memset.NewDense(k)
				if err != nil {
					return LoadedSet{}, err
				}
				tabs, ks = append(tabs, d), append(ks, k)
			}
		}
		s, _, err := memset.LoadRanked(path, tabs...)
		if err != nil {
			return LoadedSet{}, err
		}
		for i, d := range tabs {
			p.tables[denseID(out.Name, ks[i])] = d
		}
		out.Set, out.Count, out.Bytes = s, s.Len(), s.Bytes()
	default:
		s, _, err := memset.Load(path)
		if err != nil {
			return LoadedSet{}, err
		}
		out.Set, out.Count, out.Bytes = s, s.Len(), s.Bytes()
	}
	return out, nil
}

// denseID names the dense table of a set projected onto k cells.
func denseID(name string, k int) string { return fmt.Sprintf("%s/%d", name, k) }

// pick finds the set for gap g on the given cells; where a level has no
// set on them, the set of that gap on the most cells below them (so gap8:10
// can take exact levels on 10 cells and approximated ones on 8: any
// superset of a level's projection keeps h_G:2N admissible). cells 0
// accepts any set, but only if one fits.
func (p *pool) pick(g, cells int) (LoadedSet, error) {
	var fit []LoadedSet
	for _, s := range p.sets {
		if s.Gap == g && (cells == 0 || s.Cells == cells) {
			fit = append(fit, s)
		}
	}
	if len(fit) == 0 && cells != 0 {
		best := 0
		for _, s := range p.sets {
			if s.Gap == g && s.Cells < cells && s.Cells >= best {
				if s.Cells > best {
					fit, best = fit[:0], s.Cells
				}
				fit = append(fit, s)
			}
		}
	}
	switch {
	case len(fit) == 1:
		return fit[0], nil
	case len(fit) == 0:
		note := ""
		if cells != 0 {
			note = fmt.Sprintf(" on %d cells or fewer", cells)
		}
		return LoadedSet{}, fmt.Errorf("no Gap%d set%s given (use --keys, --bdd or --cells)", g, note)
	}
	var names []string
	for _, s := range fit {
		names = append(names, s.Name)
	}
	return LoadedSet{}, fmt.Errorf("several Gap%d sets (%s): name one, e.g. gap%d:%d", g, strings.Join(names, ", "), g, fit[0].Cells)
}

// gapHeuristic makes h_G:maxGap: levels Gap0, Gap2, ..., Gap<maxGap>, each
// on the given cells (0: the only set of its gap). filter > 0 puts the sets
// on filter cells in front of them (see ida.Gap).
func (r *Resolver) gapHeuristic(maxGap, cells, filter int) (ida.Heuristic, error) {
	if _, err := r.Sets(); err != nil {
		return nil, err
	}
	p := r.pool
	h := ida.Gap{NoSkip: r.opt.NoSkip}
	var names []string
	for g := 0; g <= maxGap; g += 2 {
		s, err := p.pick(g, cells)
		if err != nil {
			return nil, err
		}
		h.Levels = append(h.Levels, s.Set)
		name := s.Name
		var f LoadedSet
		if filter > 0 {
			if f, err = p.pick(g, filter); err != nil {
				return nil, err
			}
			if f.Cells >= s.Cells {
				return nil, fmt.Errorf("filter %s must have fewer cells than %s", f.Name, s.Name)
			}
		}
		var tabs []ida.BitTable
		var ks []string
		for _, k := range r.opt.Dense {
			d, err := p.dense(s, k)
			if d == nil && err == nil && f.Set != nil {
				// a set that cannot be projected (a BDD in the ranks
				// encoding or the bit planes): its projection onto k cells
				// is the filter's (the filter is its projection, or a
				// superset of it, on more than k cells)
				d, err = p.dense(f, k)
			}
			if err != nil {
				return nil, err
			}
			if d != nil {
				tabs = append(tabs, d)
				ks = append(ks, strconv.Itoa(k))
			}
		}
		h.Dense = append(h.Dense, tabs)
		if r.opt.NameDense {
			// only named when chosen, to compare runs; the default is silent
			if len(ks) == 0 {
				ks = []string{"none"} // --dense 0, or no table smaller than the set
			}
			name += "<" + strings.Join(ks, ",") + ">"
		}
		if f.Set != nil {
			h.Filters = append(h.Filters, f.Set)
			name += "[" + f.Name + "]"
		}
		names = append(names, name)
	}
	h.Label = fmt.Sprintf("gap%d(%s)", maxGap, strings.Join(names, "+"))
	if h.NoSkip {
		h.Label += "-noskip"
	}
	return h, nil
}

// DefaultDense is the dense tables' cells by default: 8 KiB that stays in
// the L1 cache, then 2 MiB in L2 (the fastest of 4, 5, 6 and 4+6 on
// random instances: docs/heuristics.md).
func DefaultDense() []int { return []int{4, 6} }

// CheckDense validates dense table cells (0 means none).
func CheckDense(ks []int) error {
	for _, k := range ks {
		if k < 0 || k > memset.MaxDenseCells {
			return fmt.Errorf("--dense %d: want 0 (none) or 1..%d cells", k, memset.MaxDenseCells)
		}
	}
	return nil
}

// dense returns the bit table of s projected onto its last k cells (nil
// when k is 0 or s is on no more than k cells), made once per set and k.
func (p *pool) dense(s LoadedSet, k int) (ida.BitTable, error) {
	if k <= 0 || s.Cells <= k {
		return nil, nil
	}
	id := denseID(s.Name, k)
	if d, ok := p.tables[id]; ok {
		return d, nil
	}
	d, err := Dense(s.Set, k)
	if errors.Is(err, bdd.ErrNotCellwise) || errors.Is(err, bdd.ErrNotProjectable) || d == nil && err == nil {
		return nil, nil // the set is still used, only without its dense table
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	p.tables[id] = d
	return d, nil
}

// Dense projects a set (a key set or a BDD from BDDSet) onto its last k
// cells as a bit table. It returns nil, nil for other sets, and wraps
// bdd.ErrNotCellwise for a BDD whose order mixes cells, bdd.ErrNotProjectable
// for one in the ranks or tiles encoding.
func Dense(set ida.Set, k int) (*memset.Dense, error) {
	if err := CheckDense([]int{k}); err != nil {
		return nil, err
	}
	switch s := set.(type) {
	case *memset.Set:
		return s.Project(k)
	case *gapset.Bits:
		d, err := memset.NewDense(k)
		if err != nil {
			return nil, err
		}
		s.Each(func(keys []uint64) error {
			for _, key := range keys {
				d.Add(key)
			}
			return nil
		})
		return d, nil
	case bddSet:
		d, err := memset.NewDense(k)
		if err != nil {
			return nil, err
		}
		if err := s.Project(k, d.Add); err != nil {
			return nil, err
		}
		return d, nil
	}
	return nil, nil
}

// SetNotes describes the loaded sets as a Markdown table for reports (the
// paper's Table 1 columns we have: patterns, plus the table's memory); nil
// when none were loaded.
func (r *Resolver) SetNotes() []string {
	if r.pool == nil || len(r.pool.sets) == 0 {
		return nil
	}
	out := []string{"| set | patterns | bytes (hash table; BDD: file) | BDD nodes |", "|---|---:|---:|---:|"}
	for _, s := range r.pool.sets {
		nodes := "-"
		if s.BDDNodes > 0 {
			nodes = strconv.FormatUint(s.BDDNodes, 10)
		}
		out = append(out, fmt.Sprintf("| %s | %d | %d | %s |", s.Name, s.Count, s.Bytes, nodes))
	}
	return out
}

// DenseFor is the default dense cells for a set on the given cells: those
// of DefaultDense below the set's own, or half its cells on small boards.
func DenseFor(cells int) []int {
	var ks []int
	for _, k := range DefaultDense() {
		if k >= cells {
			k = cells / 2
		}
		if k > 0 && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return ks
}

// GapOf is h_G over one set of gap 0 on the given cells (a *memset.Set or
// a BDDSet), with the dense tables of DenseFor in front of it.
func GapOf(label string, set ida.Set, cells int) (ida.Gap, error) {
	var tabs []ida.BitTable
	for _, k := range DenseFor(cells) {
		d, err := Dense(set, k)
		if err != nil {
			return ida.Gap{}, err
		}
		if d != nil {
			tabs = append(tabs, d)
		}
	}
	return ida.Gap{Label: label, Levels: []ida.Set{set}, Dense: [][]ida.BitTable{tabs}}, nil
}
