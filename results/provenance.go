package results

import "time"

// The blocks of a result that say what ran, against what and where: the
// tool, the target and its server, the machine, the shard, and what the
// run cost readbench itself and its live metrics (docs/results.md).

// LiveMetrics is the "metrics" key: how much of the live metrics did not
// reach their remote-write endpoints, so that a dashboard missing counts
// can be told from a run missing reads.
type LiveMetrics struct {
	// UndeliveredSamples counts the samples pushed and dropped (a slow or
	// dead endpoint, its retries spent), over every prometheus-rw= of the
	// run; 0 with listen= alone, which drops nothing.
	UndeliveredSamples int64 `json:"undelivered_samples"`
}

// Segment is the "segment" key: the k-th of n shares of a run, and how
// the shard was started when --barrier started it.
type Segment struct {
	K int `json:"k"`
	N int `json:"n"`
	// Barrier is present only on a shard started by --barrier: a whole
	// run, a merged one and a shard of --start-at have no such key.
	Barrier *Barrier `json:"barrier,omitempty"`
}

// Barrier is segment.barrier: how the shards of a run started together
// through a shared folder (readbench run --barrier), so that a shard that
// started late, or a clock that was off, can be seen afterwards.
type Barrier struct {
	Run     string    `json:"run"`      // the run id the shards agreed on
	Ready   Timestamp `json:"ready"`    // when this shard was ready (its sessions open)
	StartAt Timestamp `json:"start_at"` // the instant every shard computed: the latest ready time plus the margin
	// Began is when the schedule began on this shard: start_at, or later
	// when the last shard's file was seen after start_at.
	Began  Timestamp      `json:"began"`
	Shards []BarrierShard `json:"shards"` // every shard's ready file, by k
}

// BarrierShard is one shard's ready file as this shard read it.
type BarrierShard struct {
	K     int       `json:"k"`
	Host  string    `json:"host"`
	Ready Timestamp `json:"ready"`
}

// Shard is one shard of a merged result, as its own result file said.
type Shard struct {
	Segment        Segment    `json:"segment"`
	File           string     `json:"file"` // the file merged, as named on the command line
	Host           Host       `json:"host"`
	Started        Timestamp  `json:"started"`
	Ended          Timestamp  `json:"ended"`
	Partial        bool       `json:"partial"`
	GeneratorBound bool       `json:"generator_bound"`
	Scheduled      int64      `json:"scheduled"`
	AskedRate      float64    `json:"asked_rate"`
	AchievedRate   *float64   `json:"achieved_rate"`
	ServerCost     ServerCost `json:"server_cost"`
}

// Tool names the program that wrote the result, so that a difference
// between two results can be traced to a change of readbench itself.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Target is the server a run loaded as the run found it: results are
// compared across server versions, so the name and version the server
// announced and the protocol version spoken are recorded with the address.
type Target struct {
	Address         string `json:"address"`   // as given (a URL's password masked)
	Transport       string `json:"transport"` // "stdio", "http", "sse"
	Server          Server `json:"server"`
	ProtocolVersion string `json:"protocol_version"`
	// WireCounts says what the wire bytes of this transport hold (see
	// WireCountsOf): the response body on HTTP, where status line and
	// headers are not seen; the message and its framing elsewhere.
	WireCounts string `json:"wire_counts"`
}

// Generator is what the run cost readbench's own process: the client's
// peak resident memory (VmHWM, over the process's life; 0 where it cannot
// be read), so modes of reading a large document can be compared by what
// they cost the reader (run one mode per process to compare them); and
// its CPU over the measured phase, in the server_cost block's units, so
// that a reader sees which side of the measurement was the busier: a
// generator that spends more per read than the server measures itself.
type Generator struct {
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
	// CPUAvailable is false where the CPU could not be sampled (no
	// /proc); the two figures are then 0.
	CPUAvailable bool `json:"cpu_available"`
	// CPUSeconds is user + system CPU of readbench's own process over
	// the measured phase (its children, stdio servers, not included).
	CPUSeconds float64 `json:"cpu_s"`
	// CPUMsPer1000Reads is CPUSeconds per 1,000 measured reads, the unit
	// of server_cost, so the two compare directly; null without CPU
	// figures or without an answered read.
	CPUMsPer1000Reads *float64 `json:"cpu_ms_per_1000_reads"`
	// Saturated says readbench could not keep the schedule (sent nothing,
	// scheduled too few turns, dropped sends itself, or fell further
	// behind over the run); Saturation says how ("" when it kept it).
	// JitterMs and JitterP50Ms are readbench's own lag's estimated part of
	// the read p99 and p50, LagShare the larger share of the two figures
	// it is (0..1), JitterMaterial whether that is at least
	// MaterialLagShare. Note is the sentence the reports print. See
	// GeneratorFinding; generator_bound is Saturated or JitterMaterial.
	Saturated      bool    `json:"saturated"`
	Saturation     string  `json:"saturation"`
	JitterMs       float64 `json:"jitter_ms"`
	JitterP50Ms    float64 `json:"jitter_p50_ms"`
	LagShare       float64 `json:"lag_share"`
	JitterMaterial bool    `json:"jitter_material"`
	Note           string  `json:"note"`
}

// generatorOf makes the generator block: cpu 0 is unknown; reads are the
// measured phase's answered reads, as for the server.
func generatorOf(peakRSS int64, cpu time.Duration, reads int64) Generator {
	g := Generator{PeakRSSBytes: peakRSS}
	if cpu <= 0 {
		return g
	}
	g.CPUAvailable = true
	g.CPUSeconds = costMillis(cpu) / 1000
	g.CPUMsPer1000Reads = perThousandReads(cpu, reads)
	return g
}

// Server is the implementation the target announced.
type Server struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Host describes the machine that generated the load: a generator with too
// few CPUs shows up as latency, so a result says where it was measured.
type Host struct {
	Hostname  string `json:"hostname"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	CPUs      int    `json:"cpus"`
	GoVersion string `json:"go_version"`
	// CPUPressure is the share of the measured phase (0..1) in which some
	// task on this machine waited for a CPU (Linux PSI); null where the
	// kernel does not say. A high one means a server on this machine was
	// slowed by the machine: capacity does not charge such a step to it.
	CPUPressure *float64 `json:"cpu_pressure"`
}
