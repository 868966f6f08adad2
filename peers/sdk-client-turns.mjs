// sdk-client-turns.mjs is a client written only with the official MCP
// TypeScript SDK (@modelcontextprotocol/sdk, pinned in package.json), as a
// host would read a user's attachments: turns of parallel resources/read
// calls (Promise.all), each turn GAP_MS after the start of the one before
// (later when that one took longer: a slow turn on a busy machine never
// crowds the next ones together). The tests of
// `readbench record` (cmd/readbench/record_test.go) put the recording
// proxy between it and a server, and check that the recording holds the
// same turns at the same gaps.
//
// Usage:
//   node sdk-client-turns.mjs GAP_MS TURNS_JSON http URL [HEADER_VALUE]
//   node sdk-client-turns.mjs GAP_MS TURNS_JSON stdio CMD ARG...
//
// TURNS_JSON is an array of turns, each an array of URIs:
// '[["doc://text/1k","doc://blob/4k"],["doc://text/64k"]]'. HEADER_VALUE,
// when given, is sent as the Authorization header of every HTTP request
// (the tests check that it is never recorded). Prints one JSON line per
// turn: {"turn": k, "start_ms": ms from the first turn's start, "reads":
// [{"uri", "bytes"} | {"uri", "error"}]}: the tests hold the recording to
// the starts the client printed, not to the gaps it was asked for. Exits
// 1 on a failure to connect; a read's error is reported, not fatal.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [gapArg, turnsArg, mode, ...rest] = process.argv.slice(2);
const gap = Number(gapArg);
const turns = JSON.parse(turnsArg);
if (!Number.isFinite(gap) || gap < 0 || !Array.isArray(turns) || turns.length > 1000) {
  console.error('usage: node sdk-client-turns.mjs GAP_MS TURNS_JSON http URL | stdio CMD ARG...');
  process.exit(2);
}

let transport;
if (mode === 'http') {
  const headers = rest[1] ? { Authorization: rest[1] } : {};
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers } });
} else if (mode === 'stdio') {
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}

const client = new Client({ name: 'sdk-client-turns', version: '1.0.0' });
try {
  await client.connect(transport);
} catch (e) {
  console.error(`connect: ${e.message}`);
  process.exit(1);
}

const size = (c) => (c.text !== undefined ? Buffer.byteLength(c.text) : Buffer.from(c.blob, 'base64').length);
let start, prev;
for (let k = 0; k < turns.length; k++) {
  const wait = k === 0 ? 0 : prev + gap - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  prev = Date.now();
  start ??= prev;
  const reads = await Promise.all(turns[k].map(async (uri) => {
    try {
      const res = await client.readResource({ uri });
      return { uri, bytes: res.contents.reduce((n, c) => n + size(c), 0) };
    } catch (e) {
      return { uri, error: String(e.code ?? e.message) };
    }
  }));
  console.log(JSON.stringify({ turn: k + 1, start_ms: prev - start, reads }));
}
await client.close();
