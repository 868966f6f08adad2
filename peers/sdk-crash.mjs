// sdk-crash.mjs is a resource server written with the official MCP
// TypeScript SDK that crashes as server-postgres 0.6.2 did when its
// database restarted: its pool emits an 'error' event no one listens to,
// and Node prints "Unhandled 'error' event", the cause, and a dump of the
// error object (about 120 lines of its fields), then exits 1.
// cmd/readbench's stderr tests run it to check that readbench quotes the
// cause, not only the end of the dump.
//
// Usage:
//   node sdk-crash.mjs N    serve doc://text/1k over stdio; crash on the
//                           N-th read (from 1)
import { EventEmitter } from 'node:events';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const crashOn = Number(process.argv[2]);
if (!Number.isInteger(crashOn) || crashOn < 1) {
  process.stderr.write('usage: node sdk-crash.mjs N (crash on the N-th read)\n');
  process.exit(2);
}

// pool stands for a database client pool: an EventEmitter whose 'error'
// event has no listener, as in a server that forgot one.
const pool = new EventEmitter();

// databaseError is shaped as node-postgres's DatabaseError: the message,
// the server's fields, and the client it came from.
function databaseError() {
  const e = new Error('terminating connection due to administrator command');
  Object.assign(e, { length: 116, severity: 'FATAL', code: '57P01', file: 'postgres.c', line: '3289', routine: 'ProcessInterrupts' });
  e.client = {
    connectionParameters: { user: 'bench', database: 'bench', port: 5432, host: '127.0.0.1', ssl: false },
    queryQueue: [], binary: false, processID: 4242, secretKey: 77, ended: false,
    settings: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`setting_${i}`, `value of setting number ${i}`])),
    history: Array.from({ length: 60 }, (_, i) => ({ query: `SELECT ${i}`, ms: i })),
  };
  return e;
}

let reads = 0;
const server = new McpServer({ name: 'readbench-sdk-crash', version: '1.0.0' });
server.registerResource('text-1k', 'doc://text/1k', { mimeType: 'text/plain' }, async (u) => {
  if (++reads === crashOn) setImmediate(() => pool.emit('error', databaseError()));
  return { contents: [{ uri: u.href, mimeType: 'text/plain', text: 'x'.repeat(1024) }] };
});
await server.connect(new StdioServerTransport());
