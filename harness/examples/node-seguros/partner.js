#!/usr/bin/env node
// Corretora Independente: insurance integration with the insurer (Homologa sandbox).
//
// Node 18+, standard library only. One process: an internal JSON API for the
// back office, the insurer's webhook receiver, and the ledger the back office
// reads. See docs/reference/ for the API and NOTES.md for what the insurer's
// documentation left unclear.
'use strict';

const http = require('node:http');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

const DEFECTS = [
  'new-key-on-retry', 'no-signature-check', 'stale-signature', 'apply-twice',
  'status-regression', 'token-per-call', 'every-scope', 'ignore-retry-after',
  'card-number', 'ignore-pendings', 'slow-ack', 'no-retry', 'shared-key', 'polls',
];

function loadConfig(env) {
  const missing = ['SANDBOX_URL', 'CLIENT_ID', 'CLIENT_SECRET', 'WEBHOOK_SECRET', 'PORT']
    .filter((k) => !env[k]);
  if (missing.length) throw new Error(`missing environment variables: ${missing.join(', ')}`);
  const defect = (env.DEFECT || '').trim();
  if (defect && !DEFECTS.includes(defect)) {
    throw new Error(`DEFECT=${defect} is unknown; one of: ${DEFECTS.join(', ')}`);
  }
  const sandbox = new URL(env.SANDBOX_URL);
  const port = Number(env.PORT);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`PORT=${env.PORT} is not a port`);
  return {
    baseUrl: sandbox.origin + sandbox.pathname.replace(/\/+$/, ''),
    clientId: env.CLIENT_ID,
    clientSecret: env.CLIENT_SECRET,
    webhookSecret: env.WEBHOOK_SECRET,
    port,
    defect,
    // The insurer's APIs this integration calls and the scopes they need
    // (docs/reference/platform.md, "Authentication"): sale cycle, access management, benefits.
    scopes: ['apiseguradora', 'apicontroleacesso', 'apibeneficio'],
    callTimeoutMs: Number(env.CALL_TIMEOUT_MS || 10000),
    maxAttempts: Number(env.MAX_ATTEMPTS || 6),
    backoffBaseMs: Number(env.BACKOFF_BASE_MS || 500),
    backoffCapMs: Number(env.BACKOFF_CAP_MS || 30000),
    signatureToleranceSec: 300,
    webhookPath: env.WEBHOOK_PATH || '/hooks/insurer',
    ledgerFile: env.LEDGER_FILE || '',
    // A lost webhook is found by reading the insurer's event log now and then
    // (never a resource in a loop); 0 turns it off.
    reconcileIntervalMs: Number(env.RECONCILE_INTERVAL_S ?? 600) * 1000,
    eventsFeedPath: env.EVENTS_FEED_PATH || '/sandbox/events',
    cnpj: (env.CNPJ || '').replace(/\D/g, ''),
  };
}

// Every scope an app may hold: what DEFECT=every-scope asks for.
const ALL_SCOPES = [
  'cob.read', 'cob.write', 'cobv.read', 'cobv.write', 'lotecobv.read', 'lotecobv.write',
  'cobr.read', 'cobr.write', 'rec.read', 'rec.write', 'solicrec.read', 'solicrec.write',
  'pix.read', 'pix.write', 'webhook.read', 'webhook.write', 'webhookrec.read', 'webhookrec.write',
  'webhookcobr.read', 'webhookcobr.write', 'payloadlocation.read', 'payloadlocation.write',
  'payloadlocationrec.read', 'payloadlocationrec.write',
  'apiseguradora', 'apiunderwriting', 'cartaocredito', 'api.questionario', 'apicontroleacesso',
  'apibeneficio', 'apicliente',
];

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nowIso = () => new Date().toISOString();

function log(level, msg, fields) {
  const line = { at: nowIso(), level, msg, ...(fields || {}) };
  process.stderr.write(JSON.stringify(line) + '\n');
}

// Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3).
function retryAfterMs(value) {
  if (!value) return 0;
  const s = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Math.ceil(Number(s) * 1000);
  const at = Date.parse(s);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

// An RFC 3339 instant as nanoseconds since the epoch (occurredAt carries nanoseconds).
function instantNs(value) {
  if (!value || typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(value.trim());
  if (!m) return null;
  const ms = Date.parse(m[1] + (m[3] || 'Z'));
  if (Number.isNaN(ms)) return null;
  const frac = (m[2] || '').padEnd(9, '0').slice(0, 9);
  return BigInt(ms) * 1000000n + BigInt(frac || '0');
}

function round2(x) {
  // Half-up to cents, as the insurer rounds premiums.
  return Math.round((x + Number.EPSILON) * 100) / 100;
}

// Today's date in Brasília (UTC-3), the insurer's civil dates.
function brasiliaDate(ms) {
  return new Date(ms - 3 * 3600 * 1000).toISOString().slice(0, 10);
}

function onlyDigits(s) {
  return String(s == null ? '' : s).replace(/\D/g, '');
}

function validCpf(cpf) {
  const d = onlyDigits(cpf);
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const dv = (n) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Number(d[i]) * (n + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return dv(9) === Number(d[9]) && dv(10) === Number(d[10]);
}

class HttpError extends Error {
  constructor(status, message, details) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

// An answer of the insurer that is final (not retried): a 4xx, or retries spent.
class InsurerError extends Error {
  constructor(op, status, body, cause) {
    const msgs = mensagens(body);
    super(`${op}: ${status ? `the insurer answered ${status}` : 'no answer from the insurer'}` +
      (msgs.length ? `: ${msgs.map((m) => m.text).join('; ')}` : cause ? `: ${cause.message}` : ''));
    this.op = op;
    this.status = status;
    this.body = body;
    this.messages = msgs;
  }
}

// The insurer's Mensagens: objects {Codigo, Descricao, Campo} (v3) or strings (v2).
// The sandbox's control endpoints (the card widget's) answer problem+json instead.
function mensagens(body) {
  if (!body || typeof body !== 'object') return [];
  if (typeof body.type === 'string' && body.status && !('Mensagens' in body)) {
    const code = body.type.split(':').pop();
    return [{ code, field: ((body.errors || [])[0] || {}).field || '', text: `${code}: ${body.detail || body.title || ''}` }];
  }
  const list = Array.isArray(body.Mensagens) ? body.Mensagens : [];
  return list.map((m) => (typeof m === 'string'
    ? { code: '', field: '', text: m }
    : { code: m.Codigo || '', field: m.Campo || '', text: [m.Codigo, m.Campo, m.Descricao].filter(Boolean).join(': ') }));
}

// ---------------------------------------------------------------------------
// Access token: one token, reused until shortly before it expires
// ---------------------------------------------------------------------------

class TokenSource {
  constructor(cfg, retry) {
    this.cfg = cfg;
    this.retry = retry;
    this.token = null;
    this.expiresAt = 0;
    this.inflight = null;
    this.obtained = 0;
  }

  scope() {
    return (this.cfg.defect === 'every-scope' ? ALL_SCOPES : this.cfg.scopes).join(' ');
  }

  async get() {
    if (this.cfg.defect === 'token-per-call') return this.fetch();
    // Refresh shortly before expires_in (a tenth of the lifetime, at most a minute).
    if (this.token && Date.now() < this.refreshAt) return this.token;
    if (!this.inflight) {
      this.inflight = this.fetch().finally(() => { this.inflight = null; });
    }
    return this.inflight;
  }

  invalidate(token) {
    if (this.token === token) {
      this.token = null;
      this.expiresAt = 0;
      this.refreshAt = 0;
    }
  }

  async fetch() {
    const body = new URLSearchParams({ grant_type: 'client_credentials', scope: this.scope() }).toString();
    const basic = Buffer.from(`${encodeURIComponent(this.cfg.clientId)}:${encodeURIComponent(this.cfg.clientSecret)}`).toString('base64');
    const res = await this.retry('token', async () => fetch(`${this.cfg.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(this.cfg.callTimeoutMs),
    }));
    if (res.status !== 200 || !res.json || !res.json.access_token) {
      const err = new Error(`token: ${res.status} ${res.json ? `${res.json.error}: ${res.json.error_description || ''}` : ''}`);
      err.status = res.status;
      throw err;
    }
    const lifetimeMs = Number(res.json.expires_in || 3600) * 1000;
    const now = Date.now();
    this.token = res.json.access_token;
    this.expiresAt = now + lifetimeMs;
    this.refreshAt = now + lifetimeMs - Math.min(60000, lifetimeMs / 10);
    this.obtained += 1;
    log('info', 'access token obtained', { scope: res.json.scope, expiresIn: res.json.expires_in, tokensObtained: this.obtained });
    return this.token;
  }
}

// ---------------------------------------------------------------------------
// Calls to the insurer: timeout, retries with backoff and jitter, Retry-After,
// the token on every call, Idempotency-Key on every creating POST.
// ---------------------------------------------------------------------------

class Insurer {
  constructor(cfg) {
    this.cfg = cfg;
    this.tokens = new TokenSource(cfg, (op, fn) => this.withRetries(op, fn));
  }

  backoffMs(attempt, retryAfter) {
    if (this.cfg.defect === 'ignore-retry-after') return 200;
    // Exponential with full jitter over the upper half: base·2^n/2 .. base·2^n.
    const exp = Math.min(this.cfg.backoffCapMs, this.cfg.backoffBaseMs * 2 ** (attempt - 1));
    const jittered = exp / 2 + Math.random() * (exp / 2);
    return Math.max(jittered, retryAfter);
  }

  // fn() performs one attempt and resolves to a fetch Response; attempts that
  // end in a network error, a timeout, a 5xx, a 429 or a 409 (the same key
  // still in flight) are retried.
  async withRetries(op, fn) {
    const max = this.cfg.defect === 'no-retry' ? 1 : Math.max(1, this.cfg.maxAttempts);
    let lastErr = null;
    for (let attempt = 1; attempt <= max; attempt++) {
      let res;
      try {
        res = await fn(attempt);
      } catch (err) {
        lastErr = err;
        const why = err.name === 'TimeoutError' ? 'timeout' : (err.cause && err.cause.code) || err.message;
        if (attempt >= max) break;
        const wait = this.backoffMs(attempt, 0);
        log('warn', 'call failed without an answer; retrying', { op, attempt, why, waitMs: Math.round(wait) });
        await sleep(wait);
        continue;
      }
      const text = await res.text();
      let json = null;
      try { json = text ? JSON.parse(text) : null; } catch { json = null; }
      const out = { status: res.status, headers: res.headers, json, text };
      const retryable = res.status >= 500 || res.status === 429 || res.status === 409;
      if (!retryable || attempt >= max) return out;
      const ra = retryAfterMs(res.headers.get('retry-after'));
      const wait = this.backoffMs(attempt, ra);
      log('warn', 'call answered a retryable status; retrying', { op, attempt, status: res.status, retryAfterMs: ra, waitMs: Math.round(wait) });
      await sleep(wait);
    }
    throw new InsurerError(op, 0, null, lastErr);
  }

  // key: undefined for no Idempotency-Key, a string to reuse on every retry,
  // or a function of the attempt number.
  async call(op, method, pathAndQuery, { body, key } = {}) {
    let refreshedOn401 = false;
    const attemptOnce = async (attempt) => {
      const token = await this.tokens.get();
      const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (key !== undefined) headers['Idempotency-Key'] = typeof key === 'function' ? key(attempt) : key;
      const res = await fetch(this.cfg.baseUrl + pathAndQuery, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.cfg.callTimeoutMs),
      });
      if (res.status === 401 && !refreshedOn401) {
        // The token expired early (the sandbox clock moved) or was revoked:
        // get a new one at once and repeat the same request.
        refreshedOn401 = true;
        await res.arrayBuffer();
        this.tokens.invalidate(token);
        return attemptOnce(attempt);
      }
      return res;
    };
    const res = await this.withRetries(op, attemptOnce);
    if (res.status < 200 || res.status > 299) throw new InsurerError(op, res.status, res.json);
    return res;
  }

  get(op, p) { return this.call(op, 'GET', p); }
  post(op, p, body, key) { return this.call(op, 'POST', p, { body, key }); }
  put(op, p, body) { return this.call(op, 'PUT', p, { body }); }
}

// ---------------------------------------------------------------------------
// Status order: a resource never goes back to an older status.
// ---------------------------------------------------------------------------

const ORDER = {
  proposal: {
    rank: { RECEBIDA: 0, EM_ANALISE: 1, PENDENTE: 1, APROVADA: 2, IMPLANTADA: 3, RECUSADA: 3, CANCELADA: 3 },
    final: new Set(['IMPLANTADA', 'RECUSADA', 'CANCELADA']),
    backEdges: new Set(),
  },
  benefit: {
    rank: { AVISADO: 0, EM_REGULACAO: 1, PENDENTE: 1, REABERTO: 1, APROVADO: 2, RECUSADO: 3, PAGO: 4, CANCELADO: 4 },
    // RECUSADO is reopened (REABERTO); PAGO and CANCELADO close the benefit.
    final: new Set(['PAGO', 'CANCELADO']),
    backEdges: new Set(['RECUSADO>REABERTO']),
  },
};

function newer(obs, res) {
  // null when unknown: compare by when the insurer says it happened, then by sequence.
  if (obs.atNs == null || res.lastAtNs == null) {
    if (obs.seq != null && res.lastSeq != null) return obs.seq > res.lastSeq;
    return null;
  }
  if (obs.atNs !== res.lastAtNs) return obs.atNs > res.lastAtNs;
  if (obs.seq != null && res.lastSeq != null) return obs.seq > res.lastSeq;
  return false;
}

// Whether an observed status (from an event or a read) replaces the current one.
function statusDecision(kind, res, obs) {
  const o = ORDER[kind];
  const cur = res.status;
  if (!cur) return 'apply';
  if (!(obs.status in o.rank)) return 'ignore:unknown-status';
  if (o.final.has(cur)) return cur === obs.status ? 'same' : 'ignore:already-final';
  if (o.final.has(obs.status)) return 'apply';
  if (cur === obs.status) return 'same';
  const isNewer = newer(obs, res);
  const back = o.rank[obs.status] < o.rank[cur] && !o.backEdges.has(`${cur}>${obs.status}`);
  if (back) return 'ignore:older-status';
  if (isNewer === false) return 'ignore:older-event';
  if (isNewer === null && o.rank[obs.status] === o.rank[cur] && obs.previous && obs.previous !== cur) {
    return 'ignore:does-not-follow';
  }
  return 'apply';
}

// The events this integration acts on (the rest of the company's log is not ours to keep).
const HANDLED = /^(proposta|beneficio|inscricao|cobranca|comissao)\./;

// What an event did, in the ledger's words.
const OUTCOMES = {
  apply: 'status changed',
  same: 'status already current',
  'ignore:older-status': 'ignored: older than the current status',
  'ignore:older-event': 'ignored: older than the last applied event',
  'ignore:already-final': 'ignored: the resource is in a final status',
  'ignore:does-not-follow': 'ignored: does not follow the current status',
  'ignore:unknown-status': 'ignored: unknown status',
};

// ---------------------------------------------------------------------------
// The ledger: what the back office sees
// ---------------------------------------------------------------------------

class Ledger {
  constructor(file) {
    this.file = file;
    this.proposals = new Map();
    this.enrollments = new Map();
    this.benefits = new Map();
    this.pendings = new Map();
    this.events = new Map();
    this.sales = new Map(); // our own operations, by the caller's Idempotency-Key
    this.saveTimer = null;
    if (file && fs.existsSync(file)) this.load();
  }

  load() {
    const data = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    for (const p of data.proposals || []) this.proposals.set(String(p.number), p);
    for (const e of data.enrollments || []) this.enrollments.set(String(e.id), e);
    for (const b of data.benefits || []) this.benefits.set(String(b.id), b);
    for (const p of data.pendings || []) this.pendings.set(`${p.of}:${p.id}`, p);
    for (const e of data.events || []) this.events.set(e.id, e);
    for (const s of data.sales || []) this.sales.set(s.requestKey, s);
    for (const r of [...this.proposals.values(), ...this.benefits.values()]) {
      r.lastAtNs = r.lastAt ? instantNs(r.lastAt) : null;
    }
  }

  changed() {
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), 200);
  }

  flush() {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...this.snapshot(), sales: [...this.sales.values()] }));
    fs.renameSync(tmp, this.file);
  }

  proposal(number) {
    const key = String(number);
    let p = this.proposals.get(key);
    if (!p) {
      p = {
        number: Number(number), offer: null, cpf: null, status: null, statusHistory: [],
        appliedEventIds: [], pendingIds: [], enrollmentIds: [], premium: null,
        lastAt: null, lastAtNs: null, lastSeq: null, createdAt: nowIso(), updatedAt: nowIso(),
      };
      this.proposals.set(key, p);
    }
    return p;
  }

  benefit(id) {
    const key = String(id);
    let b = this.benefits.get(key);
    if (!b) {
      b = {
        id: Number(id), protocol: null, proposalNumber: null, enrollmentId: null, cause: null,
        status: null, statusHistory: [], appliedEventIds: [], pendingIds: [], awaitingCustomer: false,
        amountPaid: null, refusal: null, lastAt: null, lastAtNs: null, lastSeq: null,
        createdAt: nowIso(), updatedAt: nowIso(),
      };
      this.benefits.set(key, b);
    }
    return b;
  }

  enrollment(id, proposalNumber) {
    const key = String(id);
    let e = this.enrollments.get(key);
    if (!e) {
      e = { id: Number(id), proposalNumber: proposalNumber == null ? null : Number(proposalNumber), status: 'ATIVA', lastEvent: null, updatedAt: nowIso() };
      this.enrollments.set(key, e);
      if (proposalNumber != null) {
        const p = this.proposal(proposalNumber);
        if (!p.enrollmentIds.includes(Number(id))) p.enrollmentIds.push(Number(id));
      }
    }
    return e;
  }

  pending(of, id) {
    const key = `${of}:${id}`;
    let p = this.pendings.get(key);
    if (!p) {
      p = {
        id: Number(id), of, proposalNumber: null, benefitId: null, code: null, group: null,
        description: null, requiredDocuments: [], status: 'open', insurerStatus: 'ABERTA',
        answeredAt: null, answerAttempts: 0, lastError: null, createdAt: nowIso(), updatedAt: nowIso(),
      };
      this.pendings.set(key, p);
    }
    return p;
  }

  // Apply an observed status; kind is 'proposal' or 'benefit'.
  observeStatus(kind, res, obs, regression) {
    const decision = regression ? 'apply' : statusDecision(kind, res, obs);
    if (decision === 'apply') {
      res.status = obs.status;
      res.statusHistory.push({ status: obs.status, at: obs.at || null, source: obs.source, recordedAt: nowIso() });
    }
    if (decision === 'apply' || decision === 'same') {
      if (obs.atNs != null && (res.lastAtNs == null || obs.atNs > res.lastAtNs)) {
        res.lastAtNs = obs.atNs;
        res.lastAt = obs.at;
      }
      if (obs.seq != null && (res.lastSeq == null || obs.seq > res.lastSeq)) res.lastSeq = obs.seq;
    }
    res.updatedAt = nowIso();
    this.changed();
    return decision;
  }

  snapshot() {
    const strip = ({ lastAtNs, ...rest }) => rest;
    const byNumber = (k) => (a, b) => b[k] - a[k];
    return {
      proposals: [...this.proposals.values()].map(strip).sort(byNumber('number')),
      enrollments: [...this.enrollments.values()].sort(byNumber('id')),
      benefits: [...this.benefits.values()].map(strip).sort(byNumber('id')),
      pendings: [...this.pendings.values()].sort((a, b) => (a.of === b.of ? b.id - a.id : a.of < b.of ? 1 : -1)),
      events: [...this.events.values()].sort((a, b) => (a.receivedAt < b.receivedAt ? -1 : 1)),
    };
  }
}

// ---------------------------------------------------------------------------
// Webhook signature (docs/reference/platform.md, "Events and webhooks"):
//   Homologa-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>
// ---------------------------------------------------------------------------

function verifySignature(header, secret, rawBody, nowSec, toleranceSec) {
  if (!header || typeof header !== 'string') return { ok: false, why: 'no signature' };
  let t = null;
  const v1 = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === 't') t = v;
    else if (k === 'v1') v1.push(v);
  }
  if (!t || !/^\d{1,12}$/.test(t) || v1.length === 0) return { ok: false, why: 'malformed signature' };
  const expected = crypto.createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  const match = v1.some((hex) => {
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
    return crypto.timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
  if (!match) return { ok: false, why: 'signature does not match' };
  if (toleranceSec != null && Math.abs(nowSec - Number(t)) > toleranceSec) {
    return { ok: false, why: 'signature timestamp outside the tolerance' };
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------
// The integration
// ---------------------------------------------------------------------------

const CUSTOMER_DOCUMENT = {
  // What we file for a proposal pending, by its code: the customer's documents
  // the back office keeps from onboarding (a placeholder PDF in homologation).
  DOC_IDENTIFICACAO: { nomeArquivo: 'documento-identificacao.pdf', tipoDocumento: 'DOCUMENTO_IDENTIFICACAO', resposta: 'Segue documento de identificação com foto do proponente.' },
  DPS: { nomeArquivo: 'declaracao-pessoal-saude.pdf', tipoDocumento: 'DPS', resposta: 'Segue a declaração pessoal de saúde preenchida e assinada pelo proponente.' },
};

function placeholderPdf(title) {
  const text = `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
    `3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n% ${title}\ntrailer<</Root 1 0 R>>\n%%EOF\n`;
  return Buffer.from(text).toString('base64');
}

class Integration {
  constructor(cfg) {
    this.cfg = cfg;
    this.insurer = new Insurer(cfg);
    this.ledger = new Ledger(cfg.ledgerFile);
    this.queue = [];
    this.draining = false;
    this.offers = new Map(); // offer code -> {at, offer}
    this.ready = false;
    this.sharedKey = 'corretora-independente-proposta';
    this.latestInsurerTimeMs = null; // the sandbox clock, as events tell it
    this.pollers = new Map();
    this.reconcileCursor = null; // every event up to this sequence has been seen
  }

  // ---- start: a token first, then the readiness probe says ready ----------
  async start() {
    let wait = 1000;
    for (;;) {
      try {
        await this.insurer.tokens.get();
        this.ready = true;
        return;
      } catch (err) {
        log('error', 'no access token yet', { error: err.message });
        await sleep(wait);
        wait = Math.min(30000, wait * 2);
      }
    }
  }

  // ---- reconciliation: events whose webhook never came ---------------------
  unfinished() {
    const L = this.ledger;
    return [...L.proposals.values()].some((p) => p.status && !ORDER.proposal.final.has(p.status)) ||
      [...L.benefits.values()].some((b) => b.status && !ORDER.benefit.final.has(b.status));
  }

  startReconciler() {
    if (!this.cfg.reconcileIntervalMs) return;
    const tick = async () => {
      try { await this.reconcile(); } catch (err) { log('warn', 'reconciliation failed', { error: err.message }); }
      this.reconcileTimer = setTimeout(tick, this.cfg.reconcileIntervalMs);
      this.reconcileTimer.unref();
    };
    this.reconcileTimer = setTimeout(tick, this.cfg.reconcileIntervalMs);
    this.reconcileTimer.unref();
  }

  async reconcile() {
    const seqs = [...this.ledger.events.values()].map((e) => e.sequence).filter(Number.isFinite);
    if (!seqs.length || !this.unfinished()) return 0;
    if (this.reconcileCursor == null) this.reconcileCursor = Math.min(...seqs) - 1;
    let found = 0;
    for (let page = 0; page < 20; page++) {
      const res = await this.insurer.get('event-log', `${this.cfg.eventsFeedPath}?since=${this.reconcileCursor}&limit=200`);
      const events = (res.json && res.json.events) || [];
      for (const ev of events) {
        if (Number.isFinite(ev.sequence) && ev.sequence > this.reconcileCursor) this.reconcileCursor = ev.sequence;
        if (!HANDLED.test(ev.type) || this.ledger.events.has(ev.id)) continue;
        this.ledger.events.set(ev.id, {
          id: ev.id, type: ev.type, sequence: ev.sequence ?? null, occurredAt: ev.occurredAt || null,
          subject: ev.subject || {}, receivedAt: nowIso(), lastReceivedAt: nowIso(), deliveries: 0,
          recoveredBy: 'reconciliation', timesApplied: 0, outcome: 'queued',
        });
        found += 1;
        this.enqueue(ev);
      }
      if (events.length < 200) break;
    }
    if (found) log('info', 'reconciliation found events the webhook had not delivered', { found });
    this.ledger.changed();
    return found;
  }

  health() {
    const t = this.insurer.tokens;
    const ready = this.ready && (this.cfg.defect === 'token-per-call' || Boolean(t.token) || t.obtained > 0);
    return { ready };
  }

  cnpjQuery() {
    return this.cfg.cnpj ? `empresa=${this.cfg.cnpj}&` : '';
  }

  // ---- 1. the customer's signature code -----------------------------------
  async requestSignatureCode(input) {
    const cpf = onlyDigits(input.cpf);
    if (!validCpf(cpf)) throw new HttpError(400, 'cpf: informe um CPF válido (11 dígitos)');
    const body = { cpf, output: input.channel === 'SMS' ? 'SMS' : 'Email' };
    const res = await this.insurer.post('signature-code', '/access/v1/token/user', body, crypto.randomUUID());
    const v = (res.json && res.json.Valor) || {};
    return { cpf, tokenId: v.tokenId, expiresAt: v.expiresAt, channel: v.channel, destination: v.destination };
  }

  // ---- 2. the sale --------------------------------------------------------
  async offer(code) {
    const hit = this.offers.get(code);
    if (hit && Date.now() - hit.at < 10 * 60 * 1000) return hit.offer;
    const res = await this.insurer.get('offer', `/insurer/v1/modeloproposta/${encodeURIComponent(code)}`);
    const offer = res.json && res.json.Valor;
    this.offers.set(code, { at: Date.now(), offer });
    return offer;
  }

  customerProfile(cpf, c) {
    c = c || {};
    const sex = String(c.sex || c.sexo || 'F').toUpperCase();
    const female = sex.startsWith('F');
    return {
      name: (c.name || c.nome || `CLIENTE ${cpf.slice(-4)}`).toUpperCase(),
      birthDate: c.birthDate || c.dataNascimento || '1986-03-15',
      female,
      income: Number(c.monthlyIncome || c.renda || 8000),
      cbo: c.occupationCbo || c.profissaoCbo || '2410-05',
      state: (c.state || c.uf || 'SP').toUpperCase(),
      zip: onlyDigits(c.zipCode || c.cep || '01310100'),
      email: c.email || undefined,
      smoker: Boolean(c.smoker),
    };
  }

  validateSale(input) {
    const errors = [];
    const cpf = onlyDigits(input.cpf);
    if (!validCpf(cpf)) errors.push('cpf: informe um CPF válido');
    const code = String(input.signatureCode || input.codigoAssinatura || '').trim();
    if (!/^\d{4,8}$/.test(code)) errors.push('signatureCode: o código de assinatura que o cliente recebeu (4 a 8 dígitos)');
    const hasCard = input.card && input.card.number;
    const preAuth = input.preAuthorizationCode;
    if (!hasCard && !preAuth) errors.push('card.number ou preAuthorizationCode: o cartão do widget ou o código de pré-autorização');
    if (errors.length) throw new HttpError(400, 'pedido de venda inválido', errors);
    return { cpf, code };
  }

  // Pick coverages and price them as the simulation says: a capital's premium is
  // capital ÷ capitalBase × premioBase; a fixed-value coverage costs premioBase.
  buildPlan(offer, sim, input) {
    const wanted = new Set((input.optionalCoverages || []).map(Number));
    const plans = [];
    let total = 0;
    for (const produto of sim.produtos || []) {
      const coberturas = [];
      for (const cob of produto.coberturas || []) {
        if (!cob.obrigatoria && !wanted.has(cob.itemProdutoId)) continue;
        const fixed = Number(cob.custoFixo) > 0;
        let capital = fixed ? cob.capitalBase : Number(input.capital || cob.valorMinimoCapitalContratacao || cob.capital);
        if (!fixed && cob.limite && capital > cob.limite) {
          throw new HttpError(422, `capital: ${capital} acima do limite da cobertura ${cob.itemProdutoId} (${cob.limite})`);
        }
        if (!fixed && capital < cob.valorMinimoCapitalContratacao) capital = cob.valorMinimoCapitalContratacao;
        const premio = fixed ? round2(cob.premioBase) : round2((capital / cob.capitalBase) * cob.premioBase);
        total += premio;
        coberturas.push({ CODIGO: cob.itemProdutoId, VL_CONTRIB: premio, VL_COBERTURA: capital });
      }
      if (coberturas.length) plans.push({ CODIGO: String(produto.idProduto), COBERTURAS: { COBERTURA: coberturas } });
    }
    if (!plans.length) throw new HttpError(422, `a oferta ${offer.id} não tem cobertura vendável para este perfil`);
    return { plans, total: round2(total) };
  }

  async sell(input, requestKey) {
    if (requestKey && this.ledger.sales.has(requestKey)) {
      const prior = this.ledger.sales.get(requestKey);
      if (prior.result) return prior.result;
      throw new HttpError(409, 'esta venda ainda está em andamento');
    }
    const { cpf, code } = this.validateSale(input);
    const offerCode = String(input.offer || input.oferta || 'EIS').toUpperCase();
    const saleId = crypto.randomUUID();
    const sale = { requestKey: requestKey || saleId, saleId, cpf, offer: offerCode, startedAt: nowIso(), result: null };
    this.ledger.sales.set(sale.requestKey, sale);
    try {
      sale.result = await this.runSale(sale, input, cpf, code, offerCode);
      this.ledger.changed();
      return sale.result;
    } catch (err) {
      this.ledger.sales.delete(sale.requestKey);
      throw err;
    }
  }

  async runSale(sale, input, cpf, code, offerCode) {
    const offer = await this.offer(offerCode);
    const customer = this.customerProfile(cpf, input.customer);
    const periodicity = String(input.periodicity || 'MENSAL').toUpperCase();
    const per = (offer.periodicidades || []).find((p) => p.descricao === periodicity);
    if (!per) throw new HttpError(422, `periodicity: a oferta ${offerCode} aceita ${(offer.periodicidades || []).map((p) => p.descricao).join(', ')}`);
    const dueDays = offer.diasVencimento || [];
    const dueDay = Number(input.dueDay || dueDays[0] || 10);
    if (dueDays.length && !dueDays.includes(dueDay)) throw new HttpError(422, `dueDay: a oferta ${offerCode} aceita ${dueDays.join(', ')}`);

    // Simulate the profile.
    const simBody = { simulacoes: [{
      proponente: {
        tipoRelacaoSeguradoId: 1, nome: customer.name, cpf, dataNascimento: customer.birthDate,
        profissaoCbo: customer.cbo, renda: customer.income, sexoId: customer.female ? 2 : 1,
        uf: customer.state, declaracaoIRId: 1, fumante: customer.smoker,
      },
      periodicidadeCobrancaId: per.id,
    }] };
    const simRes = await this.insurer.post('simulation',
      `/insurer/v1/simulacao?${this.cfg.cnpj ? `cnpj=${this.cfg.cnpj}&` : ''}codigoModeloProposta=${encodeURIComponent(offerCode)}`,
      simBody, crypto.randomUUID());
    const sim = simRes.json.Valor.simulacoes[0];
    if (!sim.produtos || !sim.produtos.length) {
      throw new HttpError(422, 'o perfil não pode contratar esta oferta', (sim.limites || []).map((l) => `${l.campo}: ${l.descricao}`));
    }
    const { plans, total } = this.buildPlan(offer, sim, input);

    // The card: the credit-card widget pre-authorises it and hands back a code.
    // Only that code goes to the insurer in the proposal (never the number).
    let cartao;
    if (this.cfg.defect === 'card-number' && input.card && input.card.number) {
      cartao = { NUM_PRE_AUTORIZACAO: 0, NUMERO: onlyDigits(input.card.number), VALIDADE: input.card.expiry || '12/30' };
    } else if (input.preAuthorizationCode) {
      cartao = { NUM_PRE_AUTORIZACAO: String(input.preAuthorizationCode) };
    } else {
      const pa = await this.preAuthorize(cpf, total, input.card, offerCode);
      cartao = { NUM_PRE_AUTORIZACAO: pa.code };
      sale.cardLast4 = pa.last4;
    }

    // The customer's signature with the code the customer typed: it signs the
    // customer's next proposal.
    const sigRes = await this.insurer.post('signature', '/access/v1/signature', {
      user: { username: cpf, document: cpf, nameProponente: customer.name, ...(customer.email ? { email: customer.email } : {}) },
      token: { tokenCode: code, sendType: 'Email', tokenType: 'ValidacaoCompra' },
      sender: { userAgent: 'corretora-independente/1.0', ip: '127.0.0.1', timezone: 'America/Sao_Paulo' },
      description: `Assinatura da proposta ${offerCode} do cliente`,
    }, crypto.randomUUID());
    const signedAt = (sigRes.json && sigRes.json.Valor && sigRes.json.Valor.dataAssinatura) || nowIso();

    const beneficiaries = (input.beneficiaries || []).map((b) => ({
      NOME: String(b.name || b.nome).toUpperCase(), PARENTESCO: b.relationship || b.parentesco || 'OUTROS',
      PARTICIPACAO: Number(b.share || b.participacao || 100), ...(b.cpf ? { CPF: onlyDigits(b.cpf) } : {}),
      CD_PLANO: plans[0].CODIGO,
    }));
    const proposta = { PROPOSTA: {
      NUMERO: 0,
      DT_ASSINATURA: signedAt.slice(0, 10),
      DADOS_PROPONENTE: {
        NOME: customer.name, DT_NASCIMENTO: customer.birthDate, SEXO: customer.female ? 'FEMININO' : 'MASCULINO',
        CPF: cpf, TITULAR_CPF: true, RENDA_MENSAL: customer.income, FUMANTE: customer.smoker,
        ...(customer.email ? { EMAIL: customer.email } : {}),
        ENDERECOS: { ENDERECO: [{ ESTADO: customer.state, CEP: customer.zip }] },
        PROFISSAO: { CODIGO: customer.cbo },
      },
      PLANOS: { VL_TOTAL: total, PLANO: plans },
      BENEFICIARIOS: { BENEFICIARIO: beneficiaries },
      DADOS_COBRANCA: { PERIODICIDADE: periodicity, TIPO_COBRANCA: 'CARTAO', DIA_VENCIMENTO: dueDay, CARTAO: cartao },
      USO_MONGERAL: { MODELO_PROPOSTA: offerCode },
    } };

    // One key for this proposal, the same on every retry.
    let key = crypto.randomUUID();
    if (this.cfg.defect === 'shared-key') key = this.sharedKey;
    if (this.cfg.defect === 'new-key-on-retry') key = () => crypto.randomUUID();
    sale.proposalKey = typeof key === 'string' ? key : 'per-attempt';
    const res = await this.insurer.post('proposal', `/insurer/v1/proposta?${this.cnpjQuery()}`.replace(/[?&]$/, ''), proposta, key);
    const numero = res.json.numeroProposta || (res.json.Valor && res.json.Valor.numeroProposta);
    const v = res.json.Valor || {};
    const p = this.ledger.proposal(numero);
    p.offer = offerCode;
    p.cpf = cpf;
    p.premium = v.valorTotal != null ? v.valorTotal : total;
    p.idempotencyKey = sale.proposalKey;
    this.ledger.observeStatus('proposal', p, {
      status: v.status || 'RECEBIDA', at: v.dataProtocolo, atNs: null, seq: null, source: 'sale',
    }, this.cfg.defect === 'status-regression');
    log('info', 'proposal registered', { numeroProposta: numero, offer: offerCode, replayed: res.headers.get('idempotent-replayed') === 'true' });
    if (this.cfg.defect === 'polls') this.pollProposal(numero);
    return { proposalNumber: Number(numero), status: p.status, premium: p.premium, offer: offerCode };
  }

  async preAuthorize(cpf, amount, card, offerCode) {
    if (!card || !card.number) throw new HttpError(400, 'card.number: o cartão que o cliente informou no widget');
    const body = { cpf, valor: amount, numero: onlyDigits(card.number), ...(card.expiry ? { validade: card.expiry } : {}), ...(card.holder ? { nomePortador: card.holder } : {}) };
    if (this.cfg.cnpj) body.cnpj = this.cfg.cnpj;
    // The widget's own call: a "try again" refusal gets one more attempt.
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const res = await this.insurer.post('card-preauthorization', '/sandbox/cartao/preautorizacao', body, crypto.randomUUID());
        const v = res.json.Valor;
        return { code: v.CodigoPreAutorizacao, last4: v.Final };
      } catch (err) {
        const again = err.messages && err.messages.some((m) => /TENTE_NOVAMENTE/.test(m.code || m.text));
        if (again && attempt === 1) continue;
        throw err;
      }
    }
    throw new Error('unreachable');
  }

  // DEFECT=polls: reads the proposal every 500 ms instead of waiting for events.
  pollProposal(numero) {
    const started = Date.now();
    const timer = setInterval(async () => {
      const p = this.ledger.proposal(numero);
      if (ORDER.proposal.final.has(p.status) || Date.now() - started > 15 * 60 * 1000) {
        clearInterval(timer);
        return;
      }
      try { await this.readProposal(numero, 'poll'); } catch (err) { log('warn', 'poll failed', { error: err.message }); }
    }, 500);
    this.pollers.set(String(numero), timer);
  }

  // ---- 3. the benefit notice ---------------------------------------------
  async giveBenefitNotice(input) {
    const errors = [];
    const numero = input.proposalNumber != null ? onlyDigits(input.proposalNumber) : '';
    const inscricao = input.enrollmentId != null ? onlyDigits(input.enrollmentId) : '';
    if (!numero && !inscricao) errors.push('proposalNumber ou enrollmentId: a proposta ou a inscrição do segurado');
    const cpf = onlyDigits(input.insuredCpf || input.cpf);
    if (!validCpf(cpf)) errors.push('insuredCpf: o CPF do segurado');
    if (errors.length) throw new HttpError(400, 'aviso de benefício inválido', errors);
    const p = numero ? this.ledger.proposals.get(numero) : null;
    const cause = input.cause || (p && p.offer === 'EIS' ? 'FUNERAL' : 'MORTE');
    // The insurer's civil dates are Brasília's on its clock; the latest event
    // tells us where that clock is (the sandbox may run ahead of ours).
    const nowMs = this.latestInsurerTimeMs && this.latestInsurerTimeMs > Date.now() ? this.latestInsurerTimeMs : Date.now();
    const n = input.notifier || {};
    const body = {
      ...(numero ? { numeroProposta: numero } : {}),
      ...(inscricao ? { inscricaoId: inscricao } : {}),
      cpfSegurado: cpf,
      causa: cause,
      dataOcorrencia: input.occurrenceDate || brasiliaDate(nowMs),
      ...(input.occurrenceTime ? { horaOcorrencia: input.occurrenceTime } : {}),
      descricaoOcorrencia: input.description || 'Aviso registrado pela central de atendimento da corretora.',
      comunicante: {
        nome: n.name || 'COMUNICANTE', tipoDocumento: n.documentType || 'CPF',
        documento: onlyDigits(n.document || cpf), relacao: n.relationship || (n.document ? 'CONJUGE' : 'SEGURADO'),
        ...(n.email ? { email: n.email } : {}), ...(n.phone ? { telefone: n.phone } : {}),
      },
      ...(Array.isArray(input.documents) ? { documentos: input.documents } : {}),
    };
    const res = await this.insurer.post('benefit-notice', '/benefits/v1/beneficio', body, crypto.randomUUID());
    const v = res.json.Valor;
    const b = this.ledger.benefit(v.beneficioId);
    b.protocol = v.protocolo;
    b.proposalNumber = v.numeroProposta;
    b.enrollmentId = v.inscricaoId;
    b.cause = cause;
    if (v.inscricaoId) this.ledger.enrollment(v.inscricaoId, v.numeroProposta);
    this.ledger.observeStatus('benefit', b, { status: v.status || 'AVISADO', at: v.dataHoraProtocolo, atNs: null, seq: null, source: 'notice' },
      this.cfg.defect === 'status-regression');
    return { benefitId: v.beneficioId, protocol: v.protocolo, status: b.status, enrollmentId: v.inscricaoId, proposalNumber: v.numeroProposta };
  }

  // ---- 4. the insurer's events --------------------------------------------
  // Called with the raw body and headers; answers {status, body} at once.
  receiveWebhook(headers, raw) {
    const nowSec = Math.floor(Date.now() / 1000);
    if (this.cfg.defect !== 'no-signature-check') {
      const tolerance = this.cfg.defect === 'stale-signature' ? null : this.cfg.signatureToleranceSec;
      const v = verifySignature(headers['homologa-signature'], this.cfg.webhookSecret, raw, nowSec, tolerance);
      if (!v.ok) {
        log('warn', 'webhook refused', { why: v.why, eventId: headers['homologa-event-id'] || null });
        return { status: 401, body: { error: 'assinatura inválida', detail: v.why } };
      }
    }
    let event;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      return { status: 400, body: { error: 'corpo não é JSON' } };
    }
    if (!event || typeof event.id !== 'string' || typeof event.type !== 'string') {
      return { status: 400, body: { error: 'evento sem id ou type' } };
    }
    const seen = this.ledger.events.get(event.id);
    if (seen) {
      seen.deliveries += 1;
      seen.lastReceivedAt = nowIso();
      this.ledger.changed();
      if (this.cfg.defect !== 'apply-twice') return { status: 200, body: { received: true, duplicate: true } };
    } else {
      this.ledger.events.set(event.id, {
        id: event.id, type: event.type, sequence: event.sequence ?? null, occurredAt: event.occurredAt || null,
        subject: event.subject || {}, receivedAt: nowIso(), lastReceivedAt: nowIso(), deliveries: 1,
        timesApplied: 0, outcome: 'queued',
      });
      this.ledger.changed();
    }
    return { status: 200, body: { received: true }, event };
  }

  enqueue(event) {
    this.queue.push(event);
    if (!this.draining) this.drain();
  }

  async drain() {
    this.draining = true;
    while (this.queue.length) {
      const event = this.queue.shift();
      await this.process(event);
    }
    this.draining = false;
  }

  async process(event) {
    const rec = this.ledger.events.get(event.id);
    try {
      const t = Date.parse(event.occurredAt);
      if (!Number.isNaN(t) && (!this.latestInsurerTimeMs || t > this.latestInsurerTimeMs)) this.latestInsurerTimeMs = t;
      const outcome = (await this.apply(event)) || 'recorded';
      rec.outcome = OUTCOMES[outcome] || outcome;
    } catch (err) {
      rec.outcome = `error: ${err.message}`;
      log('error', 'event processing failed', { eventId: event.id, type: event.type, error: err.message });
    }
    rec.timesApplied += 1;
    rec.appliedAt = nowIso();
    this.ledger.changed();
  }

  obsOf(event, status, previous) {
    return {
      status, previous, at: event.occurredAt || null, atNs: instantNs(event.occurredAt),
      seq: Number.isFinite(event.sequence) ? event.sequence : null, source: `event:${event.id}`,
    };
  }

  async apply(event) {
    const s = event.subject || {};
    const d = event.data || {};
    const regression = this.cfg.defect === 'status-regression';
    const L = this.ledger;
    switch (event.type) {
      case 'proposta.status': {
        const p = L.proposal(s.numeroProposta);
        p.appliedEventIds.push(event.id);
        const decision = L.observeStatus('proposal', p, this.obsOf(event, d.statusAtual, d.statusAnterior), regression);
        if (decision === 'apply' && d.motivo) p.reason = d.motivo;
        return decision;
      }
      case 'proposta.implantada': {
        const p = L.proposal(s.numeroProposta);
        p.appliedEventIds.push(event.id);
        for (const id of d.inscricaoIds || s.inscricaoIds || []) L.enrollment(id, s.numeroProposta);
        return L.observeStatus('proposal', p, this.obsOf(event, 'IMPLANTADA', d.statusAnterior), regression);
      }
      case 'proposta.pendencia': {
        const p = L.proposal(s.numeroProposta);
        p.appliedEventIds.push(event.id);
        const pend = L.pending('proposal', s.pendenciaId);
        Object.assign(pend, { proposalNumber: Number(s.numeroProposta), code: d.codigo || null, group: d.grupo || null, description: d.descricao || null, deadline: d.prazo || null });
        if (!p.pendingIds.includes(pend.id)) p.pendingIds.push(pend.id);
        L.changed();
        if (this.cfg.defect === 'ignore-pendings') return 'pending recorded, not answered';
        return this.answerProposalPending(pend);
      }
      case 'proposta.pendencia_respondida': {
        const p = L.proposal(s.numeroProposta);
        p.appliedEventIds.push(event.id);
        const pend = L.pending('proposal', s.pendenciaId);
        pend.proposalNumber = Number(s.numeroProposta);
        pend.insurerStatus = 'RESPONDIDA';
        if (pend.status === 'open') pend.status = 'answered';
        pend.updatedAt = nowIso();
        L.changed();
        return 'pending answer confirmed';
      }
      case 'beneficio.avisado':
      case 'beneficio.status':
      case 'beneficio.pago':
      case 'beneficio.recusado': {
        const b = L.benefit(s.beneficioId);
        b.appliedEventIds.push(event.id);
        if (s.inscricaoId && !b.enrollmentId) b.enrollmentId = s.inscricaoId;
        if (d.protocolo && !b.protocol) b.protocol = d.protocolo;
        const status = { 'beneficio.avisado': 'AVISADO', 'beneficio.pago': 'PAGO', 'beneficio.recusado': 'RECUSADO' }[event.type] || d.statusAtual;
        if (event.type === 'beneficio.pago') b.amountPaid = d.valor ?? null;
        if (event.type === 'beneficio.recusado') b.refusal = { reason: d.motivoRecusa || null, description: d.descricao || d.descricaoRecusa || null };
        const decision = L.observeStatus('benefit', b, this.obsOf(event, status, d.statusAnterior), regression);
        if (decision === 'apply' && b.status !== 'PENDENTE') {
          const open = b.pendingIds.some((id) => (L.pendings.get(`benefit:${id}`) || {}).status === 'awaiting_customer');
          b.awaitingCustomer = open && !ORDER.benefit.final.has(b.status);
        }
        return decision;
      }
      case 'beneficio.pendencia': {
        const b = L.benefit(s.beneficioId);
        b.appliedEventIds.push(event.id);
        const pend = L.pending('benefit', s.pendenciaId);
        Object.assign(pend, { benefitId: Number(s.beneficioId), code: d.codigo || null, group: d.grupo || null, description: d.descricao || null, requiredDocuments: d.documentosExigidos || [] });
        // The customer sends the documents through the benefit-pending widget.
        if (pend.status === 'open') pend.status = 'awaiting_customer';
        if (!b.pendingIds.includes(pend.id)) b.pendingIds.push(pend.id);
        b.awaitingCustomer = true;
        b.updatedAt = nowIso();
        L.changed();
        return 'awaiting the customer';
      }
      case 'beneficio.pendencia_respondida': {
        const b = L.benefit(s.beneficioId);
        b.appliedEventIds.push(event.id);
        const pend = L.pending('benefit', s.pendenciaId);
        pend.benefitId = Number(s.beneficioId);
        pend.status = 'answered_by_customer';
        pend.insurerStatus = 'RESPONDIDA';
        pend.answeredAt = event.occurredAt || nowIso();
        pend.updatedAt = nowIso();
        b.awaitingCustomer = b.pendingIds.some((id) => (L.pendings.get(`benefit:${id}`) || {}).status === 'awaiting_customer');
        L.changed();
        return 'customer answered';
      }
      default: {
        if (event.type.startsWith('inscricao.') && s.inscricaoId) {
          const e = L.enrollment(s.inscricaoId, s.numeroProposta);
          e.lastEvent = event.type;
          if (d.statusAtual) e.status = d.statusAtual;
          if (d.motivo === 'CANCELAMENTO' || d.motivo === 'INADIMPLENCIA') e.status = 'CANCELADA';
          e.updatedAt = nowIso();
          L.changed();
          return 'enrollment updated';
        }
        return 'recorded';
      }
    }
  }

  // Answer a proposal pending with the document it asks, then read the
  // proposal once. A pending is answered once, whatever delivers its event.
  async answerProposalPending(pend) {
    if (pend.status === 'answered_by_us' && this.cfg.defect !== 'apply-twice') return 'already answered';
    const doc = CUSTOMER_DOCUMENT[pend.code] || {
      nomeArquivo: `${String(pend.code || 'documento').toLowerCase()}.pdf`, tipoDocumento: pend.code || 'DOCUMENTO',
      resposta: `Segue o documento solicitado: ${pend.description || pend.code || 'pendência'}.`,
    };
    const body = {
      resposta: doc.resposta,
      documento: { nomeArquivo: doc.nomeArquivo, formato: 'PDF', tipoDocumento: doc.tipoDocumento, conteudoBase64: placeholderPdf(doc.nomeArquivo) },
    };
    pend.answerAttempts += 1;
    try {
      const res = await this.insurer.put('answer-pending', `/insurer/v1/pendencia/${pend.id}`, body);
      const v = (res.json && res.json.Valor) || {};
      pend.status = 'answered_by_us';
      pend.insurerStatus = v.status || 'RESPONDIDA';
      pend.answeredAt = nowIso();
      pend.lastError = null;
    } catch (err) {
      if (err.messages && err.messages.some((m) => m.code === 'PENDENCIA_NAO_ABERTA')) {
        // Already answered (our earlier attempt got through, its answer lost):
        // the proposal, read once, says where the pending is.
        await this.readProposal(pend.proposalNumber, 'read-after-answer');
        if (pend.status !== 'answered_by_us') pend.status = 'answered_by_us';
        pend.lastError = null;
        this.ledger.changed();
        return 'pending was already answered';
      }
      pend.lastError = err.message;
      pend.status = 'answer_failed';
      this.ledger.changed();
      if (pend.answerAttempts < 5) {
        const t = setTimeout(() => this.answerProposalPending(pend).catch(() => {}), 30000 * pend.answerAttempts);
        t.unref();
      }
      return `answer failed: ${err.message}`;
    }
    pend.updatedAt = nowIso();
    this.ledger.changed();
    await this.readProposal(pend.proposalNumber, 'read-after-answer');
    return 'pending answered';
  }

  // Read a proposal once: its pendings and enrollments; its status only when
  // it moved forward (events order the rest).
  async readProposal(numero, source) {
    const res = await this.insurer.get('read-proposal', `/insurer/v1/proposta/${numero}`);
    const v = res.json.Valor;
    const L = this.ledger;
    const p = L.proposal(numero);
    if (!p.offer) p.offer = v.modeloProposta;
    if (!p.cpf && v.proponente) p.cpf = v.proponente.cpf;
    if (p.premium == null) p.premium = v.valorProposta;
    for (const pe of v.pendencias || []) {
      const pend = L.pending('proposal', pe.id);
      pend.proposalNumber = Number(numero);
      pend.code = pend.code || pe.codigo;
      pend.description = pend.description || pe.descricao;
      pend.insurerStatus = pe.status;
      if (!p.pendingIds.includes(pend.id)) p.pendingIds.push(pend.id);
    }
    for (const id of v.inscricoes || []) L.enrollment(id, numero);
    const o = ORDER.proposal;
    if (this.cfg.defect === 'status-regression' || !p.status || o.final.has(v.status) || o.rank[v.status] > o.rank[p.status]) {
      L.observeStatus('proposal', p, { status: v.status, at: v.dataUltimaAtualizacao, atNs: null, seq: null, source }, this.cfg.defect === 'status-regression');
    }
    L.changed();
    return v;
  }
}

// ---------------------------------------------------------------------------
// The HTTP server: internal API, webhook, state, health
// ---------------------------------------------------------------------------

const MAX_BODY = 1 << 20;

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, 'corpo acima de 1 MiB'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function jsonInput(raw) {
  if (!raw.length) return {};
  try {
    const v = JSON.parse(raw.toString('utf8'));
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    return v;
  } catch {
    throw new HttpError(400, 'o corpo deve ser um objeto JSON');
  }
}

function errorAnswer(err) {
  if (err instanceof HttpError) return [err.status, { error: err.message, details: err.details || [] }];
  if (err instanceof InsurerError) {
    // A refusal of the insurer is the caller's to fix (422); no answer is ours (502).
    const status = err.status >= 400 && err.status < 500 ? 422 : 502;
    return [status, { error: err.message, insurerStatus: err.status || null, insurerMessages: err.messages }];
  }
  log('error', 'unexpected error', { error: err.stack || err.message });
  return [500, { error: 'erro interno' }];
}

function createServer(app) {
  const cfg = app.cfg;
  return http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const route = `${req.method} ${url.pathname}`;
    try {
      if (req.method === 'POST' && url.pathname === cfg.webhookPath) {
        if (app.stopping) {
          // Shutting down: the insurer retries what we do not acknowledge.
          res.setHeader('Connection', 'close');
          return send(res, 503, { error: 'encerrando; reenvie depois' });
        }
        const raw = await readBody(req);
        const answer = app.receiveWebhook(req.headers, raw);
        if (!answer.event) return send(res, answer.status, answer.body);
        if (cfg.defect === 'slow-ack') {
          const started = Date.now();
          await app.process(answer.event);
          await sleep(Math.max(0, 3000 - (Date.now() - started)));
          return send(res, answer.status, answer.body);
        }
        // Acknowledge at once; the work happens after the answer.
        send(res, answer.status, answer.body);
        setImmediate(() => app.enqueue(answer.event));
        return undefined;
      }
      switch (route) {
        case 'GET /healthz':
          return send(res, 200, app.health());
        case 'GET /internal/state':
          return send(res, 200, { ready: app.health().ready, generatedAt: nowIso(), ...app.ledger.snapshot() });
        case 'POST /signature-codes': {
          const out = await app.requestSignatureCode(jsonInput(await readBody(req)));
          return send(res, 201, out);
        }
        case 'POST /sales': {
          const out = await app.sell(jsonInput(await readBody(req)), req.headers['idempotency-key'] || null);
          return send(res, 201, out);
        }
        case 'POST /benefits': {
          const out = await app.giveBenefitNotice(jsonInput(await readBody(req)));
          return send(res, 201, out);
        }
        default: {
          const m = /^\/internal\/proposals\/(\d+)$/.exec(url.pathname);
          if (req.method === 'GET' && m) {
            const p = app.ledger.proposals.get(m[1]);
            if (!p) return send(res, 404, { error: 'proposta desconhecida' });
            const { lastAtNs, ...rest } = p;
            return send(res, 200, rest);
          }
          return send(res, 404, { error: `rota desconhecida: ${route}` });
        }
      }
    } catch (err) {
      const [status, body] = errorAnswer(err);
      if (!res.headersSent) send(res, status, body);
      return undefined;
    }
  });
}

async function main() {
  let cfg;
  try {
    cfg = loadConfig(process.env);
  } catch (err) {
    process.stderr.write(`partner: ${err.message}\n`);
    process.exit(2);
  }
  const app = new Integration(cfg);
  const server = createServer(app);
  server.headersTimeout = 10000;
  server.requestTimeout = 30000;
  server.listen(cfg.port, '127.0.0.1', () => {
    log('info', 'listening', { addr: `127.0.0.1:${cfg.port}`, sandbox: cfg.baseUrl, defect: cfg.defect || null, webhook: cfg.webhookPath });
  });
  app.start().then(() => app.startReconciler());
  const stop = () => {
    if (app.stopping) return;
    app.stopping = true;
    for (const t of app.pollers.values()) clearInterval(t);
    const exit = () => {
      // Let the events already acknowledged finish, then keep the ledger.
      const wait = () => (app.draining && Date.now() - started < 5000 ? setTimeout(wait, 50) : (app.ledger.flush(), process.exit(0)));
      wait();
    };
    const started = Date.now();
    server.close(exit);
    server.closeIdleConnections();
    setTimeout(exit, 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) main();

module.exports = { verifySignature, statusDecision, instantNs, retryAfterMs, loadConfig, Integration, Ledger };
