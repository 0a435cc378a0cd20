#!/usr/bin/env python3
"""Corretora Exemplo: the Pix charges of its back office, as one small app.

An example integration of the API Pix v2 (charges, webhook, reconciliation)
written the way a careful partner writes one, in Python 3's standard library
only. It serves:

    GET  /health                        readiness probe
    POST /internal/pix/setup            {"pixKey"}: token + Pix webhook (onboarding)
    POST /internal/charges              {"amount", "pixKey"?, "customer"?, "description"?}
                                        -> {"charge": {"id" (the txid), ...}}
    POST /internal/refunds              {"paymentId" (endToEndId), "amount", "reason"?}
                                        -> {"refund": {"id", "status", ...}}
    GET  /internal/ledger               what was charged, received, settled, refunded
    POST <PIX_WEBHOOK_PATH>/pix         the PSP's Pix callback (signed; verified)

Configuration (environment):

    PIX_API_URL          the PSP's base URL (the sandbox): {PIX_API_URL}/oauth/token, /pix/v2/...
    PIX_CLIENT_ID        OAuth2 client credentials of the app
    PIX_CLIENT_SECRET
    PIX_WEBHOOK_SECRET   the app's webhook signing secret (Homologa-Signature)
    PIX_KEY              the app's Pix key (default key of setup and charges)
    LISTEN_HOST          default 127.0.0.1
    LISTEN_PORT          default 8000
    PUBLIC_URL           where the PSP reaches this app (default http://LISTEN_HOST:LISTEN_PORT)
    PIX_WEBHOOK_PATH     default /hooks/psp/pix
    CHARGE_EXPIRY_SECONDS  default 3600

State is kept in memory: a real integration keeps it in its database.
"""

import base64
import email.utils
import hashlib
import hmac
import http.client
import json
import os
import queue
import random
import re
import secrets
import signal
import string
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Only what the integration uses: create and read charges, refund Pix and
# read the refunds, configure the Pix webhook. No Pix Automático, no
# due-date charges, no insurance.
SCOPES = "cob.read cob.write pix.read pix.write webhook.write"

SIGNATURE_HEADER = "Homologa-Signature"
SIGNATURE_TOLERANCE = 300  # seconds either side of our clock

MAX_ATTEMPTS = 5  # per logical call to the PSP
BASE_BACKOFF = 0.5  # seconds before the 2nd attempt; doubles, with jitter
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 15.0  # a longer Retry-After ends the call (the budget below)
CALL_BUDGET = 20.0  # seconds one logical call may take, retries included
ATTEMPT_TIMEOUT = 5.0  # seconds per attempt

MAX_BODY = 1 << 20
TXID_ALPHABET = string.ascii_letters + string.digits
ANY_TXID_RE = re.compile(r"^[A-Za-z0-9]{1,35}$")
E2E_RE = re.compile(r"^[A-Za-z0-9]{32}$")
CENT = Decimal("0.01")


def log(fmt, *args):
    stamp = datetime.now(timezone.utc).strftime("%H:%M:%S.%f")[:-3]
    sys.stderr.write(stamp + " " + (fmt % args if args else fmt) + "\n")
    sys.stderr.flush()


def now_iso():
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


# ---------------------------------------------------------------- config


