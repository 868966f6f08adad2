package runner

import (
	"context"
	"errors"
	"net/url"

	"github.com/readbench/readbench/auth"
	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/driver"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// LoginCheck is readbench login's proof that a token gets a run in
// (auth.LoginConfig.Check, which auth leaves to its caller: auth never
// imports the client): a session of the client a run uses, opened as
// reach says (Reach: its clientInfo, its handshake limit), at target with
// the token as its bearer (client.Connect: initialize, or server/discover,
// per era), then a ping on it, as a run's first read would follow. The
// server's refusal comes back as an *auth.Refusal, for login to step up
// or discover again; the named target is the one aimed at, so its host is
// allowed whatever it is.
func LoginCheck(reach driver.Options, target targets.Target) func(context.Context, auth.Token) error {
	return func(ctx context.Context, t auth.Token) error {
		host := target.Address
		if u, err := url.Parse(target.Address); err == nil {
			host = u.Hostname()
		}
		s, _, err := client.Connect(ctx, client.Dial{Target: target, Auth: oneToken{t}, Client: reach.Client,
			HandshakeTimeout: reach.HandshakeTimeout, Aim: targets.Aim{AllowHosts: []string{host}}})
		if err == nil {
			// Any JSON-RPC answer, even method-not-found, means the token was
			// accepted: a server may take a token once and refuse it after.
			var pe *protocol.Error
			if err = s.Call(ctx, protocol.MethodPing, nil, &struct{}{}); errors.As(err, &pe) {
				err = nil
			}
			_ = s.Close()
		}
		var ue *client.UnauthorizedError
		if errors.As(err, &ue) && ue.Status != 0 {
			ch, _ := auth.ParseChallenge(ue.Challenge) // a malformed challenge still refused
			return &auth.Refusal{Status: ue.Status, Challenge: ch, Header: ue.Challenge}
		}
		return err
	}
}

// oneToken is the Tokens of login's check: the one token being proved,
// never renewed (a refusal is login's to act on).
type oneToken struct{ t auth.Token }

func (o oneToken) Token(context.Context) (auth.Token, error) { return o.t, nil }

func (o oneToken) Refused(context.Context, auth.Token, int, string) (auth.Token, error) {
	return auth.Token{}, errors.New("the token being checked was refused")
}

func (o oneToken) Requests() []auth.Request { return nil }
