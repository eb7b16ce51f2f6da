package ida

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gapset/gapset/encode"
)

// ErrNodeLimit is returned when a search exceeds Options.MaxNodes.
var ErrNodeLimit = errors.New("node limit reached")

// Options tune one solve. The zero value searches to completion.
type Options struct {
	// Context cancels a long search; nil means never.
	Context context.Context
	// MaxNodes stops the search with ErrNodeLimit after this many nodes
	// expanded in total; 0 means no limit.
	MaxNodes int64
	// OnIteration, when set, is called after each completed iteration.
	OnIteration func(Iteration)
	// AllSolutions finishes the last iteration instead of stopping at the
	// first solution: Result.Solutions counts every optimal solution path,
	// and the node counts no longer depend on where the first one lies.
	AllSolutions bool
	// KeepUndo also generates the move that undoes the previous one, as an
	// IDA* without that pruning does (for comparing node counts with such
	// searches; the solutions are the same).
	KeepUndo bool
	// Threads is the number of workers searching each iteration's tree
	// (0 or 1: one, in the calling goroutine). With more, the lengths are
	// the same; the nodes of the last iteration, and which optimal solution
	// is returned, depend on which worker reaches a goal first.
	Threads int
	// BPMX propagates bounds between a node and its children (bidirectional
	// pathmax) in the general loop, for inconsistent heuristics; it
	// searches on one thread. Manhattan distance alone ignores it.
	BPMX bool
	// splitMin overrides splitNodes (tests: -1 splits every iteration).
	splitMin int64
	// FSM prunes duplicate move strings with a duplicate-move automaton
	// (DefaultFSM, or one made by NewFSM) instead of only the move that
	// undoes the previous one; nil: off. Lengths stay optimal; the search
	// expands at most the nodes it expands without (with BPMX, about as
	// many), and AllSolutions counts only the solutions the automaton
	// keeps. It runs the general loops (and a Manhattan loop of its own)
	// instead of the gap loops and the generated 4x4 loops, and cannot be
	// combined with KeepUndo.
	FSM *FSM
	// generic runs the loops for any board size on 4x4 boards too,
	// instead of the generated ones (tests and benchmarks compare them).
	generic bool
}

// Iteration is one depth-first pass with a cost limit.
type Iteration struct {
	Limit     int   `json:"limit"`
	Expanded  int64 `json:"expanded"`  // nodes whose successors were generated
	Generated int64 `json:"generated"` // successors generated, cut or not
}

// Result is an optimal solution and the work it took.
type Result struct {
	Heuristic  string           `json:"heuristic"`
	Length     int              `json:"length"`
	Moves      []int            `json:"moves"` // tiles moved, in order
	RootBound  int              `json:"root_bound"`
	Iterations []Iteration      `json:"iterations"`
	Expanded   int64            `json:"nodes"`
	Generated  int64            `json:"generated"`
	Counters   map[string]int64 `json:"counters,omitempty"`
	// Solutions is the number of optimal solution paths found: 1, or all
	// of them with Options.AllSolutions.
	Solutions int64         `json:"solutions"`
	Elapsed   time.Duration `json:"-"`
}

// maxDepth bounds the search depth: no board of at most 16 cells needs more
// than 80 moves, and limits grow by 2 per iteration from the Manhattan distance.
const maxDepth = 256

// checkEvery is how many expansions pass between cancellation checks (and,
// in a parallel search, checks for another worker's goal: 65,536 nodes
// take about 10 ms with pdb78).
const checkEvery = 1 << 16

// searcher is the state of one IDA* run. The hot loops own it.
type searcher struct {
	tab       *tables
	pos       Position
	eval      Evaluator
	pf        Prefetcher // eval, when it prefetches
	pfCells   [4]uint8   // the children's cells handed to pf
	limit     int
	next      int
	expanded  int64
	generated int64
	moves     [maxDepth]uint8 // moves[i] = tile moved at depth i on the current path
	sol       [maxDepth]uint8 // the first solution's moves
	depth     int             // solution length once found
	found     bool
	all       bool // Options.AllSolutions
	keepUndo  bool // Options.KeepUndo
	// md4 runs the generated 4x4 loops (md4_gen.go): Manhattan, one gap level.
	md4 bool
	// bpmx runs searchBPMX (Options.BPMX); rootH is the root's bound.
	bpmx bool
	// fsm is the move automaton of the general loops (Options.FSM, or the
	// undo rule as an automaton); useFSM: Options.FSM was given.
	fsm       []int32
	useFSM    bool
	rootH     int
	solutions int64 // solution paths found
	// stop is polled every checkEvery expansions.
	stop    func() error
	stopErr error
	par     *parallel // the shared state of a parallel search's worker
	root    Position
	cells   [maxDepth]uint8 // blank cells along the path (parallel top)
	loop    loopKind
	// The gap loops' contract with the evaluator, its first level's first
	// two dense tables and the board's key at each depth of the path: here,
	// not in arguments, because every value live across the recursive call
	// costs a spill and a reload per child (a third of the gap loop's extra
	// cost per node).
	gl      *GapLoop
	keys    [maxDepth + 1]uint64
	dwords  []uint64
	dmask   uint64
	dwords2 []uint64 // the second dense table (the first when there is none)
	dmask2  uint64
}

