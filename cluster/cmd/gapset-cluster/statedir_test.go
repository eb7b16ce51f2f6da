package main

import (
	"testing"

	"github.com/gapset/gapset/cluster/pipeline"
	"github.com/gapset/gapset/internal/statedir/tamper"
)

// A work directory path that is a symlink, a file or a directory the run
// did not make is refused with exit 2 and one line, with and without
// --fresh, and nothing in it (or behind it) is removed or added.
func TestRefusesForeignWorkDir(t *testing.T) {
	tamper.RefusesForeign(t, pipeline.WorkName, func(t *testing.T, out string, fresh bool) (int, string) {
		args := []string{"enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--out-dir", out}
		if fresh {
			args = append(args, "--fresh")
		}
		_, stderr, code := command(t, nil, args...)
		return code, stderr
	})
}
