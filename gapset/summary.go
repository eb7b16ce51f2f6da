package gapset

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Write renders the result of Enumerate as the summary of `gapset
// enumerate`: members per layer, the files written and the resources used
// as text, or (format "json") as one JSON line with the times in seconds.
func (r Result) Write(w io.Writer, format string) error {
	if format == "json" {
		type summary struct {
			Result
			Seconds    float64 `json:"seconds"`
			CPUSeconds float64 `json:"cpu_seconds"`
		}
		b, err := json.Marshal(summary{r, r.Elapsed.Seconds(), r.CPU.Seconds()})
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	var sb strings.Builder
	gap, h := "gap", "manhattan"
	if r.Base != "" {
		gap, h = "r", "h"
	}
	what := fmt.Sprintf("%s <= %d", gap, r.MaxGap)
	if r.Exact {
		what = fmt.Sprintf("%s = %d", gap, r.MaxGap)
	}
	if r.Base != "" {
		what += fmt.Sprintf(" (r = optimum - h, h the base %s)", r.Base)
	}
	fmt.Fprintf(&sb, "# %dx%d, %s: members per layer\n", r.Rows, r.Cols, what)
	fmt.Fprintf(&sb, "%-4s %-9s %s\n", gap, h, "count")
	for _, l := range r.Layers {
		fmt.Fprintf(&sb, "%-4d %-9d %d\n", l.Gap, l.Manhattan, l.Count)
	}
	fmt.Fprintf(&sb, "members %d\n", r.Members)
	for _, o := range r.Outputs {
		fmt.Fprintf(&sb, "set %s cells %d count %d file %s\n", o.Name, o.Cells, o.Count, o.Path)
	}
	fmt.Fprintf(&sb, "seconds %.1f\ncpu_seconds %.1f\npeak_rss_mib %d\npeak_disk_mib %d\nspills %d\n",
		r.Elapsed.Seconds(), r.CPU.Seconds(), r.PeakRSS>>20, r.PeakDisk>>20, r.Spills)
	_, err := io.WriteString(w, sb.String())
	return err
}

// String is the progress line of `gapset enumerate`: a layer's count, the
// members so far and their rate, and the memory in use; for the phases
// after the layers ("project", "merge"), the keys handled.
func (p Progress) String() string {
	if p.Phase != "layer" {
		return fmt.Sprintf("%6.1fs %s: %d keys; rss %d MiB, peak %d MiB", p.Elapsed.Seconds(), p.Phase, p.Layer, p.RSS>>20, p.PeakRSS>>20)
	}
	rate := float64(p.Members) / max(p.Elapsed.Seconds(), 1e-9)
	return fmt.Sprintf("%6.1fs gap %d M %2d: %11d; members %13d (%.3g/s); rss %d MiB, peak %d MiB",
		p.Elapsed.Seconds(), p.Gap, p.Manhattan, p.Layer, p.Members, rate, p.RSS>>20, p.PeakRSS>>20)
}
