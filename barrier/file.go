package barrier

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/readbench/readbench/internal/atomicfile"
)

// maxFile bounds what is read of a ready file: the folder is shared, so
// a file there is outside input.
const maxFile = 4 << 10

// maxShards bounds n: a file claiming more shards is not one of ours.
const maxShards = 1 << 16

// Ready is one shard's ready file: which shard of which run, where it
// runs and when its sessions were open. StartAt is set when the shard has
// computed its start (it rewrites its file then): a file with a StartAt
// already past belongs to a run that has started, not to a wait for one.
type Ready struct {
	Run     string    `json:"run"`
	K       int       `json:"k"`
	N       int       `json:"n"`
	Host    string    `json:"host"`
	Ready   time.Time `json:"ready"`
	StartAt time.Time `json:"start_at,omitzero"`
}

// FileName is the name of shard k of n's ready file for run: the run and
// the shard in the name, so that shards of other runs, or of another
// split, never overwrite each other's files.
func FileName(run string, k, n int) string {
	return fmt.Sprintf("%s.%d-of-%d.ready", run, k, n)
}

// Parse reads a ready file. It refuses anything that is not a whole,
// consistent record (a shard outside 1..n, no run, no ready time, unknown
// keys, trailing data): a half-written or foreign file never counts.
func Parse(data []byte) (Ready, error) {
	var r Ready
	if len(data) > maxFile {
		return r, fmt.Errorf("ready file of %d bytes: at most %d", len(data), maxFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Ready{}, fmt.Errorf("ready file: %w", err)
	}
	if dec.More() {
		return Ready{}, errors.New("ready file: data after the record")
	}
	switch {
	case r.Run == "" || strings.ContainsAny(r.Run, "/\\\x00"):
		return Ready{}, fmt.Errorf("ready file: run %q", r.Run)
	case r.N < 1 || r.N > maxShards:
		return Ready{}, fmt.Errorf("ready file: n %d outside 1..%d", r.N, maxShards)
	case r.K < 1 || r.K > r.N:
		return Ready{}, fmt.Errorf("ready file: shard %d outside 1..%d", r.K, r.N)
	case r.Ready.IsZero():
		return Ready{}, errors.New("ready file: no ready time")
	}
	return r, nil
}

// write saves r as its shard's ready file in dir, atomically: readers see
// the old file or the new one, never a part of either.
func write(dir string, r Ready) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	name := FileName(r.Run, r.K, r.N)
	// 0644: shards may run as other users. atomicfile syncs before the
	// rename: on a network volume, the rename must not overtake the data.
	if err := atomicfile.Write(filepath.Join(dir, name), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("barrier: write %s: %w", name, err)
	}
	return nil
}

// read loads shard k's ready file for run from dir: ok false when it is
// absent or not a valid record of that shard (a half-copied or foreign
// file is waited past, as an absent one is).
func read(dir, run string, k, n int) (Ready, bool) {
	f, err := os.Open(filepath.Join(dir, FileName(run, k, n)))
	if err != nil {
		return Ready{}, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return Ready{}, false
	}
	r, err := Parse(data)
	if err != nil || r.Run != run || r.K != k || r.N != n {
		return Ready{}, false
	}
	return r, true
}

// shardName is "k/n", as --segment writes it.
func shardName(k, n int) string { return strconv.Itoa(k) + "/" + strconv.Itoa(n) }
