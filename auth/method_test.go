package auth

import (
	"net/url"
	"testing"
	"time"
)

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSelectMethod(t *testing.T) {
	for _, c := range []struct {
		name        string
		supported   []string
		asked       string
		secret, key bool
		want        string
		wantErr     bool
	}{
		{"secret, no list: basic (RFC 8414's default)", nil, "", true, false, MethodBasic, false},
		{"secret, basic and post: basic", []string{MethodPost, MethodBasic}, "", true, false, MethodBasic, false},
		{"secret, post only", []string{MethodPost}, "", true, false, MethodPost, false},
		{"secret, public clients only: none", []string{MethodNone}, "", true, false, MethodNone, false},
		{"secret, jwt only", []string{MethodJWT}, "", true, false, "", true},
		{"key: jwt", []string{MethodBasic, MethodJWT}, "", false, true, MethodJWT, false},
		{"key, no list: jwt", nil, "", false, true, MethodJWT, false},
		{"key, not offered", []string{MethodBasic}, "", false, true, "", true},
		{"nothing: none", []string{MethodNone, MethodBasic}, "", false, false, MethodNone, false},
		{"nothing, confidential only", []string{MethodBasic}, "", false, false, "", true},
		{"asked and offered", []string{MethodBasic, MethodPost}, MethodPost, true, false, MethodPost, false},
		{"asked, not offered", []string{MethodBasic}, MethodPost, true, false, "", true},
		{"asked, unknown", nil, "tls_client_auth", true, false, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := SelectMethod(c.supported, c.asked, c.secret, c.key)
			if (err != nil) != c.wantErr || got != c.want {
				t.Errorf("SelectMethod = %q, %v; want %q (error %v)", got, err, c.want, c.wantErr)
			}
		})
	}
}

func TestRefreshAt(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		life time.Duration
		want time.Duration // after issue; -1: never
	}{
		{"no expiry", 0, -1},
		{"3 s: three quarters", 3 * time.Second, 2250 * time.Millisecond},
		{"1 min", time.Minute, 45 * time.Second},
		{"1 h: five minutes before", time.Hour, 55 * time.Minute},
		{"already expired", -time.Second, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var exp time.Time
			if c.life != 0 {
				exp = t0.Add(c.life)
			}
			got := RefreshAt(t0, exp)
			if c.want < 0 {
				if !got.IsZero() {
					t.Errorf("RefreshAt = %v, want never", got)
				}
				return
			}
			if d := got.Sub(t0); d != c.want {
				t.Errorf("refresh %v after issue, want %v", d, c.want)
			}
		})
	}
}
