package driver

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/stats"
	"github.com/readbench/readbench/workload"
)

// Listeners (listen section; docs/subscriptions.md, the driver's part):
// sessions of their own beside the reading sessions, opened from the
// run's start at load.connect_rate and spread over listen.ramp, each
// holding listen.streams subscriptions (2026-07-28; one in the legacy
// era) to its URIs for the whole run, warmup included. Every
// acknowledgement and notification goes to one stats.Freshness, which
// matches notifications to the changes the changer made; a notification
// that told of a change starts a re-read (reread.go). At the run's end
// the changer stops, late notifications get a grace, each subscription
// is ended in the accounting and then closed, and the re-reads in flight
// finish before the recorders are read.
type listeners struct {
	r     *runner
	spec  *workload.Listen
	uris  []string
	fresh *stats.Freshness
	ch    *changer // nil: no changes, or via server
	// chDone is closed when the changer's run returned (its changes in
	// flight finished): stop waits on it, never on the changer's own wait
	// group, which run may still be adding to.
	chDone chan struct{}
	class  int // the re-reads' class index in the recorders; -1: no re-reads
	mStart time.Time
	ctx    context.Context // the run's: the re-reads end with it
	// relistenCtx bounds the re-listens (relisten.go): it ends when the
	// listeners stop.
	relistenCtx context.Context
	relistenEnd context.CancelFunc

	mu      sync.Mutex
	closing bool       // the run is ending: no re-read is started
	subs    []*heldSub // every acknowledged subscription
	members []*listener
	wg      sync.WaitGroup // the opener, the changer and every re-read

	asked, connected, failed, listening  atomic.Int64
	streamsAsked, opened, notApplicable  atomic.Int64
	limit, httpRefused, rpcRefused, lost atomic.Int64
	flags                                [6]atomic.Int64 // by client.Flags bit
	rereads, skipped, wouldSkip          atomic.Int64
	skippedScope, wouldScope             atomic.Int64 // by cacheScope (rereadcache.go)
	cache                                rereadCache  // the versions the listeners re-read
	reconnects                           atomic.Int64 // re-listens asked after a drop (relisten.go)
	modern                               atomic.Int32 // 0 unknown, 1 listen, 2 subscribe
}

// listener is one listening session and its cache of answers' ttlMs.
type listener struct {
	l    *listeners
	s    *client.Session
	live *live
	ttl  freshness
}

// heldSub is one subscription of a listener and its view in the
// accounting, made once it is acknowledged; notifications that come
// before (a server that notifies before its acknowledgement) wait in
// early, bounded, and are matched then.
type heldSub struct {
	li    *listener
	mu    sync.Mutex
	sub   *client.Subscription
	acct  *stats.Subscription
	early []client.Notification
	// endedEarly is how it ended when that came before acct was made
	// (acknowledged, then dropped at once): relisten.go takes it then.
	endedEarly *client.Ending
}

// maxEarly bounds the notifications a subscription keeps before its
// acknowledgement.
const maxEarly = 1024

// defaultAckTimeout is how long a subscription's acknowledgement may take
// when no handshake timeout is set (the handshake's, when one is).
const defaultAckTimeout = 30 * time.Second

// notificationGrace is how long the run waits, once its schedule and its
// changes are over, for the notifications of the last changes.
const notificationGrace = 500 * time.Millisecond

// newListeners resolves what the listeners subscribe to and what the
// changer changes, and opens the changer's means (its session, its
// host's check) before the run starts.
func (r *runner) newListeners(ctx context.Context) (*listeners, error) {
	spec := r.w.Listen
	uris, err := r.listenURIs("listen.uris", spec.URIs)
	if err != nil {
		return nil, err
	}
	c := r.w.Changes
	timed := c != nil && !c.Via.Server
	l := &listeners{r: r, spec: spec, uris: uris, fresh: stats.NewFreshness(timed), class: r.rereadClass}
	l.fresh.SetClassOf(r.uriClasses(uris))
	if timed {
		cu := uris
		if !c.URIs.Attached || len(c.URIs.List) > 0 || c.URIs.Class != "" {
			if cu, err = r.listenURIs("changes.uris", c.URIs); err != nil {
				return nil, err
			}
		}
		if l.ch, err = r.newChanger(ctx, c, cu, l.fresh); err != nil {
			return nil, err
		}
		l.ch.sessions = l.sessions
	}
	return l, nil
}