class Config:
    def __init__(self, env):
        missing = [n for n in ("PIX_API_URL", "PIX_CLIENT_ID", "PIX_CLIENT_SECRET", "PIX_WEBHOOK_SECRET") if not env.get(n)]
        if missing:
            raise SystemExit("partner.py: set " + ", ".join(missing) + " (see the docstring or README.md)")
        self.api_url = env["PIX_API_URL"].rstrip("/")
        u = urllib.parse.urlsplit(self.api_url)
        if u.scheme not in ("http", "https") or not u.netloc:
            raise SystemExit("partner.py: PIX_API_URL must be an http(s) base URL, got %r" % self.api_url)
        self.client_id = env["PIX_CLIENT_ID"]
        self.client_secret = env["PIX_CLIENT_SECRET"]
        self.webhook_secret = env["PIX_WEBHOOK_SECRET"]
        self.pix_key = normalise_key(env.get("PIX_KEY", ""))
        self.host = env.get("LISTEN_HOST", "127.0.0.1")
        try:
            self.port = int(env.get("LISTEN_PORT", "8000"))
            self.expiry = int(env.get("CHARGE_EXPIRY_SECONDS", "3600"))
        except ValueError as e:
            raise SystemExit("partner.py: LISTEN_PORT and CHARGE_EXPIRY_SECONDS are integers: %s" % e)
        self.public_url = env.get("PUBLIC_URL", "http://%s:%d" % (self.host, self.port)).rstrip("/")
        path = env.get("PIX_WEBHOOK_PATH", "/hooks/psp/pix")
        self.webhook_path = "/" + path.strip("/")


# ------------------------------------------------------------ validation


class BadInput(Exception):
    """An action request we cannot act on (answered 422)."""


def digits_of(doc, what):
    s = re.sub(r"[.\-/\s]", "", str(doc))
    if not s.isdigit():
        raise BadInput("%s must be a CPF or CNPJ (digits, optionally masked)" % what)
    return s


def _dv(digits, weights):
    r = sum(int(d) * w for d, w in zip(digits, weights)) % 11
    return "0" if r < 2 else str(11 - r)


def valid_cpf(s):
    if len(s) != 11 or s == s[0] * 11:
        return False
    d1 = _dv(s[:9], range(10, 1, -1))
    d2 = _dv(s[:9] + d1, range(11, 1, -1))
    return s[9:] == d1 + d2


def valid_cnpj(s):
    if len(s) != 14 or s == s[0] * 14:
        return False
    w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    d1 = _dv(s[:12], w1)
    d2 = _dv(s[:12] + d1, [6] + w1)
    return s[12:] == d1 + d2


def normalise_key(key):
    """A CPF or CNPJ key goes to the PSP as digits; other keys as they are."""
    key = str(key or "").strip()
    if re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}", key):
        return re.sub(r"\D", "", key)
    return key


def parse_amount(v):
    if isinstance(v, bool) or v is None or v == "":
        raise BadInput("amount is required, e.g. \"10.00\"")
    try:
        d = Decimal(str(v).strip())
    except InvalidOperation:
        raise BadInput("amount %r is not a number such as \"10.00\"" % (v,))
    if not d.is_finite() or d <= 0 or d != d.quantize(CENT) or d >= Decimal("1e10"):
        raise BadInput("amount %r must be positive, with at most 2 decimals" % (v,))
    return str(d.quantize(CENT))


def customer_of(c):
    """The PSP's devedor from our customer, or None. Our shape is {taxId,
    name}; a caller may use the Pix API's words, {cpf or cnpj, nome}. The
    document goes to the PSP as digits whatever way it was typed."""
    if not c:
        return None
    if not isinstance(c, dict):
        raise BadInput("customer must be an object {taxId, name}")
    tax_id = c.get("taxId") or c.get("cpf") or c.get("cnpj")
    name = str(c.get("name") or c.get("nome") or "").strip()
    if not tax_id and not name:
        return None
    if not tax_id or not name:
        raise BadInput("customer needs both taxId (CPF or CNPJ) and name")
    d = digits_of(tax_id, "customer.taxId")
    if len(d) == 11 and valid_cpf(d):
        return {"cpf": d, "nome": name[:200]}
    if len(d) == 14 and valid_cnpj(d):
        return {"cnpj": d, "nome": name[:200]}
    raise BadInput("customer.taxId is not a valid CPF or CNPJ")


