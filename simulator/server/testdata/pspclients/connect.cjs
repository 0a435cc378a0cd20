// connect.cjs is preloaded (node --require) into a PSP client run by
// TestPublishedPixClients: the client's code and its package are
// unchanged, and this maps the PSP's homologation URLs it has written in
// onto the sandbox, as curl's --connect-to or a hosts file would, with
// the PSP's base path for the API Pix rewritten to the sandbox's. It
// refuses, before any packet leaves, every connection and name lookup
// that is not loopback: the test never reaches a PSP.
'use strict';
const http = require('http');
const https = require('https');
const net = require('net');
const tls = require('tls');
const dns = require('dns');

const sandbox = new URL(process.env.HOMOLOGA_SANDBOX); // https://127.0.0.1:port
// Each PSP host the clients name, and its base paths on the sandbox.
const psps = {
  'pix-h.api.efipay.com.br': [['/v2/', '/pix/v2/'], ['/oauth/token', '/oauth/token']],
  'api-pix-h.gerencianet.com.br': [['/v2/', '/pix/v2/'], ['/oauth/token', '/oauth/token']],
  'api-pix-h.sicredi.com.br': [['/api/v2/', '/pix/v2/'], ['/oauth/token', '/oauth/token']],
};
const loopback = (host) => host === 'localhost' || host === '::1' || /^127\./.test(host || '');

function refuse(what) {
  const err = new Error('connect.cjs: refused ' + what + ': the test reaches loopback only');
  err.code = 'EHOMOLOGAREFUSED';
  throw err;
}

function rewrite(options) {
  const host = options.hostname || (options.host || '').split(':')[0];
  const rules = psps[host];
  if (!rules) {
    if (!loopback(host)) refuse('a request to ' + host);
    return options;
  }
  let path = options.path || '/';
  for (const [from, to] of rules) {
    if (path.startsWith(from)) {
      path = to + path.slice(from.length);
      break;
    }
  }
  const out = Object.assign({}, options, { hostname: sandbox.hostname, host: sandbox.hostname, port: sandbox.port, path, servername: undefined });
  if (out.headers) {
    out.headers = Object.assign({}, out.headers);
    for (const k of Object.keys(out.headers)) if (k.toLowerCase() === 'host') delete out.headers[k];
  }
  return out;
}

function wrap(mod) {
  const request = mod.request;
  mod.request = function (input, options, cb) {
    if (typeof input === 'string' || input instanceof URL) {
      const u = new URL(input);
      const fromURL = { protocol: u.protocol, hostname: u.hostname, port: u.port, path: u.pathname + u.search };
      if (typeof options === 'function') {
        cb = options;
        options = {};
      }
      return request.call(mod, rewrite(Object.assign(fromURL, options || {})), cb);
    }
    return request.call(mod, rewrite(input), options);
  };
}
wrap(https);
wrap(http);

for (const [mod, name] of [[net, 'connect'], [net, 'createConnection'], [tls, 'connect']]) {
  const orig = mod[name];
  mod[name] = function (...args) {
    const o = typeof args[0] === 'object' ? args[0] : { port: args[0], host: typeof args[1] === 'string' ? args[1] : 'localhost' };
    if (!o.path && !loopback(o.host || 'localhost')) refuse('a connection to ' + o.host);
    return orig.apply(this, args);
  };
}
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  if (!loopback(host)) refuse('a name lookup of ' + host);
  return lookup.call(dns, host, ...rest);
};
