package stats

// Observer is told of every sample a Recorder keeps, as it keeps it: live
// metrics (package metrics, wired by cmd/readbench) count exactly what the
// phase counts, so a dashboard's totals equal the result's. It is called
// with the Recorder's lock held, from the goroutine that finished the read
// or turn: it must be cheap (atomic counters) and never block.
type Observer interface {
	ObserveRead(ReadSample)
	ObserveTurn(TurnSample)
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
