package placement

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/hometest"
	"github.com/stretchr/testify/assert"
)

// copies matches what a second home of the ranking would write: a digit
// counted among the used (or left) values, or a function named as the
// copies that this package replaced were.
var copies = regexp.MustCompile(`OnesCount32\((used|left|after|placed)\s*&|` +
	`func (\([^)]*\) )?(rank|unrank|selectFree|selectBit|rankDigit|rankedBytes|RankedBytes|odometer)\(|` +
	`type (ranker|prefix|odometer) struct`)

// The placement ranking has one home: no Go file of the module (the nested
// cluster module included) outside this package ranks placements itself.
func TestOneHome(t *testing.T) {
	hometest.Lines(t, func(path string, n int, line string) {
		assert.False(t, copies.MatchString(line), "%s:%d ranks placements itself (use internal/placement): %s", path, n, strings.TrimSpace(line))
	}, "internal/placement")
}
