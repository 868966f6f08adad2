package driver

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkPacerNext is the cost of deciding when the next turn starts,
// paid once per turn by the scheduler: a constant rate, a ramp (a square
// root per turn), and Poisson arrivals over stages (thinning draws). The
// schedules are long enough never to end within a benchmark.
func BenchmarkPacerNext(b *testing.B) {
	forever := time.Duration(1<<62 - 1)
	stages := []stretch{{10, 10, time.Hour}, {10, 1000, time.Hour}, {1000, 1000, time.Hour}, {0, 0, time.Hour}, {500, 500, forever}}
	pacers := []struct {
		name string
		new  func() pacer
	}{
		{"constant", func() pacer { return &constantPacer{stretches: []stretch{{1000, 1000, forever}}} }},
		{"ramp", func() pacer { return &constantPacer{stretches: []stretch{{1, 1e6, 1000 * time.Hour}}} }},
		{"poisson-stages", func() pacer {
			return &poissonPacer{rng: rand.New(rand.NewPCG(42, 0x9e3779b97f4a7c15)), stretches: stages}
		}},
	}
	for _, pc := range pacers {
		b.Run(pc.name, func(b *testing.B) {
			p := pc.new()
			for b.Loop() {
				if _, ok := p.next(); !ok {
					b.Fatal("the schedule ended")
				}
			}
		})
	}
}
