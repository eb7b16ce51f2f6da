package bdd

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/internal/errmark"
	"github.com/gapset/gapset/internal/sysprobe"
)

// ErrPlan marks a build plan the machine or the options rule out (bad
// input); the error's text is the reason alone (errmark).
var ErrPlan = errors.New("build plan refused")

func planError(msg string) error { return errmark.As(errors.New(msg), ErrPlan) }

// PlanRequest is what a build of Count keys asks of the machine.
type PlanRequest struct {
	Count    uint64
	N, Cells int
	ZDD      bool
	// Streams: the keys are a key file the out-of-core build can stream
	// (Streams of the order and encoding). Asked: the out-of-core build
	// was asked for (else it is chosen when the in-memory one would not
	// fit the available memory).
	Streams, Asked bool
	// Memory and TempDir as OutOfCore's; Resume, if set, the state
	// directory (Fresh: its state discarded).
	Memory  int64
	TempDir string
	Resume  string
	Fresh   bool
	// Quiet: no notes (nor the disk probe behind them).
	Quiet bool
}

// BuildPlan is the build PlanBuild chose: out of core with Config, or in
// memory; Notes are what to tell the user before it starts (the choice
// when the estimate made it, the estimate, warnings on memory and disk),
// filled up to a refusal too.
type BuildPlan struct {
	OutOfCore bool
	Config    OutOfCore
	Notes     []string
}

// PlanBuild chooses the out-of-core build when asked or when the
// in-memory one would not fit the machine's available memory and the
// keys can be streamed, checks it against the machine (ErrPlan) and opens
// the resume state.
func PlanBuild(r PlanRequest) (BuildPlan, error) {
	const gib = 1 << 30
	p := BuildPlan{Config: OutOfCore{Memory: r.Memory, TempDir: r.TempDir}}
	est := EstimateBuild(r.Count, r.N, r.Cells, r.ZDD, p.Config)
	total, avail := sysprobe.Machine()
	if !r.Asked {
		if !r.Streams || avail == 0 || uint64(est.InMemory) <= avail {
			return p, nil
		}
		if !r.Quiet {
			p.Notes = append(p.Notes, fmt.Sprintf("the in-memory build would take about %.1f GiB, %.1f GiB are available: building out of core",
				float64(est.InMemory)/gib, float64(avail)/gib))
		}
	}
	if !r.Streams {
		return p, planError("the out-of-core build (--out-of-core, --memory, --tmp) streams a key file: it needs --keys, the natural order, the cells or ranks encoding and no --rudd")
	}
	if total > 0 && uint64(r.Memory) > total {
		return p, planError(fmt.Sprintf("--memory %d MiB is more than the machine's %d MiB", r.Memory>>20, total>>20))
	}
	if r.Resume != "" {
		st, err := OpenState(r.Resume, r.Fresh)
		if err != nil {
			return p, err
		}
		p.Config.State = st
	}
	p.OutOfCore = true
	if r.Quiet {
		return p, nil
	}
	p.Notes = append(p.Notes, est.String())
	if avail > 0 && uint64(est.Memory) > avail {
		p.Notes = append(p.Notes, fmt.Sprintf("warning: %.1f GiB of memory are available now, the estimate says %.1f", float64(avail)/gib, float64(est.Memory)/gib))
	}
	if d, err := sysprobe.FreeDisk(r.TempDir); err == nil && d.Free < est.Disk {
		p.Notes = append(p.Notes, fmt.Sprintf("warning: %s has %.1f GiB free, the scratch may take %.1f", r.TempDir, float64(d.Free)/gib, float64(est.Disk)/gib))
	} else if err == nil && d.Free < est.DiskAll {
		p.Notes = append(p.Notes, fmt.Sprintf("warning: %s has %.1f GiB free, the scratch may take up to %.1f if the deepest levels do not fit --memory",
			r.TempDir, float64(d.Free)/gib, float64(est.DiskAll)/gib))
	}
	return p, nil
}
