package saved

// Workload is the workload as the run resolved it (defaults applied, flags
// applied), so that a result alone says what was asked and can be run
// again (readbench run --like). Values are kept as their text ("50/s",
// "lognormal(12ms,40ms)", "800ms") as a person wrote them; rates also
// carry their per-second number for scripts. Durations are Go duration
// strings ("0s" when unset).
type Workload struct {
	Name       string            `json:"name"`
	Source     string            `json:"source"`
	Target     string            `json:"target"` // the target as written (a URL's password masked)
	Protocol   string            `json:"protocol"`
	Sessions   int               `json:"sessions"`
	Seed       int64             `json:"seed"`
	Load       Load              `json:"load"`
	Turn       Turn              `json:"turn"`
	Mix        []Class           `json:"mix"`
	Thresholds map[string]string `json:"thresholds"`
	AllowHosts []string          `json:"allow_hosts"`
	// Headers maps every header name to Redacted: which headers were sent
	// is useful, their values are secrets and are never saved.
	Headers map[string]string `json:"headers"`
	// Auth is the workload's OAuth client, its secret Redacted (absent
	// when the run had none).
	Auth *Auth `json:"auth,omitempty"`
}

// Auth is the workload's auth block as a result keeps it.
type Auth struct {
	OAuth OAuth `json:"oauth"`
}

// OAuth is an OAuth client without its secret: client_secret is Redacted
// when one was given, private_key the file's name.
type OAuth struct {
	Grant             string `json:"grant"`
	ClientID          string `json:"client_id"`
	ClientSecret      string `json:"client_secret,omitempty"`
	Scope             string `json:"scope,omitempty"`
	PrivateKey        string `json:"private_key,omitempty"`
	TokenEndpointAuth string `json:"token_endpoint_auth,omitempty"`
	// TokenParams are the extra token request fields as written (${VAR}
	// unexpanded); a field whose name looks secret is Redacted.
	TokenParams map[string][]string `json:"token_params,omitempty"`
}

// Load is the workload's load block as text: how turns arrived, when the
// run ended, and how its sessions were opened and churned.
type Load struct {
	Model       string  `json:"model"`
	Rate        string  `json:"rate"`       // as written, "" when unset
	RatePerS    float64 `json:"rate_per_s"` // the same in turns per second
	Concurrency int     `json:"concurrency"`
	Arrival     string  `json:"arrival"`
	Warmup      string  `json:"warmup"`
	Duration    string  `json:"duration"`
	Turns       int     `json:"turns"`
	Stages      []Stage `json:"stages"`
	MaxInFlight int     `json:"max_in_flight"`
	// HandshakeTimeout bounds opening each session ("0s": the default,
	// 30 s). Added in v1; "" in a result written before the key.
	HandshakeTimeout string `json:"handshake_timeout"`
	// ConnectRate paces opening the sessions, as written ("": as fast as
	// the bounded parallelism allows), and ConnectRatePerS is the same in
	// sessions per second. Added in v1.
	ConnectRate     string  `json:"connect_rate"`
	ConnectRatePerS float64 `json:"connect_rate_per_s"`
	// MinSessions is how many sessions had to connect for the run to go
	// on (0: all of them). Added in v1.
	MinSessions int `json:"min_sessions"`
	// SessionTurns and SessionLifetime are session churn ("0s" and 0:
	// none). Added in v1.
	SessionTurns    int    `json:"session_turns"`
	SessionLifetime string `json:"session_lifetime"`
	// KeepAlive is load.keep_alive: whether a finished read's connection
	// was reused (null in a result written before v1 had the key).
	KeepAlive *bool `json:"keep_alive"`
	// TraceSample is load.trace_sample: the share of turns whose reads
	// carried W3C trace context (null in a result written before the key,
	// when no read carried any).
	TraceSample *float64 `json:"trace_sample"`
}

// Closed reports whether the load kept a fixed number of turns in flight
// (the closed model, load.model "closed" as the workload file names it)
// rather than starting turns at a rate: renderers word the load line by
// it without knowing the workload file format.
func (l Load) Closed() bool { return l.Model == "closed" }

// Stage is one stage of the load's rate profile as text.
type Stage struct {
	Rate     string  `json:"rate"`
	RatePerS float64 `json:"rate_per_s"`
	For      string  `json:"for"`
	Ramp     bool    `json:"ramp"`
}

// Turn is the workload's turn block as text. Attachments is the fixed
// count, or 0 when the count is drawn from Weighted (count -> weight).
type Turn struct {
	Attachments int         `json:"attachments"`
	Weighted    map[int]int `json:"attachments_weighted"`
	ReadTimeout string      `json:"read_timeout"`
	Deadline    string      `json:"deadline"`
	// MaxAnswer is the largest answer a read accepted, as a size
	// ("256MiB"): a bigger one was a protocol outcome.
	MaxAnswer string `json:"max_answer"`
}

// Class is one class of the mix as text: sizes and delays in their
// canonical distribution text, "" when unset.
type Class struct {
	Class       string              `json:"class"`
	Weight      float64             `json:"weight"`
	URI         string              `json:"uri"`
	URIs        []string            `json:"uris"`
	Template    string              `json:"template"`
	Vars        map[string][]string `json:"vars"`
	MIME        string              `json:"mime"`
	Size        string              `json:"size"`
	Delay       string              `json:"delay"`
	Entries     int                 `json:"entries"`
	Expect      string              `json:"expect"`
	RangedChunk string              `json:"ranged_chunk"` // "" unless fetched with the ranged read
}
