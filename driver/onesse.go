package driver

import (
	"fmt"
	"slices"

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
// when the mark is not there: then the sessions' own reasons stand.
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
	if held < 0 || failed == 0 {
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
