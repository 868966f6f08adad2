package stats

// Observer is told of every sample a Recorder keeps, as it keeps it: live
// metrics (package metrics, handed to the driver by the command) count
// exactly what the phase counts, so a dashboard's totals equal the
// result's. It is called with the Recorder's lock held, from the
// goroutine that finished the read or turn: it must be cheap (atomic
// counters) and never block.
type Observer interface {
	ObserveRead(ReadSample)
	ObserveTurn(TurnSample)
}

// Ready is what a run tells the observers of its phases once its
// sessions are open and its plan is built, just before its first turn
// (driver.Options.Observe): what live metrics label their series with,
// and the classes a sample's Class indexes, by which ab's windows name
// theirs. Its values are plain, so that the packages that observe a run
// (metrics, ab) need not import the driver, nor stats anything of MCP.
type Ready struct {
	Workload string // the workload's name
	// Target is the target's one-string form, as given: a password in a
	// URL is redacted where a label is made of it.
	Target string
	// ServerName and ServerVersion are the server's own (its serverInfo).
	ServerName, ServerVersion string
	// Shard is the share of the run this process drives, k/n ("1/1": the
	// whole run).
	Shard     string
	Classes   []ClassInfo // in the order of ReadSample.Class
	AskedRate float64     // turns per second asked over the measured phase (0: closed model)
}

// SetObserver makes o (nil: none) see every read and turn recorded from
// now on. Call it before the first sample; what was recorded before is
// not replayed.
func (r *Recorder) SetObserver(o Observer) {
	r.mu.Lock()
	r.obs = o
	r.mu.Unlock()
}

// Tee is an Observer that tells each of os (nil ones left out) in turn:
// a run's live metrics and ab's windows both see its samples. nil when
// none is left.
func Tee(os ...Observer) Observer {
	var t tee
	for _, o := range os {
		if o != nil {
			t = append(t, o)
		}
	}
	switch len(t) {
	case 0:
		return nil
	case 1:
		return t[0]
	}
	return t
}

type tee []Observer

func (t tee) ObserveRead(s ReadSample) {
	for _, o := range t {
		o.ObserveRead(s)
	}
}

func (t tee) ObserveTurn(s TurnSample) {
	for _, o := range t {
		o.ObserveTurn(s)
	}
}
