package cmdline

import (
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
)

// A command must never write over a file it reads (gapdb --keys K --out K
// would replace the key file by a database), nor write two outputs to one
// file. Paths are compared by what they name on the file system, so that
// hard links, symbolic links and ".." count: an existing file by its
// identity (os.SameFile), an output still to be made by its directory's
// identity and its name. The Cleanup of the run keeps the files named so
// far; the input actions (inputs.go) and WillWrite report to it, in any
// order, and the first clash is bad input.

// named is a file a flag (or an argument: flag "") names.
type named struct {
	flag, path string
}

func (n named) String() string {
	if n.flag == "" {
		return "the argument " + Quote(n.path)
	}
	return n.flag + " " + Quote(n.path)
}

// same reports whether the paths a and b name one file: one existing file
// (a hard link, a symbolic link or a path through ".." included), or one
// name in one directory.
func same(a, b string) bool {
	ai, aerr := os.Stat(a)
	bi, berr := os.Stat(b)
	switch {
	case aerr == nil && berr == nil:
		return os.SameFile(ai, bi)
	case aerr == nil || berr == nil:
		return false
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	ad, aerr := os.Stat(filepath.Dir(a))
	bd, berr := os.Stat(filepath.Dir(b))
	return aerr == nil && berr == nil && os.SameFile(ad, bd)
}

// cleanupKey is where Prepare leaves the run's Cleanup in the app's
// metadata, for the input actions.
const cleanupKey = "cmdline.Cleanup"

// cleanupOf returns the Cleanup Prepare gave the app of c (nil: none).
func cleanupOf(c *cli.Context) *Cleanup {
	if c == nil || c.App == nil {
		return nil
	}
	cl, _ := c.App.Metadata[cleanupKey].(*Cleanup)
	return cl
}

// reads records input files, refusing one that is an output already
// named.
func (c *Cleanup) reads(flag string, paths ...string) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		in := named{flag, p}
		c.inputs = append(c.inputs, in) // kept even when refused: see NotInput
		for _, out := range c.outputs {
			if same(out.path, p) {
				return BadInputf("%v is the same file as %v: refusing to write over an input", out, in)
			}
		}
	}
	return nil
}

// writes records output files, refusing one that is an input or an
// output already named (update: a file the command rewrites in place by
// design, which is also its input).
func (c *Cleanup) writes(flag string, update bool, paths ...string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		out := named{flag, p}
		for _, o := range c.outputs {
			if same(o.path, p) {
				if o.flag == flag {
					return BadInputf("%s names %s and %s, one file", flag, Quote(o.path), Quote(p))
				}
				return BadInputf("%v and %v name the same file", o, out)
			}
		}
		if !update {
			if err := c.notInput(out); err != nil {
				return err
			}
		}
		c.outputs = append(c.outputs, out)
	}
	return nil
}

// notInput refuses an output that is one of the inputs named so far (c.mu
// held).
func (c *Cleanup) notInput(out named) error {
	for _, in := range c.inputs {
		if same(in.path, out.path) {
			return BadInputf("%v is the same file as %v: refusing to write over an input", out, in)
		}
	}
	return nil
}

// NotInput refuses an output named before the inputs (--cpuprofile, given
// before the command's flags) that turned out to be one of them (the
// input's action refused it already), checked again before the output
// takes its name.
func (c *Cleanup) NotInput(flag, path string) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.notInput(named{flag, path})
}