// Solve finds an optimal solution of b with heuristic h. The solution is
// replayed on b before it is returned; a replay failure is reported as an
// error (it would be a solver bug).
func Solve(b encode.Board, h Heuristic, opt Options) (Result, error) {
	if err := encode.CheckSize(b.Rows, b.Cols); err != nil {
		return Result{}, err
	}
	if len(b.Tiles) != b.Rows*b.Cols || !b.Solvable() {
		return Result{}, fmt.Errorf("%w: %s", encode.ErrUnsolvable, b)
	}
	if h == nil {
		h = Manhattan{}
	}
	name := h.Name()
	if v, ok := h.(Variant); ok {
		h, opt.BPMX = v.Heuristic, opt.BPMX || v.BPMX
		if opt.FSM == nil {
			opt.FSM = v.FSM
		}
	}
	if opt.FSM != nil && opt.KeepUndo {
		return Result{}, errors.New("the duplicate-move automaton and KeepUndo exclude each other")
	}
	ev, err := h.NewEvaluator(b.Rows, b.Cols)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	s := newSearcher(b, newTables(b.Rows, b.Cols, opt.KeepUndo), ev, opt)
	s.stop = stopFunc(opt, s)

	res := Result{Heuristic: name}
	root := s.pos.MD
	if ev != nil {
		root = ev.Root(&s.pos)
	}
	res.RootBound = root
	if s.pos.MD == 0 {
		res.Iterations = []Iteration{{Limit: 0, Expanded: 0, Generated: 0}}
	}
	s.limit = root
	s.bindLoop()
	var par *parallel
	s.rootH = root
	if opt.Threads > 1 && s.pos.MD != 0 && s.loop != loopBPMX {
		if par, err = newParallel(b, h, s, opt); err != nil {
			return res, err
		}
	}
	for !s.found && s.pos.MD != 0 {
		s.next = 1 << 30
		e0, g0 := s.expanded, s.generated
		if par != nil {
			par.iterate()
		} else {
			s.descend(s.pos.Blank, -1, 0, 0, s.pos.MD)
		}
		it := Iteration{Limit: s.limit, Expanded: s.expanded - e0, Generated: s.generated - g0}
		res.Iterations = append(res.Iterations, it)
		if s.stopErr != nil {
			return s.partial(res, start), s.stopErr
		}
		if opt.OnIteration != nil {
			opt.OnIteration(it)
		}
		if err := s.stop(); err != nil && !s.found {
			return s.partial(res, start), err
		}
		if !s.found {
			if s.next >= 1<<30 {
				return res, errors.New("search space exhausted without reaching the goal")
			}
			s.limit = s.next
		}
	}
	res.Elapsed = time.Since(start)
	res.Expanded, res.Generated = s.expanded, s.generated
	res.Length = s.depth
	res.Moves = make([]int, s.depth)
	for i := range res.Moves {
		res.Moves[i] = int(s.sol[i])
	}
	res.Solutions = s.solutions
	res.Counters = counters(ev)
	if par != nil && res.Counters != nil {
		for _, w := range par.workers {
			for k, v := range counters(w.eval) {
				res.Counters[k] += v
			}
		}
	}
	if err := Verify(b, res.Moves); err != nil {
		return res, fmt.Errorf("internal error: solution failed replay: %w", err)
	}
	if res.Length < root || (ev == nil && (res.Length-root)%2 != 0) {
		return res, fmt.Errorf("internal error: length %d inconsistent with root bound %d", res.Length, root)
	}
	return res, nil
}

// newSearcher makes a searcher at the root board b.
func newSearcher(b encode.Board, tab *tables, ev Evaluator, opt Options) *searcher {
	s := &searcher{tab: tab, eval: ev, all: opt.AllSolutions, keepUndo: opt.KeepUndo, md4: !opt.generic && b.Rows == 4 && b.Cols == 4 && !opt.KeepUndo && opt.FSM == nil, bpmx: opt.BPMX}
	s.pf, _ = ev.(Prefetcher)
	s.fsm, s.useFSM = moveRuleFSM(opt.KeepUndo).Next, opt.FSM != nil
	if s.useFSM {
		s.fsm = opt.FSM.Next
	}
	s.pos.Rows, s.pos.Cols = b.Rows, b.Cols
	copy(s.pos.Tiles[:], b.Tiles)
	s.pos.Blank = b.Blank()
	s.pos.MD = b.Manhattan()
	s.root = s.pos
	return s
}

