package bdd

import (
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// PlanBuild builds in memory unless asked or short of memory, refuses an
// out-of-core build of keys it cannot stream and a --memory beyond the
// machine's (ErrPlan, the reason alone), opens the resume state, and has
// notes unless quiet.
func TestPlanBuild(t *testing.T) {
	dir := t.TempDir()
	base := PlanRequest{Count: 1000, N: 9, Cells: 9, Memory: 64 << 20, TempDir: dir}

	p, err := PlanBuild(base)
	require.NoError(t, err)
	assert.False(t, p.OutOfCore, "a small set fits memory")
	assert.Empty(t, p.Notes)

	asked := base
	asked.Asked = true
	_, err = PlanBuild(asked)
	assert.ErrorIs(t, err, ErrPlan, "asked, but the keys cannot be streamed")
	assert.Equal(t, "the out-of-core build (--out-of-core, --memory, --tmp) streams a key file: it needs --keys, the natural order, the cells or ranks encoding and no --rudd", err.Error())

	asked.Streams = true
	p, err = PlanBuild(asked)
	require.NoError(t, err)
	assert.True(t, p.OutOfCore)
	assert.Equal(t, dir, p.Config.TempDir)
	require.NotEmpty(t, p.Notes)
	assert.Equal(t, EstimateBuild(asked.Count, 9, 9, false, p.Config).String(), p.Notes[0], "the estimate first")

	quiet := asked
	quiet.Quiet = true
	p, err = PlanBuild(quiet)
	require.NoError(t, err)
	assert.True(t, p.OutOfCore)
	assert.Empty(t, p.Notes)

	if total, _ := sysprobe.Machine(); total > 0 {
		big := quiet
		big.Memory = int64(total) + 1<<20
		_, err = PlanBuild(big)
		assert.ErrorIs(t, err, ErrPlan, "more memory than the machine's")
		assert.Contains(t, err.Error(), "is more than the machine's")
	}

	resume := quiet
	resume.Resume = filepath.Join(dir, "state")
	p, err = PlanBuild(resume)
	require.NoError(t, err)
	require.NotNil(t, p.Config.State, "the state is opened")
	p.Config.State.Close()
}
