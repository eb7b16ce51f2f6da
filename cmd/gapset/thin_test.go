package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxCommandLines caps the command's non-blank non-test lines
// (docs/architecture.md: `cat $(ls cmd/gapset/*.go | grep -v _test.go) |
// grep -cv '^\s*$'`).
const maxCommandLines = 1500

// The command stays thin: flags, files, progress and output. A subcommand
// that grows past the cap moves its work into the package whose job it is.
func TestCommandStaysThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
	}
	assert.Greater(t, lines, 500, "the command's files were read")
	assert.Less(t, lines, maxCommandLines, "cmd/gapset has %d non-blank lines outside its tests: move what is not flags, files, progress or output into the package that does the work (docs/architecture.md)", lines)
}