def new_id():
    # 32 of [A-Za-z0-9] from the OS's CSPRNG: a txid (26-35 characters) or
    # a refund id (1-35) of ours, chosen before the first attempt.
    return "".join(secrets.choice(TXID_ALPHABET) for _ in range(32))


# ------------------------------------------------------- the PSP's API


class PspError(Exception):
    """A call to the PSP that did not succeed: no answer after the retries
    (status None) or a final answer not worth retrying."""

    def __init__(self, what, status=None, body=b"", cause=None):
        self.status, self.body = status, body
        detail = "answered %s" % status if status else "failed: %s" % cause
        super().__init__("%s %s" % (what, detail))

    def problem(self):
        try:
            return json.loads(self.body)
        except (ValueError, TypeError):
            return self.body[:300].decode("utf-8", "replace") if self.body else None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A token must never follow a redirect to another host: 3xx is an answer.
    def redirect_request(self, *args, **kwargs):
        return None


def retry_after(headers):
    v = (headers or {}).get("Retry-After")
    if not v:
        return 0.0
    v = v.strip()
    if v.isdigit():
        return float(v)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(v).timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return 0.0


def retryable(status, headers):
    if status is None:  # no answer: timeout, reset, lost
        return True
    if status >= 500 or status in (408, 429):
        return True
    return status == 409 and bool(headers.get("Retry-After"))


class Answer:
    def __init__(self, status, doc, raw, attempts):
        self.status, self.doc, self.raw, self.attempts = status, doc, raw, attempts


class PixApi:
    """The PSP: one OAuth2 token reused until shortly before it expires,
    every call retried with backoff (honouring Retry-After) when it failed
    in a way a retry can fix."""

    def __init__(self, cfg):
        self.cfg = cfg
        # No proxies from the environment, no redirects.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())
        self._tok_lock = threading.Lock()
        self._token = None
        self._refresh_at = 0.0

    def _once(self, method, url, body, headers):
        req = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            with self._opener.open(req, timeout=ATTEMPT_TIMEOUT) as resp:
                return resp.status, resp.headers, resp.read(MAX_BODY)
        except urllib.error.HTTPError as e:
            with e:
                return e.code, e.headers, e.read(MAX_BODY)

    def _with_retries(self, what, attempt_fn):
        """attempt_fn() -> (status, headers, body); raises OSError or
        HTTPException when there was no answer. Answers the last answer and
        how many attempts it took."""
        deadline = time.monotonic() + CALL_BUDGET
        for attempt in range(1, MAX_ATTEMPTS + 1):
            status, headers, body, cause = None, {}, b"", None
            try:
                status, headers, body = attempt_fn()
                log("%s attempt=%d status=%d", what, attempt, status)
            except (OSError, http.client.HTTPException) as e:
                cause = e
                log("%s attempt=%d no answer: %s", what, attempt, e.__class__.__name__)
            if not retryable(status, headers):
                return status, headers, body, attempt
            backoff = min(MAX_BACKOFF, BASE_BACKOFF * 2 ** (attempt - 1)) * random.uniform(0.8, 1.2)
            ra = retry_after(headers)
            wait = max(backoff, ra)
            if attempt == MAX_ATTEMPTS or ra > MAX_RETRY_AFTER or time.monotonic() + wait > deadline:
                raise PspError(what, status, body, cause)
            time.sleep(wait)
        raise AssertionError("unreachable")

    # -- token

    def token(self, stale=None):
        """The app's token: the cached one unless it is about to expire or
        is the one the PSP just refused (stale)."""
        with self._tok_lock:
            if self._token and self._token != stale and time.monotonic() < self._refresh_at:
                return self._token
            form = urllib.parse.urlencode({"grant_type": "client_credentials", "scope": SCOPES}).encode()
            basic = "%s:%s" % (urllib.parse.quote_plus(self.cfg.client_id), urllib.parse.quote_plus(self.cfg.client_secret))
            headers = {
                "Authorization": "Basic " + base64.b64encode(basic.encode()).decode(),
                "Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/json",
            }
            status, _, body, _ = self._with_retries(
                "POST /oauth/token", lambda: self._once("POST", self.cfg.api_url + "/oauth/token", form, headers))
            if status != 200:
                # A refused secret is not retried: every failure counts
                # toward the PSP's lockout.
                raise PspError("POST /oauth/token", status, body)
            tok = json.loads(body)
            life = float(tok.get("expires_in") or 300)
            granted = set(str(tok.get("scope", SCOPES)).split())
            if not set(SCOPES.split()) <= granted:
                log("token granted fewer scopes than asked: %s", " ".join(sorted(granted)))
            self._token = tok["access_token"]
            # Refresh a minute early (or at half-life, for short tokens).
            self._refresh_at = time.monotonic() + max(life - 60, life / 2)
            log("token obtained, valid %ds, scopes %s", int(life), tok.get("scope", SCOPES))
            return self._token

    # -- API calls

    def call(self, method, path, doc=None, extra_headers=None):
        """One logical call, retried: an Answer (status, doc, raw, attempts)."""
        what = "%s %s" % (method, path)
        body = json.dumps(doc, separators=(",", ":")).encode() if doc is not None else None
        def attempt():
            # A 401 means the token expired early (the PSP's clock runs its
            # own way) or was revoked: get a new one and send once more.
            refused = None
            for _ in range(2):
                tok = self.token(stale=refused)
                headers = {"Authorization": "Bearer " + tok, "Accept": "application/json"}
                if body is not None:
                    headers["Content-Type"] = "application/json"
                headers.update(extra_headers or {})
                status, h, b = self._once(method, self.cfg.api_url + path, body, headers)
                if status != 401:
                    break
                refused = tok
                log("%s: token refused (401), getting a new one", what)
            return status, h, b

        status, _, b, attempts = self._with_retries(what, attempt)
        try:
            doc = json.loads(b) if b else None
        except ValueError:
            doc = None
        return Answer(status, doc, b, attempts)


