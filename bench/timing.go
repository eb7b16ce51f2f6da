package bench

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/sysprobe"
)

// A solve of a few milliseconds is too short to time once: the clock's
// granularity, the cache and the scheduler decide most of it, and the ratio
// of two such times means little. Time repeats each solve until a round of
// them has run long enough, and keeps every round, so that a figure comes
// with its spread.

// Round is one round of repeated solves of one instance with one heuristic.
type Round struct {
	Solves  int
	Seconds float64 // CPU time of the search thread (wall time where unknown)
}

// PerSolve is the round's time divided by its solves.
func (r Round) PerSolve() float64 { return r.Seconds / float64(r.Solves) }

// Timing is the time per solve of one heuristic on one instance, round by
// round.
type Timing struct {
	ID, Heuristic string
	Rounds        []Round
}

// Median is the median of the rounds' times per solve.
func (t Timing) Median() float64 {
	per := make([]float64, len(t.Rounds))
	for i, r := range t.Rounds {
		per[i] = r.PerSolve()
	}
	return median(per)
}

// TimeOptions tune Time.
type TimeOptions struct {
	// MinTime is the least time spent on each heuristic and instance, over
	// all rounds (each round at least MinTime / Rounds).
	MinTime time.Duration
	// Rounds per heuristic and instance; 0 means 5.
	Rounds int
	// Progress, when set, is called after each instance with the timings
	// done and their total (instances times heuristics).
	Progress func(done, total int)
}

// Time measures the time per solve of every heuristic on every instance,
// one search at a time on one OS thread (whose CPU clock it reads). An
// instance's rounds are interleaved across the heuristics (every heuristic
// once, then again), so that a change in the machine's load falls on all
// of them alike. Timings come back in instance order, heuristics in the
// order given, as Run's records do. Lengths and nodes are Run's job: the
// searches are deterministic.
func Time(ctx context.Context, insts []encode.Instance, hs []ida.Heuristic, opt TimeOptions) ([]Timing, error) {
	rounds := opt.Rounds
	if rounds <= 0 {
		rounds = 5
	}
	if opt.MinTime <= 0 {
		return nil, fmt.Errorf("bench.Time: MinTime must be positive")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := func() float64 { t, _ := sysprobe.ThreadCPU(); return t.Seconds() }
	if _, ok := sysprobe.ThreadCPU(); !ok {
		start := time.Now()
		now = func() float64 { return time.Since(start).Seconds() }
	}
	target := opt.MinTime.Seconds() / float64(rounds)
	out := make([]Timing, 0, len(insts)*len(hs))
	for _, in := range insts {
		ts := make([]Timing, len(hs))
		for j, h := range hs {
			ts[j] = Timing{ID: in.ID, Heuristic: h.Name()}
		}
		for range rounds {
			for j, h := range hs {
				// the clock costs a fraction of a microsecond: read it after every solve
				r := Round{}
				t0 := now()
				for r.Seconds < target {
					if _, err := ida.Solve(in.Board, h, ida.Options{Context: ctx}); err != nil {
						return nil, fmt.Errorf("instance %s with %s: %w", in.ID, h.Name(), err)
					}
					r.Solves++
					r.Seconds = now() - t0
				}
				ts[j].Rounds = append(ts[j].Rounds, r)
			}
		}
		out = append(out, ts...)
		if opt.Progress != nil {
			opt.Progress(len(out), len(insts)*len(hs))
		}
	}
	return out, nil
}

// TimeRow is one heuristic's times over the instances.
type TimeRow struct {
	Heuristic string
	// Seconds is the mean over the instances of the median time per solve.
	Seconds float64
	// Ratio is the median over the rounds of the round's mean time per
	// solve over the instances, divided by the baseline's in the same
	// round; RatioMin and RatioMax are its range. Zero without a baseline.
	Ratio, RatioMin, RatioMax float64
}

// SummarizeTimes gives each heuristic's row, in the order of first
// appearance, with ratios to baseline (usually "md") when present. Every
// timing must have the same number of rounds, as Time makes them.
func SummarizeTimes(ts []Timing, baseline string) []TimeRow {
	var names []string
	byName := map[string][]Timing{}
	for _, t := range ts {
		if byName[t.Heuristic] == nil {
			names = append(names, t.Heuristic)
		}
		byName[t.Heuristic] = append(byName[t.Heuristic], t)
	}
	// perRound[h][r]: the mean over the instances of round r's time per solve
	perRound := map[string][]float64{}
	rows := make([]TimeRow, len(names))
	for i, n := range names {
		var medians []float64
		for _, t := range byName[n] {
			medians = append(medians, t.Median())
			for r, rd := range t.Rounds {
				if r == len(perRound[n]) {
					perRound[n] = append(perRound[n], 0)
				}
				perRound[n][r] += rd.PerSolve() / float64(len(byName[n]))
			}
		}
		rows[i] = TimeRow{Heuristic: n, Seconds: mean(medians)}
	}
	base, ok := perRound[baseline]
	if !ok {
		return rows
	}
	for i := range rows {
		var ratios []float64
		for r, t := range perRound[rows[i].Heuristic] {
			if r < len(base) && base[r] > 0 {
				ratios = append(ratios, t/base[r])
			}
		}
		if len(ratios) > 0 {
			rows[i].Ratio = median(ratios)
			rows[i].RatioMin, rows[i].RatioMax = slices.Min(ratios), slices.Max(ratios)
		}
	}
	return rows
}
