package stats

// Reads whose outcome only the run's end can decide. A server that
// answers a missing resource with -32601 (Method not found) worded as
// missing ("Resource not found: URI", fastmcp 4.20.16) misuses the code
// if it implements resources/read, and lacks the method if it does not;
// one answer cannot tell which, and the answer that tells (a read
// answered with a result) may come later than the reads it decides. Such
// a read is recorded as method_not_found, unsettled, and counted here
// too; Settle says what the run found, and Phase moves the reads to the
// outcome they settle as when the server implements the method. Each read
// keeps exactly one outcome (the accounting identity), before and after.

// settleKey is where unsettled reads are counted: their class, the
// outcome they settle as, and their second of the timeline (-1: none).
type settleKey struct {
	class, second int
	to            Outcome
}

// unsettled counts the unsettled reads of one phase; Recorder holds it
// under its mutex.
type unsettled struct {
	reads       map[settleKey]int64
	implemented bool // Settle(true): the server implements the method
}

// add counts one unsettled read.
func (u *unsettled) add(class, second int, to Outcome) {
	if u.reads == nil {
		u.reads = map[settleKey]int64{}
	}
	u.reads[settleKey{class: class, second: second, to: to}]++
}

// Settle says whether the server turned out to implement the method its
// reads used (it answered one with a result, in either phase of the run):
// then the reads recorded Unsettled are counted as their Settled outcome
// when Phase closes the recorder, and Phase.MisusedMethodNotFound counts
// them; else, and without a call, they stay method_not_found. Call it
// before Phase, once every read has been recorded.
func (r *Recorder) Settle(implemented bool) {
	r.mu.Lock()
	r.pend.implemented = implemented
	r.mu.Unlock()
}

// settle moves the unsettled reads to their settled outcome, if the
// server implements the method: in the phase's and the class's counts and,
// for an outcome that is no error (a met expect), in the errors of their
// second. Called by Phase with r.mu held, before the timeline closes.
func (r *Recorder) settle() {
	if !r.pend.implemented {
		return
	}
	run := r.run
	for k, n := range r.pend.reads {
		run.Outcomes[MethodNotFound] -= n
		run.Outcomes[k.to] += n
		c := run.Classes[k.class]
		c.Outcomes[MethodNotFound] -= n
		c.Outcomes[k.to] += n
		if k.second >= 0 && k.second < len(r.tl.secs) && !k.to.IsError() {
			r.tl.secs[k.second].Errors -= n
		}
		run.MisusedMethodNotFound += n
	}
	r.pend.reads = nil
}
