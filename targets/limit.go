package targets

// DefaultMaxAnswer is the largest answer, in bytes, a read accepts from a
// target when nothing says otherwise (turn.max_answer and --max-answer
// change it): generous, since a folder read of 40 mockups of 3 MB is
// 160 MB on the wire, yet a server that sends without end, or a header
// that claims gigabytes, cannot take the machine's memory. A bigger answer
// is a protocol failure of its read, found while it arrives, never
// buffered whole. It sits here, beside the aim, because it is the other
// guard readbench keeps against a target: the client applies it, and the
// workload and the result document print it.
const DefaultMaxAnswer = 256 << 20