# ---------------------------------------------------------------- ledger


class Ledger:
    """What the back office knows: the charges it made; the Pix it received,
    each endToEndId once, booked against its charge only when it pays what
    the charge asks (any other amount is a discrepancy for a person to
    handle); the charges reconciled with the PSP; the refunds it asked and
    how they ended."""

    def __init__(self):
        self.lock = threading.Lock()
        self.charges = {}  # txid -> charge
        self.order = []  # txids, in creation order
        self.bookings = []  # payments that settle their charge
        self.discrepancies = []  # payments of another amount: not booked
        self.seen_e2e = set()  # endToEndIds booked or set aside
        self.in_flight = set()  # endToEndIds being reconciled
        self.refunds = {}  # refund id -> refund
        self.unmatched = []
        self.webhooks = {}  # pix key -> url registered

    def new_charge(self, txid, amount, key, customer):
        with self.lock:
            self.charges[txid] = {"id": txid, "amount": amount, "pixKey": key, "customer": customer,
                                  "status": "CREATING", "createdAt": now_iso()}
            self.order.append(txid)

    def update_charge(self, txid, **fields):
        with self.lock:
            c = self.charges.get(txid)
            if c is not None:
                c.update(fields)
                return dict(c)

    def charge(self, txid):
        with self.lock:
            c = self.charges.get(txid)
            return dict(c) if c else None

    def claim(self, e2e):
        """True for the first notification of an endToEndId: the caller
        reconciles it; a duplicate (done or in progress) is ignored."""
        with self.lock:
            if e2e in self.seen_e2e or e2e in self.in_flight:
                return False
            self.in_flight.add(e2e)
            return True

    def release(self, e2e):
        # Reconciliation failed: a redelivery of the notification may try again.
        with self.lock:
            self.in_flight.discard(e2e)

    def settle(self, e2e, txid, amount, at):
        """The Pix pays what its charge asks: booked, the charge settled."""
        with self.lock:
            self.in_flight.discard(e2e)
            if e2e in self.seen_e2e:
                return
            self.seen_e2e.add(e2e)
            self.bookings.append({"e2eId": e2e, "chargeId": txid, "amount": amount, "receivedAt": at})
            self._reconciled(txid, "SETTLED")

    def set_aside(self, e2e, txid, amount, expected, at, psp_status):
        """The Pix pays another amount (or the charge is not CONCLUIDA):
        not booked against the charge, kept for a person to decide."""
        with self.lock:
            self.in_flight.discard(e2e)
            if e2e in self.seen_e2e:
                return
            self.seen_e2e.add(e2e)
            self.discrepancies.append({"e2eId": e2e, "chargeId": txid, "amount": amount, "expected": expected,
                                       "pspStatus": psp_status, "receivedAt": at})
            self._reconciled(txid, "DISCREPANCY")

    def _reconciled(self, txid, status):
        c = self.charges.get(txid)
        if c is not None:
            c["status"], c["reconciledAt"] = status, now_iso()

    def note_unmatched(self, e2e, txid, reason):
        with self.lock:
            self.in_flight.discard(e2e)
            if not any(u["e2eId"] == e2e for u in self.unmatched):
                self.unmatched.append({"e2eId": e2e, "txid": txid, "reason": reason, "at": now_iso()})

    def new_refund(self, rid, e2e, amount):
        with self.lock:
            self.refunds[rid] = {"id": rid, "paymentId": e2e, "amount": amount, "status": "REQUESTING",
                                 "requestedAt": now_iso()}

    def update_refund(self, rid, **fields):
        with self.lock:
            r = self.refunds.get(rid)
            if r is not None:
                r.update(fields)
                return dict(r)

    def refund(self, rid):
        with self.lock:
            r = self.refunds.get(rid)
            return dict(r) if r else None

    def snapshot(self):
        with self.lock:
            return {
                "generatedAt": now_iso(),
                "charges": [dict(self.charges[t]) for t in self.order],
                "bookings": [dict(b) for b in self.bookings],
                "discrepancies": [dict(d) for d in self.discrepancies],
                "refunds": [dict(r) for r in self.refunds.values()],
                "unmatched": [dict(u) for u in self.unmatched],
                "webhooks": dict(self.webhooks),
            }


