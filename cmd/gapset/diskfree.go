package main

import (
	"fmt"
	"syscall"

	"github.com/gapset/gapset/gapset"
)

// checkDisk refuses a run whose estimated peak disk does not fit: the
// outputs in dir, the scratch runs in scratch (both on one file system
// when they share it).
func checkDisk(dir, scratch string, est gapset.Estimate) error {
	var a, b syscall.Statfs_t
	if err := syscall.Statfs(dir, &a); err != nil {
		return nil // no figure to check against: let the run try
	}
	if err := syscall.Statfs(scratch, &b); err != nil {
		return nil
	}
	free := func(s *syscall.Statfs_t) float64 { return float64(s.Bavail) * float64(s.Bsize) }
	gib := func(x float64) float64 { return x / (1 << 30) }
	if a.Fsid == b.Fsid {
		if est.Disk() > free(&a) {
			return fmt.Errorf("not enough disk: the run needs about %.1f GiB (outputs %.1f, scratch %.1f), %s has %.1f GiB free (fewer --cells, or --tmp on another disk)",
				gib(est.Disk()), gib(est.OutputBytes), gib(est.ScratchBytes), dir, gib(free(&a)))
		}
		return nil
	}
	if est.OutputBytes > free(&a) {
		return fmt.Errorf("not enough disk: the key-set files need about %.1f GiB, %s has %.1f GiB free", gib(est.OutputBytes), dir, gib(free(&a)))
	}
	if est.ScratchBytes > free(&b) {
		return fmt.Errorf("not enough disk: the scratch runs need about %.1f GiB, %s has %.1f GiB free", gib(est.ScratchBytes), scratch, gib(free(&b)))
	}
	return nil
}
