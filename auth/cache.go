package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/readbench/readbench/internal/atomicfile"
)

// The token cache: what readbench login obtained for a target, so that
// run, check, capacity and ab can use (and refresh) it. One file per
// target, os.UserCacheDir()/readbench/tokens/<hash of target>.json, mode
// 0600 in a 0700 folder: it holds tokens and the client's credentials.

// Entry is one target's cached login. String never shows a token or the
// secret.
type Entry struct {
	Target        string `json:"target"`
	Resource      string `json:"resource"`
	Issuer        string `json:"issuer"`
	TokenEndpoint string `json:"token_endpoint"`
	ClientID      string `json:"client_id"`
	ClientSecret  string `json:"client_secret,omitempty"`
	// ClientSecretEnv names the environment variable the client
	// credentials grant's secret was given in (--oauth-client-secret
	// '${VAR}'): the secret itself is never cached, so a later run reads
	// it from there.
	ClientSecretEnv string    `json:"client_secret_env,omitempty"`
	AuthMethod      string    `json:"token_endpoint_auth"`
	Grant           string    `json:"grant"`
	Scope           []string  `json:"scope,omitempty"`
	AccessToken     string    `json:"access_token"`
	RefreshToken    string    `json:"refresh_token,omitempty"`
	Expiry          time.Time `json:"expiry,omitzero"`
	Saved           time.Time `json:"saved"`
}

func (e *Entry) String() string {
	return fmt.Sprintf("login for %s (client %q, scope %v, expires %s)", e.Target, e.ClientID, e.Scope, e.Expiry.Format(time.RFC3339))
}

// GoString is String, so %#v cannot print the tokens either.
func (e *Entry) GoString() string { return e.String() }

// DefaultCacheDir is readbench's folder in the user's cache folder.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("the user's cache folder: %w", err)
	}
	return filepath.Join(d, "readbench"), nil
}

func cacheDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return DefaultCacheDir()
}

// CachePath is where the login for target is kept under dir.
func CachePath(dir, target string) string {
	sum := sha256.Sum256([]byte(target))
	return filepath.Join(dir, "tokens", hex.EncodeToString(sum[:16])+".json")
}

// ErrNoLogin is returned when no login is cached for a target.
var ErrNoLogin = errors.New("no cached login")

// LoadEntry reads the cached login for target.
func LoadEntry(dir, target string) (*Entry, error) {
	dir, err := cacheDir(dir)
	if err != nil {
		return nil, err
	}
	p := CachePath(dir, target)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w for %s (run readbench login --target %s)", ErrNoLogin, target, target)
	}
	if err != nil {
		return nil, err
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("the cached login %s is unreadable (run readbench login again): %w", p, err)
	}
	return &e, nil
}

// SaveEntry writes the cached login atomically (atomicfile.Write: synced
// before the rename, so a crash cannot leave an empty login), mode 0600 in
// a 0700 folder: it holds tokens and the client's secret.
func SaveEntry(dir string, e *Entry) error {
	dir, err := cacheDir(dir)
	if err != nil {
		return err
	}
	p := CachePath(dir, e.Target)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	_ = os.Chmod(filepath.Dir(p), 0o700)
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(p, b, 0o600)
}
