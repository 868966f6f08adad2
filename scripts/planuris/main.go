// Command planuris prints the URIs a workload's first N turns read from
// readbench's simulated server, one a line, in the order readbench sends
// them (the same seeded plan a run follows), so that scripts/compare.sh
// can point another load generator (vegeta) at the very reads a readbench
// run makes.
//
//	go run ./scripts/planuris docs-attachments 2000   # a built-in scenario
//	go run ./scripts/planuris my-workload.yaml 500
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"

	"github.com/readbench/readbench/scenarios"
	"github.com/readbench/readbench/workload"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "planuris:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: planuris WORKLOAD|SCENARIO TURNS")
	}
	turns, err := strconv.ParseUint(args[1], 10, 32)
	if err != nil {
		return fmt.Errorf("turns: %w", err)
	}
	w, err := scenarios.Load(args[0])
	if err != nil {
		return err
	}
	p, err := workload.NewSimPlan(w)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	for i := range turns {
		for _, a := range p.Turn(i) {
			fmt.Fprintln(out, a.URI)
		}
	}
	return out.Flush()
}
