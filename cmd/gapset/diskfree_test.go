package main

import (
	"testing"

	"github.com/gapset/gapset/gapset"
	"github.com/stretchr/testify/assert"
)

func TestCheckDisk(t *testing.T) {
	dir := t.TempDir()
	assert.NoError(t, checkDisk(dir, dir, gapset.Estimate{Known: true, OutputBytes: 1 << 20, ScratchBytes: 1 << 20}))
	err := checkDisk(dir, dir, gapset.Estimate{Known: true, OutputBytes: 1e18, ScratchBytes: 1e18})
	assert.ErrorContains(t, err, "not enough disk")
}

// --estimate prints the estimate and runs nothing.
func TestEnumerateEstimateOnly(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, "", "enumerate", "--gap", "4", "--cells", "8,10", "--out-dir", dir, "--estimate")
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "estimate: 1.39e+10 members")
}
