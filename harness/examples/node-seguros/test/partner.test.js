'use strict';
// Unit tests of the parts that need no sandbox: node --test test/
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { verifySignature, statusDecision, instantNs, retryAfterMs, loadConfig } = require('../partner.js');

const SECRET = 'whsec_test';
const sign = (t, body, secret = SECRET) => `t=${t},v1=${crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

test('signature: right secret and fresh timestamp verify', () => {
  const now = 1_800_000_000;
  const body = Buffer.from('{"id":"1"}');
  assert.equal(verifySignature(sign(now - 10, body), SECRET, body, now, 300).ok, true);
});

test('signature: wrong secret, changed body, stale or future timestamp, garbage are refused', () => {
  const now = 1_800_000_000;
  const body = Buffer.from('{"id":"1"}');
  assert.equal(verifySignature(sign(now, body, 'other'), SECRET, body, now, 300).ok, false);
  assert.equal(verifySignature(sign(now, body), SECRET, Buffer.from('{"id":"2"}'), now, 300).ok, false);
  assert.equal(verifySignature(sign(now - 301, body), SECRET, body, now, 300).ok, false);
  assert.equal(verifySignature(sign(now + 301, body), SECRET, body, now, 300).ok, false);
  assert.equal(verifySignature(undefined, SECRET, body, now, 300).ok, false);
  assert.equal(verifySignature('t=abc,v1=zz', SECRET, body, now, 300).ok, false);
  assert.equal(verifySignature(`t=${now},v1=00`, SECRET, body, now, 300).ok, false);
});

test('signature: any of several v1 values may match (secret rotation)', () => {
  const now = 1_800_000_000;
  const body = Buffer.from('{}');
  const good = sign(now, body).split('v1=')[1];
  assert.equal(verifySignature(`t=${now},v1=${'0'.repeat(64)},v1=${good}`, SECRET, body, now, 300).ok, true);
});

test('signature: without a tolerance (DEFECT=stale-signature) an old one passes', () => {
  const now = 1_800_000_000;
  const body = Buffer.from('{}');
  assert.equal(verifySignature(sign(now - 3600, body), SECRET, body, now, null).ok, true);
});

const at = (s) => ({ atNs: instantNs(s), at: s });

test('status: a proposal never goes back', () => {
  const res = { status: 'APROVADA', lastAtNs: instantNs('2026-01-01T00:00:05Z'), lastSeq: 10 };
  assert.equal(statusDecision('proposal', res, { status: 'EM_ANALISE', ...at('2026-01-01T00:00:03Z'), seq: 8 }), 'ignore:older-status');
  assert.equal(statusDecision('proposal', res, { status: 'RECEBIDA', atNs: null, seq: null }), 'ignore:older-status');
  assert.equal(statusDecision('proposal', res, { status: 'IMPLANTADA', ...at('2026-01-01T00:00:06Z'), seq: 11 }), 'apply');
});

test('status: pending and analysis alternate by event time, not arrival', () => {
  const res = { status: 'PENDENTE', lastAtNs: instantNs('2026-01-01T00:00:08Z'), lastSeq: 20 };
  assert.equal(statusDecision('proposal', res, { status: 'EM_ANALISE', ...at('2026-01-01T00:00:09Z'), seq: 21 }), 'apply');
  assert.equal(statusDecision('proposal', res, { status: 'EM_ANALISE', ...at('2026-01-01T00:00:07Z'), seq: 19 }), 'ignore:older-event');
  // nanoseconds count
  const r2 = { status: 'EM_ANALISE', lastAtNs: instantNs('2026-01-01T00:00:09.000000002Z'), lastSeq: null };
  assert.equal(statusDecision('proposal', r2, { status: 'PENDENTE', ...at('2026-01-01T00:00:09.000000001Z'), seq: null }), 'ignore:older-event');
});

test('status: a final status wins, and nothing moves it', () => {
  const res = { status: 'PENDENTE', lastAtNs: instantNs('2026-01-01T00:00:08Z'), lastSeq: 20 };
  assert.equal(statusDecision('proposal', res, { status: 'CANCELADA', ...at('2026-01-01T00:00:07Z'), seq: 19 }), 'apply');
  const fin = { status: 'RECUSADA', lastAtNs: instantNs('2026-01-01T00:00:08Z'), lastSeq: 20 };
  assert.equal(statusDecision('proposal', fin, { status: 'EM_ANALISE', ...at('2026-01-01T00:00:09Z'), seq: 21 }), 'ignore:already-final');
});

test('status: a refused benefit may be reopened, a paid one is closed', () => {
  const refused = { status: 'RECUSADO', lastAtNs: instantNs('2026-01-02T00:00:00Z'), lastSeq: 5 };
  assert.equal(statusDecision('benefit', refused, { status: 'REABERTO', ...at('2026-01-04T00:00:00Z'), seq: 9 }), 'apply');
  assert.equal(statusDecision('benefit', refused, { status: 'EM_REGULACAO', ...at('2026-01-01T00:00:00Z'), seq: 3 }), 'ignore:older-status');
  const reopened = { status: 'REABERTO', lastAtNs: instantNs('2026-01-04T00:00:00Z'), lastSeq: 9 };
  assert.equal(statusDecision('benefit', reopened, { status: 'RECUSADO', ...at('2026-01-02T00:00:00Z'), seq: 5 }), 'ignore:older-event');
  const paid = { status: 'PAGO', lastAtNs: instantNs('2026-01-04T00:00:00Z'), lastSeq: 9 };
  assert.equal(statusDecision('benefit', paid, { status: 'APROVADO', ...at('2026-01-05T00:00:00Z'), seq: 10 }), 'ignore:already-final');
});

test('Retry-After: seconds or an HTTP date', () => {
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs(''), 0);
  const inFive = new Date(Date.now() + 5000).toUTCString();
  assert.ok(retryAfterMs(inFive) > 3000 && retryAfterMs(inFive) <= 5000);
});

test('config: an unknown DEFECT is refused', () => {
  const env = { SANDBOX_URL: 'http://127.0.0.1:1', CLIENT_ID: 'a', CLIENT_SECRET: 'b', WEBHOOK_SECRET: 'c', PORT: '1' };
  assert.equal(loadConfig(env).defect, '');
  assert.equal(loadConfig({ ...env, DEFECT: 'polls' }).defect, 'polls');
  assert.throws(() => loadConfig({ ...env, DEFECT: 'typo' }), /unknown/);
  assert.throws(() => loadConfig({ ...env, PORT: '' }), /PORT/);
});
