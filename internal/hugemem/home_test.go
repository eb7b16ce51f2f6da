package hugemem

import (
	"testing"

	"github.com/gapset/gapset/internal/hometest"
	"github.com/stretchr/testify/assert"
)

// Huge pages have one home: no Go file of the module (the nested cluster
// module included) outside this package advises the kernel about pages.
func TestOneHome(t *testing.T) {
	hometest.Lines(t, func(path string, n int, line string) {
		for _, word := range []string{"MADV_HUGEPAGE", "Madvise("} {
			assert.NotContains(t, line, word, "%s:%d advises the kernel itself (use internal/hugemem)", path, n)
		}
	}, "internal/hugemem")
}
