// Package feasibility holds no code: its tests check that the Beam Go SDK
// runs here (Prism in-process, optionally a separately started Prism job
// server with LOOPBACK workers) with the pattern the cluster pipeline needs:
// a DoFn writes files through Beam's filesystem and publishes them by rename,
// GroupByKey gathers their names, a DoFn reads them back. See
// cluster/README.md.
package feasibility

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/stretchr/testify/require"
)

// writeFn stands for "expand one part": it writes N small files into
// Dir and emits (target group, file name). Exported fields are what Beam
// serialises to the workers, so configuration travels in them.
type writeFn struct {
	Dir string
	N   int
	// FailAt makes the element with this index fail (-1: none), to check
	// that a DoFn's error fails the pipeline and reaches the caller.
	FailAt int
}

// content is what file i holds; the reader recomputes it independently of
// what the writer emitted.
func content(i int) string { return strings.Repeat(fmt.Sprintf("part %d\n", i), i+1) }

func (f *writeFn) ProcessElement(ctx context.Context, _ []byte, emit func(int, string)) error {
	fs, err := filesystem.New(ctx, f.Dir)
	if err != nil {
		return err
	}
	defer fs.Close()
	for i := range f.N {
		if i == f.FailAt {
			return fmt.Errorf("part %d: injected failure", i)
		}
		final := filepath.Join(f.Dir, fmt.Sprintf("part-%03d", i))
		tmp := filepath.Join(f.Dir, fmt.Sprintf(".part-%03d.tmp", i))
		if err := filesystem.Write(ctx, fs, tmp, []byte(content(i))); err != nil {
			return err
		}
		// Published by rename: a reader sees the whole file or none.
		if err := filesystem.Rename(ctx, fs, tmp, final); err != nil {
			return err
		}
		emit(i%2, final)
	}
	return nil
}

// readFn stands for "merge one target part": it reads every file of its
// group back, checks each against content(i), skips names given in the side
// input (as a lower level's part would be subtracted), and writes a
// summary file "sum-K" that the test reads.
type readFn struct {
	Dir string
}

func (f *readFn) ProcessElement(ctx context.Context, key int, names func(*string) bool, skip func(*string) bool) error {
	fs, err := filesystem.New(ctx, f.Dir)
	if err != nil {
		return err
	}
	defer fs.Close()
	skipped := map[string]bool{}
	var s string
	for skip(&s) {
		skipped[s] = true
	}
	var got []string
	for names(&s) {
		if skipped[filepath.Base(s)] {
			continue
		}
		var i int
		if _, err := fmt.Sscanf(filepath.Base(s), "part-%03d", &i); err != nil {
			return fmt.Errorf("%s: %v", s, err)
		}
		b, err := filesystem.Read(ctx, fs, s)
		if err != nil {
			return err
		}
		if string(b) != content(i) {
			return fmt.Errorf("%s: content %q, want %q", s, b, content(i))
		}
		got = append(got, filepath.Base(s))
	}
	sort.Strings(got)
	sum := filepath.Join(f.Dir, fmt.Sprintf("sum-%d", key))
	w, err := fs.OpenWrite(ctx, sum+".tmp")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, strings.Join(got, " ")); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return filesystem.Rename(ctx, fs, sum+".tmp", sum)
}

// coreWriteFn writes one file with the core module's atomic writer from
// inside a DoFn: the nested module may import the root's internal packages
// (the import path is below github.com/gapset/gapset), and a local-disk
// pipeline can keep the core's temporary-sync-rename discipline.
type coreWriteFn struct {
	Path string
}

func (f *coreWriteFn) ProcessElement(_ []byte) error {
	return atomicfile.WriteFile(f.Path, []byte("written by a DoFn\n"))
}

func init() {
	register.DoFn1x1[[]byte, error](&coreWriteFn{})
	register.DoFn3x1[context.Context, []byte, func(int, string), error](&writeFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(*string) bool, error](&readFn{})
	register.Emitter2[int, string]()
	register.Iter1[string]()
}

func TestMain(m *testing.M) {
	flag.Parse()
	// beam.Init runs the SDK's init hooks; in worker mode (--worker) it
	// would become the SDK harness and never return.
	beam.Init()
	os.Exit(m.Run())
}

// build makes Impulse -> writeFn -> GroupByKey -> readFn(side input: names
// to skip).
func build(dir string, n, failAt int, skip ...string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	imp := beam.Impulse(s)
	files := beam.ParDo(s, &writeFn{Dir: dir, N: n, FailAt: failAt}, imp)
	groups := beam.GroupByKey(s, files)
	skipCol := beam.CreateList(s, append([]string{}, skip...))
	beam.ParDo0(s, &readFn{Dir: dir}, groups, beam.SideInput{Input: skipCol})
	return p
}

func readSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	for _, k := range []string{"sum-0", "sum-1"} {
		b, err := os.ReadFile(filepath.Join(dir, k))
		require.NoError(t, err)
		sums[k] = string(b)
	}
	return sums
}

// withEndpoint points the universal runner at endpoint with LOOPBACK workers
// for one test: jobopts are flag globals (prism.Execute sets them too).
func withEndpoint(t *testing.T, endpoint string) {
	t.Helper()
	oldE, oldT := *jobopts.Endpoint, *jobopts.EnvironmentType
	*jobopts.Endpoint, *jobopts.EnvironmentType = endpoint, "loopback"
	t.Cleanup(func() { *jobopts.Endpoint, *jobopts.EnvironmentType = oldE, oldT })
}

