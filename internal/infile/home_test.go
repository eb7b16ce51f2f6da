package infile_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/hometest"
	"github.com/stretchr/testify/assert"
)

// wholeReads matches a read of a whole file or stream without a bound.
var wholeReads = regexp.MustCompile(`\b(os|ioutil)\.ReadFile\(|\b(io|ioutil)\.ReadAll\(`)

// Every whole read goes through this package, within a bound: no Go file
// of either module reads a file or stream whole on its own.
func TestOneHome(t *testing.T) {
	hometest.Lines(t, func(path string, n int, line string) {
		if strings.HasPrefix(path, "internal/infile/") {
			return
		}
		assert.False(t, wholeReads.MatchString(line), "%s:%d reads whole without a bound (use internal/infile): %s", path, n, strings.TrimSpace(line))
	})
}
