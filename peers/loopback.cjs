// loopback.cjs is loaded into the conformance suite (node --require) by
// cmd/readbench/conformance_test.go and scripts/conformance.sh: every TCP
// listener the suite opens binds 127.0.0.1, whatever host (or none) it asked
// for, and the process exits with status 70 if one does not.
'use strict';
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const a = args[0];
  if (a !== null && typeof a === 'object') {
    if (a.path === undefined && a.handle === undefined && a._handle === undefined && a.fd === undefined) {
      args[0] = { ...a, host: '127.0.0.1' };
    }
  } else if (a === undefined || typeof a === 'function' || typeof a === 'number' || /^\d+$/.test(String(a))) {
    if (a === undefined || typeof a === 'function') args.unshift(0);
    if (typeof args[1] === 'string') args.splice(1, 1);
    // Bind 127.0.0.1 now, as listen(port) with no host binds at once: with
    // a host, listen looks it up first and address() is null until then,
    // and some of the suite's servers read their port right after listen().
    const quiet = process.noDeprecation;
    process.noDeprecation = true;
    const { TCP, constants } = process.binding('tcp_wrap');
    process.noDeprecation = quiet;
    const handle = new TCP(constants.SERVER);
    const err = handle.bind('127.0.0.1', Number(args[0]));
    if (err) {
      process.stderr.write('loopback.cjs: cannot bind 127.0.0.1:' + args[0] + ' (' + err + ')\n');
      process.exit(70);
    }
    args[0] = { handle };
  }
  this.once('listening', () => {
    const addr = this.address();
    if (addr && typeof addr === 'object' && addr.address !== '127.0.0.1') {
      process.stderr.write('loopback.cjs: a listener is on ' + addr.address + ':' + addr.port + ', not 127.0.0.1\n');
      process.exit(70);
    }
  });
  return listen.apply(this, args);
};