# ------------------------------------------------------------------ app


class App:
    def __init__(self, cfg):
        self.cfg = cfg
        self.psp = PixApi(cfg)
        self.ledger = Ledger()
        self.work = queue.Queue()
        self.workers = [threading.Thread(target=self._worker, name="reconcile-%d" % i, daemon=True) for i in range(2)]
        for w in self.workers:
            w.start()

    @property
    def webhook_url(self):
        return self.cfg.public_url + self.cfg.webhook_path

    # -- actions

    def setup(self, req):
        """Onboarding: the token (scoped to what we use) and the Pix webhook,
        before any charge."""
        key = normalise_key(req.get("pixKey") or self.cfg.pix_key)
        if not key:
            raise BadInput("pixKey is required (or set PIX_KEY)")
        self.psp.token()
        ans = self.psp.call("PUT", "/pix/v2/webhook/" + urllib.parse.quote(key, safe=""), {"webhookUrl": self.webhook_url})
        if ans.status // 100 != 2:
            raise PspError("PUT /pix/v2/webhook/{chave}", ans.status, ans.raw)
        with self.ledger.lock:
            self.ledger.webhooks[key] = self.webhook_url
        log("pix webhook for key %s registered at %s", key, self.webhook_url)
        return {"pixKey": key, "webhook": {"url": self.webhook_url, "registered": True}, "scopes": SCOPES.split()}

    def create_charge(self, req):
        amount = parse_amount(req.get("amount"))
        key = normalise_key(req.get("pixKey") or self.cfg.pix_key)
        if not key:
            raise BadInput("pixKey is required (or set PIX_KEY)")
        devedor = customer_of(req.get("customer"))
        cob = {"calendario": {"expiracao": self.cfg.expiry}, "valor": {"original": amount}, "chave": key}
        if devedor:
            cob["devedor"] = devedor
        desc = str(req.get("description") or "").strip()
        if desc:
            cob["solicitacaoPagador"] = desc[:140]
        # The txid is ours, chosen before the first attempt and kept for
        # every retry: a retried PUT of one txid never makes a second charge.
        txid = new_id()
        self.ledger.new_charge(txid, amount, key, devedor)
        try:
            ans = self.psp.call("PUT", "/pix/v2/cob/" + txid, cob)
        except PspError:
            # Unknown outcome: the charge may exist; the txid lets us ask later.
            self.ledger.update_charge(txid, status="UNKNOWN")
            raise
        if ans.status not in (200, 201):
            self.ledger.update_charge(txid, status="REFUSED")
            raise PspError("PUT /pix/v2/cob/{txid}", ans.status, ans.raw)
        doc = ans.doc or {}
        c = self.ledger.update_charge(txid, status=doc.get("status", "ATIVA"), brCode=doc.get("pixCopiaECola"),
                                      location=doc.get("location"), revision=doc.get("revisao"))
        log("charge %s of %s created (%s)", txid, amount, c["status"])
        return {"charge": c}

    def create_refund(self, req):
        e2e = str(req.get("paymentId") or "").strip()
        if not E2E_RE.match(e2e):
            raise BadInput("paymentId must be the Pix's endToEndId (32 letters and digits)")
        amount = parse_amount(req.get("amount"))
        body = {"valor": amount}
        reason = str(req.get("reason") or "").strip()
        if reason:
            body["descricao"] = reason[:140]
        # The refund id is ours, kept for every retry, as the txid is.
        rid = new_id()
        path = "/pix/v2/pix/%s/devolucao/%s" % (e2e, rid)
        self.ledger.new_refund(rid, e2e, amount)
        try:
            ans = self.psp.call("PUT", path, body)
            if ans.status != 201 and ans.attempts > 1 and 400 <= ans.status < 500:
                # A retry refused because the id exists: our lost first
                # attempt made it. Read it rather than guess.
                got = self.psp.call("GET", path)
                if got.status == 200:
                    ans = got
        except PspError:
            self.ledger.update_refund(rid, status="UNKNOWN")
            raise
        if ans.status not in (200, 201):
            self.ledger.update_refund(rid, status="REFUSED")
            raise PspError("PUT /pix/v2/pix/{e2eid}/devolucao/{id}", ans.status, ans.raw)
        doc = ans.doc or {}
        # EM_PROCESSAMENTO until the PSP notifies how it ended.
        r = self.ledger.update_refund(rid, status=doc.get("status", "EM_PROCESSAMENTO"), rtrId=doc.get("rtrId"))
        log("refund %s of %s on %s asked (%s)", rid, amount, e2e, r["status"])
        return {"refund": r}

    # -- notifications

    def verify(self, header, body):
        """None when the signature checks out, else why not."""
        if not header:
            return "unsigned"
        ts, sigs = None, []
        for part in header.split(","):
            k, _, v = part.strip().partition("=")
            if k == "t":
                ts = v
            elif k == "v1":
                sigs.append(v)
        if not ts or not ts.isdigit() or not sigs:
            return "malformed signature"
        if abs(time.time() - int(ts)) > SIGNATURE_TOLERANCE:
            return "signature timestamp outside %d s" % SIGNATURE_TOLERANCE
        want = hmac.new(self.cfg.webhook_secret.encode(), ts.encode() + b"." + body, hashlib.sha256).hexdigest()
        if not any(hmac.compare_digest(want.encode(), s.encode("utf-8", "replace")) for s in sigs):
            return "signature does not match"
        return None

    def accept(self, doc):
        """Queue what a verified callback brings; cheap, so the PSP gets its
        answer at once. Each endToEndId is taken once; each refund that
        ended is read back from the PSP."""
        items = doc.get("pix") if isinstance(doc, dict) else None
        if not isinstance(items, list):
            raise BadInput("expected {\"pix\": [...]}")
        for px in items:
            if not isinstance(px, dict):
                continue
            e2e, txid = str(px.get("endToEndId") or ""), str(px.get("txid") or "")
            for dev in px.get("devolucoes") or []:
                rid = str(dev.get("id") or "") if isinstance(dev, dict) else ""
                known = self.ledger.refund(rid) if rid else None
                if rid and E2E_RE.match(e2e) and not (known and known["status"] in ("DEVOLVIDO", "NAO_REALIZADO")):
                    self.work.put(("refund", e2e, rid))
            if not e2e:
                continue
            if self.ledger.claim(e2e):
                self.work.put(("pix", e2e, txid))
            else:
                log("pix %s already handled or in progress: ignored", e2e)

    def _worker(self):
        while True:
            item = self.work.get()
            if item is None:
                return
            kind, e2e, ref = item
            try:
                if kind == "pix":
                    self.reconcile(e2e, ref)
                else:
                    self.refund_ended(e2e, ref)
            except Exception as e:  # keep the worker alive whatever happens
                log("%s %s/%s failed: %r", kind, e2e, ref, e)
                if kind == "pix":
                    self.ledger.release(e2e)

    def reconcile(self, e2e, txid):
        """Read the charge back: the Pix counts only as the PSP lists it in
        the charge, and settles the charge only when it pays the amount the
        charge asks."""
        if not ANY_TXID_RE.match(txid):
            self.ledger.note_unmatched(e2e, txid or None, "Pix without a usable txid")
            return
        entry, cob = None, None
        for _ in range(3):
            try:
                ans = self.psp.call("GET", "/pix/v2/cob/" + txid)
            except PspError as e:
                log("reconcile %s: %s; a redelivery will retry", txid, e)
                self.ledger.release(e2e)
                return
            cob = ans.doc
            if ans.status == 404:
                self.ledger.note_unmatched(e2e, txid, "no such charge at the PSP")
                log("pix %s names charge %s, unknown to the PSP: not booked", e2e, txid)
                return
            if ans.status != 200 or not isinstance(cob, dict):
                self.ledger.release(e2e)
                log("reconcile %s: GET answered %s", txid, ans.status)
                return
            entry = next((p for p in cob.get("pix") or [] if isinstance(p, dict) and p.get("endToEndId") == e2e), None)
            if entry:
                break
            time.sleep(0.5)  # the PSP's read may lag its notification
        if not entry:
            self.ledger.note_unmatched(e2e, txid, "the charge does not list this Pix")
            log("pix %s not listed in charge %s: not booked", e2e, txid)
            return
        received = str(entry.get("valor", ""))
        ours = self.ledger.charge(txid)
        expected = ours["amount"] if ours else str((cob.get("valor") or {}).get("original", ""))
        try:
            same = Decimal(received) == Decimal(expected)
        except InvalidOperation:
            same = False
        if same and cob.get("status") == "CONCLUIDA":
            self.ledger.settle(e2e, txid, received, entry.get("horario"))
            log("pix %s settles charge %s (%s)", e2e, txid, received)
        else:
            self.ledger.set_aside(e2e, txid, received, expected, entry.get("horario"), cob.get("status"))
            log("pix %s pays %s for charge %s of %s (%s): set aside, not booked", e2e, received, txid, expected,
                cob.get("status"))

    def refund_ended(self, e2e, rid):
        """A notification says a refund ended: read it from the PSP."""
        try:
            ans = self.psp.call("GET", "/pix/v2/pix/%s/devolucao/%s" % (e2e, urllib.parse.quote(rid, safe="")))
        except PspError as e:
            log("refund %s: %s", rid, e)
            return
        if ans.status != 200 or not isinstance(ans.doc, dict):
            log("refund %s: GET answered %s", rid, ans.status)
            return
        status = ans.doc.get("status")
        if self.ledger.refund(rid) is None:
            self.ledger.new_refund(rid, e2e, ans.doc.get("valor"))
        self.ledger.update_refund(rid, status=status, endedAt=now_iso(), motivo=ans.doc.get("motivo"))
        log("refund %s on %s: %s", rid, e2e, status)

    def stop(self):
        for _ in self.workers:
            self.work.put(None)
        for w in self.workers:
            w.join(timeout=2)


