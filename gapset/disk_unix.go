//go:build unix

package gapset

import (
	"fmt"
	"syscall"
)

// CheckDisk refuses a run whose estimated peak disk does not fit: the
// outputs in dir, the scratch runs in scratch (both on one file system
// when they share it). Without figures to check against it lets the run try.
func (e Estimate) CheckDisk(dir, scratch string) error {
	var a, b syscall.Statfs_t
	if err := syscall.Statfs(dir, &a); err != nil {
		return nil
	}
	if err := syscall.Statfs(scratch, &b); err != nil {
		return nil
	}
	free := func(s *syscall.Statfs_t) float64 { return float64(s.Bavail) * float64(s.Bsize) }
	gib := func(x float64) float64 { return x / (1 << 30) }
	if a.Fsid == b.Fsid {
		if e.Disk() > free(&a) {
			return fmt.Errorf("not enough disk: the run needs about %.1f GiB (outputs %.1f, scratch %.1f), %s has %.1f GiB free (fewer --cells, --packed, or --tmp on another disk)",
				gib(e.Disk()), gib(e.OutputBytes), gib(e.ScratchBytes), dir, gib(free(&a)))
		}
		return nil
	}
	if e.OutputBytes > free(&a) {
		return fmt.Errorf("not enough disk: the key-set files need about %.1f GiB, %s has %.1f GiB free", gib(e.OutputBytes), dir, gib(free(&a)))
	}
	if e.ScratchBytes > free(&b) {
		return fmt.Errorf("not enough disk: the scratch runs need about %.1f GiB, %s has %.1f GiB free", gib(e.ScratchBytes), scratch, gib(free(&b)))
	}
	return nil
}
