package cmdline

import (
	"runtime/pprof"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/urfave/cli/v2"
)

// AddCPUProfile gives app the global flag --cpuprofile FILE: a CPU profile
// of the whole command, for go tool pprof, written through the file writer
// (a FIFO, device or symlink at FILE is refused before the command runs). A
// file that cannot be created is bad input. It sets app.Before and
// app.After.
func AddCPUProfile(app *cli.App) {
	var profile *atomicfile.File
	app.Flags = append(app.Flags, &cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the whole command to `FILE` (read it with go tool pprof)"})
	app.Before = func(c *cli.Context) error {
		path := c.String("cpuprofile")
		if path == "" {
			return nil
		}
		if err := CheckOutFile("--cpuprofile", path); err != nil {
			return err
		}
		if err := cleanupOf(c).WillWrite("--cpuprofile", path); err != nil {
			return err
		}
		f, err := atomicfile.Create(path)
		if err != nil {
			return BadInputf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Abort()
			return err
		}
		profile = f
		return nil
	}
	app.After = func(c *cli.Context) error {
		if profile == nil {
			return nil
		}
		pprof.StopCPUProfile()
		if cleanupOf(c).NotInput("--cpuprofile", profile.Target()) != nil {
			profile.Abort() // the input's action said so already
			return nil
		}
		return profile.Commit()
	}
}
