package ida

// GapOracle answers gap questions about single boards, by key, for callers
// outside the search loop (a heuristic that combines gap sets with other
// bounds). It asks the same levels, dense tables, filters and memos as the
// Gap heuristic's evaluator, so its answers are the heuristic's.
//
// A GapOracle is not safe for concurrent use (its memos): make one per
// search with Gap.NewOracle.
type GapOracle struct {
	e *gapEval
}

// NewOracle returns an oracle over g's levels for rows x cols boards.
func (g Gap) NewOracle(rows, cols int) (*GapOracle, error) {
	ev, err := g.NewEvaluator(rows, cols)
	if err != nil {
		return nil, err
	}
	return &GapOracle{e: ev.(*gapEval)}, nil
}

// Max is the largest excess the oracle can prove: 2N + 2 for N+1 levels.
func (o *GapOracle) Max() int { return o.e.top }

// Excess returns a lower bound on the board's gap (optimum minus Manhattan
// distance): 2i for the first level i whose set holds the board, Max()
// when none does. It asks the levels in order until one holds the board.
func (o *GapOracle) Excess(key uint64) int {
	for i := range o.e.levels {
		if o.e.loop.contains(i, key) {
			return 2 * i
		}
	}
	return o.e.top
}

// Exceeds reports whether the board's gap is provably above slack, asking
// at most one level: the one that decides it (seed 002's skipping). A
// search with f = depth + M and a remaining budget of need moves calls it
// with slack = need - M: true means the board is cut. It asks nothing when
// slack < 0 (true: Manhattan alone cuts) or slack >= Max() (false: no level
// can cut).
func (o *GapOracle) Exceeds(key uint64, slack int) bool {
	if slack < 0 {
		return true
	}
	if slack >= o.e.top {
		return false
	}
	return !o.e.loop.contains(slack/2, key)
}

// Counters returns the oracle's question counts (see Gap's evaluator).
func (o *GapOracle) Counters() map[string]int64 { return o.e.Counters() }
