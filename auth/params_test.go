package auth

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// TestTokenParams: extra token parameters go in every token request
// (the first and a renewal), a given resource replaces readbench's RFC
// 8707 one, and the request's own fields cannot be set that way.
func TestTokenParams(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodPost)
	params := url.Values{"audience": {"https://api.example.com"}, "resource": {"urn:api", "urn:other"}}
	s := newTestSource(t, f, Config{ClientSecret: testSecret, TokenParams: params})
	tok, err := s.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refused(context.Background(), tok, 401, ""); err != nil {
		t.Fatal(err)
	}
	forms := f.tokenForms()
	if len(forms) != 2 {
		t.Fatalf("%d token requests, want 2", len(forms))
	}
	for i, form := range forms {
		if form.Get("audience") != "https://api.example.com" || strings.Join(form["resource"], " ") != "urn:api urn:other" ||
			form.Get("grant_type") != "client_credentials" || form.Get("client_secret") != testSecret {
			t.Errorf("request %d: form %v", i+1, form)
		}
	}
	for _, p := range []url.Values{{"scope": {"admin"}}, {"grant_type": {"password"}}, {"client_id": {"x"}}, {"": {"v"}}} {
		cfg := Config{Target: f.url("/mcp"), ClientID: "loadtest", ClientSecret: testSecret, TokenParams: p}
		if err := cfg.Validate(); err == nil {
			t.Errorf("Validate with token parameters %v: want an error", p)
		}
	}
}

// TestRequestsAnswered: a token request the authorization server
// answered is told from one that never reached it (the server down), so
// that a run counts a provider that is down apart from one that refuses.
func TestRequestsAnswered(t *testing.T) {
	f := newFixture(t)
	f.standard(MethodPost)
	s := newTestSource(t, f, Config{ClientSecret: testSecret})
	tok, err := s.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Close() // the authorization server goes down
	if _, err := s.Refused(context.Background(), tok, 401, ""); err == nil {
		t.Fatal("renewed a token with the authorization server down")
	}
	reqs := s.Requests()
	if !reqs[0].Answered || reqs[0].Err != nil {
		t.Errorf("the first request %+v: want answered", reqs[0])
	}
	for _, q := range reqs[1:] {
		if q.Answered || q.Err == nil {
			t.Errorf("a request to the server down %+v: want failed, unanswered", q)
		}
	}
	if len(reqs) < 2 {
		t.Errorf("%d requests, want the failed renewal recorded", len(reqs))
	}
}
