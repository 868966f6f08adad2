package workload

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/readbench/readbench/units"
)

// Listen is the listen section (docs/workload.md, listen): sessions that
// keep attached documents fresh, as hosts do — they subscribe to the
// documents, and read one again when the server says it changed. They run
// beside the run's reading sessions (or alone), so that what a server
// does under notifications and the re-reads they start is measured with
// the same honesty as reads. Nil: no listeners.
type Listen struct {
	// Listeners is how many listening sessions are opened (default 1),
	// paced like the reading sessions (load.connect_rate) and spread over
	// Ramp.
	Listeners int
	// Streams is how many listen streams each listener holds, each asking
	// for all of its URIs (default 1): hosts open several. A legacy-era
	// session has one stream of notifications whatever this says; the
	// result records what was opened.
	Streams int
	// URIs is what each listener subscribes to.
	URIs ListenURIs
	// ListChanged also asks for notifications/resources/list_changed.
	ListChanged bool
	// Ramp spreads the opening of the listeners evenly over this long (0:
	// as fast as load.connect_rate allows).
	Ramp time.Duration
	// Reread is what a listener does when told a document changed.
	Reread Reread
}

// Listen limits: far beyond a real host, short of a typo's extra zeros.
const (
	MaxListenStreams = 1000 // per listener
	MaxListenURIs    = 100000
)

// ListenURIs is what a listener subscribes to: every URI the mix names
// (Attached, the default: "uris: attached"), a List, or the URIs of one
// Class of the mix. A class whose URIs come from discovery or a template
// is resolved as the reads' are.
type ListenURIs struct {
	Attached bool
	List     []string
	Class    string
}

// String is the selection as the file writes it: "attached", the class's
// name as "class NAME", or the list joined by commas.
func (u ListenURIs) String() string {
	switch {
	case u.Class != "":
		return "class " + u.Class
	case len(u.List) > 0:
		return strings.Join(u.List, ", ")
	}
	return ListenAttached
}

// ListenAttached is listen.uris' default: every URI the run reads.
const ListenAttached = "attached"

// Reread is what a listener does on a notification that a document it
// subscribed to changed: read it again, as a host keeping its attachment
// fresh does — the re-read storm a change starts. The re-reads are
// measured as a class of their own.
type Reread struct {
	// Off is `on: false`: listeners only count notifications.
	Off bool
	// IgnoreTTL is `honour_ttl: false`: re-read even while the last
	// answer's ttlMs says it is fresh. Honouring it (the default) is what
	// a careful host does; both are measured, and the reads honouring it
	// would have saved are counted either way.
	IgnoreTTL bool
	// HonourScope is `honour_scope: true`: a re-read is not sent when a
	// cache honouring cacheScope answers it — another listener's answer
	// of the same document for the same change with cacheScope "public"
	// (a cache shared between the listeners), or the listener's own
	// earlier answer of it with "public" or "private" — what a fleet of
	// hosts behind one shared cache sends the server. Off by default, unlike the ttl:
	// listeners are separate hosts, and a cache shared between them is a
	// deployment's choice, not what a host does by itself; the reads it
	// would have saved are counted either way.
	HonourScope bool
	// Jitter delays each re-read by a draw from it (nil: none): hosts
	// that spread their re-reads ease the storm. A plain duration D is
	// uniform(0, D).
	Jitter *units.Dist
}

// Changes is the changes section (docs/workload.md, changes): changes to
// the listened documents that readbench makes at Rate, on the listeners'
// clock, so that each notification's latency runs from the change that
// caused it. With Via.Server the server changes documents on its own:
// readbench cannot time a change it did not make, so only counts and the
// spread of one change's arrivals are measured. Nil: no changes.
type Changes struct {
	Rate units.Rate // changes per second; with Via.Server, what the server is expected to make (optional)
	// URIs is which documents change (default: the listened ones); each
	// change picks the next, in a seeded order, so two runs change the
	// same documents in the same order.
	URIs ListenURIs
	Via  ChangeVia
}

// ChangeVia is how a change is made: exactly one of a tools/call on a
// session of readbench's own (Tool), an HTTP request (HTTP), a command
// (Command), or the server's own changes (Server). In every text of Tool,
// HTTP and Command, ChangeURI stands for the URI being changed.
type ChangeVia struct {
	Tool    *ToolChange
	HTTP    *HTTPChange
	Command []string
	Server  bool
}

// ChangeURI is the placeholder of the changed document's URI in a
// change's tool arguments, HTTP request or command.
const ChangeURI = "{uri}"

// ToolChange is a change made by calling a tool: Args is its arguments as
// the file wrote them (strings may hold ChangeURI).
type ToolChange struct {
	Name string
	Args map[string]any
}