func TestPrismInProcess(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	start := time.Now()
	_, err := prism.Execute(ctx, build(dir, 5, -1, "part-003"))
	require.NoError(t, err)
	t.Logf("pipeline (starts the in-process Prism server unless an earlier test did): %v", time.Since(start))

	// Keys are i%2; part-003 is skipped through the side input.
	require.Equal(t, map[string]string{
		"sum-0": "part-000 part-002 part-004",
		"sum-1": "part-001",
	}, readSums(t, dir))
	left, err := filepath.Glob(filepath.Join(dir, "*.tmp"))
	require.NoError(t, err)
	require.Empty(t, left, "temporaries left after the renames")

	// A second pipeline in the same process reuses the server: this is the
	// per-job cost of "one job per depth".
	for range 3 {
		dir2 := t.TempDir()
		start = time.Now()
		_, err = prism.Execute(ctx, build(dir2, 5, -1))
		require.NoError(t, err)
		t.Logf("next pipeline, same server: %v", time.Since(start))
		require.Equal(t, "part-001 part-003", readSums(t, dir2)["sum-1"])
	}
}

func TestPrismDoFnErrorFailsPipeline(t *testing.T) {
	dir := t.TempDir()
	_, err := prism.Execute(context.Background(), build(dir, 5, 2))
	require.Error(t, err)
	require.Contains(t, err.Error(), "injected failure")
	// The failing bundle published part-000 and part-001 before failing and
	// no summary was written: outputs of a failed job are not a finished
	// layer, which is why the design publishes a manifest last.
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Join(dir, "part-000"), filepath.Join(dir, "part-001")}, names)
}

func TestCoreWriterInDoFn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo0(s, &coreWriteFn{Path: path}, beam.Impulse(s))
	_, err := prism.Execute(context.Background(), p)
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "written by a DoFn\n", string(b))
	left, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	require.NoError(t, err)
	require.Empty(t, left, "temporaries left beside the output")
}

// TestPrismJobServer submits to a separately started Prism job server, as
// the command will with --runner universal --endpoint HOST:PORT
// --environment_type LOOPBACK. Opt-in: start the server with
//
//	go run github.com/apache/beam/sdks/v2/go/cmd/prism -job_port 8073 -serve_http=false
//
// (from cluster/, where the module requires Beam) and set
// GAPSET_PRISM_ENDPOINT=localhost:8073.
func TestPrismJobServer(t *testing.T) {
	endpoint := os.Getenv("GAPSET_PRISM_ENDPOINT")
	if endpoint == "" {
		t.Skip("GAPSET_PRISM_ENDPOINT not set (see the test's comment)")
	}
	withEndpoint(t, endpoint)
	dir := t.TempDir()
	start := time.Now()
	_, err := universal.Execute(context.Background(), build(dir, 4, -1, "part-000"))
	require.NoError(t, err)
	t.Logf("pipeline on the job server at %s: %v", endpoint, time.Since(start))
	require.Equal(t, map[string]string{
		"sum-0": "part-002",
		"sum-1": "part-001 part-003",
	}, readSums(t, dir))
}

// TestPrismProcessWorker runs the SDK worker as a separate process, the way
// Flink, Spark and Dataflow run it: Prism starts Beam's boot program
// (PROCESS environment), which fetches the staged worker binary (this test
// binary, --worker_binary) and starts it with --worker and its endpoints;
// TestMain's beam.Init then turns it into the SDK harness. Opt-in: build the
// boot program (from cluster/)
//
//	go build -o BOOT github.com/apache/beam/sdks/v2/go/container
//
// and set GAPSET_BEAM_BOOT=BOOT (an absolute path). Needs bash.
func TestPrismProcessWorker(t *testing.T) {
	boot := os.Getenv("GAPSET_BEAM_BOOT")
	if boot == "" {
		t.Skip("GAPSET_BEAM_BOOT not set (see the test's comment)")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	// Prism v2.77.0 passes --id='ID' with the quotes inside the argument
	// (no shell runs it); the boot program then asks for an unknown worker
	// and the job hangs. The wrapper strips the quotes, and runs the boot
	// program in a temporary directory: it writes pipeline_options.json to
	// its working directory and the staged binary to --semi_persist_dir.
	scratch := t.TempDir()
	wrapper := filepath.Join(scratch, "boot.sh")
	script := fmt.Sprintf("#!/usr/bin/env bash\ncd %q && exec %q --semi_persist_dir=%q \"${@//\\'/}\"\n", scratch, boot, scratch)
	require.NoError(t, os.WriteFile(wrapper, []byte(script), 0o755))
	boot = wrapper
	oldT, oldC, oldW := *jobopts.EnvironmentType, *jobopts.EnvironmentConfig, *jobopts.WorkerBinary
	*jobopts.EnvironmentType = "process"
	*jobopts.EnvironmentConfig = fmt.Sprintf(`{"command": %q}`, boot)
	*jobopts.WorkerBinary = self
	t.Cleanup(func() {
		*jobopts.EnvironmentType, *jobopts.EnvironmentConfig, *jobopts.WorkerBinary = oldT, oldC, oldW
	})
	dir := t.TempDir()
	start := time.Now()
	_, err = prism.Execute(context.Background(), build(dir, 4, -1))
	require.NoError(t, err)
	t.Logf("pipeline with a PROCESS worker: %v", time.Since(start))
	require.Equal(t, map[string]string{
		"sum-0": "part-000 part-002",
		"sum-1": "part-001 part-003",
	}, readSums(t, dir))
}
