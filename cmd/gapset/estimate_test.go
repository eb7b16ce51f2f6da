package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// --estimate prints the estimate and runs nothing.
func TestEnumerateEstimateOnly(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, "", "enumerate", "--gap", "4", "--cells", "8,10", "--out-dir", dir, "--estimate")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "estimate: 1.14e+10 members") // measured (docs/gap-sets-beyond-gap-2.md)
	code, out, errs = runCmd(t, "", "enumerate", "--gap", "6", "--cells", "8", "--out-dir", dir, "--estimate", "--packed")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "peak disk")
}