// HTTPChange is a change made by an HTTP request (Method, default POST,
// to URL with Body and Headers; each may hold ChangeURI). Its host is held
// to allow_hosts as the target is.
type HTTPChange struct {
	Method  string
	URL     string
	Body    string
	Headers map[string]string
}

// Form is how the change is made, as the result names it: "tool", "http",
// "command" or "server".
func (v ChangeVia) Form() string {
	switch {
	case v.Tool != nil:
		return "tool"
	case v.HTTP != nil:
		return "http"
	case len(v.Command) > 0:
		return "command"
	case v.Server:
		return "server"
	}
	return ""
}

// DefaultListen is a listen section with its defaults: one listener, one
// stream, every attached URI, re-reading on each notification while
// honouring ttlMs.
func DefaultListen() *Listen {
	return &Listen{Listeners: 1, Streams: 1, URIs: ListenURIs{Attached: true}}
}

// checkListen adds what the listen and changes sections break.
func (w *Workload) checkListen(add func(*Error)) {
	l, c := w.Listen, w.Changes
	if l != nil {
		if l.Listeners < 1 || l.Listeners > MaxSessions {
			add(errorf("listen.listeners", "%d is out of range (1 to %d)", l.Listeners, MaxSessions))
		}
		if l.Streams < 1 || l.Streams > MaxListenStreams {
			add(errorf("listen.streams", "%d is out of range (1 to %d)", l.Streams, MaxListenStreams))
		}
		if l.Ramp < 0 {
			add(errorf("listen.ramp", "must not be negative, got %s", l.Ramp))
		}
		w.checkListenURIs("listen.uris", l.URIs, add)
		if j := l.Reread.Jitter; j != nil && j.Unit != units.UnitDuration {
			add(errorf("listen.reread.jitter", "want a duration or a distribution of durations, such as 200ms or uniform(0ms, 200ms)"))
		}
	}
	if c == nil {
		return
	}
	if l == nil {
		add(errorf("changes", "no listener would be told of a change: add a listen section"))
	}
	w.checkListenURIs("changes.uris", c.URIs, add)
	switch forms := c.Via.forms(); {
	case forms == 0:
		add(errorf("changes.via", "say how a change is made: tool, http, command or server"))
	case forms > 1:
		add(errorf("changes.via", "one way of making a change, not %d: tool, http, command or server", forms))
	}
	if !c.Via.Server && c.Rate.PerSecond <= 0 {
		add(errorf("changes.rate", "how many changes per second readbench makes, such as 5/s"))
	}
	if t := c.Via.Tool; t != nil && t.Name == "" {
		add(errorf("changes.via.tool", "name the tool that makes a change, such as touch"))
	}
	if h := c.Via.HTTP; h != nil {
		if u, err := url.Parse(h.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add(errorf("changes.via.http.url", "want an http:// or https:// URL, got %q", h.URL))
		}
	}
	if cmd := c.Via.Command; len(cmd) > 0 && cmd[0] == "" {
		add(errorf("changes.via.command", "the command's first word is its program: not empty"))
	}
}

// forms counts the ways of making a change v names.
func (v ChangeVia) forms() int {
	n := 0
	for _, set := range []bool{v.Tool != nil, v.HTTP != nil, len(v.Command) > 0, v.Server} {
		if set {
			n++
		}
	}
	return n
}

// checkListenURIs adds what a selection of URIs at key breaks: exactly one
// way of naming them, a class the mix has, a list of URIs.
func (w *Workload) checkListenURIs(key string, u ListenURIs, add func(*Error)) {
	ways := 0
	for _, set := range []bool{u.Attached, len(u.List) > 0, u.Class != ""} {
		if set {
			ways++
		}
	}
	switch {
	case ways == 0:
		add(errorf(key, "want attached, a list of URIs, or {class: NAME}"))
	case ways > 1:
		add(errorf(key, "one of attached, a list of URIs, or {class: NAME}"))
	case len(u.List) > MaxListenURIs:
		add(errorf(key, "%d URIs: at most %d", len(u.List), MaxListenURIs))
	case slices.Contains(u.List, ""):
		add(errorf(key, "an empty URI"))
	case u.Class != "" && !slices.ContainsFunc(w.Mix, func(c Class) bool { return c.Name == u.Class }):
		add(errorf(key, "class %q is not in the mix (%s)", u.Class, w.classNames()))
	}
}

// classNames is the mix's class names, for a message.
func (w *Workload) classNames() string {
	names := make([]string, len(w.Mix))
	for i, c := range w.Mix {
		names[i] = c.Name
	}
	return fmt.Sprintf("the mix has %s", strings.Join(names, ", "))
}
