package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/targets"
)

// oneSSEClient looks at how a run's sessions opened (errs[i] is session
// i+1's failure, nil when it connected) for the mark of a server that
// serves one HTTP+SSE client at a time: over HTTP+SSE, exactly one session
// connected and the others failed. Such a server keeps one global SSE
// transport, so a second stream is refused, gets no endpoint event, or
// has its answers sent down the first client's stream, and its session
// fails for a reason (a handshake timeout, an HTTP 409) that points
// elsewhere: a slow start, the wrong transport. Since one session did
// connect, the server is up; the hint names the likely cause and the way
// out. It returns errs with each handshake timeout rid of its slow-start
// advice (client.ServerStarted) and the hint, or errs as they are and ""
// when the mark is not there: then the sessions' own reasons stand. When
// no session connected, noneHeld looks for the mark of a server that
// replaces its one global transport on each GET.
func oneSSEClient(t targets.Target, errs []error) ([]error, string) {
	if t.Kind != targets.SSE {
		return errs, ""
	}
	held, failed := -1, 0
	for i, err := range errs {
		switch {
		case err != nil:
			failed++
		case held >= 0:
			return errs, "" // two streams were served at once
		default:
			held = i
		}
	}
	if held < 0 {
		return noneHeld(errs)
	}
	if failed == 0 {
		return errs, ""
	}
	out := slices.Clone(errs)
	who := fmt.Sprintf("%d of %d sessions", failed, len(errs))
	for i, err := range errs {
		if err != nil {
			out[i] = client.ServerStarted(err)
			if failed == 1 {
				who = fmt.Sprintf("session %d of %d", i+1, len(errs))
			}
		}
	}
	return out, fmt.Sprintf("%s failed while session %d held its HTTP+SSE stream: the server may serve one SSE client at a time; try sessions: 1",
		who, held+1)
}

// noneHeld looks, when no session connected over HTTP+SSE, for the mark
// of a server that keeps one global SSE transport and replaces it (or
// refuses to) on each GET, as the TypeScript SDK's single-client examples
// do: a session whose stream the server served failed later, on its
// handshake (its POSTs went to the transport another GET had made), and
// another session's own stream was refused or never served. The server is
// up and speaks HTTP+SSE, so neither a slow start nor the wrong transport
// is the likely cause; the hint names the sessions and the way out.
func noneHeld(errs []error) ([]error, string) {
	var served, other []int
	for i, err := range errs {
		if client.SSEStreamServed(err) {
			served = append(served, i+1)
		} else {
			other = append(other, i+1)
		}
	}
	if len(served) == 0 || len(other) == 0 {
		return errs, ""
	}
	out := slices.Clone(errs)
	for i, err := range errs {
		out[i] = client.ServerStarted(err)
	}
	return out, fmt.Sprintf("%s failed after the server had opened its HTTP+SSE stream, once %s asked for one too: the server may serve one SSE client at a time; try sessions: 1",
		sessionsNamed(served, len(errs)), sessionsNamed(other, len(errs)))
}

// sessionsNamed is "session 2 of 3", or "sessions 1, 3 of 3".
func sessionsNamed(ns []int, of int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("session %d of %d", ns[0], of)
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return fmt.Sprintf("sessions %s of %d", strings.Join(s, ", "), of)
}
