// Package profile writes readbench's own CPU and heap profiles (read them
// with `go tool pprof`): a load generator that costs more than it should
// measures itself, so `run` (an option of the run, runner.Extras) and
// `serve` let a user see where readbench spends. It is one package for
// both so that the files are made, and their errors named, alike.
package profile

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Start starts the CPU profile written to cpuPath and returns the function
// that stops it and writes the heap profile to memPath ("" leaves either
// out). Both files are created before anything is profiled, so a bad path
// is a usage error (named by its flag, --cpuprofile or --memprofile), not
// a run lost at its end. stop must be called once.
func Start(cpuPath, memPath string) (stop func() error, err error) {
	var cpu, mem *os.File
	closeAll := func() {
		for _, f := range []*os.File{cpu, mem} {
			if f != nil {
				_ = f.Close()
			}
		}
	}
	if cpuPath != "" {
		if cpu, err = os.Create(cpuPath); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			closeAll()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
	}
	if memPath != "" {
		if mem, err = os.Create(memPath); err != nil {
			if cpu != nil {
				pprof.StopCPUProfile()
			}
			closeAll()
			return nil, fmt.Errorf("--memprofile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			errs = append(errs, cpu.Close())
		}
		if mem != nil {
			runtime.GC() // the heap as the run left it, not its garbage
			errs = append(errs, pprof.WriteHeapProfile(mem), mem.Close())
		}
		return errors.Join(errs...)
	}, nil
}