// start opens the listeners from start, and starts the changer at the
// measured phase's start mStart for length (0: until stop).
func (l *listeners) start(ctx context.Context, start, mStart time.Time, length time.Duration, stop <-chan struct{}) {
	l.mStart, l.ctx = mStart, ctx
	l.fresh.StartTimeline(start) // the reads' seconds (run.go)
	l.relistenCtx, l.relistenEnd = context.WithCancel(ctx)
	n := l.spec.Listeners
	l.asked.Store(int64(n))
	perSecond := l.r.w.Load.ConnectRate.PerSecond
	if ramp := l.spec.Ramp; ramp > 0 && n > 1 {
		if rampRate := float64(n-1) / ramp.Seconds(); perSecond <= 0 || rampRate < perSecond {
			perSecond = rampRate
		}
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		_, errs := connectAll(ctx, n, connectParallel(l.r.w.Target), perSecond, l.openOne)
		for _, err := range errs {
			if err != nil {
				l.failed.Add(1)
			}
		}
	}()
	if l.ch != nil {
		l.chDone = make(chan struct{})
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			defer close(l.chDone)
			l.ch.run(ctx, mStart, length, stop)
		}()
	}
}

// openOne opens one listener's session and its subscriptions. It returns
// no Conn: the listeners keep their own.
func (l *listeners) openOne(ctx context.Context) (client.Conn, error) {
	conn, _, err := client.Open(ctx, l.r.dialOf(nil))
	if err != nil {
		return nil, err
	}
	s, ok := conn.(*client.Session)
	if !ok {
		_ = conn.Close()
		return nil, errors.New("listen: the target serves plain HTTP documents, which have no subscriptions")
	}
	li := &listener{l: l, s: s, live: &live{conn: s, opened: time.Now()}}
	l.mu.Lock()
	closing := l.closing
	if !closing {
		l.members = append(l.members, li)
	}
	l.mu.Unlock()
	if closing {
		_ = s.Close()
		return nil, errors.New("listen: the run ended before this listener opened")
	}
	l.connected.Add(1)
	mode := int32(2)
	streams := 1
	if s.Modern() {
		mode, streams = 1, l.spec.Streams
	}
	l.modern.CompareAndSwap(0, mode)
	any := false
	for range streams {
		l.streamsAsked.Add(1)
		if l.subscribe(ctx, li, nil) {
			any = true
		}
	}
	if any {
		l.listening.Add(1)
	}
	return nil, nil
}

