package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gapset/gapset/gapset"
)

const (
	manifestName   = "manifest.json"
	outputsName    = "outputs.json"
	manifestFormat = 1
)

// manifest is what one step's job leaves for the driver, written last
// inside the job (Beam hands no collection back to the driver): the step's
// layer partitions and projection runs, and how the projection runs were
// compacted. A file counts only once a manifest names it.
type manifest struct {
	Format int           `json:"format"`
	Layout gapset.Layout `json:"layout"`
	Step   int           `json:"step"`
	Spills int           `json:"spills"` // candidate pieces beyond the first per target
	// Layers are the step's non-empty layer partitions.
	Layers []Ref `json:"layers"`
	// Projections are the step's projection runs (by cells and
	// partition); each replaces the last Fold[cells] runs of its cells
	// waiting for the final merge, and has tier Tier[cells].
	Projections []Ref       `json:"projections"`
	Fold        map[int]int `json:"fold"`
	Tier        map[int]int `json:"tier"`
}

func (m *manifest) sort() {
	slices.SortFunc(m.Layers, func(a, b Ref) int { return layerKey(a.Level, a.Part) - layerKey(b.Level, b.Part) })
	slices.SortFunc(m.Projections, func(a, b Ref) int { return projKey(a.Cells, a.Part) - projKey(b.Cells, b.Part) })
}

// readManifest reads step d's manifest and checks it against the layout
// and the files it names (their sizes; the counts are checked as they are
// read).
func readManifest(work string, d int, l gapset.Layout) (manifest, error) {
	path := filepath.Join(work, depthDir(d), manifestName)
	var m manifest
	b, err := os.ReadFile(path)
	if err != nil {
		return m, fmt.Errorf("step %d: the job ended without its manifest: %w", d, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: damaged manifest: %v", path, err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s: damaged manifest: %s", path, fmt.Sprintf(format, a...))
	}
	if m.Format != manifestFormat || m.Step != d {
		return m, bad("format %d step %d, want format %d step %d", m.Format, m.Step, manifestFormat, d)
	}
	want, _ := json.Marshal(l)
	have, _ := json.Marshal(m.Layout)
	if string(want) != string(have) {
		return m, bad("layout %s, want %s", have, want)
	}
	np := 1 << l.Bits()
	check := func(r Ref) error {
		if r.Name == "" || filepath.IsAbs(r.Name) || strings.Contains(r.Name, "..") {
			return bad("file name %q", r.Name)
		}
		st, err := os.Stat(filepath.Join(work, r.Name))
		if err != nil || st.Size() != r.Bytes || r.N <= 0 {
			return bad("%s is missing or not %d bytes", r.Name, r.Bytes)
		}
		return nil
	}
	for _, r := range m.Layers {
		if r.Level < 0 || r.Level >= l.Levels() || r.Part < 0 || r.Part >= np || r.Step != d {
			return m, bad("layer partition %+v", r)
		}
		if err := check(r); err != nil {
			return m, err
		}
	}
	for _, r := range m.Projections {
		if !slices.Contains(l.Projections(), r.Cells) || r.Part < 0 || r.Part >= 1<<l.ProjectionBits(r.Cells) || r.Tier != m.Tier[r.Cells] {
			return m, bad("projection run %+v", r)
		}
		if err := check(r); err != nil {
			return m, err
		}
	}
	return m, nil
}

// readOutputs reads the final job's list of key-set files.
func readOutputs(work string) ([]Ref, error) {
	b, err := os.ReadFile(filepath.Join(work, outputsName))
	if err != nil {
		return nil, fmt.Errorf("the output job ended without its manifest: %w", err)
	}
	var outs []Ref
	if err := json.Unmarshal(b, &outs); err != nil {
		return nil, fmt.Errorf("%s: damaged manifest: %v", outputsName, err)
	}
	return outs, nil
}
