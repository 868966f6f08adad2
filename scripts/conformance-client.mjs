// conformance-client.mjs turns a client scenario of the MCP conformance
// suite (@modelcontextprotocol/conformance) into a readbench login. It is
// the one place that knows the suite's conventions: the suite runs
//
//   node scripts/conformance-client.mjs READBENCH [CACHE_DIR] SERVER_URL
//
// (CACHE_DIR, when given, is where readbench login caches its tokens, in
// place of the user's cache folder)
// with the scenario in MCP_CONFORMANCE_SCENARIO and its credentials in
// MCP_CONFORMANCE_CONTEXT (JSON: client_id, client_secret,
// private_key_pem, ...), and judges the client by what it did and its
// exit status. Used by cmd/readbench/conformance_auth_test.go.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const [readbench, url] = [argv[0], argv[argv.length - 1]];
const cacheDir = argv.length === 3 ? argv[1] : undefined;
if (argv.length < 2 || argv.length > 3) {
  console.error('usage: conformance-client.mjs READBENCH [CACHE_DIR] SERVER_URL');
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');

// The client ID metadata document URL the suite's authorization server
// accepts (auth/basic-cimd); readbench uses it only where the server
// advertises client ID metadata documents and no client id is given.
const cimd = 'https://conformance-test.local/client-metadata.json';

const args = ['login', '--headless', '--no-browser', '--target', url, '--oauth-client-metadata-url', cimd];
const env = { ...process.env };
if (cacheDir) env.XDG_CACHE_HOME = cacheDir;
if (ctx.client_id) args.push('--oauth-client-id', ctx.client_id);
if (ctx.client_secret) {
  // Through the environment, as a person would pass it: never on argv.
  env.READBENCH_CONFORMANCE_SECRET = ctx.client_secret;
  args.push('--oauth-client-secret', '${READBENCH_CONFORMANCE_SECRET}');
}
let dir;
if (ctx.private_key_pem) {
  dir = mkdtempSync(join(tmpdir(), 'readbench-conformance-'));
  const key = join(dir, 'key.pem');
  writeFileSync(key, ctx.private_key_pem, { mode: 0o600 });
  args.push('--oauth-private-key', key);
}
if (scenario.startsWith('auth/client-credentials-')) args.push('--oauth-grant', 'client_credentials');

const r = spawnSync(readbench, args, { env, stdio: 'inherit' });
if (dir) rmSync(dir, { recursive: true, force: true });
process.exit(r.status ?? 1);