// subscribe opens one subscription of li and records its outcome; prev
// is the subscription whose drop it replaces (nil: the first).
func (l *listeners) subscribe(ctx context.Context, li *listener, prev *heldSub) bool {
	h := &heldSub{li: li}
	limit, _ := l.r.o.HandshakeLimit()
	if limit <= 0 {
		limit = defaultAckTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	sub, err := li.s.Subscribe(sctx, client.SubscribeSpec{URIs: l.uris, ListChanged: l.spec.ListChanged, OnEnd: h.ended}, h.on)
	var refused *client.RefusedError
	switch {
	case err == nil:
	case errors.Is(err, client.ErrSubscriptionsUnsupported):
		l.notApplicable.Add(1)
		return false
	case errors.As(err, &refused) && refused.LimitReached:
		l.limit.Add(1)
		return false
	case errors.As(err, &refused) && refused.RPC != nil:
		l.rpcRefused.Add(1)
		return false
	case errors.As(err, &refused):
		l.httpRefused.Add(1)
		return false
	case prev != nil && ctx.Err() != nil:
		// The run ended while a re-listen after a drop waited: withdrawn,
		// not failed — a failed subscription fails the run
		// (results.Judge), and the server had no time to answer. A first
		// subscription the whole run never saw acknowledged did fail.
		l.streamsAsked.Add(-1)
		return false
	default:
		l.lost.Add(1)
		if l.r.o.Logf != nil && l.r.failed.first(err.Error()) {
			l.r.o.Logf("listen: %v", err)
		}
		return false
	}
	l.opened.Add(1)
	sent, ack := sub.AckTimes()
	var acct *stats.Subscription
	if prev != nil {
		acct = l.fresh.Resubscribe(prev.acct, sub.Acked().ResourceSubscriptions, ack, ack.Sub(sent))
	} else {
		acct = l.fresh.Subscribe(sub.Acked().ResourceSubscriptions, ack, ack.Sub(sent))
	}
	h.mu.Lock()
	h.sub, h.acct = sub, acct
	early, endedEarly := h.early, h.endedEarly
	h.early = nil
	h.mu.Unlock()
	for _, n := range early {
		h.notified(n)
	}
	l.mu.Lock()
	l.subs = append(l.subs, h)
	l.mu.Unlock()
	if endedEarly != nil {
		h.ended(*endedEarly)
	}
	return true
}

// stop ends the listeners: the changer stops (the caller closed stop),
// late notifications get their grace, every subscription is ended in the
// accounting at one instant and closed, the re-reads finish, and the
// sessions close. It returns what the listeners recorded.
func (l *listeners) stop(ctx context.Context) *stats.Listening {
	l.mu.Lock()
	l.closing = true // no listener opens, and no stream is listened again, from now on
	l.mu.Unlock()
	l.stopRelisten()
	if l.chDone != nil {
		<-l.chDone
	}
	sleepCtx(ctx, notificationGrace)
	l.mu.Lock()
	subs := l.subs
	members := l.members
	l.mu.Unlock()
	end := time.Now()
	l.streamGaps(members, subs)
	out := stats.NewListening()
	l.endAll(ctx, out, subs, end)
	l.wg.Wait() // the opener, the changer, the re-reads, the re-listens
	l.mu.Lock()
	all := l.subs
	l.mu.Unlock()
	l.endAll(ctx, out, all[len(subs):], end) // re-listens acknowledged as the run ended
	for _, li := range members {
		u := li.s.Unrouted()
		out.Unrouted += u.NoSubscription + u.NotAsked + u.Unreadable
	}
	closeSessions(members)
	l.streamLife(out, members, all)
	if l.ch != nil {
		l.ch.close()
		out.ChangeLag = l.ch.lagCopy()
	}
	l.fill(out)
	return out
}

// fill copies the counters and the accounting into out.
func (l *listeners) fill(out *stats.Listening) {
	l.fillCounts(out)
	out.Freshness = l.fresh.Summary()
}

// fillCounts copies the counters into out.
func (l *listeners) fillCounts(out *stats.Listening) {
	switch l.modern.Load() {
	case 1:
		out.Mode = stats.ModeListen
	case 2:
		out.Mode = stats.ModeSubscribe
	}
	out.Listeners = stats.ListenerCounts{Asked: l.asked.Load(), Connected: l.connected.Load(), Failed: l.failed.Load(), Listening: l.listening.Load()}
	s := &out.Streams
	s.Asked, s.Opened, s.NotApplicable, s.Failed = l.streamsAsked.Load(), l.opened.Load(), l.notApplicable.Load(), l.lost.Load()
	s.Refused = stats.StreamRefusals{LimitReached: l.limit.Load(), HTTP: l.httpRefused.Load(), RPC: l.rpcRefused.Load()}
	v := &out.Violations
	for i, dst := range []*int64{&v.BeforeAck, &v.NoSubscriptionID, &v.WrongSubscriptionID, &v.UnaskedType, &v.UnsubscribedURI, &v.Unreadable} {
		*dst = l.flags[i].Load()
	}
	if c := l.r.w.Changes; c != nil {
		out.Changes = stats.ChangeCounts{Via: c.Via.Form(), Rate: c.Rate.PerSecond}
	}
	out.Rereads = stats.RereadCounts{Made: l.rereads.Load(), SkippedFresh: l.skipped.Load(), WouldSkip: l.wouldSkip.Load(),
		SkippedScope: l.skippedScope.Load(), WouldSkipScope: l.wouldScope.Load()}
	if l.class >= 0 {
		out.Rereads.Class = rereadClassName(l.r.w)
	}
}

// sessions are the listeners' sessions open so far.
func (l *listeners) sessions() []*client.Session {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]*client.Session, len(l.members))
	for i, li := range l.members {
		out[i] = li.s
	}
	return out
}

// closeSessions closes the listeners' sessions in parallel.
func closeSessions(members []*listener) {
	conns := make([]client.Conn, len(members))
	for i, li := range members {
		conns[i] = li.s
	}
	closeAll(conns)
}

// startListening prepares and starts the run's listeners and changer, if
// the workload has a listen section, from the run's start; the measured
// phase starts at mStart. The function it returns ends them, once the
// schedule is over, and returns what they recorded (nil without
// listeners).
func (r *runner) startListening(ctx context.Context, start, mStart time.Time) (func() *stats.Listening, error) {
	if r.w.Listen == nil {
		return func() *stats.Listening { return nil }, nil
	}
	l, err := r.newListeners(ctx)
	if err != nil {
		return nil, err
	}
	stop := make(chan struct{})
	l.start(ctx, start, mStart, r.w.Load.Length(), stop)
	r.listening = l // before the progress ticker starts (run.go): its ticks read it
	return func() *stats.Listening {
		close(stop)
		return l.stop(ctx)
	}, nil
}

// rereadClassOf adds the re-reads' class to classes when the workload's
// listeners re-read, and returns its index (-1: none).
func rereadClassOf(w *workload.Workload, classes *[]stats.ClassInfo) int {
	if w.Listen == nil || w.Listen.Reread.Off {
		return -1
	}
	*classes = append(*classes, stats.ClassInfo{Name: rereadClassName(w)})
	return len(*classes) - 1
}
