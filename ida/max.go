package ida

import (
	"fmt"
	"strings"
)

// Max is the largest of several admissible heuristics, itself admissible.
// When every part offers a Tracker the combination is one Tracker and skips
// its checks as a whole (its step is the parts' largest); otherwise each
// part's Evaluator runs (and skips) on its own. A part whose NewEvaluator
// returns nil is Manhattan distance.
type Max struct {
	Parts  []Heuristic
	NoSkip bool
	Label  string
}

// Name implements Heuristic.
func (m Max) Name() string {
	if m.Label != "" {
		return m.Label
	}
	var names []string
	for _, h := range m.Parts {
		names = append(names, h.Name())
	}
	return "max(" + strings.Join(names, ",") + ")"
}

// NewEvaluator implements Heuristic.
func (m Max) NewEvaluator(rows, cols int) (Evaluator, error) {
	if len(m.Parts) == 0 {
		return nil, fmt.Errorf("max of no heuristics")
	}
	if tr, err := m.NewTracker(rows, cols); err == nil {
		step, geMD := m.TrackerInfo()
		return NewSkipEvaluator(tr, !m.NoSkip, step, geMD), nil
	} else if err != errNotTrackers {
		return nil, err
	}
	e := &maxEval{}
	for _, h := range m.Parts {
		ev, err := h.NewEvaluator(rows, cols)
		if err != nil {
			return nil, err
		}
		if ev != nil {
			e.parts = append(e.parts, ev)
			e.names = append(e.names, h.Name())
		}
	}
	return e, nil
}

var errNotTrackers = fmt.Errorf("not all parts offer trackers")

// NewTracker implements TrackerMaker when every part does.
func (m Max) NewTracker(rows, cols int) (Tracker, error) {
	t := &maxTracker{}
	for _, h := range m.Parts {
		tm, ok := h.(TrackerMaker)
		if !ok {
			return nil, errNotTrackers
		}
		tr, err := tm.NewTracker(rows, cols)
		if err != nil {
			return nil, err
		}
		t.parts = append(t.parts, tr)
	}
	return t, nil
}

// TrackerInfo implements TrackerMaker.
func (m Max) TrackerInfo() (step int, geMD bool) {
	step = 1
	for _, h := range m.Parts {
		if tm, ok := h.(TrackerMaker); ok {
			s, g := tm.TrackerInfo()
			step = max(step, s)
			geMD = geMD || g
		}
	}
	return step, geMD
}

type maxTracker struct{ parts []Tracker }

func (t *maxTracker) Reset(p *Position) {
	for _, x := range t.parts {
		x.Reset(p)
	}
}

func (t *maxTracker) Move(p *Position, tile uint8, from, to int) {
	for _, x := range t.parts {
		x.Move(p, tile, from, to)
	}
}

func (t *maxTracker) Undo(p *Position, tile uint8, from, to int) {
	for _, x := range t.parts {
		x.Undo(p, tile, from, to)
	}
}

// Prefetch implements TrackerPrefetcher for the parts that do.
func (t *maxTracker) Prefetch(p *Position, cells []uint8) {
	for _, x := range t.parts {
		if pf, ok := x.(TrackerPrefetcher); ok {
			pf.Prefetch(p, cells)
		}
	}
}

func (t *maxTracker) Bound(p *Position, need int) int {
	h := 0
	for _, x := range t.parts {
		h = max(h, x.Bound(p, need))
		if h > need {
			break
		}
	}
	return h
}

type maxEval struct {
	parts []Evaluator
	names []string
}

func (e *maxEval) Root(p *Position) int {
	h := p.MD
	for _, x := range e.parts {
		h = max(h, x.Root(p))
	}
	return h
}

// Push passes need on: a part whose true bound exceeds need returns more
// than need, so the maximum does too.
func (e *maxEval) Push(p *Position, tile uint8, from, to int, need int) int {
	h := p.MD
	for _, x := range e.parts {
		h = max(h, x.Push(p, tile, from, to, need))
	}
	return h
}

func (e *maxEval) Pop(p *Position, tile uint8, from, to int) {
	for _, x := range e.parts {
		x.Pop(p, tile, from, to)
	}
}

// Counters implements CounterReporter: the parts' counters, prefixed by
// their names.
func (e *maxEval) Counters() map[string]int64 {
	out := map[string]int64{}
	for i, x := range e.parts {
		if cr, ok := x.(CounterReporter); ok {
			for k, v := range cr.Counters() {
				out[e.names[i]+"."+k] += v
			}
		}
	}
	return out
}