// counters returns ev's counters (nil when it keeps none).
func counters(ev Evaluator) map[string]int64 {
	if cr, ok := ev.(CounterReporter); ok {
		return cr.Counters()
	}
	return nil
}

// loopKind names the loop a searcher runs (see loops.go).
type loopKind uint8

const (
	loopEval loopKind = iota
	loopMD
	loopGap
	loopGap1
	loopBPMX
	loopMDFSM
)

// bindLoop picks the loop for the searcher's evaluator and gives it its
// state (after Root; s.pos is the root).
func (s *searcher) bindLoop() {
	s.keys[0] = s.pos.Key()
	s.loop = loopEval
	if s.eval == nil {
		s.loop = loopMD
		if s.useFSM {
			s.loop = loopMDFSM
		}
		return
	}
	if s.bpmx {
		s.loop = loopBPMX
		return
	}
	gl, ok := s.eval.(GapLooper)
	if s.useFSM {
		ok = false // the gap loops keep only the previous move
	}
	if !ok {
		return
	}
	s.gl = gl.GapLoop()
	s.loop = loopGap
	if s.gl.Levels == 1 && !s.gl.NoSkip && s.gl.First[0].Words != nil {
		s.loop = loopGap1
		s.dwords, s.dmask = s.gl.First[0].Words, s.gl.First[0].Mask
		s.dwords2, s.dmask2 = s.gl.Second.Words, s.gl.Second.Mask
	}
}

// descend runs the searcher's loop on the node at depth g whose blank is at
// blank (reached from prev, -1 at the root; st is the move automaton's state
// there, 0 at the root) with Manhattan distance h; s.pos holds its board,
// s.moves[:g] the path to it and, for the gap loops, s.keys[g] its key. The
// evaluator (general loop) must be at that node.
func (s *searcher) descend(blank, prev int, st int32, g, h int) bool {
	switch s.loop {
	case loopMD:
		if s.md4 {
			return s.searchMD4(blank, prev, g, h)
		}
		return s.searchMD(blank, prev, g, h)
	case loopMDFSM:
		return s.searchMDFSM(blank, st, g, h)
	case loopEval:
		return s.searchEval(st)
	case loopBPMX:
		_, stop := s.searchBPMX(st, max(h, s.rootH))
		return stop
	}
	g0, q0 := s.generated, s.gl.Queries
	var stop bool
	if s.loop == loopGap1 && s.md4 {
		stop = s.searchGap4(blank, prev, g, h)
	} else if s.loop == loopGap1 {
		stop = s.searchGap1(blank, prev, g, h)
	} else {
		stop = s.searchGap(blank, prev, g, h)
	}
	if !s.gl.NoSkip {
		// the gap loops ask about a child or skip it, never both
		s.gl.Skipped += (s.generated - g0) - (s.gl.Queries - q0)
	}
	return stop
}

// Verify replays moves on b and checks that they end at the goal.
func Verify(b encode.Board, moves []int) error {
	end, err := b.Replay(moves)
	if err != nil {
		return err
	}
	if !end.IsGoal() {
		return fmt.Errorf("after %d moves the board is %s, not the goal", len(moves), end)
	}
	return nil
}

func stopFunc(opt Options, s *searcher) func() error {
	return func() error {
		if opt.Context != nil {
			if err := opt.Context.Err(); err != nil {
				return err
			}
		}
		if opt.MaxNodes > 0 && s.expanded > opt.MaxNodes {
			return errNodeLimit(s.expanded, s.limit)
		}
		return nil
	}
}

// partial is res of a search stopped early (node limit, cancel): the work
// done so far, with no solution, so that a caller can report what a board
// cost before it gave up on it.
func (s *searcher) partial(res Result, start time.Time) Result {
	res.Elapsed = time.Since(start)
	res.Expanded, res.Generated = s.expanded, s.generated
	return res
}

func errNodeLimit(nodes int64, limit int) error {
	return fmt.Errorf("%w (%d nodes expanded at cost limit %d)", ErrNodeLimit, nodes, limit)
}

// goal records a solution of length d (the path in moves) and reports
// whether the search stops at it.
func (s *searcher) goal(d int) bool {
	if s.par != nil {
		return s.par.goal(s, d)
	}
	if !s.found {
		s.found, s.depth = true, d
		copy(s.sol[:d], s.moves[:d])
	}
	s.solutions++
	return !s.all
}

// poll runs the cancellation check; it returns true when the search must
// unwind.
func (s *searcher) poll() bool {
	if s.stopErr == nil {
		s.stopErr = s.stop()
	}
	return s.stopErr != nil
}
