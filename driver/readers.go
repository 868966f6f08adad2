package driver

import (
	"context"
	"sync"
	"time"

	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// A turn of N reads runs its last read on its own goroutine and hands the
// other N−1 to the run's readers: goroutines kept for the whole run, each
// with the stack a read grew. A goroutine started per read grew its stack
// anew every time (runtime.copystack was a tenth of the CPU of a turn of
// four reads, BenchmarkTurnHTTP); a kept one pays that once. A read goes
// to an idle reader when there is one and to a new reader otherwise, so
// there are never more readers than reads were once in flight together,
// and a read never waits for one. The runner owns them: stop ends them
// once every turn has ended.

// readers are a run's read goroutines; the zero value is ready.
type readers struct {
	once sync.Once
	jobs chan readJob // unbuffered: a send succeeds only to an idle reader
	wg   sync.WaitGroup
}

// readJob is one read of a turn handed to a reader: doRead's arguments,
// and where its outcome and end go.
type readJob struct {
	r        *runner
	tctx     context.Context
	s        *live
	intended time.Time
	att      workload.Attachment
	rec      *stats.Recorder
	outcome  *stats.Outcome
	end      *time.Time
	done     *sync.WaitGroup
}

func (j *readJob) do() {
	*j.outcome, *j.end = j.r.doRead(j.tctx, j.s, j.intended, j.att, j.rec)
	j.done.Done()
}

// read runs j on an idle reader, or on a new one.
func (p *readers) read(j readJob) {
	p.once.Do(func() { p.jobs = make(chan readJob) })
	select {
	case p.jobs <- j:
	default:
		p.wg.Add(1)
		go p.work(j)
	}
}

// work runs j, then every read handed to it, until stop.
func (p *readers) work(j readJob) {
	defer p.wg.Done()
	for ok := true; ok; j, ok = <-p.jobs {
		j.do()
	}
}

// stop ends the readers and waits for them; call it once no turn can
// start a read any more.
func (p *readers) stop() {
	p.once.Do(func() { p.jobs = make(chan readJob) })
	close(p.jobs)
	p.wg.Wait()
}
