package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/internal/numfmt"
	"github.com/readbench/readbench/internal/profile"
)

// Extras are what a run needs besides the driver, started by the command
// as it sets the run up and ended by one Close once the command has said
// what the run came to: the tokens of an OAuth target (Authorize) and
// readbench's own profiles (Profile). They are options of the run, not of
// the driver, which takes the tokens as a value (Options.Auth) and knows
// nothing of profiles. One owner holds them, so that every way out of a
// command (bad input half way through the setup, an interrupt, the
// report) ends what was started, the last first. The zero value is ready
// to use; an Extras belongs to one goroutine.
type Extras struct {
	closers []func() error
}

// TokenWait bounds obtaining the first token of a run: long enough for an
// authorization server that is slow to answer, short enough that a run
// which cannot be authorized says so rather than hangs.
const TokenWait = 2 * time.Minute

// Authorize obtains the tokens cfg describes (auth.New, within TokenWait)
// and keeps them fresh until Close. An error wrapping auth.ErrNoSecret is
// the user's to fix (what to give); any other says where authorization
// failed, the target being unreachable or refusing.
func (x *Extras) Authorize(ctx context.Context, cfg auth.Config) (*auth.Source, error) {
	ctx, cancel := context.WithTimeout(ctx, TokenWait)
	defer cancel()
	src, err := auth.New(ctx, cfg)
	if errors.Is(err, auth.ErrNoSecret) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("authorization at %s: %w", cfg.Target, err)
	}
	x.closers = append(x.closers, func() error { src.Close(); return nil })
	return src, nil
}

// Profile starts readbench's own CPU profile (cpuPath) and creates the
// file of its heap profile (memPath), written at Close, so that the heap
// is the one the run and its report left ("" leaves either out). A path
// that cannot be created is an *InputError naming its flag, before the
// run connects.
func (x *Extras) Profile(cpuPath, memPath string) error {
	stop, err := profile.Start(cpuPath, memPath)
	if err != nil {
		return &InputError{Err: err}
	}
	x.closers = append(x.closers, stop)
	return nil
}

// Close ends what was started, the last first. Its error is writing the
// profiles' (a token source has nothing to report); a second Close does
// nothing.
func (x *Extras) Close() error {
	var errs []error
	for i := len(x.closers) - 1; i >= 0; i-- {
		errs = append(errs, x.closers[i]())
	}
	x.closers = nil
	return errors.Join(errs...)
}

// Unrenewable is the warning to give, before a run of length d starts at
// now, when its tokens cannot be renewed and expire before it ends (a
// cached login with no refresh token): the run would lose its
// authorization part way. "" when there is nothing to warn of.
func Unrenewable(tokens auth.Tokens, d time.Duration, now time.Time) string {
	src, ok := tokens.(*auth.Source)
	if !ok {
		return ""
	}
	expiry, renewable := src.Lasts()
	if renewable || expiry.IsZero() {
		return ""
	}
	left := expiry.Sub(now)
	if left >= d {
		return ""
	}
	return fmt.Sprintf("warning: the cached login has no refresh token and its token expires in %s, before this run of %s ends: "+
		"the reads after that will be unauthorized (run readbench login again; an OpenID provider issues a refresh token for offline_access)",
		numfmt.Duration(max(left, 0)), numfmt.Duration(d))
}

// ShardStart is what a shard says before it connects, one sentence a
// line: when its schedule starts (--start-at) or whom it waits for
// (--barrier), so that a person watching n terminals knows why a shard
// is idle. None for a run that starts at once.
func ShardStart(o driver.Options, now time.Time) []string {
	var lines []string
	if !o.StartAt.IsZero() {
		lines = append(lines, fmt.Sprintf("segment %s: connecting, then starting the schedule at %s (in %s)",
			o.Segment, o.StartAt.UTC().Format(time.RFC3339Nano), numfmt.Duration(o.StartAt.Sub(now))))
	}
	if b := o.Barrier; b != nil {
		lines = append(lines, fmt.Sprintf("segment %s: connecting, then waiting in %s for all %d shards of run %s (up to %s)",
			o.Segment, b.Dir, b.N, b.Run, numfmt.Duration(b.Timeout)))
	}
	return lines
}