# ------------------------------------------------------------------ HTTP


class Handler(BaseHTTPRequestHandler):
    server_version = "CorretoraExemplo/1.0"
    app = None  # set in main

    def log_message(self, fmt, *args):  # one line per request, no bodies
        log("http %s", fmt % args)

    def _send(self, status, doc):
        b = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)

    def _body(self, limit):
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            n = -1
        if n < 0 or n > limit:
            return None
        return self.rfile.read(n) if n else b""

    def _json_body(self):
        raw = self._body(64 << 10)
        if raw is None:
            raise BadInput("body missing or too large")
        if not raw.strip():
            return {}
        try:
            doc = json.loads(raw)
        except ValueError as e:
            raise BadInput("malformed JSON: %s" % e)
        if not isinstance(doc, dict):
            raise BadInput("expected a JSON object")
        return doc

    def _action(self, fn):
        try:
            self._send(200, fn(self._json_body()))
        except BadInput as e:
            self._send(422, {"error": {"code": "invalid_request", "message": str(e)}})
        except PspError as e:
            code = 502 if e.status is None or e.status >= 500 else 422
            self._send(code, {"error": {"code": "psp_error", "message": str(e), "psp": e.problem()}})

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/health":
            self._send(200, {"status": "ok"})
        elif path == "/internal/ledger":
            self._send(200, self.app.ledger.snapshot())
        else:
            self._send(404, {"error": {"code": "not_found", "message": path}})

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        hook = self.app.cfg.webhook_path
        if path == "/internal/pix/setup":
            self._action(self.app.setup)
        elif path == "/internal/charges":
            self._action(self.app.create_charge)
        elif path == "/internal/refunds":
            self._action(self.app.create_refund)
        elif path in (hook, hook + "/pix"):
            self._notification()
        else:
            self._send(404, {"error": {"code": "not_found", "message": path}})

    def _notification(self):
        body = self._body(MAX_BODY)
        if body is None:
            self._send(413, {"error": {"code": "too_large"}})
            return
        why = self.app.verify(self.headers.get(SIGNATURE_HEADER), body)
        if why:
            log("notification refused: %s", why)
            self._send(401, {"error": {"code": "invalid_signature", "message": why}})
            return
        try:
            self.app.accept(json.loads(body))
        except (ValueError, BadInput) as e:
            self._send(400, {"error": {"code": "invalid_notification", "message": str(e)}})
            return
        # Acknowledge now; reconciliation runs on the workers.
        self._send(200, {"received": True})


def main():
    cfg = Config(os.environ)
    app = App(cfg)
    Handler.app = app
    srv = ThreadingHTTPServer((cfg.host, cfg.port), Handler)
    srv.daemon_threads = True

    def stop(signum, _frame):
        log("signal %d: stopping", signum)
        threading.Thread(target=srv.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log("listening on %s:%d; PSP %s; client %s; webhook %s", cfg.host, cfg.port, cfg.api_url, cfg.client_id,
        cfg.public_url + cfg.webhook_path)
    try:
        srv.serve_forever(poll_interval=0.2)
    finally:
        srv.server_close()
        app.stop()


if __name__ == "__main__":
    main()
