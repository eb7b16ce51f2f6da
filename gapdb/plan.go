package gapdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gapset/gapset/internal/errmark"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
)

// keysPerSecond is the build's rate on the reference machine (2 cores;
// 2026-11-27: 22 million keys a second on 8 cells, 12 on 10 cells before
// the reading had a goroutine of its own), for the estimate only.
const keysPerSecond = 15e6

const gib = 1 << 30

// Estimate says what the build will take, before it starts.
func (p *Plan) Estimate() string {
	h := p.Header
	eta := time.Duration(float64(p.Keys) / keysPerSecond * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%s: %d patterns at %d bits; %d keys to read; %.1f GiB of memory, a %.1f GiB file; about %v",
		h.Name(), h.Entries, h.Bits, p.Keys, float64(p.Memory())/gib, float64(p.FileBytes())/gib, eta)
}

// tooBig is a build the machine cannot hold: ErrTooBig (a limit), its
// text the reason alone.
func tooBig(format string, a ...any) error { return errmark.As(fmt.Errorf(format, a...), ErrTooBig) }

// FitsMachine is Fits with the machine's available memory and the free
// disk of the output's directory.
func (p *Plan) FitsMachine(out string) error {
	_, avail := sysprobe.Machine()
	free := int64(-1)
	if d, err := sysprobe.FreeDisk(filepath.Dir(out)); err == nil {
		free = d.Free
	}
	return p.Fits(avail, free, filepath.Dir(out))
}

// Fits refuses (ErrTooBig) a build whose table passes the available
// memory (avail; 0: unknown) or whose file passes the free disk of dir
// (free; negative: unknown).
func (p *Plan) Fits(avail uint64, free int64, dir string) error {
	name := p.Header.Name()
	if avail > 0 && p.Memory() > avail {
		return tooBig("%s: the table takes %.1f GiB of memory, %.1f GiB are available", name, float64(p.Memory())/gib, float64(avail)/gib)
	}
	if free >= 0 && uint64(free) < p.FileBytes() {
		return tooBig("%s: the file takes %.1f GiB, %s has %.1f GiB free", name, float64(p.FileBytes())/gib, dir, float64(free)/gib)
	}
	return nil
}

// Built is the line gapset gapdb prints for the database written at path
// in took.
func (h Header) Built(path string, took time.Duration) string {
	levels := fmt.Sprint(h.Levels)
	if h.Both() {
		levels = fmt.Sprintf("%d res_levels=%d", h.Levels, h.ResLevels)
	}
	return fmt.Sprintf("%s levels=%s bits=%d entries=%d filter_cells=%d bytes=%d digest=%08x build=%.1fs -> %s",
		h.Name(), levels, h.Bits, h.Entries, h.FilterCells, h.TableOff+h.TableLen+h.FilterLen, h.Digest(), took.Seconds(), path)
}

// ErrInput marks the level files a build refuses: ErrLevels, ErrFilter, a
// bad or missing key-set file (bad input; the text unchanged, errmark).
var ErrInput = errors.New("bad gap database input")

// BuildFile builds the database (progress hears the keys read), writes it
// to path (writing, if set, hears its header first) and returns the
// header read back from the file.
func (p *Plan) BuildFile(ctx context.Context, path string, progress Progress, writing func(Header)) (Header, error) {
	b, err := p.Build(ctx, progress)
	if err != nil {
		return Header{}, errmark.If(err, ErrInput, ErrLevels, ErrFilter, keyset.ErrFormat, os.ErrNotExist)
	}
	if writing != nil {
		writing(b.Header())
	}
	if err := b.Write(ctx, path); err != nil {
		return Header{}, err
	}
	return ReadHeader(path)
}
