package simserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// fuzzOAuth is an authorization server for the fuzz targets, served in
// process; its clock stands still.
func fuzzOAuth(f *testing.F) *OAuth {
	a, err := NewOAuth(OAuthOptions{Issuer: "http://127.0.0.1:1", Resource: "http://127.0.0.1:1/mcp",
		Clients: []OAuthClient{{ID: "bench", Secret: "pw"}, {ID: "public"}},
		Now:     func() time.Time { return time.Unix(1_800_000_000, 0) }})
	if err != nil {
		f.Fatal(err)
	}
	return a
}

// FuzzOAuthToken: whatever a token request holds (form, Basic
// credentials, a client assertion), the token endpoint never panics and
// answers 200 with a token or 400/401 with an OAuth error, as JSON.
func FuzzOAuthToken(f *testing.F) {
	for _, seed := range [][2]string{
		{"grant_type=client_credentials", "Basic YmVuY2g6cHc="},
		{"grant_type=client_credentials&client_id=bench&client_secret=pw&scope=mcp:read&resource=http://127.0.0.1:1/mcp", ""},
		{"grant_type=authorization_code&code=x&code_verifier=y&client_id=public&redirect_uri=http://127.0.0.1/cb", ""},
		{"grant_type=refresh_token&refresh_token=x&client_id=public", ""},
		{"grant_type=client_credentials&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=eyJhbGciOiJub25lIn0.e30.", ""},
		{"grant_type=client_credentials&grant_type=password", "Basic %%%"},
		{"%zz=&&;", "Basic Og=="},
	} {
		f.Add(seed[0], seed[1])
	}
	a := fuzzOAuth(f)
	f.Fuzz(func(t *testing.T, form, authz string) {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:1/token", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		rec := httptest.NewRecorder()
		a.serveToken(rec, req)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("%q: the answer is not JSON: %q", form, rec.Body.String())
		}
		switch rec.Code {
		case http.StatusOK:
			if body["access_token"] == nil {
				t.Fatalf("%q: 200 without a token: %v", form, body)
			}
		case http.StatusBadRequest, http.StatusUnauthorized:
			if body["error"] == nil {
				t.Fatalf("%q: %d without an error code: %v", form, rec.Code, body)
			}
		default:
			t.Fatalf("%q: status %d", form, rec.Code)
		}
	})
}

// FuzzOAuthRegister: whatever a registration request holds, /register
// never panics, answers 201 or 400 as JSON, and never registers a
// redirect URI that is neither https nor loopback http.
func FuzzOAuthRegister(f *testing.F) {
	for _, seed := range []string{
		`{"redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"none"}`,
		`{"redirect_uris":["https://app.example/cb"],"grant_types":["authorization_code","refresh_token"],"jwks":{"keys":[]}}`,
		`{"redirect_uris":["javascript:x"]}`, `{"grant_types":["client_credentials"]}`, `[]`, `{"redirect_uris":"x"}`,
	} {
		f.Add(seed)
	}
	a := fuzzOAuth(f)
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		a.serveRegister(rec, httptest.NewRequest(http.MethodPost, "http://127.0.0.1:1/register", strings.NewReader(body)))
		var resp struct {
			ClientID     string   `json:"client_id"`
			RedirectURIs []string `json:"redirect_uris"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatalf("%q: the answer is not JSON: %q", body, rec.Body.String())
		}
		switch rec.Code {
		case http.StatusCreated:
			c := a.client(resp.ClientID)
			if c == nil {
				t.Fatalf("%q: registered %q, which is unknown", body, resp.ClientID)
			}
			for _, ru := range c.RedirectURIs {
				// A scheme is case-insensitive (RFC 3986, 3.1): httpS://h is https.
				if u, err := url.Parse(ru); (err != nil || u.Scheme != "https") && !redirectAllowed(&OAuthClient{}, ru) {
					t.Fatalf("%q: registered redirect %q", body, ru)
				}
			}
		case http.StatusBadRequest:
		default:
			t.Fatalf("%q: status %d", body, rec.Code)
		}
	})
}

// FuzzOAuthProtect: whatever Authorization header a request carries, the
// bearer check never panics and, short of a token it issued, answers 401
// with a challenge.
func FuzzOAuthProtect(f *testing.F) {
	for _, seed := range []string{"", "Bearer", "Bearer ", "bearer x", "Bearer a.b.c", "Basic Ym9iOnB3", "Bearer  x y",
		"Bearer eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.x", "Bearer eyJhbGciOiJub25lIn0.eyJhdWQiOiJodHRwOi8vMTI3LjAuMC4xOjEvbWNwIn0."} {
		f.Add(seed)
	}
	a := fuzzOAuth(f)
	h := a.Protect(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t := "reached the resource"
		http.Error(w, t, http.StatusTeapot)
	}))
	f.Fuzz(func(t *testing.T, authz string) {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:1/mcp", nil)
		req.Header["Authorization"] = []string{authz}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized || !strings.HasPrefix(rec.Header().Get("WWW-Authenticate"), `Bearer resource_metadata="`) {
			t.Fatalf("%q: %d %q", authz, rec.Code, rec.Header().Get("WWW-Authenticate"))
		}
	})
}
