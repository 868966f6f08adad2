package record

import (
	"math"
	"slices"
	"time"
)

// How a turn's reads were found to belong together (Read.GroupedBy), from
// the strongest evidence to the weakest; a turn says the weakest it
// needed.
const (
	// GroupedSingle: a turn of one read.
	GroupedSingle = "single"
	// GroupedOrder: a read came with a request id lower than one of the
	// turn's already arrived, so the client sent it before that one:
	// they were sent together, whatever the wire did to them after.
	GroupedOrder = "order"
	// GroupedOverlap: a read arrived while every read of the turn was
	// still in flight.
	GroupedOverlap = "overlap"
	// GroupedWindow: a read arrived within the window of its turn's
	// first read, the window sized on the gaps the recording saw
	// (windowOf), never below Options.Burst.
	GroupedWindow = "window"
)

// arrival is a read as the grouping sees it: when it reached the proxy,
// when it ended (inFlight: not yet), and its JSON-RPC id when it is a
// number (the SDKs count their requests).
type arrival struct {
	at, end  time.Time
	inFlight bool
	id       float64
	hasID    bool
}

// turnGroup is one turn found by group: the indices of its reads, how it
// was grouped and how sure that is.
type turnGroup struct {
	reads      []int
	by         string
	confidence float64
}

// maxWindow bounds the window: reads more than a second apart on one
// session are never one turn by their timing alone. maxJoined bounds
// the largest gap a window may be sized to bridge.
const (
	maxWindow = time.Second
	maxJoined = 500 * time.Millisecond
)

// windowOf is the window that tells a session's gaps within a turn from
// its gaps between turns, sized on the gaps observed (between reads of a
// session that did not overlap): sorted, the widest ratio between two
// neighbouring gaps above floor (the smaller counted as at least floor)
// is the break, if it is at least 2 with two gaps or more under it (one
// alone may as well be a gap between turns), and the window its
// geometric middle (at most maxWindow). Without such a break the window is floor. lo is
// the largest gap the window joins, the reference of the confidence.
// So a window follows the machine: reads a busy host sent together 60
// to 98 ms apart, with turns 600 ms apart, are one turn each.
func windowOf(gaps []time.Duration, floor time.Duration) (w, lo time.Duration) {
	g := slices.Clone(gaps)
	slices.Sort(g)
	best := 0.0
	for j := 0; j+1 < len(g); j++ {
		a, b := max(g[j], floor), g[j+1]
		if b <= floor || g[j] > maxJoined || j < 1 {
			continue // a break needs two gaps under it: one may be a turn's own
		}
		if r := float64(b) / float64(a); r >= 2 && r > best {
			best, lo = r, a
			w = min(max(floor, time.Duration(math.Sqrt(float64(a)*float64(b)))), maxWindow)
		}
	}
	if best > 0 {
		return w, lo
	}
	// No break: the floor, and the largest gap it joins (at least half
	// of it, so that a turn is never surer than its window allows).
	lo = floor / 2
	for _, x := range g {
		if x <= floor {
			lo = max(lo, x)
		}
	}
	return floor, lo
}

// group splits one session's reads (in order of arrival) into turns. A
// read joins the current turn on the strongest evidence it has: its
// request id is lower than one of the turn's (order); every read of the
// turn is still in flight (overlap: a turn closes when one of its reads
// is answered, so a session under steady load is not chained into one
// endless turn); it arrived within w of the turn's first read (window:
// measured from the first, so that reads coming steadily closer than w
// apart are not chained either). Otherwise it starts a turn.
//
// before and after are the gaps around the reads given (0: none known,
// the recording's edge). Each turn's confidence is 1 − ref/outer: outer
// the smallest gap that separates it from its neighbours, ref the
// largest gap inside it that timing joined, or lo when none did; 1 with
// no neighbour, 0 when the gap around it is no wider than the ones
// inside.
func group(as []arrival, w, lo, before, after time.Duration) []turnGroup {
	if len(as) == 0 {
		return nil
	}
	var out []*building
	cur := startTurn(as, 0, before)
	for i := 1; i < len(as); i++ {
		a, gap := as[i], as[i].at.Sub(as[i-1].at)
		switch {
		case a.hasID && cur.hasID && a.id < cur.maxID:
			cur.order = true
		case cur.allInFlight(a.at):
			cur.overlap = true
		case a.at.Sub(as[cur.reads[0]].at) <= w:
			cur.window = true
			cur.inner = max(cur.inner, gap)
		default:
			cur.gapAfter = gap
			out = append(out, cur)
			cur = startTurn(as, i, gap)
			continue
		}
		cur.reads = append(cur.reads, i)
		cur.add(a)
	}
	cur.gapAfter = after
	out = append(out, cur)
	groups := make([]turnGroup, len(out))
	for k, b := range out {
		switch {
		case b.window:
			b.by = GroupedWindow
		case b.overlap:
			b.by = GroupedOverlap
		case b.order:
			b.by = GroupedOrder
		default:
			b.by = GroupedSingle
		}
		b.confidence = confidence(b.inner, lo, b.gapBefore, b.gapAfter)
		groups[k] = b.turnGroup
	}
	return groups
}

// building is a turn while group adds reads to it.
type building struct {
	turnGroup
	ended     bool      // some read of it has ended,
	minEnd    time.Time // the earliest at minEnd
	maxID     float64
	hasID     bool
	inner     time.Duration // the largest gap timing joined
	order     bool
	overlap   bool
	window    bool
	gapBefore time.Duration
	gapAfter  time.Duration
}

func startTurn(as []arrival, i int, gap time.Duration) *building {
	b := &building{turnGroup: turnGroup{reads: []int{i}}, gapBefore: gap}
	b.add(as[i])
	return b
}

func (b *building) add(a arrival) {
	if !a.inFlight && (!b.ended || a.end.Before(b.minEnd)) {
		b.ended, b.minEnd = true, a.end
	}
	if a.hasID && (!b.hasID || a.id > b.maxID) {
		b.maxID, b.hasID = a.id, true
	}
}

// allInFlight: no read of the turn had ended by t.
func (b *building) allInFlight(t time.Time) bool { return !b.ended || b.minEnd.After(t) }

// confidence is 1 − ref/outer (see group), two decimals.
func confidence(inner, lo, before, after time.Duration) float64 {
	outer := time.Duration(0)
	for _, g := range []time.Duration{before, after} {
		if g > 0 && (outer == 0 || g < outer) {
			outer = g
		}
	}
	if outer == 0 {
		return 1
	}
	ref := max(inner, lo)
	c := 1 - float64(ref)/float64(outer)
	return math.Round(max(c, 0)*100) / 100
}
