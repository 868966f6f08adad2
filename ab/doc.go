// Package ab runs the sound experiment behind "is the new version
// worse": interleaved rounds of runs against two targets, base and new.
//
// Each round runs both sides once, in an order that alternates (base
// first in odd rounds, new first in even ones: ABBA over each pair), so a
// machine that warms up or gets busier through the experiment weighs on
// both sides alike. Every run is judged by a Policy before it counts: a
// run whose generator could not keep its schedule, or whose scheduling
// lag is a material share of the figures the gate holds, says more about
// the machine than about the server, so its round is re-run (a bounded
// number of times) and, if still noisy, excluded, both sides together,
// and said. Every run is saved: kept ones in base/ and new/ (so
// `readbench compare DIR/base DIR/new` repeats the comparison), the
// others in excluded/. The kept runs are then compared with
// compare.CompareRuns, the run being the unit (whose notes add the
// policy advice of the new side's runs taken together).
//
// The runs themselves are made by a Runner the caller provides (the
// command line runs the driver), so the round loop is tested with fake
// runs. It imports results and bounds; never the driver, the client, the
// workload file format or any renderer (package report prints the
// comparison).
package ab
