package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/statedir"
)

const (
	// workKind names the work directory in its marker and in refusals.
	workKind     = "work directory"
	manifestName = statedir.ManifestName
	// jobManifestName is the manifest as the job writes it: the driver
	// renames it manifestName once the job has succeeded. A failed job
	// may still write one (verified: Prism ran the manifest's DoFn of a
	// job in which another lane's merge had failed), so only the renamed
	// ones count.
	jobManifestName = "manifest-job.json"
	outputsName     = "outputs.json"
	// Format 2: CRC-32C of every file and of the manifest, and the marker.
	// Format 3: statedir's sealed envelope, the scratch bytes, statedir's
	// run names.
	manifestFormat = 3
	// outputsFormat is the format of outputsName's payload (sealed too).
	outputsFormat = 1
)

// manifest is what one step's job leaves for the driver, written last
// inside the job (Beam hands no collection back to the driver): the step's
// layer parts and projection runs, and how the projection runs were
// compacted. A file counts only once a manifest names it.
// Its format and checksum are statedir's envelope's.
type manifest struct {
	Layout gapset.Layout `json:"layout"`
	Step   int           `json:"step"`
	Spills int           `json:"spills"` // candidate pieces beyond the first per target
	// Layers are the step's non-empty layer parts.
	Layers []Ref `json:"layers"`
	// Projections are the step's projection runs (by cells and
	// part); each replaces the last Fold[cells] runs of its cells
	// waiting for the final merge, and has tier Tier[cells].
	Projections []Ref       `json:"projections"`
	Fold        map[int]int `json:"fold"`
	Tier        map[int]int `json:"tier"`
	// Scratch is the bytes of the step's pieces (candidates, projection
	// pieces), on the disk until the step is done: part of the peak.
	Scratch int64 `json:"scratch_bytes"`
}

func (m *manifest) sort() {
	slices.SortFunc(m.Layers, func(a, b Ref) int { return layerKey(a.Level, a.Part) - layerKey(b.Level, b.Part) })
	slices.SortFunc(m.Projections, func(a, b Ref) int { return projKey(a.Cells, a.Part) - projKey(b.Cells, b.Part) })
}

// readManifest reads step d's manifest (ok false when there is none) and
// checks it against the layout, and with files set the files it names
// (checkFile). A manifest of another enumeration is the caller's mistake
// (ErrArgs).
func readManifest(ctx context.Context, work string, d int, l gapset.Layout, name string, files bool) (m manifest, ok bool, err error) {
	path := workPath(work, filepath.Join(statedir.StepDir(d), name))
	b, err := readWork(ctx, work, filepath.Join(statedir.StepDir(d), name))
	if errors.Is(err, fs.ErrNotExist) {
		return m, false, nil
	}
	if err != nil {
		return m, false, statedir.Damaged(work, "%v", err)
	}
	bad := func(format string, a ...any) error {
		return statedir.Damaged(work, "%s: %s", filepath.Base(path), fmt.Sprintf(format, a...))
	}
	if err := statedir.Unseal(work, path, b, manifestFormat, &m); err != nil {
		return m, false, err
	}
	// The work buffers may change between runs; nothing else.
	have, want := m.Layout, l
	have.Memory, want.Memory = 0, 0
	if hb, wb := identity(have), identity(want); hb != wb {
		return m, false, fmt.Errorf("%w: work directory %s holds a run of %s, not of %s (give --fresh to discard it, or another --work-dir)",
			gapset.ErrArgs, work, hb, wb)
	}
	if m.Step != d {
		return m, false, bad("step %d, want step %d", m.Step, d)
	}
	np := 1 << l.Bits()
	check := func(r Ref) error {
		if !files {
			return nil
		}
		return checkFile(ctx, work, r, false)
	}
	for _, r := range m.Layers {
		if r.Level < 0 || r.Level >= l.Levels() || r.Part < 0 || r.Part >= np || r.Step != d {
			return m, false, bad("layer part %+v", r)
		}
		if err := check(r); err != nil {
			return m, false, err
		}
	}
	for _, r := range m.Projections {
		if !slices.Contains(l.Projections(), r.Cells) || r.Part < 0 || r.Part >= 1<<l.ProjectionBits(r.Cells) || r.Tier != m.Tier[r.Cells] {
			return m, false, bad("projection run %+v", r)
		}
		if err := check(r); err != nil {
			return m, false, err
		}
	}
	return m, true, nil
}

// commitManifest makes a job's manifest count: renamed, and the rename
// synced, after the job has succeeded (the files it names are synced). An
// object store has no rename: the driver writes the manifest object then,
// in one write.
func commitManifest(ctx context.Context, work string, d int) error {
	if IsURL(work) {
		b, err := readWork(ctx, work, filepath.Join(statedir.StepDir(d), jobManifestName))
		if err != nil {
			return err
		}
		return writeWork(ctx, work, filepath.Join(statedir.StepDir(d), manifestName), b)
	}
	dir := filepath.Join(work, statedir.StepDir(d))
	return atomicfile.Rename(filepath.Join(dir, jobManifestName), filepath.Join(dir, manifestName))
}

// checkFile checks that a file a manifest names is in place: its name
// stays below the work directory and its size is the one recorded (the
// count is checked as it is read); with sums (a resumed run, before any
// use) it is read whole and checked against its CRC-32C.
func checkFile(ctx context.Context, work string, r Ref, sums bool) error {
	if r.Name == "" || filepath.IsAbs(r.Name) || strings.Contains(r.Name, "..") || r.N <= 0 {
		return statedir.Damaged(work, "the manifest names a file %q of %d keys", r.Name, r.N)
	}
	if sums {
		size, sum, err := sumWork(ctx, work, r.Name)
		switch {
		case err != nil:
			return statedir.Damaged(work, "%s is missing or unreadable", r.Name)
		case size != r.Bytes:
			return statedir.Damaged(work, "%s has %d bytes, the manifest says %d", r.Name, size, r.Bytes)
		case sum != r.Sum:
			return statedir.Damaged(work, "%s fails its checksum", r.Name)
		}
		return nil
	}
	size, err := sizeWork(ctx, work, r.Name)
	if err != nil || size != r.Bytes {
		return statedir.Damaged(work, "%s is missing or not %d bytes", r.Name, r.Bytes)
	}
	return nil
}

// identity describes an enumeration for a message.
func identity(l gapset.Layout) string {
	cells := slices.Clone(l.Cells)
	slices.Sort(cells)
	return fmt.Sprintf("%dx%d gap <= %d (exact %v), cells %v, packed %v, prefix bits %d, transpose %v",
		l.Rows, l.Cols, l.MaxGap, l.Exact, cells, l.Packed, l.Bits(), l.Canonical())
}

// readOutputs reads the final job's list of key-set files, sealed as the
// step manifests are.
func readOutputs(ctx context.Context, work string) ([]Ref, error) {
	b, err := readWork(ctx, work, outputsName)
	if err != nil {
		return nil, fmt.Errorf("the output job ended without its manifest: %w", err)
	}
	var outs []Ref
	if err := statedir.Unseal(work, workPath(work, outputsName), b, outputsFormat, &outs); err != nil {
		return nil, err
	}
	return outs, nil
}
